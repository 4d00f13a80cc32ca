"""The Set-Up, section 3, and the solitaire set-up of Appendix A, with scripted dice."""
from __future__ import annotations

import random

import pytest

from shared.engine import CHANCE, InvalidConfig, MatchConfig, RuleViolation
from shared.hexgrid import neighbour, neighbours
from shared.wizards import boats
from shared.wizards.engine import WizardsEngine
from shared.wizards.pack import pack
from shared.wizards.world import world_for
from tests.wizards.scenario import ENGINE, LAYOUT, build, config


def ones(state):
    return [[1] * p["count"] for p in state.chance["request"]["pools"]]


def through_decks(seats=2, **options):
    s = ENGINE.setup(config(seats, **options))
    return ENGINE.apply_chance(s, ones(s))[0]


def place_all(s, rng):
    while s.step == "place_tiles" and s.await_:
        seat = s.await_["seat"]
        s, _ = ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat)))
    return s


def test_decks_are_shuffled_in_secret_and_gems_dealt_face_down():
    """3.1-3.12: all decks shuffled; ONE Gem Card face down in each High Wizard's box; Wizard Markers in their boxes."""
    s = ENGINE.setup(config(2))
    req = ENGINE.chance_request(s)
    assert req.secret
    rng = random.Random(7)
    outcome = [[rng.choice(p.faces)] for p in req.pools]
    s, events = ENGINE.apply_chance(s, outcome)
    p = pack()
    assert sorted(s.decks["task"]) == list(range(1, 99)) and s.decks["task"] != list(range(1, 99))
    assert sorted(s.decks["event"]) == list(range(1, 50))
    assert sorted(s.decks["wizard"]) == sorted(c["id"] for c in p.wizard_cards)
    assert list(s.gem_boxes) == list(p.high_wizards)
    assert sorted(s.gem_boxes.values()) == sorted(c["id"] for c in p.gem_cards)
    assert s.wizard_markers == {n: None for n in p.high_wizards}
    dice = [e for e in events if e["type"] == "dice"][0]
    assert dice["secret"] and dice["visible_to"] == []


def test_highest_roll_deals_and_ties_roll_again():
    """3.2: each player rolls two dice, the highest roll deals (authored: tied high rollers roll again)."""
    s = through_decks(3)
    s, ev = ENGINE.apply_chance(s, [[6, 5], [2, 2], [5, 6]])
    assert s.dealer is None and [p["purpose"] for p in s.chance["request"]["pools"]] == [
        "seat 0: two dice for dealer", "seat 2: two dice for dealer"]
    s, ev = ENGINE.apply_chance(s, [[1, 2], [3, 1]])
    assert s.dealer == 2


def test_boats_placed_next_to_harbours_farthest_clockwise_towards_land():
    """3.3-3.32: one Boat next to each Town, Dwelling and the Abbey touching Water, in the Water space
    farthest clockwise towards land; unused markers leave play."""
    layout = dict(LAYOUT)
    layout["C2"] = ((9, 5), 0)
    s = build(layout=layout)
    w = world_for(s)
    placed = boats.starting_boats(w)
    assert len(placed) == len(s.boats) <= 10
    for harbour, boat in placed:
        assert w.kind(harbour) in ("town", "dwelling", "abbey") and w.is_water(boat)
        ring = neighbours(harbour)
        d = ring.index(boat)
        assert not w.is_water(ring[(d + 1) % 6])  # the next space clockwise is land (or the board's edge)
    # A lone tile in open water: every rim harbour has Water all round its outside.
    lone = {"C2": ((14, 10), 0)}
    # the other tiles, less those that would touch C2 where it now lies
    apart = {t: v for t, v in LAYOUT.items() if t not in ("C2", "C5", "C1", "C4", "E3", "C6", "E2")}
    st = build(seats=1, layout={**lone, **apart}, at={0: ("C2", "A3")})
    w2 = world_for(st)
    town = w2.hex_of[("C2", "B1")]  # B1, the east corner: Water to its NE, E and SE, land to its SW
    assert boats.mooring(w2, town) == neighbour(town, 1)  # SE is the last Water going clockwise before land


def test_dragon_starts_in_a_random_lair_space():
    """3.4: the Dragon Marker in a random space of the Dragon's Lair (exact space by white and red, 4.2)."""
    s = through_decks(2)
    s, _ = ENGINE.apply_chance(s, [[6, 6], [1, 1]])
    s, _ = ENGINE.apply_chance(s, ones(s))
    s = place_all(s, random.Random(2))
    assert s.chance["then"]["do"] == "dragon_placed"
    s, ev = ENGINE.apply_chance(s, [[3], [4]])
    w = world_for(s)
    assert tuple(s.dragon) == w.hex_of[("M6", "B4")]
    assert [tuple(b["at"]) for b in s.boats] == [m for _, m in boats.starting_boats(w)]  # 3.3 came first
    assert s.calendar == {"day": 1, "fortnight": 1, "days_played": 0}  # 3.5
    assert (s.completion, s.thwart) == (0, "takeover")  # 3.6


