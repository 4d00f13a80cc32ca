"""Every refusal carries google.rpc.Status details (docs/api-errors.md), decoded here from a real
server's reply, one status code at a time; the x-rule and retry-after headers and the message
text stay as they were. UNAVAILABLE, which needs Redis killed, is in
tests/platform/test_dependency_down.py."""
from __future__ import annotations

import json
import uuid

import grpc
import pytest
import redis
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from services.rpc.quotas import DEFAULTS
from tests.support.server import ServerThread
from tests.trust.support import human_match, identity


def refused(call, code: grpc.StatusCode):
    with pytest.raises(grpc.RpcError) as err:
        call()
    assert err.value.code() == code, err.value.details()
    status = rpc_status.from_call(err.value)
    assert status is not None and status.code == code.value[0] and status.message == err.value.details()
    details = {}
    for packed in status.details:
        for cls in (error_details_pb2.ErrorInfo, error_details_pb2.BadRequest, error_details_pb2.RetryInfo,
                    common_pb2.RuleDetail):
            if packed.Is(cls.DESCRIPTOR):
                message = cls()
                packed.Unpack(message)
                details[cls.DESCRIPTOR.name] = message
    assert details["ErrorInfo"].domain == "archmage.dev"
    return err.value, details


def move(board, match_id, meta, action, expected_version=0):
    return lambda: board.Move(common_pb2.ActRequest(match_id=match_id, action_id=str(uuid.uuid4()),
                                                    expected_version=expected_version,
                                                    action_json=action if isinstance(action, str)
                                                    else json.dumps(action)), metadata=meta)


@pytest.fixture
def served(raw_channel):
    board = board_pb2_grpc.BoardStub(raw_channel)
    match_id, metas = human_match(raw_channel, "race", 2)
    return raw_channel, board, match_id, metas


def test_failed_precondition_names_the_rule(served):
    _, board, match_id, metas = served
    err, d = refused(move(board, match_id, metas[0], {"kind": "hide", "number": 9}),
                     grpc.StatusCode.FAILED_PRECONDITION)
    assert dict(err.trailing_metadata())["x-rule"] == "Race 2" and "[rule: Race 2]" in err.details()
    assert d["RuleDetail"].rule == "Race 2" and d["RuleDetail"].reason == "you may hide 1, 2 or 3"
    assert d["ErrorInfo"].reason == "RULE_VIOLATION" and d["ErrorInfo"].metadata["rule"] == "Race 2"
    _, d = refused(move(board, match_id, metas[1], {"kind": "hide", "number": 1}), grpc.StatusCode.FAILED_PRECONDITION)
    assert d["ErrorInfo"].reason == "NOT_YOUR_TURN" and "RuleDetail" not in d


def test_invalid_argument_is_a_field_violation(served):
    ch, board, match_id, metas = served
    _, d = refused(move(board, match_id, metas[0], "{not json"), grpc.StatusCode.INVALID_ARGUMENT)
    assert d["BadRequest"].field_violations[0].field == "action_json"
    assert d["ErrorInfo"].reason == "MALFORMED_REQUEST" and d["ErrorInfo"].metadata["field"] == "action_json"
    _, d = refused(move(board, match_id, metas[0], {"kind": "fly"}), grpc.StatusCode.INVALID_ARGUMENT)
    assert d["ErrorInfo"].reason == "MALFORMED_ACTION" and d["BadRequest"].field_violations[0].description
    _, d = refused(lambda: board.GetMatch(board_pb2.GetMatchRequest(match_id="x" * 500)),
                   grpc.StatusCode.INVALID_ARGUMENT)
    assert d["BadRequest"].field_violations[0].field == "match_id"
    garbage = ch.unary_unary("/archmage.board.v1.Board/GetMatch", request_serializer=lambda b: b,
                             response_deserializer=lambda b: b)
    _, d = refused(lambda: garbage(b"\xff\xff\xff"), grpc.StatusCode.INVALID_ARGUMENT)
    assert d["ErrorInfo"].reason == "MALFORMED_REQUEST" and len(d["BadRequest"].field_violations) == 1


