"""Board queries: destinations and paths for the asking seat's Character (Movement on the Board, Caves)."""
from __future__ import annotations

import json
import random

import pytest

from shared.engine import MalformedAction, MatchConfig, RuleViolation
from shared.tower import movement
from shared.tower.pack import ROCKY, pack
from shared.tower.state import TowerState
from tests.tower.scenario import E, act, at, blank, castle, scattered, spell

P = pack()
CHARS = {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"}


def game(characters=CHARS, **where) -> TowerState:
    state = blank(4, characters)
    for seat, t in where.items():
        at(state, int(seat[1:]), t)
    return state


def ask(state: TowerState, seat, **query) -> dict:
    return E.query(state, seat, query)


def to_move(state: TowerState, seat: int) -> TowerState:
    """The same board with `seat` to make a regular move."""
    s = E.decode(E.encode(state))
    s.tasks[-1] = {"task": "move", "seat": seat, "extra": False}
    s.turn["seat"] = seat
    return s


def every_path(start: str, character: str, occupied: frozenset, to: str) -> set:
    """Brute force: every sequence of legs (any touching territory, any cave) that movement.check_path
    accepts and that ends on `to`; a prefix is extended only while check_path finds no broken leg."""
    legs_any = [("cave", c) for c in P.caves] + [("walk", ROCKY)]
    out = set()
    limit = P.characters[character].moves + 3

    def grow(prefix):
        if len(prefix) >= limit:
            return
        where = prefix[-1][1] if prefix else start
        touching = P.rocky_touches if where == ROCKY else [c.to for c in P.crossings[where]]
        for leg in [("walk", t) for t in touching] + legs_any:
            path = prefix + [leg]
            try:
                end = movement.check_path(start, character, occupied, [list(x) for x in path])
            except RuleViolation as e:
                if "ends on another territory" not in e.detail and "occupied" not in e.detail:
                    continue  # a broken leg: no longer path starting so is legal
                end = None
            if end == to:
                out.add(tuple(path))
            grow(path)

    grow([])
    return out


def test_destinations_are_the_moves_listed_on_the_seats_turn():
    """Movement on the Board: the destinations and the path to each are exactly the listed moves."""
    rng = random.Random(7)
    for _ in range(25):
        chars, spots, state = scattered(rng)
        moves = sorted(({"to": a["to"], "path": a["path"]} for a in E.legal_actions(state, 0) if a["kind"] == "move"),
                       key=lambda d: d["to"])
        got = ask(state, 0, kind="destinations")
        assert got["destinations"] == moves
        assert got["character"] == chars[0] and got["at"] == spots[0] and got["moves"] == P.characters[chars[0]].moves


def test_destinations_answer_off_turn_from_where_the_character_stands():
    """Movement on the Board: a seat not on turn is told what its Character could reach from where it
    stands, with the same rules as on its own move (Characters of other seats, seat 0's included, block landing)."""
    state = game(s0="thornwood", s1="slate-pass", s2="goldmeadow", s3="iron-crag")
    off = ask(state, 1, kind="destinations")
    own = [{"to": a["to"], "path": a["path"]} for a in E.legal_actions(to_move(state, 1), 1) if a["kind"] == "move"]
    assert off["destinations"] == sorted(own, key=lambda d: d["to"]) and off["at"] == "slate-pass"
    assert E.legal_actions(state, 1) == []  # not seat 1's turn: the query still answers
    far = ask(game(s0="slate-pass", s1="thornwood"), 1, kind="destinations")
    assert "slate-pass" not in {d["to"] for d in far["destinations"]}


def test_the_first_move_leaves_the_rocky_space_for_a_touching_territory():
    """Movement on the Board: 'All Characters start ... on the large rocky space ... and move off it onto any
    territory that touches it.'"""
    state = game()
    got = ask(state, 2, kind="destinations")
    assert got["at"] == ROCKY
    assert set(P.rocky_touches) <= {d["to"] for d in got["destinations"]}
    assert all(d["path"][0][1] in P.rocky_touches for d in got["destinations"])
    rocky = ask(state, 2, kind="paths", to=ROCKY)
    assert rocky["paths"] == [] and "rocky" in rocky["why"]


def test_paths_are_every_legal_path_to_the_destination():
    """Movement on the Board ('You may re-enter the same space twice - or more') and Caves: the paths are
    all the leg sequences the rules accept, checked against a brute force over every leg."""
    cases = [("Warrior", "thornwood", "eagle-spire"), ("Ogre", "goldmeadow", "lark-heath"),
             ("Minotaur", "goldmeadow", "slate-pass"), ("Skeleton", "reedwater", "thornwood"),
             ("Dragon", "goldmeadow", "mossy-hollow")]
    for character, start, to in cases:
        chars = dict(enumerate([character] + [c for c in ("Dwarf", "Elf", "Orc", "Warrior") if c != character][:3]))
        state = game(chars, s0=start, s1="crownfield")
        got = ask(state, 0, kind="paths", to=to)
        listed = {tuple(tuple(leg) for leg in p) for p in got["paths"]}
        assert listed, (character, to)
        assert listed == every_path(start, character, frozenset({"crownfield"}), to), character
        assert [len(p) for p in got["paths"]] == sorted(len(p) for p in got["paths"])


def test_every_path_is_accepted_as_the_move():
    """Movement on the Board: apply accepts each path the query gives, landing on the destination."""
    state = game({0: "Ogre", 1: "Dwarf", 2: "Elf", 3: "Orc"}, s0="goldmeadow", s1="crownfield")
    got = ask(state, 0, kind="paths", to="lark-heath")
    assert any(len(p) > P.characters["Ogre"].moves for p in got["paths"])  # the Mountain cave bonus
    for path in got["paths"]:
        new, _ = act(state, 0, {"kind": "move", "to": "lark-heath", "path": path})
        assert new.players[0]["at"] == "lark-heath"


def test_the_cave_bonus_shows_in_the_ogres_paths_and_nobody_elses():
    """Caves: 'Ogres are allowed to move 2 extra spaces after exiting a Mountain cave.'"""
    ogre = ask(game({0: "Ogre", 1: "Dwarf", 2: "Elf", 3: "Orc"}, s0="goldmeadow"), 0, kind="paths", to="willowmere")
    legs = [["walk", "iron-crag"], ["cave", "raven-tor"], ["walk", "lark-heath"], ["walk", "willowmere"]]
    assert legs in ogre["paths"]
    orc = ask(game({0: "Orc", 1: "Dwarf", 2: "Elf", 3: "Warrior"}, s0="goldmeadow"), 0, kind="paths", to="willowmere")
    assert orc["paths"] == [] and "out of reach" in orc["why"]


def test_an_occupied_territory_is_passed_through_but_never_a_destination():
    """Movement on the Board: 'You may not land on a space occupied by another Character, but you may pass
    through a space with a Character on it.'"""
    state = game(s0="thornwood", s1="goldmeadow")
    dests = {d["to"]: d["path"] for d in ask(state, 0, kind="destinations")["destinations"]}
    assert "goldmeadow" not in dests
    got = ask(state, 0, kind="paths", to="goldmeadow")
    assert got["paths"] == [] and "occupied" in got["why"]
    through = ask(state, 0, kind="paths", to="mossy-hollow")["paths"]
    assert [["walk", "goldmeadow"], ["walk", "mossy-hollow"]] in through
    # seat 1 standing there asks about its own Character, which does not block itself: out and back
    assert ask(state, 1, kind="paths", to="goldmeadow")["paths"][0][-1] == ["walk", "goldmeadow"]


def test_rivers_shape_the_paths():
    """Movement on the Board: 'All Characters except the Dragon and Skeleton cross rivers only at a bridge.'"""
    walker = ask(game(s0="reedwater"), 0, kind="paths", to="thornwood")["paths"]
    assert ["walk", "thornwood"] not in [p[0] for p in walker if len(p) == 1]
    skeleton = ask(game({0: "Skeleton", 1: "Dwarf", 2: "Elf", 3: "Orc"}, s0="reedwater"), 0,
                   kind="paths", to="thornwood")["paths"]
    assert [["walk", "thornwood"]] in skeleton


def test_answers_use_nothing_the_seat_cannot_see():
    """Views: face-down Tokens and who is in the Tower are hidden from every seat, so no answer depends on them."""
    state = game(s0="thornwood", s1="slate-pass")
    castle(state, "goldmeadow", "home:Warrior")
    spell(state, "mossy-hollow", "Revelation")
    other = E.decode(E.encode(state))
    other.edit("board", "goldmeadow", "token")["id"] = "symbol:x"
    other.edit("board", "mossy-hollow", "token")["id"] = "spell:Transport"
    other.edit("tower")["chambers"] = [None] + list(reversed(other.tower["chambers"][1:]))
    for q in ({"kind": "destinations"}, {"kind": "paths", "to": "mossy-hollow"}):
        assert E.query(state, 0, q) == E.query(other, 0, q)
    text = json.dumps(E.query(state, 0, {"kind": "destinations"}))
    assert "home:Warrior" not in text and "Revelation" not in text


def test_before_the_deal_there_is_no_character_to_move():
    """Assembly and Setup: the Characters are dealt in the set-up; until then nothing moves."""
    state = E.setup(MatchConfig(seats=4))
    got = E.query(state, 0, {"kind": "destinations"})
    assert got["character"] is None and got["destinations"] == []
    assert E.query(state, 0, {"kind": "paths", "to": "thornwood"})["paths"] == []


@pytest.mark.parametrize("query", [
    {"kind": "teleport"}, {"kind": 3}, {}, {"kind": "paths"}, {"kind": "paths", "to": 7},
    {"kind": "paths", "to": "atlantis"}, {"kind": "destinations", "extra": 1}, ["destinations"], None,
])
def test_malformed_queries_are_refused(query):
    """The contract: unknown kinds and malformed fields are MalformedAction, never KeyError or TypeError."""
    with pytest.raises(MalformedAction):
        E.query(game(s0="thornwood"), 0, query)


def test_a_spectator_has_no_character_to_ask_about():
    """Movement queries ask about the asking seat's Character; a spectator must send a seat token."""
    with pytest.raises(MalformedAction):
        E.query(game(s0="thornwood"), None, {"kind": "destinations"})
