"""Hostile input for every RPC: structured messages with hostile values (huge, empty, deep,
odd unicode, extreme numbers, other matches' ids, forged credentials), thousands of calls,
then garbage bytes for every method. The RPCs and their request messages come from the
services' own descriptors, so a new RPC or field is fuzzed without anyone listing it (and
the test fails if one was never called). None may answer UNKNOWN or INTERNAL, none may
hang, and a refused call changes nothing."""
from __future__ import annotations

import collections
import json
import random
import time

import grpc
from archmage.board.v1 import board_pb2
from archmage.combat.v1 import combat_pb2
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc
from archmage.players.v1 import players_pb2
from google.protobuf import message_factory
from google.protobuf.descriptor import FieldDescriptor
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.trust.support import human_match, identity

CALLS = 2000
GARBAGE_PER_METHOD = 25
U32, U64 = 2**32 - 1, 2**64 - 1
I32, I64 = 2**31, 2**63
SERVICES = [s for mod in (board_pb2, combat_pb2, dice_pb2, mm, players_pb2)
            for s in mod.DESCRIPTOR.services_by_name.values()]
# calls that may change the match the test watches: a refusal of one must leave it as it was
WRITES = {"/archmage.board.v1.Board/Move", "/archmage.board.v1.Board/Resign", "/archmage.combat.v1.Combat/Resolve",
          "/archmage.dice.v1.Dice/AddClientSeed"}


def deep(n: int) -> str:
    return '{"kind": "move", "to": ' + "[" * n + "]" * n + "}"


def texts(*known: str):
    return st.one_of(
        st.text(max_size=40), st.sampled_from(known + ("", " ", "\x00", "../../etc", "{m:x}", "a:b:c", "é" * 200)),
        st.just("x" * 70_000), st.integers(0, 300).map(lambda n: "y" * n))


def jsons(*known: str):
    kinds = st.sampled_from(["roll", "hide", "move", "nope", "line_of_sight", "distance_to_goal", "record_sheet", ""])
    objects = st.fixed_dictionaries({"kind": kinds}, optional={
        "number": st.one_of(st.integers(-U64, U64), st.floats(allow_nan=False), st.text(max_size=5), st.none()),
        "to": st.recursive(st.none() | st.integers() | st.text(max_size=4),
                           lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=3), c, max_size=3),
                           max_leaves=20)})
    return st.one_of(objects.map(json.dumps), st.sampled_from(known + ("", "{", "[]", "null", "1e999", '"x"')),
                     st.integers(20, 3000).map(deep), texts())


NUMBERS = {
    FieldDescriptor.TYPE_UINT32: st.integers(0, U32), FieldDescriptor.TYPE_UINT64: st.integers(0, U64),
    FieldDescriptor.TYPE_INT32: st.integers(-I32, I32 - 1), FieldDescriptor.TYPE_INT64: st.integers(-I64, I64 - 1),
    FieldDescriptor.TYPE_BOOL: st.booleans(),
    FieldDescriptor.TYPE_DOUBLE: st.floats(allow_nan=True, allow_infinity=True),
    FieldDescriptor.TYPE_FLOAT: st.floats(width=32, allow_nan=True, allow_infinity=True),
}


def messages(descriptor, known: dict, ids: tuple, depth: int = 0):
    """Hostile instances of a request message, field by field from its descriptor: strings from
    the hostile texts (plus the ids of real matches, tickets and sessions, and the values
    `known` names for that field), `*_json` from hostile JSON, numbers over their whole range."""
    cls = message_factory.GetMessageClass(descriptor)
    fields = {}
    for f in descriptor.fields:
        if f.type == FieldDescriptor.TYPE_MESSAGE:
            one = messages(f.message_type, known, ids, depth + 1) if depth < 3 else st.nothing()
        elif f.type == FieldDescriptor.TYPE_STRING:
            one = jsons(*known.get(f.name, ())) if f.name.endswith("_json") else texts(*known.get(f.name, ()), *ids)
        elif f.type == FieldDescriptor.TYPE_BYTES:
            one = st.binary(max_size=64)
        elif f.type == FieldDescriptor.TYPE_ENUM:
            one = st.sampled_from([v.number for v in f.enum_type.values])
        else:
            one = NUMBERS[f.type]
        fields[f.name] = st.lists(one, max_size=4) if f.is_repeated else one
    return st.fixed_dictionaries({}, optional=fields).map(lambda kw: cls(**kw))


def method_callers(channel, path: str, method, raw: bool = False):
    """A callable for `path` on `channel`: typed requests, or raw bytes when `raw`."""
    reply = message_factory.GetMessageClass(method.output_type)
    serialize = (lambda b: b) if raw else (lambda m: m.SerializeToString())
    if method.server_streaming:
        return channel.unary_stream(path, request_serializer=serialize, response_deserializer=reply.FromString), True
    return channel.unary_unary(path, request_serializer=serialize, response_deserializer=reply.FromString), False


