"""A dependency that is down is UNAVAILABLE naming it (in the message and in the google.rpc.Status
details, with when to retry), never INTERNAL; the platform's own clients retry idempotent calls on
UNAVAILABLE (gRPC service config), and only those."""
from __future__ import annotations

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from services.client.channels import RETRY_POLICY, channel
from services.client.session import signed_in
from services.core.metrics import METRICS
from tests.support.processes import wait_for
from tests.support.redis_db import RedisServer
from tests.support.server import ServerThread


def _served(name: str, method: str, code: str) -> float:
    return METRICS.rpc_total.labels(name, method, code)._value.get()


@pytest.fixture
def redis_then_down():
    with RedisServer(durable=False) as redis_server:
        server = ServerThread(redis_server.url)
        server.start()
        try:
            mm = matchmaking_pb2_grpc.MatchmakingStub(signed_in(grpc.insecure_channel(server.address)))
            m = mm.CreateMatch(matchmaking_pb2.CreateMatchRequest(
                game="race", seats=[matchmaking_pb2.SeatSpec(kind="human")]), timeout=10)
            redis_server.kill()
            yield server, m.match_id, m.seat_tokens[0].token
        finally:
            server.stop()


def unavailable_details(err: grpc.RpcError) -> dict:
    """The google.rpc.Status details of an UNAVAILABLE answer, by type (docs/api-errors.md)."""
    status = rpc_status.from_call(err)
    assert status is not None, "no google.rpc.Status in the trailing metadata"
    assert status.code == grpc.StatusCode.UNAVAILABLE.value[0] and status.message == err.details()
    details = {}
    for packed in status.details:
        for cls in (error_details_pb2.ErrorInfo, error_details_pb2.RetryInfo):
            if packed.Is(cls.DESCRIPTOR):
                details[cls.DESCRIPTOR.name] = cls()
                packed.Unpack(details[cls.DESCRIPTOR.name])
    assert len(details) == len(status.details), [p.type_url for p in status.details]
    return details


def test_every_call_is_unavailable_naming_redis_while_it_is_down(redis_then_down):
    """Over a real socket with Redis killed: the code, a message naming Redis, and the details
    docs/api-errors.md promises for UNAVAILABLE (an ErrorInfo naming the dependency, a RetryInfo of
    1 s), from a read, a stream, an action and a call that creates."""
    server, match_id, seat_token = redis_then_down
    ch = grpc.insecure_channel(server.address)
    board = board_pb2_grpc.BoardStub(ch)
    move = common_pb2.ActRequest(match_id=match_id, action_id="a-move", action_json='{"kind": "hide", "number": 1}')
    calls = {  # CreateMatch with AI seats only: it needs no player, so it reaches Redis
        "GetMatch": lambda: board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), timeout=10),
        "WatchMatch": lambda: list(board.WatchMatch(board_pb2.WatchMatchRequest(match_id=match_id), timeout=10)),
        "Move": lambda: board.Move(move, metadata=(("x-seat-token", seat_token),), timeout=10),
        "CreateMatch": lambda: matchmaking_pb2_grpc.MatchmakingStub(ch).CreateMatch(
            matchmaking_pb2.CreateMatchRequest(game="race", seats=[matchmaking_pb2.SeatSpec(kind="ai")]),
            timeout=10),
    }
    for name, call in calls.items():
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == grpc.StatusCode.UNAVAILABLE, (name, err.value.code(), err.value.details())
        assert "Redis is unavailable" in err.value.details(), name
        details = unavailable_details(err.value)
        info, retry = details["ErrorInfo"], details["RetryInfo"]
        assert (info.domain, info.reason, dict(info.metadata)) == (
            "archmage.dev", "DEPENDENCY_UNAVAILABLE", {"dependency": "Redis"}), name
        assert (retry.retry_delay.seconds, retry.retry_delay.nanos) == (1, 0), name


def test_platform_clients_retry_idempotent_calls_only(redis_then_down):
    server, match_id, _ = redis_then_down
    ch = channel(server.address)
    reads, creates = _served("Board", "GetMatch", "UNAVAILABLE"), _served("Matchmaking", "CreateMatch", "UNAVAILABLE")
    with pytest.raises(grpc.RpcError) as err:
        board_pb2_grpc.BoardStub(ch).GetMatch(board_pb2.GetMatchRequest(match_id=match_id), timeout=20)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE
    with pytest.raises(grpc.RpcError) as err:
        matchmaking_pb2_grpc.MatchmakingStub(ch).CreateMatch(matchmaking_pb2.CreateMatchRequest(
            game="race", seats=[matchmaking_pb2.SeatSpec(kind="ai")]), timeout=20)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE, err.value.details()
    # every attempt reached the server before the client had its answer; the count may lag a moment
    attempts = RETRY_POLICY["maxAttempts"]
    wait_for(lambda: _served("Board", "GetMatch", "UNAVAILABLE") - reads >= attempts, 5, 0.01, "GetMatch counted")
    wait_for(lambda: _served("Matchmaking", "CreateMatch", "UNAVAILABLE") - creates >= 1, 5, 0.01, "counted")
    assert _served("Board", "GetMatch", "UNAVAILABLE") - reads == attempts
    assert _served("Matchmaking", "CreateMatch", "UNAVAILABLE") - creates == 1