def test_colours_chosen_from_the_dealer_clockwise():
    """3.7: each player, starting with the Dealer, selects a Playing Piece."""
    s = through_decks(3)
    s, _ = ENGINE.apply_chance(s, [[1, 1], [6, 6], [2, 2]])
    s, _ = ENGINE.apply_chance(s, ones(s))
    s = place_all(s, random.Random(4))
    s, _ = ENGINE.apply_chance(s, [[1], [1]])
    assert s.await_ == {"seat": 1, "for": "choose_colour"}
    s, _ = ENGINE.apply(s, 1, {"kind": "choose_colour", "colour": "green"})
    assert s.await_["seat"] == 2
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(s, 2, {"kind": "choose_colour", "colour": "green"})
    assert e.value.rule == "3.7"
    assert {"kind": "choose_colour", "colour": "green"} not in ENGINE.legal_actions(s, 2)


def ready_to_start(seats=2):
    s = through_decks(seats)
    s, _ = ENGINE.apply_chance(s, [[6, 6]] + [[1, 1]] * (seats - 1))
    s, _ = ENGINE.apply_chance(s, ones(s))
    s = place_all(s, random.Random(5))
    s, _ = ENGINE.apply_chance(s, [[1], [1]])
    for _ in range(seats):
        s, _ = ENGINE.apply(s, s.await_["seat"], ENGINE.legal_actions(s, s.await_["seat"])[0])
    return s


def test_start_in_a_random_common_space_rolled_again_if_occupied():
    """3.71-3.72: each player rolls a random COMMON space (red die for the Territory, white and red
    for the space); a second player rolling an occupied space rolls over."""
    s = ready_to_start(2)
    req = ENGINE.chance_request(s)
    assert [p.purpose for p in req.pools] == ["red die: Common Territory",
                                              "white die: space letter (1-2 A, 3-4 B, 5-6 C)",
                                              "red die: space number"]
    s, ev = ENGINE.apply_chance(s, [[3], [2], [5]])  # the dealer: Longrift A5
    w = world_for(s)
    assert tuple(s.players[0]["at"]) == w.hex_of[("C3", "A5")]
    s, ev = ENGINE.apply_chance(s, [[3], [1], [5]])  # seat 1 rolls the same space: roll over
    assert any(e["type"] == "start_space_reroll" for e in ev) and s.players[1]["at"] is None
    s, ev = ENGINE.apply_chance(s, [[6], [6], [6]])
    assert tuple(s.players[1]["at"]) == w.hex_of[("C6", "C6")]
    assert s.phase == "play"


def test_the_dealer_moves_first():
    """3.74: in all normal turns the Dealer moves first."""
    s = ready_to_start(3)
    for seat in range(3):
        s, _ = ENGINE.apply_chance(s, [[1 + seat], [1], [1 + seat]])
    assert s.turn["seat"] == s.dealer == 0
    assert ENGINE.actor(s) == CHANCE and s.chance["then"]["do"] == "movement_rolled"


def test_a_full_scripted_setup_reaches_play_with_every_piece_in_place():
    """Section 3 end to end: tiles placed, boats, Dragon, Day ONE, colours, starting spaces."""
    s = ready_to_start(2)
    s, _ = ENGINE.apply_chance(s, [[1], [1], [1]])
    s, _ = ENGINE.apply_chance(s, [[2], [1], [1]])
    ENGINE.check_invariants(s)
    assert len(s.tiles["placed"]) == 18 and all(p["at"] for p in s.players)
    assert all(p["colour"] for p in s.players)
    assert all(p["order"] is None and p["rank"] == 0 for p in s.players)  # 3.73


