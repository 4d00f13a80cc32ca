"""Wizards served for real: a 6-player match set up and played for a week (7 days) by six
scripted clients, each choosing among its own ListLegalActions (paged) and sending every
action to the service the listing names, over gRPC through the real services and Redis;
then the match's dice log verified by the dice verifier. Along the way every seat's view
is checked for the other seats' hidden information (14.3), and the terminal client draws
the islands (`archmage play wizards`)."""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
import uuid

import grpc
import pytest
import redis
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

from services.client.reading import events_between
from services.client.session import signed_in
from services.core.store import match_key
from shared.engine.registry import engine_for
from shared.hexgrid import direction_to
from shared.wizards import policy
from shared.wizards.pack import pack
from shared.wizards.render import WALL, board_lines, frame_for, render
from shared.wizards.state import WizardsState
from shared.wizards.world import placements_in, world_of
from tests.support.server import ServerThread

SEATS = 6
DAYS = 7
PAGE = 500  # small pages, so the long tile-placement lists come in several
GEM_IDS = [c["id"] for c in pack().gem_cards]
# Part one hands out no Orders, gems or Secret Wizards; part two's encounters will. The test
# writes such records into the stored state once the set-up is over, as those encounters
# will, so that there is something for the views to hide and spells for Combat to serve.
SECRETS = {
    1: {"gems": {"Ishkatar": "Sapphire"}, "secret_record": {"C": "Veldor"}, "false_wizard": None},
    2: {"gems": {"Terek": "Emerald"}, "secret_record": {}, "false_wizard": "Zegoral", "order": "wizards", "rank": 3},
    5: {"gems": {}, "secret_record": {"A": "Aevarex"}, "false_wizard": "Tolmitar", "order": "wizards", "rank": 3},
}
SECRET_KEYS = ("gems", "secret_record", "false_wizard")


@pytest.fixture(scope="module")
def served(redis_url):
    """The four services in one server on a loopback port; every seat is a scripted client."""
    server = ServerThread(redis_url)
    server.start()
    yield server
    server.stop()


class Seat:
    """One human seat: its token, its own view and its own legal actions, nothing else."""

    def __init__(self, channel, match_id: str, seat: int, token: str, chooser: str, page: int = PAGE):
        self.board = board_pb2_grpc.BoardStub(channel)
        self.combat = combat_pb2_grpc.CombatStub(channel)
        self.match_id, self.seat, self.meta = match_id, seat, (("x-seat-token", token),)
        self.chooser = chooser  # "policy" (the AI policy on this seat's view) or "random"
        self.rng = random.Random(1000 + seat)
        self.sent = {"board": 0, "combat": 0}
        self.page, self.pages = page, 0
        self.kinds: list[str] = []

    def view(self) -> board_pb2.MatchView:
        return self.board.GetMatch(board_pb2.GetMatchRequest(match_id=self.match_id), metadata=self.meta, timeout=10)

    def legal(self) -> tuple[int, list]:
        """Every legal action, page by page (page tokens tie the pages to one version of the match)."""
        actions, token, version = [], "", None
        while True:
            page = self.board.ListLegalActions(
                board_pb2.ListLegalActionsRequest(match_id=self.match_id, page_size=self.page, page_token=token),
                metadata=self.meta, timeout=10)
            self.pages += 1
            assert page.seat == self.seat and (version is None or page.version == version)
            version = page.version
            actions += page.actions
            token = page.next_page_token
            if not token:
                assert len(actions) == page.total
                return version, actions

    def act(self, view: board_pb2.MatchView) -> dict:
        version, actions = self.legal()
        assert version == view.version and actions, "the seat to act has actions"
        if self.chooser == "policy":
            decoded = [json.loads(a.action_json) for a in actions]
            pick = policy.choose(json.loads(view.view_json), self.seat, decoded, self.rng)
            chosen = actions[decoded.index(pick)]
        else:
            chosen = self.rng.choice(actions)
        request = common_pb2.ActRequest(match_id=self.match_id, action_id=str(uuid.uuid4()),
                                        expected_version=version, action_json=chosen.action_json)
        send = self.combat.Resolve if chosen.service == "combat" else self.board.Move
        assert chosen.service in ("board", "combat")
        answer = send(request, metadata=self.meta, timeout=10)
        assert answer.version == version + 1
        self.sent[chosen.service] += 1
        action = json.loads(chosen.action_json)
        self.kinds.append(action["kind"])
        return action


