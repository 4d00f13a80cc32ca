"""Hostile input for every RPC: structured messages with hostile values (huge, empty, deep,
odd unicode, extreme numbers, other matches' ids, forged credentials), thousands of calls.
None may answer UNKNOWN or INTERNAL, none may hang, and a refused call changes nothing."""
from __future__ import annotations

import collections
import json
import time

import grpc
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc
from archmage.players.v1 import players_pb2 as pp
from archmage.players.v1 import players_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.trust.support import human_match, identity

CALLS = 2000
U32, U64 = 2**32 - 1, 2**64 - 1


def deep(n: int) -> str:
    return '{"kind": "move", "to": ' + "[" * n + "]" * n + "}"


def texts(*known: str):
    return st.one_of(
        st.text(max_size=40), st.sampled_from(known + ("", " ", "\x00", "../../etc", "{m:x}", "a:b:c", "é" * 200)),
        st.just("x" * 70_000), st.integers(0, 300).map(lambda n: "y" * n))


def jsons(*known: str):
    kinds = st.sampled_from(["roll", "hide", "move", "nope", "line_of_sight", "distance_to_goal", ""])
    objects = st.fixed_dictionaries({"kind": kinds}, optional={
        "number": st.one_of(st.integers(-U64, U64), st.floats(allow_nan=False), st.text(max_size=5), st.none()),
        "to": st.recursive(st.none() | st.integers() | st.text(max_size=4),
                           lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=3), c, max_size=3),
                           max_leaves=20)})
    return st.one_of(objects.map(json.dumps), st.sampled_from(known + ("", "{", "[]", "null", "1e999", '"x"')),
                     st.integers(20, 3000).map(deep), texts())


