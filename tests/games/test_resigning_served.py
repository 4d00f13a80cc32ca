"""Board.Resign served for real, for every game: over gRPC through the real services and Redis,
a resignation in a 2-player match ends it with the other seat winning; in a match of more
players it goes on without the resigned seat and ends by its rules; the log replays and
verifies; and what may not resign is refused with a clear status, changing nothing."""
from __future__ import annotations

import json
import random
import uuid

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc

from services.cli.main import main as cli
from shared.engine.registry import engine_for
from shared.eventlog import LoggedEvent
from shared.matchlog import replay_events
from tests.trust.test_rich_errors import refused

# quick set-ups: Tower's set-up choices by chance; Incantris and Wizards as they come
OPTIONS = {"tower": {"setup": "chance"}, "incantris": {}, "wizards": {}}


def create(channel, game: str, seats: int, variant: str = ""):
    return matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(mm.CreateMatchRequest(
        game=game, variant=variant, seats=[mm.SeatSpec(kind="human", name=f"p{i}") for i in range(seats)],
        options_json=json.dumps(OPTIONS[game])))


class Table:
    """Every seat of a match played from one place, each with its own seat token, at random."""

    def __init__(self, channel, created, seed: int):
        self.board = board_pb2_grpc.BoardStub(channel)
        self.combat = combat_pb2_grpc.CombatStub(channel)
        self.match_id = created.match_id
        self.meta = {t.seat: (("x-seat-token", t.token),) for t in created.seat_tokens}
        self.rng = random.Random(seed)

    def view(self, seat: int | None = None):
        meta = self.meta[seat] if seat is not None else ()
        return self.board.GetMatch(board_pb2.GetMatchRequest(match_id=self.match_id), metadata=meta, timeout=10)

    def step(self) -> bool:
        """One action of the seat to act; False once the match is over."""
        view = self.view()
        if view.status == "finished":
            return False
        seat = view.to_act
        assert seat >= 0, "a served match at rest waits on a seat"
        legal = self.board.ListLegalActions(board_pb2.ListLegalActionsRequest(match_id=self.match_id),
                                            metadata=self.meta[seat], timeout=10)
        pick = self.rng.choice(list(legal.actions))
        request = common_pb2.ActRequest(match_id=self.match_id, action_id=str(uuid.uuid4()),
                                        expected_version=legal.version, action_json=pick.action_json)
        (self.combat.Resolve if pick.service == "combat" else self.board.Move)(request, metadata=self.meta[seat],
                                                                               timeout=10)
        return True

    def play(self, steps: int) -> None:
        for _ in range(steps):
            if not self.step():
                return

    def resign(self, seat: int, action_id: str | None = None, expected_version: int = 0):
        request = board_pb2.ResignRequest(match_id=self.match_id, action_id=action_id or str(uuid.uuid4()),
                                          expected_version=expected_version)
        return self.board.Resign(request, metadata=self.meta[seat], timeout=10)

    def log(self) -> list:
        """The match's events so far, as a spectator reads them."""
        last = self.view().last_seq
        out = []
        for e in self.board.WatchMatch(board_pb2.WatchMatchRequest(match_id=self.match_id), timeout=10):
            out.append(e)
            if e.seq >= last:
                break
        return out


def replayed(game: str, events) -> object:
    """The state the match's log rebuilds (shared/matchlog.py), from the public log once it ended."""
    logged = [LoggedEvent(e.seq, e.type, e.body_json, e.prev_hash, e.hash, e.salt) for e in events]
    return replay_events(engine_for(game), logged)


@pytest.mark.parametrize("game", ["tower", "incantris", "wizards"])
def test_a_resignation_in_a_two_player_match_ends_it_and_the_other_seat_wins(channel, platform, game):
    table = Table(channel, create(channel, game, 2), seed=3)
    table.play(6)
    before = table.view(1)
    answer = table.resign(1, expected_version=before.version)
    assert answer.version == before.version + 1 and not answer.replayed
    types = [e.type for e in answer.events]
    assert types[0] == "resigned" and json.loads(answer.events[0].body_json)["seat"] == 1
    assert types[-2:] == ["match_finished", "dice_revealed"]
    view = table.view(0)
    outcome = json.loads(view.outcome_json)
    assert view.status == "finished" and outcome["winners"] == [0] and outcome["resigned"] == [1]
    assert "resigned" in outcome["summary"] or "withdrew" in outcome["summary"]
    events = table.log()
    finished = json.loads(next(e.body_json for e in events if e.type == "match_finished"))
    assert finished["outcome"] == outcome
    engine = engine_for(game)
    state = platform.run(platform.platform.matches.load(table.match_id)).state
    assert engine.encode(replayed(game, events)) == engine.encode(state)
    assert cli(["--addr", platform.address, "verify", table.match_id]) == 0


@pytest.mark.parametrize("game,seats,variant", [("tower", 3, ""), ("tower", 4, ""), ("incantris", 3, ""),
                                                ("incantris", 4, "crystal-sap"), ("wizards", 3, ""),
                                                ("wizards", 4, "")])
