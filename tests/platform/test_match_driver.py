"""The match driver over real gRPC and Redis, with the small Race game of tests/support."""
from __future__ import annotations

import itertools
import json

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

from services.client.reading import events_between
from shared.engine import MatchConfig
from shared.engine.registry import engine_for
from shared.eventlog import LoggedEvent
from shared.matchlog import replay_events

_ids = itertools.count()


class Client:
    """A seat's client: the stubs and its token."""

    def __init__(self, channel, match_id, token):
        self.board = board_pb2_grpc.BoardStub(channel)
        self.combat = combat_pb2_grpc.CombatStub(channel)
        self.match_id, self.meta = match_id, (("x-seat-token", token),)

    def view(self):
        return self.board.GetMatch(board_pb2.GetMatchRequest(match_id=self.match_id), metadata=self.meta)

    def legal(self):
        return self.board.ListLegalActions(board_pb2.ListLegalActionsRequest(match_id=self.match_id),
                                           metadata=self.meta)

    def act(self, action: dict, action_id=None, expected_version=0, service=None):
        request = common_pb2.ActRequest(match_id=self.match_id, action_id=action_id or f"act-{next(_ids)}",
                                        expected_version=expected_version, action_json=json.dumps(action))
        service = service or ("combat" if action.get("kind") == "roll" else "board")
        return (self.combat.Resolve if service == "combat" else self.board.Move)(request, metadata=self.meta)

    def events(self, from_seq=0):
        """The events so far (a live match's stream stays open: read up to the newest)."""
        return events_between(self.board, self.match_id, from_seq, self.view().last_seq, self.meta, timeout=10)


def create(channel, seats=2, variant=""):
    mm = matchmaking_pb2_grpc.MatchmakingStub(channel)
    m = mm.CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="race", variant=variant, seats=[matchmaking_pb2.SeatSpec(kind="human") for _ in range(seats)]))
    return m, [Client(channel, m.match_id, t.token) for t in m.seat_tokens]


def play_to_end(clients):
    for _ in range(200):
        view = clients[0].view()
        if view.status == "finished":
            return view
        clients[view.to_act].act({"kind": "roll"})
    raise AssertionError("the race did not end")


def test_a_whole_match_is_played_verified_and_replayed(channel):
    m, clients = create(channel, seats=3)
    view = play_to_end(clients)
    outcome = json.loads(view.outcome_json)
    assert max(outcome["scores"]) >= 15 and outcome["winners"]
    verdict = dice_pb2_grpc.DiceStub(channel).Verify(dice_pb2.VerifyRequest(session_id=m.match_id))
    assert verdict.ok, list(verdict.problems)
    assert verdict.rolls_checked >= 3
    log = dice_pb2_grpc.DiceStub(channel).ExportLog(dice_pb2.ExportLogRequest(session_id=m.match_id))
    events = [LoggedEvent(e.seq, e.type, e.body_json, e.prev_hash, e.hash) for e in log.events]
    engine = engine_for("race")
    state = replay_events(engine, events)
    assert engine.view(state, None) == json.loads(clients[0].board.GetMatch(
        board_pb2.GetMatchRequest(match_id=m.match_id)).view_json)


def test_a_replayed_action_id_returns_the_first_answer_and_changes_nothing(channel):
    _, (a, b) = create(channel)
    first = a.act({"kind": "roll"}, action_id="same-id")
    again = a.act({"kind": "roll"}, action_id="same-id")
    assert again.replayed and not first.replayed
    assert again.version == first.version == 2
    assert [e.hash for e in again.events] == [e.hash for e in first.events]
    assert a.view().version == 2


def test_stale_version_is_aborted_and_changes_nothing(channel):
    _, (a, b) = create(channel)
    a.act({"kind": "hide", "number": 2}, expected_version=1)
    with pytest.raises(grpc.RpcError) as err:
        b.act({"kind": "hide", "number": 2}, expected_version=1)
    assert err.value.code() == grpc.StatusCode.ABORTED
    assert b.view().version == 2


def test_wrong_seat_is_refused_with_the_reason(channel):
    _, (a, b) = create(channel)
    with pytest.raises(grpc.RpcError) as err:
        b.act({"kind": "roll"})
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "not seat 1's turn" in err.value.details()
    assert b.legal().actions == []


def test_an_illegal_action_names_the_rule_and_changes_nothing(channel):
    _, (a, _) = create(channel)
    with pytest.raises(grpc.RpcError) as err:
        a.act({"kind": "hide", "number": 9})
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "[rule: Race 2]" in err.value.details()
    assert dict(err.value.trailing_metadata())["x-rule"] == "Race 2"
    assert a.view().version == 1


def test_an_action_sent_to_the_wrong_service_is_refused(channel):
    _, (a, _) = create(channel)
    with pytest.raises(grpc.RpcError) as err:
        a.act({"kind": "roll"}, service="board")
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "Combat.Resolve" in err.value.details()


def test_legal_actions_name_their_service(channel):
    _, (a, _) = create(channel)
    services = {json.loads(x.action_json)["kind"]: x.service for x in a.legal().actions}
    assert services == {"hide": "board", "roll": "combat"}


