"""The service runtime over real gRPC: health, reflection, seat tokens, bad input."""
from __future__ import annotations

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

SERVICES = ["archmage.dice.v1.Dice", "archmage.board.v1.Board", "archmage.combat.v1.Combat",
            "archmage.matchmaking.v1.Matchmaking"]


def new_match(channel, seats=("human", "human"), game="race", variant=""):
    mm = matchmaking_pb2_grpc.MatchmakingStub(channel)
    return mm.CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game=game, variant=variant, seats=[matchmaking_pb2.SeatSpec(kind=k) for k in seats]))


@pytest.mark.parametrize("service", SERVICES + [""])
def test_health_is_serving_for_every_service(channel, service):
    reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service))
    assert reply.status == health_pb2.HealthCheckResponse.SERVING


def test_reflection_lists_all_four_services(channel):
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    replies = list(stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")])))
    names = {s.name for s in replies[0].list_services_response.service}
    assert set(SERVICES) <= names


def _v1_classes():
    """A reflection v1 client's messages, built from the protocol's own description: the v1 protos are
    v1alpha's messages under package grpc.reflection.v1 (the same field numbers)."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    proto = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(proto)
    proto.name, proto.package = "client/grpc/reflection/v1/reflection.proto", "grpc.reflection.v1"
    for message in proto.message_type:
        for f in message.field:
            if f.HasField("type_name"):
                f.type_name = f.type_name.replace(".v1alpha.", ".v1.")
    for m in proto.service[0].method:
        m.input_type, m.output_type = (t.replace(".v1alpha.", ".v1.") for t in (m.input_type, m.output_type))
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    get = lambda name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"grpc.reflection.v1.{name}"))
    return get("ServerReflectionRequest"), get("ServerReflectionResponse")


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_reflection_v1_and_v1alpha_both_answer_and_describe_the_services(channel, version):
    from google.protobuf import descriptor_pb2

    if version == "v1":
        request_cls, response_cls = _v1_classes()
    else:
        request_cls, response_cls = reflection_pb2.ServerReflectionRequest, reflection_pb2.ServerReflectionResponse
    call = channel.stream_stream(f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo",
                                 request_serializer=request_cls.SerializeToString,
                                 response_deserializer=response_cls.FromString)
    replies = list(call(iter([request_cls(list_services=""),
                              request_cls(file_containing_symbol="archmage.dice.v1.Dice"),
                              request_cls(file_containing_symbol=f"grpc.reflection.{version}.ServerReflection"),
                              request_cls(file_containing_symbol="no.such.Thing")]), timeout=10))
    names = {s.name for s in replies[0].list_services_response.service}
    assert set(SERVICES) | {"grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
                            "grpc.reflection.v1alpha.ServerReflection"} <= names
    dice = [descriptor_pb2.FileDescriptorProto.FromString(b)
            for b in replies[1].file_descriptor_response.file_descriptor_proto]
    assert any(f.package == "archmage.dice.v1" and [s.name for s in f.service] == ["Dice"] for f in dice)
    itself = [descriptor_pb2.FileDescriptorProto.FromString(b)
              for b in replies[2].file_descriptor_response.file_descriptor_proto]
    assert any(f.package == f"grpc.reflection.{version}" for f in itself)
    assert replies[3].error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]


def test_missing_seat_token_is_unauthenticated(channel):
    m = new_match(channel)
    with pytest.raises(grpc.RpcError) as err:
        board_pb2_grpc.BoardStub(channel).ListLegalActions(board_pb2.ListLegalActionsRequest(match_id=m.match_id))
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED


@pytest.mark.parametrize("token", ["garbage", "x.0.y", "{m}.notanumber.z"])
def test_bad_seat_token_is_unauthenticated(channel, token):
    m = new_match(channel)
    if token == "x.0.y":
        token = f"{m.match_id}.0.not-the-secret"
    with pytest.raises(grpc.RpcError) as err:
        board_pb2_grpc.BoardStub(channel).ListLegalActions(
            board_pb2.ListLegalActionsRequest(match_id=m.match_id), metadata=(("x-seat-token", token),))
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_token_of_another_match_is_permission_denied(channel):
    a, b = new_match(channel), new_match(channel)
    with pytest.raises(grpc.RpcError) as err:
        board_pb2_grpc.BoardStub(channel).ListLegalActions(
            board_pb2.ListLegalActionsRequest(match_id=b.match_id),
            metadata=(("x-seat-token", a.seat_tokens[0].token),))
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED


def test_garbage_bytes_are_invalid_argument(channel):
    call = channel.unary_unary("/archmage.dice.v1.Dice/Roll", request_serializer=lambda b: b,
                               response_deserializer=lambda b: b)
    with pytest.raises(grpc.RpcError) as err:
        call(b"\xff\xff\xff\xff\x0f garbage")
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "not a valid archmage.dice.v1.RollRequest" in err.value.details()


@pytest.mark.parametrize("request_kwargs, fragment", [
    ({"game": "chess"}, "unknown game"),
    ({"game": "race", "variant": "nope"}, "no variant"),
    ({"game": "race", "options_json": "[1]"}, "JSON object"),
    ({"game": "race", "options_json": "{not json"}, "not JSON"),
    ({"game": "race", "options_json": '{"goal": 3}'}, "goal"),
])
def test_malformed_match_requests_are_invalid_argument(channel, request_kwargs, fragment):
    mm = matchmaking_pb2_grpc.MatchmakingStub(channel)
    seats = [matchmaking_pb2.SeatSpec(kind="human")]
    with pytest.raises(grpc.RpcError) as err:
        mm.CreateMatch(matchmaking_pb2.CreateMatchRequest(seats=seats, **request_kwargs))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert fragment in err.value.details()


def test_too_many_seats_is_invalid_argument(channel):
    with pytest.raises(grpc.RpcError) as err:
        new_match(channel, seats=("human",) * 5)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_malformed_action_json_is_invalid_argument_and_changes_nothing(channel):
    m = new_match(channel)
    meta = (("x-seat-token", m.seat_tokens[0].token),)
    board = board_pb2_grpc.BoardStub(channel)
    for bad in ["{oops", "[]", '{"kind": 3}', '{"kind": "fly"}', '{"kind": "hide", "number": "two"}']:
        with pytest.raises(grpc.RpcError) as err:
            board.Move(common_pb2.ActRequest(match_id=m.match_id, action_id=f"a-{bad}", action_json=bad),
                       metadata=meta)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, bad
    assert board.GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id), metadata=meta).version == 1


def test_unknown_match_is_not_found(channel):
    with pytest.raises(grpc.RpcError) as err:
        board_pb2_grpc.BoardStub(channel).GetMatch(board_pb2.GetMatchRequest(match_id="nosuchmatch"))
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_list_games_names_registered_games(channel):
    games = matchmaking_pb2_grpc.MatchmakingStub(channel).ListGames(matchmaking_pb2.ListGamesRequest())
    race = next(g for g in games.games if g.name == "race")
    assert (race.min_seats, race.max_seats) == (1, 4)


def test_oversized_requests_are_resource_exhausted(channel):
    m = new_match(channel)
    meta = (("x-seat-token", m.seat_tokens[0].token),)
    with pytest.raises(grpc.RpcError) as err:
        board_pb2_grpc.BoardStub(channel).Move(common_pb2.ActRequest(
            match_id=m.match_id, action_id="big", action_json="x" * (2 << 20)), metadata=meta)
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_large_but_allowed_action_is_invalid_argument_not_a_crash(channel):
    m = new_match(channel)
    meta = (("x-seat-token", m.seat_tokens[0].token),)
    with pytest.raises(grpc.RpcError) as err:
        board_pb2_grpc.BoardStub(channel).Move(common_pb2.ActRequest(
            match_id=m.match_id, action_id="big", action_json='{"kind":"' + "x" * 20000 + '"}'), metadata=meta)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_an_address_with_port_zero_means_this_server():
    from services.runtime.app import resolve_own

    assert resolve_own("127.0.0.1:0", "127.0.0.1:4711") == "127.0.0.1:4711"
    assert resolve_own("board:50051", "127.0.0.1:4711") == "board:50051"
