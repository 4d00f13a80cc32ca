"""Random legal play from states built to meet what set-up alone rarely reaches (Orders, Animals,
afflictions, Boats; partners gathering Gems; the Evil attacks past Day 14): it ends, invariants hold, no
view leaks hidden information (Gem Cards, face-down and removed tiles, another player's Gem Record),
states round-trip through bytes and a replay of the log reproduces the match. Random play from set-up
of every variant and seat count is tests/engine/test_conformance.py's, for every game."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.engine import TERMINAL
from shared.engine.playout import random_playout
from shared.wizards.pack import pack
from shared.wizards.state import WizardsState
from tests.wizards.scenario import ENGINE

pytestmark = pytest.mark.slow  # random play to the end, many times: `make test-fast` leaves it out

GEM_IDS = [f'"{c["id"]}"' for c in pack().gem_cards]


def scramble(state: WizardsState, seat: int, rng: random.Random) -> WizardsState:
    """The same state with everything `seat` may not know changed (on a copy of its own)."""
    s = ENGINE.decode(ENGINE.encode(state))
    for deck in s.decks.values():
        rng.shuffle(deck)
    values = list(s.gem_boxes.values())
    rng.shuffle(values)
    s.gem_boxes = dict(zip(s.gem_boxes, values))
    t = s.tiles
    hidden = [p for p in t["placed"] if p["face_down"]]
    pool = [p["tile"] for p in hidden] + t["stack"] + t["removed"]
    rng.shuffle(pool)
    for p in hidden:
        p["tile"] = pool.pop()
    t["stack"] = [pool.pop() for _ in range(len(t["stack"]))]
    t["removed"] = pool
    for p in s.players:
        if p["seat"] != seat:
            p["gems"] = {"Ishkatar": rng.choice(["Ruby", "Onyx"])}
            p["secret_record"] = {"A": rng.choice(["Terek", "Veldor"])}
            p["false_wizard"] = rng.choice(["Aevarex", None])
    return s


def check_state(state: WizardsState, rng: random.Random) -> None:
    ENGINE.check_invariants(state)
    assert ENGINE.decode(ENGINE.encode(state)) == state
    for seat in list(range(state.seats)) + [None]:
        v = ENGINE.view(state, seat)
        text = json.dumps(v)
        assert not any(g in text for g in GEM_IDS), "a Gem Card shows"
        if state.tiles["face_down"]:
            assert all(p["tile"] is None for p in v["tiles"]["placed"])
        for t in state.tiles["removed"]:
            assert f'"{t}"' not in json.dumps(v["tiles"]), "a removed tile shows"
        if rng.random() < 0.2:
            scrambled = scramble(state, seat if seat is not None else -1, rng)
            assert ENGINE.view(scrambled, seat) == v, "a view depends on hidden state"


def play_from(start, rng: random.Random, steps: int, on_events=None):
    """Random legal play from `start` (not set-up), every state checked (check_state): the state it ends
    in (TERMINAL, or after `steps`), and its log, which `replay_from` runs again."""
    return random_playout(ENGINE, None, rng, steps, on_state=lambda s: check_state(s, rng), start=start,
                          on_step=(lambda _, events: on_events(events)) if on_events else None)


def replay_from(start, log):
    again = start
    for step in log:
        again = ENGINE.apply_chance(again, step[1])[0] if step[0] == "chance" else ENGINE.apply(again, *step[1:])[0]
    return again


def equip(rng: random.Random):
    """Give players Orders, Ranks, Animals, afflictions, Movement Events and spare Boats at random, so random
    play meets the spells, animals and afflictions part two will hand out."""
    def prepare(s):
        from shared.wizards.world import world_for

        w = world_for(s)
        water = sorted(w.water)
        for _ in range(rng.randint(0, 4)):
            s.boats.append({"id": len(s.boats), "at": list(rng.choice(water)), "rider": None})
        movement_cards = [c["number"] for c in pack().event_cards if c["type"] == "movement"]
        for p in s.players:
            if rng.random() < 0.8:
                p["order"], p["rank"] = rng.choice(["wizards", "sorcerers", "druids"]), rng.randint(1, 4)
            roll = rng.random()
            if roll < 0.15:
                p["afflictions"] = [rng.choice(["demon_dazed", "dragonbound"])]
            elif roll < 0.7:
                kind = rng.choice(["unicorn", "winged_horse", "horse", "hound"])
                turns = {"unicorn": 1, "winged_horse": 2, "horse": 3, "hound": 4}[kind]
                p["animal"] = {"kind": kind, "turns": turns, "since": 0}
            if rng.random() < 0.4 and "dragonbound" not in p["afflictions"]:
                card = rng.choice(movement_cards)
                if card in s.decks["event"]:
                    s.decks["event"].remove(card)
                    p["events"].append({"card": card, "days": rng.randint(1, 4)})
            if rng.random() < 0.3:
                places = [("M1", "B1"), ("M1", "A3"), ("E4", "A3"), ("E5", "B4"), ("M3", "B1"), ("M6", "B3")]
                tile, label = rng.choice(places)
                p["at"] = list(w.hex_of[(tile, label)])
                if tile == "M6":
                    p["lair_time"] = 14 if "dragonbound" not in p["afflictions"] else None
            p["star_crest_directed"] = rng.random() < 0.2
        spots = [tuple(p["at"]) for p in s.players]
        assert spots
    return prepare


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(1, 6))
def test_random_play_with_spells_animals_and_afflictions(seed, seats):
    """From states holding Orders, Animals, afflictions and Boats, random legal play keeps every invariant,
    hides what it must, round-trips, ends, and replays to the same bytes."""
    from tests.wizards.scenario import build

    rng = random.Random(seed)
    start = build(seats=seats, days=4, prepare=equip(rng))
    s, log = play_from(start, rng, 3000)
    assert ENGINE.actor(s) == TERMINAL
    assert ENGINE.encode(replay_from(start, log)) == ENGINE.encode(s)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.sampled_from([4, 6]))
def test_random_partnership_play_hides_every_gem_record(seed, seats):
    """Appendix B / 14.3: random legal play of the partnership game from states where every player gathers
    Gems keeps every invariant, and no seat's view depends on another's Gem Record (exchanges included)."""
    from tests.wizards.scenario import build

    rng = random.Random(seed)

    def prepare(s):
        for p in s.players:
            p["order"], p["rank"] = "wizards", 4
            p["gems"] = {"Ishkatar": "Diamond"} if p["seat"] % 2 else {"Terek": "Topaz"}
        for p in s.players[1:]:
            p["at"] = list(s.players[0]["at"])  # everyone together: partners meet at once
    s, _ = play_from(build(seats=seats, days=2, prepare=prepare, variant="partnership"), rng, 1500)
    assert ENGINE.actor(s) == TERMINAL


def late_game(rng: random.Random):
    """Equipped players (as `equip`) in Fortnight 2, Day 11, with every Common and Elven Territory and three
    Sorcerers' Towers lost to Evil: the next Day 14 transports everyone (12.11), the ones after it take
    Hamdrel's Cottage and the Sacred Circle (12.12-12.13), and the Circle's fall ends the match (12.46)."""
    from tests.wizards.scenario import hex_of, take

    lost = [t for t in pack().tile_ids if t[0] in "CE"] + ["M2", "M3", "M4"]
    spots = [("M1", "B1"), ("M1", "B2"), ("M1", "B4"), ("M1", "B5"), ("M5", "A1"), ("M6", "A2")]

    def prepare(s):
        equip(rng)(s)
        take(s, *lost)
        from shared.wizards.world import world_for
        w = world_for(s)
        for p, (tile, label) in zip(s.players, spots):
            if w.tile_of(tuple(p["at"])) in lost:
                p["at"] = list(hex_of(s, tile, label))
                p["lair_time"] = 14 if tile == "M6" and "dragonbound" not in p["afflictions"] else None
        taken_spots = [tuple(p["at"]) for p in s.players]
        if len(set(taken_spots)) != len(taken_spots):  # 3.72: no two start in one space
            for p, (tile, label) in zip(s.players, spots):
                p["at"] = list(hex_of(s, tile, label))
                p["lair_time"] = 14 if tile == "M6" and "dragonbound" not in p["afflictions"] else None
        s.calendar = {"day": 11, "fortnight": 2, "days_played": 24}
    return prepare


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(1, 6))
def test_random_play_past_day_fourteen_ends_only_by_a_rule(seed, seats):
    """Random legal play through the Evil attacks (12.1-12.46) keeps every invariant, hides what it must,
    round-trips, replays to the same bytes, and ends only when the Sacred Circle falls (12.46): no time
    limit is set."""
    from tests.wizards.scenario import build

    rng = random.Random(seed)
    start = build(seats=seats, prepare=late_game(rng))
    attacks = []
    s, log = play_from(start, rng, 20000,
                       lambda events: attacks.extend(e for e in events if e["type"] == "evil_attacks"))
    assert ENGINE.actor(s) == TERMINAL and s.days_limit is None
    assert s.taken[-1] == "M1" and "Sacred Circle" in ENGINE.outcome(s).summary and len(attacks) >= 2
    assert ENGINE.encode(replay_from(start, log)) == ENGINE.encode(s)