def test_solitaire_tile_set_up():
    """Appendix A: set aside the Sacred Circle, Hamdrel's Cottage, the Dragon's Lair and ONE Tower; remove
    a die's worth of the rest unseen; shuffle the four back in; place them face down, then turn them up."""
    s = ENGINE.setup(MatchConfig(1, "solitaire"))
    s, _ = ENGINE.apply_chance(s, ones(s))
    assert s.await_ == {"seat": 0, "for": "set_aside_tower"}
    assert ENGINE.legal_actions(s, 0) == [{"kind": "set_aside_tower", "tile": t} for t in ("M2", "M3", "M4")]
    with pytest.raises(RuleViolation):
        ENGINE.apply(s, 0, {"kind": "set_aside_tower", "tile": "M1"})
    s, _ = ENGINE.apply(s, 0, {"kind": "set_aside_tower", "tile": "M3"})
    assert s.tiles["aside"] == ["M1", "M5", "M6", "M3"]
    s, _ = ENGINE.apply_chance(s, [[4]])  # remove four tiles
    req = ENGINE.chance_request(s)
    assert req.secret
    rng = random.Random(11)
    s, _ = ENGINE.apply_chance(s, [[rng.choice(p.faces)] for p in req.pools])
    removed = s.tiles["removed"]
    assert len(removed) == 4 and not set(removed) & {"M1", "M5", "M6", "M3"}
    assert len(s.tiles["stack"]) == 14 - 4 + 4
    legal = ENGINE.legal_actions(s, 0)
    assert all("tile" not in a for a in legal)  # face down: the player does not know which tile
    v = ENGINE.view(s, 0)
    text = str(v)
    for t in removed + [t for t in s.tiles["stack"] if t not in s.tiles["aside"]]:
        assert repr(t) not in text
    s, _ = ENGINE.apply(s, 0, legal[0])  # face down there is no tile to choose: the spot, then the turn
    s, ev = ENGINE.apply(s, 0, ENGINE.legal_actions(s, 0)[0])
    assert ENGINE.view(s, 0)["tiles"]["placed"][0]["tile"] is None
    assert [e for e in ev if e["type"] == "tile_placed"][0]["tile"] is None
    s = place_all(s, rng)
    assert s.tiles["face_down"] is False and len(s.tiles["placed"]) == 14
    assert all(p["tile"] for p in ENGINE.view(s, 0)["tiles"]["placed"])


def test_solitaire_difficulty_by_choice():
    """Appendix A 3: the player may remove up to SIX tiles instead of rolling."""
    s = ENGINE.setup(MatchConfig(1, "solitaire", {"removed_tiles": 6}))
    s, _ = ENGINE.apply_chance(s, ones(s))
    s, _ = ENGINE.apply(s, 0, {"kind": "set_aside_tower", "tile": "M2"})
    assert s.chance["then"]["do"] == "solitaire_shuffled"
    s, _ = ENGINE.apply_chance(s, ones(s))
    assert len(s.tiles["removed"]) == 6 and len(s.tiles["stack"]) == 12
    with pytest.raises(InvalidConfig):
        ENGINE.setup(MatchConfig(2, "solitaire"))
    with pytest.raises(InvalidConfig):
        ENGINE.setup(MatchConfig(1, "solitaire", {"removed_tiles": 7}))


def test_solitaire_random_spaces_skip_removed_tiles():
    """Appendix A with 12.45: a random space never falls in a Territory that is not on the board."""
    s = ENGINE.setup(MatchConfig(1, "solitaire", {"removed_tiles": 6}))
    s, _ = ENGINE.apply_chance(s, ones(s))
    s, _ = ENGINE.apply(s, 0, {"kind": "set_aside_tower", "tile": "M2"})
    s, _ = ENGINE.apply_chance(s, ones(s))  # removes the first six of the 14: C1-C6
    assert sorted(s.tiles["removed"]) == ["C1", "C2", "C3", "C4", "C5", "C6"]
    s = place_all(s, random.Random(1))
    s, _ = ENGINE.apply_chance(s, [[1], [1]])
    s, _ = ENGINE.apply(s, 0, {"kind": "choose_colour", "colour": "red"})
    # No Common Territory is left, so the random COMMON start is rolled as RANDOM (authored, 12.45).
    req = ENGINE.chance_request(s)
    assert len(req.pools) == 4
    s, ev = ENGINE.apply_chance(s, [[1], [2], [1], [1]])  # Common 2: not in play, roll over
    assert any(e["type"] == "start_space_reroll" for e in ev)
    s, ev = ENGINE.apply_chance(s, [[3], [2], [1], [1]])  # Elven 2: Meadowshire A1
    assert world_for(s).tile_of(tuple(s.players[0]["at"])) == "E2"


def test_engine_identity_and_configs():
    """The engine's names and the match configurations it refuses."""
    e = WizardsEngine()
    assert (e.name, e.title, e.min_seats, e.max_seats) == ("wizards", "Wizards", 1, 6)
    for bad in (MatchConfig(0), MatchConfig(7), MatchConfig(2, "partnership"), MatchConfig(2, options={"days": 0}),
                MatchConfig(2, options={"colour": "x"})):
        with pytest.raises(InvalidConfig):
            e.setup(bad)