def test_with_more_players_the_match_goes_on_without_the_resigned_seat_and_ends_by_its_rules(
        channel, platform, game, seats, variant):
    table = Table(channel, create(channel, game, seats, variant), seed=5)
    table.play(4)
    table.resign(1)
    view = table.view(0)
    assert view.status == "active", "the others play on"
    assert 1 in json.loads(view.view_json)["resigned"]
    seen_to_act = set()
    for step in range(800):
        view = table.view()
        if view.status == "finished":
            break
        seen_to_act.add(view.to_act)
        if step % 100 == 0:  # the resigned seat may not resign again
            with pytest.raises(grpc.RpcError):
                table.resign(1)
        table.step()
    else:
        # a long match: the others resign in turn until the rules end it (a side already out of
        # the match makes it end before the last one), and the last one standing wins
        for seat in range(2, seats):
            if table.view().status == "finished":
                break
            table.resign(seat)
        view = table.view()
    assert view.status == "finished"
    assert 1 not in seen_to_act, "a resigned seat is never asked to act"
    outcome = json.loads(view.outcome_json)
    assert 1 in outcome["resigned"] and 1 not in outcome["winners"]
    events = table.log()
    engine = engine_for(game)
    state = platform.run(platform.platform.matches.load(table.match_id)).state
    assert engine.encode(replayed(game, events)) == engine.encode(state)
    assert cli(["--addr", platform.address, "verify", table.match_id]) == 0


def test_a_repeated_resignation_is_a_replay_and_a_stale_one_is_aborted(channel):
    table = Table(channel, create(channel, "tower", 3), seed=7)
    table.play(3)
    version = table.view().version
    refused(lambda: table.resign(2, expected_version=version - 1), grpc.StatusCode.ABORTED)
    assert table.view().version == version, "a stale resignation changes nothing"
    first = table.resign(2, action_id="resign-2", expected_version=version)
    again = table.resign(2, action_id="resign-2", expected_version=version)
    assert again.replayed and again.version == first.version == version + 1
    assert [e.hash for e in again.events] == [e.hash for e in first.events]
    assert sum(1 for e in table.log() if e.type == "resigned") == 1


def test_what_may_not_resign_is_refused_and_changes_nothing(channel, raw_channel):
    table = Table(channel, create(channel, "incantris", 3), seed=9)
    table.play(2)
    board = board_pb2_grpc.BoardStub(channel)
    version = table.view().version

    def resign_with(meta, match_id=table.match_id):
        return lambda: board.Resign(board_pb2.ResignRequest(match_id=match_id, action_id=str(uuid.uuid4())),
                                    metadata=meta, timeout=10)

    # a spectator (no seat token), a made-up token, another match's token
    _, details = refused(resign_with(()), grpc.StatusCode.UNAUTHENTICATED)
    assert details["ErrorInfo"].reason == "UNAUTHENTICATED"
    forged = f"{table.match_id}.0.{'x' * 32}"
    refused(resign_with((("x-seat-token", forged),)), grpc.StatusCode.UNAUTHENTICATED)
    other = Table(channel, create(channel, "incantris", 2), seed=1)
    refused(resign_with(other.meta[0]), grpc.StatusCode.PERMISSION_DENIED)
    refused(resign_with(table.meta[0], match_id=""), grpc.StatusCode.INVALID_ARGUMENT)
    refused(lambda: board.Resign(board_pb2.ResignRequest(match_id=table.match_id), metadata=table.meta[0],
                                 timeout=10), grpc.StatusCode.INVALID_ARGUMENT)
    assert table.view().version == version, "no refusal changed the match"
    # a seat that resigned already: the rule that forbids it
    table.resign(2)
    version = table.view().version
    _, details = refused(lambda: table.resign(2), grpc.StatusCode.FAILED_PRECONDITION)
    assert details["ErrorInfo"].reason == "RULE_VIOLATION" and "resigned already" in details["RuleDetail"].reason
    assert table.view().version == version
    # a finished match
    table.resign(1)
    assert table.view().status == "finished"
    version = table.view().version
    _, details = refused(lambda: table.resign(0), grpc.StatusCode.FAILED_PRECONDITION)
    assert "over" in details["ErrorInfo"].reason.lower() or details["ErrorInfo"].reason == "PRECONDITION"
    assert table.view().version == version
    refused(lambda: table.resign(1), grpc.StatusCode.FAILED_PRECONDITION)


def test_resign_at_the_terminal_prompt_is_confirmed_then_says_who_resigned(channel, platform):
    """`archmage play --match ... --seat-token ...`: typing `resign` asks again; `no` goes back to the
    choices, `yes` resigns, and the end names the player who resigned."""
    import os
    import subprocess
    import sys

    created = create(channel, "tower", 2)
    table = Table(channel, created, seed=2)
    me = table.view().to_act
    token = next(t.token for t in created.seat_tokens if t.seat == me)
    proc = subprocess.run([sys.executable, "-m", "services.cli.main", "--addr", platform.address, "play",
                           "--match", created.match_id, "--seat-token", token],
                          input="resign\nno\nresign\nyes\n", capture_output=True, text=True, timeout=120,
                          env=dict(os.environ))
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert out.count("resign this match?") == 2 and "resign to give up" in out
    assert "you resigned" in out
    assert f"Match over. You resigned. seat {1 - me} won; you did not." in out
    outcome = json.loads(table.view().outcome_json)
    assert outcome["resigned"] == [me] and outcome["winners"] == [1 - me]
