"""A matchmaking replica killed between creating a match and seating its players leaves that
match behind; once the claim's deadline passes, another replica returns the tickets to the
queue (they are matched again) and cancels the orphan: dice revealed, out of the census."""
from __future__ import annotations

import secrets

import grpc
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc

from services.core.metrics import active_key
from tests.support.orphans import replica_that_dies_after_creating
from tests.support.processes import wait_for
from tests.support.server import ServerThread
from tests.trust.support import identity

CLAIM_MS = 500


def test_an_orphan_match_is_cancelled_and_its_players_seated_again(redis_url):
    server = ServerThread(redis_url, mm_interval_s=0.05, mm_claim_ms=CLAIM_MS)
    server.start()
    try:
        platform = server.platform
        invite = "orphan-" + secrets.token_hex(4)
        channel = grpc.insecure_channel(server.address)
        players = [identity(channel) for _ in range(2)]

        ids, orphan = server.run(replica_that_dies_after_creating(platform, players, invite, CLAIM_MS))
        redis = platform.redis
        assert server.run(redis.zscore(active_key("race"), orphan)) is not None
        stub = matchmaking_pb2_grpc.MatchmakingStub(channel)
        board = board_pb2_grpc.BoardStub(channel)

        def assigned():
            tickets = [stub.GetTicket(mm.TicketRef(ticket_id=t), metadata=p.meta, timeout=10)
                       for t, p in zip(ids, players)]
            return all(t.state == "assigned" for t in tickets) and tickets

        tickets = wait_for(assigned, 30, 0.05, "the tickets to be matched again")
        again = {t.assignment.match_id for t in tickets}
        assert len(again) == 1 and orphan not in again
        view = wait_for(lambda: (v := board.GetMatch(board_pb2.GetMatchRequest(match_id=orphan), timeout=10))
                        .status == "cancelled" and v, 10, 0.05, "the orphan to be cancelled")
        assert view.status == "cancelled"
        assert server.run(redis.zscore(active_key("race"), orphan)) is None
        verdict = dice_pb2_grpc.DiceStub(channel).Verify(dice_pb2.VerifyRequest(session_id=orphan), timeout=10)
        assert verdict.ok, list(verdict.problems)
    finally:
        server.stop()