def test_private_events_and_secret_rolls_are_hidden_until_the_end(channel):
    m, (a, b) = create(channel, variant="secret-start")
    a.act({"kind": "hide", "number": 3})
    mine = [json.loads(e.body_json) for e in a.events() if e.type == "hid"]
    theirs = [json.loads(e.body_json) for e in b.events() if e.type == "hid"]
    assert mine[0]["number"] == 3 and [sorted(t) for t in theirs] == [["redacted", "sealed"]]
    assert theirs[0]["redacted"] is True and len(theirs[0]["sealed"]) == 64  # its commitment (docs/fairness.md)
    rolls = [json.loads(e.body_json) for e in b.events() if e.type == "roll"]
    assert rolls[0]["secret"] and rolls[0]["pools"][0]["results"] == ["?", "?"]
    assert json.loads(b.view().view_json)["secrets"][0] is None
    play_to_end([a, b])
    after = [json.loads(e.body_json) for e in b.events() if e.type == "roll"]
    assert "?" not in after[0]["pools"][0]["results"]


def test_watch_resumes_from_any_offset_without_gaps(channel):
    _, (a, b) = create(channel)
    for _ in range(3):
        a.act({"kind": "hide", "number": 1})
        b.act({"kind": "hide", "number": 1})
    play_to_end([a, b])
    full = a.events()
    assert [e.seq for e in full] == list(range(1, len(full) + 1))
    tail = a.events(from_seq=5)
    assert [e.seq for e in tail] == [e.seq for e in full[5:]]
    assert all(x.prev_hash == y.hash for x, y in zip(full[1:], full))


def test_finished_match_refuses_actions(channel):
    _, clients = create(channel)
    view = play_to_end(clients)
    with pytest.raises(grpc.RpcError) as err:
        clients[0].act({"kind": "roll"})
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert clients[0].view().version == view.version


def test_replay_helper_reproduces_a_local_playout():
    import random

    from shared.engine.playout import random_playout, replay

    engine = engine_for("race")
    config = MatchConfig(2, "secret-start")
    state, log = random_playout(engine, config, random.Random(3))
    assert engine.encode(replay(engine, config, log)) == engine.encode(state)


def test_legal_actions_come_in_pages_tied_to_the_version(channel):
    _, (a, b) = create(channel)
    full = a.legal()
    assert full.total == 4 and not full.next_page_token
    pages, token = [], ""
    while True:
        page = a.board.ListLegalActions(board_pb2.ListLegalActionsRequest(
            match_id=a.match_id, page_size=3, page_token=token), metadata=a.meta)
        pages += [x.action_json for x in page.actions]
        token = page.next_page_token
        if not token:
            break
    assert pages == [x.action_json for x in full.actions]
    first = a.board.ListLegalActions(board_pb2.ListLegalActionsRequest(match_id=a.match_id, page_size=1),
                                     metadata=a.meta)
    a.act({"kind": "hide", "number": 1})
    with pytest.raises(grpc.RpcError) as err:
        a.board.ListLegalActions(board_pb2.ListLegalActionsRequest(
            match_id=a.match_id, page_size=1, page_token=first.next_page_token), metadata=a.meta)
    assert err.value.code() == grpc.StatusCode.ABORTED
    with pytest.raises(grpc.RpcError) as err:
        a.board.ListLegalActions(board_pb2.ListLegalActionsRequest(match_id=a.match_id, page_token="x"),
                                 metadata=a.meta)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_a_client_seed_mixed_into_a_match_still_verifies(channel):
    """Client seeds are folded into every later roll of the match, and the audit replays them."""
    dice = dice_pb2_grpc.DiceStub(channel)
    m, clients = create(channel)
    dice.AddClientSeed(dice_pb2.AddClientSeedRequest(session_id=m.match_id, client_seed="seat 0 was here"),
                       metadata=clients[0].meta)
    play_to_end(clients)
    verdict = dice.Verify(dice_pb2.VerifyRequest(session_id=m.match_id))
    assert verdict.ok, list(verdict.problems)
    log = dice.ExportLog(dice_pb2.ExportLogRequest(session_id=m.match_id))
    assert "client_seed" in [e.type for e in log.events]


def test_board_queries_answer_for_the_calling_seat(channel):
    _, (a, _) = create(channel)
    a.act({"kind": "roll"})
    reply = a.board.Query(board_pb2.QueryRequest(match_id=a.match_id, query_json='{"kind": "distance_to_goal"}'),
                          metadata=a.meta)
    total = json.loads(a.view().view_json)["totals"][0]
    assert json.loads(reply.answer_json) == {"left": 15 - total} and reply.version == 2
    for bad, code in [('{"kind": "nope"}', grpc.StatusCode.INVALID_ARGUMENT),
                      ("not json", grpc.StatusCode.INVALID_ARGUMENT)]:
        with pytest.raises(grpc.RpcError) as err:
            a.board.Query(board_pb2.QueryRequest(match_id=a.match_id, query_json=bad), metadata=a.meta)
        assert err.value.code() == code