def plant_secrets(server, redis_url: str, match_id: str) -> None:
    """Write the records of SECRETS into the stored state (see SECRETS): the state only, not the log.
    Written behind the services' backs, so the serving process forgets its copy of the match (which
    the compare-and-set cannot tell from the planted state: same version, same log)."""
    r = redis.Redis.from_url(redis_url)
    state = WizardsState.decode(r.hget(match_key(match_id), "s"))
    for seat, fields in SECRETS.items():
        state.players[seat].update(fields)
    r.hset(match_key(match_id), "s", engine_for("wizards").encode(state))
    server.platform.matches.records.drop(match_id)


def stored_state(redis_url: str, match_id: str) -> WizardsState:
    return WizardsState.decode(redis.Redis.from_url(redis_url).hget(match_key(match_id), "s"))


def assert_hides_the_others(view: dict, seat: int, state: WizardsState) -> None:
    """14.3 and 3.11: a seat sees its own secret records only; nobody sees Gem Cards or deck order."""
    engine = engine_for("wizards")
    assert view == json.loads(json.dumps(engine.view(state, seat))), "the service redacts as the engine does"
    text = json.dumps(view)
    assert not any(f'"{g}"' in text for g in GEM_IDS), "a face-down Gem Card shows"
    assert view["gem_boxes"] == {name: "face down" for name in pack().high_wizards}
    assert all(isinstance(n, int) for n in view["decks"].values()), "deck order shows"
    for p in view["players"]:
        planted = SECRETS.get(p["seat"], {})
        for key in SECRET_KEYS:
            if p["seat"] == seat:
                assert p[key] == state.players[seat][key]
            else:
                assert p[key] == "hidden", f"seat {seat} sees seat {p['seat']}'s {key}"
        for secret in (planted.get("gems") or {}).values():
            if p["seat"] != seat:
                assert secret not in text, f"seat {seat} sees seat {p['seat']}'s {secret}"


def events_until(board, match_id: str, meta, last: int) -> list:
    """The log as a seat may read it now, up to `last` (a running match's stream stays open)."""
    return events_between(board, match_id, 0, last, meta)