def test_aborted_on_a_stale_version_says_retry(served):
    _, board, match_id, metas = served
    _, d = refused(move(board, match_id, metas[0], {"kind": "hide", "number": 1}, expected_version=99),
                   grpc.StatusCode.ABORTED)
    assert d["ErrorInfo"].reason == "STALE_VERSION" and d["RetryInfo"].retry_delay.seconds == 0


def test_not_found_unauthenticated_permission_denied(served):
    ch, board, match_id, metas = served
    _, d = refused(lambda: board.GetMatch(board_pb2.GetMatchRequest(match_id="no-such-match")),
                   grpc.StatusCode.NOT_FOUND)
    assert d["ErrorInfo"].reason == "NOT_FOUND" and "RetryInfo" not in d
    _, d = refused(move(board, match_id, (), {"kind": "hide", "number": 1}), grpc.StatusCode.UNAUTHENTICATED)
    assert d["ErrorInfo"].reason == "UNAUTHENTICATED"
    other, other_metas = human_match(ch, "race", 2)
    _, d = refused(move(board, match_id, other_metas[0], {"kind": "hide", "number": 1}),
                   grpc.StatusCode.PERMISSION_DENIED)
    assert d["ErrorInfo"].reason == "PERMISSION_DENIED"
    dice = dice_pb2_grpc.DiceStub(ch)
    s = dice.CreateSession(dice_pb2.CreateSessionRequest())
    _, d = refused(lambda: dice.Reveal(dice_pb2.RevealRequest(session_id=s.session_id, token="wrong")),
                   grpc.StatusCode.PERMISSION_DENIED)
    assert d["ErrorInfo"].reason == "PERMISSION_DENIED"


def test_already_exists(raw_channel):
    queue = matchmaking_pb2_grpc.MatchmakingStub(raw_channel)
    me = identity(raw_channel)
    code = uuid.uuid4().hex
    queue.CreateTicket(mm.CreateTicketRequest(game="race", seats=4, invite_code=code), metadata=me.meta)
    _, d = refused(lambda: queue.CreateTicket(mm.CreateTicketRequest(game="race", seats=4, invite_code=code),
                                              metadata=me.meta), grpc.StatusCode.ALREADY_EXISTS)
    assert d["ErrorInfo"].reason == "ALREADY_EXISTS"


def test_resource_exhausted_too_large_has_no_retry(raw_channel):
    dice = dice_pb2_grpc.DiceStub(raw_channel)
    s = dice.CreateSession(dice_pb2.CreateSessionRequest())
    _, d = refused(lambda: dice.Roll(dice_pb2.RollRequest(session_id=s.session_id, token=s.token, pools=[
        dice_pb2.Pool(purpose="many", count=5000, sides=6)])), grpc.StatusCode.RESOURCE_EXHAUSTED)
    assert d["ErrorInfo"].reason == "TOO_LARGE" and "RetryInfo" not in d


def test_resource_exhausted_by_a_limit_says_when_to_retry(redis_url):
    r = redis.Redis.from_url(redis_url)
    for key in r.scan_iter("limits*"):
        r.delete(key)
    server = ServerThread(redis_url, limits=dict(DEFAULTS, guests_per_peer="1/minute"))
    server.start()
    try:
        with grpc.insecure_channel(server.address) as ch:
            from archmage.players.v1 import players_pb2, players_pb2_grpc

            players = players_pb2_grpc.PlayersStub(ch)
            players.SignInAsGuest(players_pb2.GuestRequest())
            err, d = refused(lambda: players.SignInAsGuest(players_pb2.GuestRequest()),
                             grpc.StatusCode.RESOURCE_EXHAUSTED)
            retry = int(dict(err.trailing_metadata())["retry-after"])
            assert d["ErrorInfo"].reason == "RATE_LIMITED" and d["ErrorInfo"].metadata["limit"] == "guests_per_peer"
            assert d["RetryInfo"].retry_delay.seconds == retry and 1 <= retry <= 60
            assert "guests_per_peer" in err.details()
    finally:
        server.stop()
        for key in r.scan_iter("limits*"):
            r.delete(key)