def test_hostile_input_never_fails_the_server(raw_channel):
    ch = raw_channel
    board, combat = board_pb2_grpc.BoardStub(ch), combat_pb2_grpc.CombatStub(ch)
    dice, queue, players = dice_pb2_grpc.DiceStub(ch), matchmaking_pb2_grpc.MatchmakingStub(ch), \
        players_pb2_grpc.PlayersStub(ch)
    match_id, metas = human_match(ch, "race", 2, variant="secret-start")
    other_id, other_metas = human_match(ch, "race", 1)
    me = identity(ch)
    ticket = queue.CreateTicket(mm.CreateTicketRequest(game="race", seats=4, invite_code="fuzz"), metadata=me.meta)
    session = dice.CreateSession(dice_pb2.CreateSessionRequest())
    ids = (match_id, other_id, ticket.ticket_id, session.session_id)
    metadata = st.sampled_from([(), metas[0], metas[1], other_metas[0], me.meta,
                                (("x-seat-token", f"{match_id}.7.forged"),), (("x-seat-token", "garbage"),),
                                (("x-seat-token", f"{match_id}.0.{'z' * 32}"),),
                                (("authorization", "Bearer " + "a" * 500),), (("authorization", "Basic x"),),
                                (("authorization", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."),)])
    pools = st.lists(st.builds(dice_pb2.Pool, purpose=texts(), count=st.integers(0, U32), sides=st.integers(0, U32),
                               faces=st.lists(texts(), max_size=4)), max_size=3)
    act = st.builds(common_pb2.ActRequest, match_id=texts(*ids), action_id=texts("a"),
                    expected_version=st.integers(0, U64), action_json=jsons())
    ref = st.builds(mm.TicketRef, ticket_id=texts(*ids))
    calls = st.one_of(
        st.tuples(st.just(board.GetMatch), st.builds(board_pb2.GetMatchRequest, match_id=texts(*ids))),
        st.tuples(st.just(board.ListLegalActions), st.builds(
            board_pb2.ListLegalActionsRequest, match_id=texts(*ids), page_size=st.integers(0, U32),
            page_token=texts("1:0", "99:5", "x:y"))),
        st.tuples(st.just(board.WatchMatch), st.builds(board_pb2.WatchMatchRequest, match_id=texts(*ids),
                                                       from_seq=st.integers(0, U64))),
        st.tuples(st.just(board.Query), st.builds(board_pb2.QueryRequest, match_id=texts(*ids), query_json=jsons())),
        st.tuples(st.just(board.Move), act),
        st.tuples(st.just(combat.Resolve), act),
        st.tuples(st.just(dice.CreateSession), st.builds(dice_pb2.CreateSessionRequest, session_id=texts(*ids),
                                                         owned_by_match=st.booleans())),
        st.tuples(st.just(dice.GetSession), st.builds(dice_pb2.GetSessionRequest, session_id=texts(*ids))),
        st.tuples(st.just(dice.AddClientSeed), st.builds(dice_pb2.AddClientSeedRequest, session_id=texts(*ids),
                                                         client_seed=texts())),
        st.tuples(st.just(dice.Roll), st.builds(dice_pb2.RollRequest, session_id=texts(*ids),
                                                token=texts(session.token), pools=pools)),
        st.tuples(st.just(dice.Draw), st.builds(dice_pb2.DrawRequest, session_id=texts(*ids),
                                                token=texts(session.token), first_nonce=st.integers(0, U64),
                                                pools=pools)),
        st.tuples(st.just(dice.Reveal), st.builds(dice_pb2.RevealRequest, session_id=texts(*ids), token=texts())),
        st.tuples(st.just(dice.Verify), st.builds(dice_pb2.VerifyRequest, session_id=texts(*ids))),
        st.tuples(st.just(dice.ExportLog), st.builds(dice_pb2.ExportLogRequest, session_id=texts(*ids))),
        st.tuples(st.just(queue.CreateMatch), st.builds(
            mm.CreateMatchRequest, game=texts("race", "tower"), variant=texts("standard", "secret-start"),
            seats=st.lists(st.builds(mm.SeatSpec, kind=texts("human", "ai"), name=texts()), max_size=5),
            options_json=jsons('{"goal": 15}'))),
        st.tuples(st.just(queue.CreateTicket), st.builds(
            mm.CreateTicketRequest, game=texts("race"), variant=texts(), seats=st.integers(0, U32),
            party=st.lists(texts(me.player), max_size=3), ai_welcome=st.booleans(), max_wait_s=st.integers(0, U32),
            invite_code=texts())),
        st.tuples(st.just(queue.GetTicket), ref), st.tuples(st.just(queue.CancelTicket), ref),
        st.tuples(st.just(queue.AcceptTicket), ref), st.tuples(st.just(queue.WatchTicket), ref),
        st.tuples(st.just(queue.ListMyMatches), st.builds(mm.ListMyMatchesRequest, limit=st.integers(0, U32))),
        st.tuples(st.just(queue.ListGames), st.just(mm.ListGamesRequest())),
        st.tuples(st.just(queue.ListQueues), st.just(mm.ListQueuesRequest())),
        st.tuples(st.just(players.SignUp), st.builds(pp.SignUpRequest, name=texts(), password=texts())),
        st.tuples(st.just(players.SignIn), st.builds(pp.SignInRequest, name=texts(me.player), password=texts())),
        st.tuples(st.just(players.Refresh), st.just(pp.RefreshRequest())),
        st.tuples(st.just(players.GetRating), st.builds(pp.GetRatingRequest, player_id=texts(me.player),
                                                        game=texts("race"))),
        st.tuples(st.just(players.ListLeaders), st.builds(pp.ListLeadersRequest, game=texts("race"),
                                                          limit=st.integers(0, U32))),
    )
    codes: collections.Counter = collections.Counter()
    changed_by_refusal = []

    def watched_state():
        view = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), timeout=5)
        return view.version, view.last_seq

    @settings(max_examples=CALLS, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(call=calls, meta=metadata)
    def one(call, meta):
        method, request = call
        writes_the_match = method in (board.Move, combat.Resolve, dice.AddClientSeed)
        before = watched_state() if writes_the_match else None
        streaming = method in (board.WatchMatch, queue.WatchTicket)
        try:
            if streaming:
                for i, _ in enumerate(method(request, metadata=meta, timeout=1)):
                    if i > 20:
                        break
            else:
                method(request, metadata=meta, timeout=5)
            codes["OK"] += 1
        except grpc.RpcError as exc:
            code = exc.code()
            if streaming and code == grpc.StatusCode.DEADLINE_EXCEEDED:
                code = grpc.StatusCode.OK  # a live stream that had nothing more to say: not a hang
            codes[code.name] += 1
            assert code not in (grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL,
                                grpc.StatusCode.DEADLINE_EXCEEDED), (method, request, exc.details())
            if before is not None and watched_state() != before:
                changed_by_refusal.append((method, request))

    started = time.monotonic()
    one()
    seconds = time.monotonic() - started
    calls_made = sum(codes.values())
    print(f"fuzz: {calls_made} calls in {seconds:.1f}s: {dict(codes.most_common())}")
    assert not changed_by_refusal, changed_by_refusal[:3]
    assert calls_made >= CALLS * 0.9 and seconds < 240
    assert "INTERNAL" not in codes and "UNKNOWN" not in codes
