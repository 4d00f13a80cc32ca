"""Nothing waits on a single delivery: an AI turn that could not be queued (broker down),
or whose task was lost, is queued again once it has been due a while with no move; with
many sweepers at once, one re-queues it."""
from __future__ import annotations

import asyncio
import time

import grpc
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

from services.client.session import signed_in
from services.core.store import DUE_KEY
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


def test_a_turn_that_could_not_be_queued_is_queued_again_once(own_redis):
    turns = FlakyTurns()
    server = ServerThread(own_redis, notifier=turns, ai_sweep_s=3600)  # the test sweeps by hand
    server.start()
    try:
        channel = signed_in(grpc.insecure_channel(server.address))
        m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
            game="race", seats=[matchmaking_pb2.SeatSpec(kind="human"), matchmaking_pb2.SeatSpec(kind="ai")]))
        human = Client(channel, m.match_id, m.seat_tokens[0].token)
        reply = human.act({"kind": "hide", "number": 1})  # now the AI seat is due, and queueing fails
        assert reply.version == 2
        redis, matches = server.platform.redis, server.platform.matches
        due_since = server.run(redis.zscore(DUE_KEY, m.match_id))
        assert due_since is not None
        assert server.run(matches.sweep_stalled_ai(stall_s=60)) == 0  # not due long enough yet
        turns.up = True

        async def many_sweepers():  # replicas sweeping at the same moment, a second after the turn fell due
            now = time.time() + 1  # (a claimed mark is due again only one stall time later: 0.5 s here)
            return await asyncio.gather(*(matches.ai.sweep(matches.load, 0.5, now=now) for _ in range(5)))

        assert sum(server.run(many_sweepers())) >= 1
        assert turns.queued.count((m.match_id, 1, 2)) == 1
        assert server.run(redis.zscore(DUE_KEY, m.match_id)) > due_since  # the next stall counts from now
    finally:
        server.stop()


def test_a_mark_left_by_a_human_turn_or_an_ended_match_is_dropped(own_redis):
    turns = FlakyTurns()
    turns.up = True
    server = ServerThread(own_redis, notifier=turns, ai_sweep_s=3600)
    server.start()
    try:
        channel = signed_in(grpc.insecure_channel(server.address))
        m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
            game="race", seats=[matchmaking_pb2.SeatSpec(kind="human"), matchmaking_pb2.SeatSpec(kind="ai")]))
        redis, matches = server.platform.redis, server.platform.matches
        server.run(redis.zadd(DUE_KEY, {m.match_id: 1.0, "no-such-match": 1.0}))  # a human is to act
        assert server.run(matches.sweep_stalled_ai(stall_s=0)) == 0
        assert server.run(redis.zscore(DUE_KEY, m.match_id)) is None
        assert server.run(redis.zscore(DUE_KEY, "no-such-match")) is None
        assert not [q for q in turns.queued if q[0] == m.match_id]
    finally:
        server.stop()