def test_six_seats_set_up_and_play_a_week_then_the_dice_verify(served, redis_url):
    """Section 3 set-up by six seats (tiles from the dealer's left, 3.21; colours; starts, 3.71-3.74), seven Days
    of movement turns (sections 5-6, one turn each a Day), every view redacted (14.3), then the match's dice log
    checked roll by roll against the commitment once the end reveals the seed."""
    channel = signed_in(grpc.insecure_channel(served.address))
    seats = [matchmaking_pb2.SeatSpec(kind="human", name=f"scripted {i}") for i in range(SEATS)]
    started = time.monotonic()
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="wizards", seats=seats, options_json=json.dumps({"days": DAYS})))
    tokens = {t.seat: t.token for t in m.seat_tokens}
    assert sorted(tokens) == list(range(SEATS))
    players = [Seat(channel, m.match_id, s, tokens[s], "policy" if s % 2 == 0 else "random") for s in range(SEATS)]
    spectator = board_pb2_grpc.BoardStub(channel)

    # --- the set-up (section 3): placing the 18 tiles, choosing colours --------------------------------
    placed_by, kinds = [], []
    view = players[0].view()
    while json.loads(view.view_json)["phase"] == "setup":
        assert view.to_act >= 0, "the set-up waits only for seats (the dice are rolled by the service)"
        action = players[view.to_act].act(view)
        kinds.append(action["kind"])
        if action["kind"] == "place_tile":
            placed_by.append(view.to_act)
        view = players[0].view()
    setup_s = time.monotonic() - started
    v = json.loads(view.view_json)
    dealer = v["dealer"]
    assert kinds.count("place_tile") == 18 and kinds.count("choose_colour") == SEATS
    # 3.21: from the dealer's left, clockwise, three tiles each
    assert placed_by == [(dealer + 1 + i) % SEATS for i in range(SEATS)] * 3
    assert len({t["tile"] for t in v["tiles"]["placed"]}) == 18 and v["dragon"] is not None
    starts = [tuple(p["at"]) for p in v["players"]]
    assert len(set(starts)) == SEATS  # 3.72
    w = world_of(placements_in(v["tiles"]))
    assert all(w.spaces[h].tile_type == "common" for h in starts)  # 3.71
    assert v["turn"]["seat"] == dealer  # 3.74

    plant_secrets(served, redis_url, m.match_id)

    # --- a week of movement turns ------------------------------------------------------------------
    checked, turns_seen = 0, set()
    while (view := players[0].view()).status != "finished":
        assert time.monotonic() - started < 120, "the week did not end in time"
        state = stored_state(redis_url, m.match_id)
        who = view.to_act
        assert who >= 0
        own = players[who].view() if who else view
        assert_hides_the_others(json.loads(own.view_json), who, state)
        if checked % 7 == 0:  # every seat and a spectator now and then
            for p in players:
                assert_hides_the_others(json.loads(p.view().view_json), p.seat, state)
            watcher = json.loads(spectator.GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id)).view_json)
            assert_hides_the_others(watcher, None, state)
        checked += 1
        if state.turn:
            turns_seen.add((state.calendar["days_played"], state.turn["seat"]))
        players[who].act(own)
    week_s = time.monotonic() - started - setup_s

    final = json.loads(view.view_json)
    outcome = json.loads(view.outcome_json)
    assert final["calendar"]["days_played"] == DAYS and outcome["winners"] == []
    assert turns_seen, "seats acted on their turns"
    # section 6: the random seats moved (the policy may stay put when no step gets it nearer its goal)
    assert all("move" in p.kinds for p in players if p.chooser == "random")
    assert sum(p.sent["combat"] for p in players) > 0, "the spell casts went to Combat.Resolve"
    assert {k for p in players for k in p.kinds} >= {"place_tile", "choose_colour", "move", "end_move", "cast"}
    assert sum(p.sent["board"] for p in players) > 18 + SEATS
    assert sum(p.pages for p in players) >= sum(sum(p.sent.values()) for p in players), "every action was listed first"
    print(f"wizards 6 seats: set-up {setup_s:.1f}s, a week of turns {week_s:.1f}s, "
          f"{sum(sum(p.sent.values()) for p in players)} actions, {view.version} versions")

    state = stored_state(redis_url, m.match_id)
    for p in players:  # the end reveals the dice, never another seat's records
        assert_hides_the_others(json.loads(p.view().view_json), p.seat, state)
    after = list(players[1].board.WatchMatch(board_pb2.WatchMatchRequest(match_id=m.match_id), metadata=players[1].meta,
                                             timeout=30))
    shuffles = [json.loads(e.body_json) for e in after if e.type == "roll" and json.loads(e.body_json).get("secret")]
    begun = [json.loads(e.body_json) for e in after if e.type == "turn_begins"]
    for seat in range(SEATS):  # one turn each, each day (5), lost turns included (7.304 1, 8.3)
        assert sum(1 for b in begun if b["seat"] == seat and not b["extra"]) == DAYS
    assert shuffles and not any(r == "?" for b in shuffles for pool in b["pools"] for r in pool["results"])

    # --- the dice: hash chain, commitment and every roll, now that the seed is revealed ------------
    verdict = dice_pb2_grpc.DiceStub(channel).Verify(dice_pb2.VerifyRequest(session_id=m.match_id), timeout=30)
    assert verdict.ok, list(verdict.problems)
    log = dice_pb2_grpc.DiceStub(channel).ExportLog(dice_pb2.ExportLogRequest(session_id=m.match_id), timeout=30)
    rolls = [json.loads(e.body_json) for e in log.events if e.type == "roll"]
    assert verdict.rolls_checked == sum(len(p["results"]) for r in rolls for p in r["pools"]) > 0
    assert any(r.get("secret") for r in rolls)  # the deck shuffles (3.1)
    assert log.commitment == m.dice_commitment


