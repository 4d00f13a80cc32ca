"""An AI turn that cannot be queued (broker down) loses nothing: the action still
succeeds for its player, and the turn is queued again later."""
from __future__ import annotations

import grpc
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

from services.core.matches import STALLED_AI
from tests.platform.test_match_driver import Client
from tests.support.server import ServerThread


class FlakyTurns:
    """Refuses to queue until told the broker is back; remembers what it queued."""

    def __init__(self):
        self.up = False
        self.queued = []

    async def ai_turn(self, match_id, seat, version, token):
        if not self.up:
            raise ConnectionError("broker unreachable")
        self.queued.append((match_id, seat, version))


def test_a_turn_that_could_not_be_queued_is_queued_again(redis_url):
    turns = FlakyTurns()
    server = ServerThread(redis_url, notifier=turns)
    server.start()
    try:
        channel = grpc.insecure_channel(server.address)
        m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
            game="race", seats=[matchmaking_pb2.SeatSpec(kind="human"), matchmaking_pb2.SeatSpec(kind="ai")]))
        human = Client(channel, m.match_id, m.seat_tokens[0].token)
        reply = human.act({"kind": "hide", "number": 1})  # now the AI seat is due, and queueing fails
        assert reply.version == 2
        redis = server.platform.store.redis
        assert server.run(redis.zscore(STALLED_AI, m.match_id)) is not None
        turns.up = True
        server.run(server.platform.matches.resume_stalled_ai(older_than_s=0))  # (or the background sweep did)
        assert (m.match_id, 1, 2) in turns.queued
        assert server.run(redis.zscore(STALLED_AI, m.match_id)) is None
    finally:
        server.stop()