def called(call, request, meta, codes) -> grpc.StatusCode:
    """Make one call (reading a stream a little way) and count the code it answered."""
    method, streaming = call
    try:
        if streaming:
            for i, _ in enumerate(method(request, metadata=meta, timeout=1)):
                if i > 20:
                    break
        else:
            method(request, metadata=meta, timeout=5)
        code = grpc.StatusCode.OK
    except grpc.RpcError as exc:
        code = exc.code()
        if streaming and code == grpc.StatusCode.DEADLINE_EXCEEDED:
            code = grpc.StatusCode.OK  # a live stream that had nothing more to say: not a hang
        assert code not in (grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL,
                            grpc.StatusCode.DEADLINE_EXCEEDED), (method, request, exc.details())
    codes[code.name] += 1
    return code


def test_hostile_input_never_fails_the_server(raw_channel):
    ch = raw_channel
    board_view = board_pb2.GetMatchRequest
    match_id, metas = human_match(ch, "race", 2, variant="secret-start")
    other_id, other_metas = human_match(ch, "race", 1)
    me = identity(ch)
    ticket = matchmaking_pb2_grpc.MatchmakingStub(ch).CreateTicket(
        mm.CreateTicketRequest(game="race", seats=4, invite_code="fuzz"), metadata=me.meta)
    session = dice_pb2_grpc.DiceStub(ch).CreateSession(dice_pb2.CreateSessionRequest())
    ids = (match_id, other_id, ticket.ticket_id, session.session_id)
    known = {"game": ("race", "tower", "wizards"), "variant": ("standard", "secret-start"), "kind": ("human", "ai"),
             "token": (session.token,), "party": (me.player,), "name": (me.player,), "player_id": (me.player,),
             "page_token": ("1:0", "99:5", "x:y"), "action_id": ("a",), "options_json": ('{"goal": 15}',),
             "mode": ("none", "turn", "total"), "on_timeout": ("ai", "forfeit")}
    metadata = st.sampled_from([(), metas[0], metas[1], other_metas[0], me.meta,
                                (("x-seat-token", f"{match_id}.7.forged"),), (("x-seat-token", "garbage"),),
                                (("x-seat-token", f"{match_id}.0.{'z' * 32}"),),
                                (("authorization", "Bearer " + "a" * 500),), (("authorization", "Basic x"),),
                                (("authorization", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."),)])
    rpcs = {f"/{s.full_name}/{m.name}": m for s in SERVICES for m in s.methods}
    calls = st.one_of([st.tuples(st.just(path), messages(m.input_type, known, ids)) for path, m in rpcs.items()])
    typed = {path: method_callers(ch, path, m) for path, m in rpcs.items()}
    codes: collections.Counter = collections.Counter()
    per_rpc: collections.Counter = collections.Counter()
    changed_by_refusal = []

    def watched_state():
        view = typed["/archmage.board.v1.Board/GetMatch"][0](board_view(match_id=match_id), timeout=5)
        return view.version, view.last_seq

    @settings(max_examples=CALLS, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(call=calls, meta=metadata)
    def one(call, meta):
        path, request = call
        per_rpc[path] += 1
        before = watched_state() if path in WRITES else None
        if called(typed[path], request, meta, codes) != grpc.StatusCode.OK and before is not None \
                and watched_state() != before:
            changed_by_refusal.append((path, request))

    started = time.monotonic()
    one()
    seconds = time.monotonic() - started
    calls_made = sum(codes.values())
    print(f"fuzz: {calls_made} structured calls over {len(per_rpc)} RPCs in {seconds:.1f}s: "
          f"{dict(codes.most_common())}")
    assert not changed_by_refusal, changed_by_refusal[:3]
    assert set(per_rpc) == set(rpcs), f"never called: {sorted(set(rpcs) - set(per_rpc))}"
    assert calls_made >= CALLS * 0.9 and seconds < 240
    assert "INTERNAL" not in codes and "UNKNOWN" not in codes

    # garbage bytes for every method: a request that is not its message at all
    rng, garbage = random.Random(7), collections.Counter()
    started = time.monotonic()
    before = watched_state()
    for path, m in rpcs.items():
        raw = method_callers(ch, path, m, raw=True)
        for n in range(GARBAGE_PER_METHOD):
            blob = rng.randbytes(rng.choice([1, 3, 17, 200, 5000])) if n else b"\xff" * 9
            called(raw, blob, rng.choice([(), metas[0], me.meta]), garbage)
    print(f"fuzz: {sum(garbage.values())} garbage-byte calls over {len(rpcs)} RPCs in "
          f"{time.monotonic() - started:.1f}s: {dict(garbage.most_common())}")
    assert garbage["INVALID_ARGUMENT"] >= len(rpcs), "garbage was not refused as malformed"
    assert watched_state() == before, "garbage bytes changed the match"