def test_secret_dice_stay_hidden_from_every_seat_until_the_end(served):
    """3.1 / 3.11: the decks and Gem Cards are shuffled in secret; while the match runs no seat reads those
    faces in the log (roll results '?', the game's own dice event redacted)."""
    channel = signed_in(grpc.insecure_channel(served.address))
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="wizards", seats=[matchmaking_pb2.SeatSpec(kind="human") for _ in range(3)],
        options_json=json.dumps({"days": 1})))
    board = board_pb2_grpc.BoardStub(channel)
    for t in m.seat_tokens:
        meta = (("x-seat-token", t.token),)
        view = board.GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id), metadata=meta)
        events = events_until(board, m.match_id, meta, view.last_seq)
        secret = [json.loads(e.body_json) for e in events if e.type == "roll" and json.loads(e.body_json).get("secret")]
        assert secret and all(r == "?" for body in secret for pool in body["pools"] for r in pool["results"])
        shown = [json.loads(e.body_json) for e in events if e.type == "dice"]
        assert shown and all(body.get("redacted") or not body["secret"] for body in shown)
        assert any(body.get("redacted") for body in shown)


def test_the_renderer_draws_the_islands_of_a_served_match(served):
    """The terminal drawing of a seat's served view: every tile by name, every wall on its side, each player
    on his space."""
    channel = signed_in(grpc.insecure_channel(served.address))
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="wizards", seats=[matchmaking_pb2.SeatSpec(kind="human") for _ in range(SEATS)],
        options_json=json.dumps({"days": 1})))
    players = [Seat(channel, m.match_id, t.seat, t.token, "policy", page=5000) for t in m.seat_tokens]
    while json.loads((view := players[0].view()).view_json)["phase"] == "setup":
        players[view.to_act].act(view)
    v = json.loads(players[1].view().view_json)
    text = render(v, 1)
    for tile in pack().tile_ids:
        assert f"{tile} {pack().tiles[tile]['name']} at " in text
    w = world_of(placements_in(v["tiles"]))
    lines, frame = board_lines(v, 1), frame_for(v)
    for a, b in w.walls:
        line, x = frame.side(a, direction_to(a, b))
        assert lines[line][x] == WALL
    for p in v["players"]:
        line, x = frame.cell(tuple(p["at"]))
        assert lines[line][x - 1] == "abcdef"[p["seat"]]


def test_archmage_play_wizards_draws_the_islands(served):
    """`archmage play wizards` (services/cli/play.py, shared.wizards.render): a person plays the solitaire game
    (Appendix A) from the terminal for a day: face-down tiles drawn as '?', then the islands with their terrain,
    walls and the piece, the actions listed and chosen from stdin."""
    proc = subprocess.run([sys.executable, "-m", "services.cli.main", "--addr", served.address, "play", "wizards",
                           "--ai", "0", "--options", json.dumps({"days": 1})],
                          input="0\n" * 400, capture_output=True, text=True, timeout=120, env=dict(os.environ))
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "set aside Megmoran's Tower" in out and "place the next face-down tile" in out
    assert "Face-down tiles to place" in out and " ? " in out  # Appendix A 5: laid face down
    assert "tiles turned up" in out
    final = out[out.rindex("WIZARDS - Day"):]
    assert "Dragon's Lair at [" in final and "Sacred Circle at [" in final  # tiles turned up, named
    rows = [line for line in final.splitlines() if re.match(r"r\d+ +q +-?\d+ ", line)]
    assert len(rows) >= 10 and sum(row.count(WALL) for row in rows) > 0  # the islands, walls and all
    assert sum(len(re.findall(r"[ |#/\\]a\S", row)) for row in rows) == 1  # the piece, once
    assert "Match over. " in out and "verify it: archmage verify" in out
