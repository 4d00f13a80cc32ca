"""Movement on the Board and Caves."""
from __future__ import annotations

import random
from collections import deque

import pytest

from shared.engine import MalformedAction, RuleViolation
from shared.tower import movement
from shared.tower.pack import ROCKY, pack
from shared.tower.state import TowerState
from tests.tower.scenario import E, act, at, blank, castle, scattered, top, wizard

P = pack()
CHARS = {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"}


def walk_distances(start: str, character: str) -> dict[str, int]:
    dist, queue = {start: 0}, deque([start])
    while queue:
        t = queue.popleft()
        for n in movement.walks(P, t, character):
            if n not in dist:
                dist[n] = dist[t] + 1
                queue.append(n)
    return dist


def move(to: str, *legs) -> dict:
    return {"kind": "move", "to": to, "path": [list(leg) for leg in legs]}


def game(characters=CHARS, **where) -> TowerState:
    state = blank(4, characters)
    for seat, t in where.items():
        at(state, int(seat[1:]), t)
    return state


def destinations(state: TowerState, seat: int = 0) -> set[str]:
    return {a["to"] for a in E.legal_actions(state, seat) if a["kind"] == "move"}


def listed(state: TowerState, seat: int = 0) -> dict[str, list]:
    """The listed moves: destination -> the path listed for it."""
    return {a["to"]: a["path"] for a in E.legal_actions(state, seat) if a["kind"] == "move"}


def test_characters_start_on_the_rocky_space_and_move_onto_a_touching_territory():
    """Movement on the Board: 'All Characters start ... on the large rocky space ... and move off it onto
    any territory that touches it.'"""
    state = game()
    dests = destinations(state)
    assert set(P.rocky_touches) <= dests and ROCKY not in dests
    for a in E.legal_actions(state, 0):
        if a["kind"] == "move":
            assert a["path"][0][1] in P.rocky_touches


def test_move_up_to_the_allowance():
    """Movement on the Board: 'You may move up to the maximum number of spaces printed on your
    Character Card ... 1, 2 or 3 territories'."""
    state = game(s0="slate-pass")
    dist = walk_distances("slate-pass", "Warrior")
    dests = destinations(state)
    assert {t for t, d in dist.items() if 1 <= d <= 3} <= dests
    assert all(len(a["path"]) <= 3 for a in E.legal_actions(state, 0) if a["kind"] == "move")
    far = next(t for t, d in sorted(dist.items()) if d == 4 and t not in dests)
    with pytest.raises(RuleViolation):
        act(state, 0, move(far, *[["walk", x] for x in ("briar-dell", "barley-reach", "eagle-spire", far)]))


def test_re_entering_a_space_on_the_same_turn_is_allowed():
    """Movement on the Board: 'You may re-enter the same space twice - or more - on the same turn!'"""
    state = game(s0="thornwood")
    new, _ = act(state, 0, move("eagle-spire", ("walk", "goldmeadow"), ("walk", "thornwood"), ("walk", "eagle-spire")))
    assert new.players[0]["at"] == "eagle-spire"


def test_a_move_may_come_back_to_where_it_started_and_lands_there():
    """Movement on the Board: 'You may re-enter the same space twice—or more—on the same turn!' - the start is a
    space like any other, so out and back is a move of 2 spaces, and the Character lands there again: a Castle
    with another's Pennants is fought for (How to Play 2). A move is still at least one leg."""
    state = game(s0="thornwood")
    assert listed(state)["thornwood"] == [["walk", "eagle-spire"], ["walk", "thornwood"]]
    castle(state, "thornwood", None, wizard=wizard(state, 1), count=1)
    new, events = act(state, 0, move("thornwood", ("walk", "goldmeadow"), ("walk", "thornwood")))
    assert new.players[0]["at"] == "thornwood" and top(new)["task"] == "battle"
    with pytest.raises(RuleViolation):
        act(state, 0, move("thornwood"))


def test_a_move_from_the_rocky_space_never_comes_back_to_it():
    """Movement on the Board: 'You may not re-enter the rocky space after the start of the game.'"""
    state = game()
    assert ROCKY not in destinations(state)


def test_pass_through_but_never_land_on_an_occupied_space():
    """Movement on the Board: 'You may not land on a space occupied by another Character, but you may pass
    through a space with a Character on it.'"""
    state = game(s0="thornwood", s1="goldmeadow")
    assert "goldmeadow" not in destinations(state)
    with pytest.raises(RuleViolation, match="occupied"):
        act(state, 0, move("goldmeadow", ("walk", "goldmeadow")))
    new, _ = act(state, 0, move("mossy-hollow", ("walk", "goldmeadow"), ("walk", "mossy-hollow")))
    assert new.players[0]["at"] == "mossy-hollow"


def test_rivers_are_crossed_only_at_a_bridge():
    """Movement on the Board: 'All Characters except the Dragon and Skeleton cross rivers only at a bridge.'"""
    state = game(s0="reedwater")  # Reedwater | Thornwood: the Serpent River, no bridge
    with pytest.raises(RuleViolation, match="bridge"):
        act(state, 0, move("thornwood", ("walk", "thornwood")))
    assert "thornwood" not in movement.walks(P, "reedwater", "Warrior")
    bridged = game(s0="blackmire")  # Blackmire | Elderglade: over the Mirewater bridge
    new, _ = act(bridged, 0, move("elderglade", ("walk", "elderglade")))
    assert new.players[0]["at"] == "elderglade"


@pytest.mark.parametrize("flyer", ["Dragon", "Skeleton"])
def test_dragon_and_skeleton_cross_rivers_anywhere(flyer):
    """Movement on the Board: the Dragon and the Skeleton are the exceptions."""
    state = game({0: flyer, 1: "Dwarf", 2: "Elf", 3: "Orc"}, s0="reedwater")
    new, _ = act(state, 0, move("thornwood", ("walk", "thornwood")))
    assert new.players[0]["at"] == "thornwood"


def test_the_rocky_space_is_never_re_entered():
    """Movement on the Board: 'You may not re-enter the rocky space after the start of the game.'"""
    state = game(s0="thornwood")
    with pytest.raises(RuleViolation, match="rocky"):
        act(state, 0, move("goldmeadow", ("walk", "rocky"), ("walk", "goldmeadow")))
    rng = random.Random(3)
    for t in rng.sample(list(P.territory_ids), 10):
        assert ROCKY not in movement.reachable(t, "Dragon", set())


def test_a_cave_counts_as_one_space_and_the_move_goes_on():
    """Caves: 'Count the cave-to-cave movement as one space; if you have more spaces to move on your turn,
    you may keep going when you exit the second cave.'"""
    state = game(s0="goldmeadow")  # Iron Crag (cave) touches Goldmeadow
    path = (("walk", "iron-crag"), ("cave", "hazel-thicket"), ("walk", "crownfield"))
    new, events = act(state, 0, move("crownfield", *path))
    assert new.players[0]["at"] == "crownfield"
    assert "crownfield" in destinations(state)


def test_caves_are_entered_on_landing_not_from_where_the_turn_starts():
    """Caves: 'If you land in a Territory with a cave ... enter the cave immediately' (reading in movement.py)."""
    state = game(s0="iron-crag")
    with pytest.raises(RuleViolation, match="cave"):
        act(state, 0, move("hazel-thicket", ("cave", "hazel-thicket")))
    with pytest.raises(RuleViolation, match="cave"):
        act(game(s0="goldmeadow"), 0, move("crownfield", ("walk", "iron-crag"), ("cave", "crownfield")))
    back, _ = act(state, 0, move("hazel-thicket", ("walk", "goldmeadow"), ("walk", "iron-crag"),
                                 ("cave", "hazel-thicket")))
    assert back.players[0]["at"] == "hazel-thicket", "coming back to the start is landing there"


def test_no_cave_is_entered_from_a_territory_another_character_occupies():
    """Caves: 'If you *land* in a Territory with a cave' with Movement on the Board: 'You may not land on a space
    occupied by another Character, but you may pass through' - passing through an occupied cave territory is not
    landing in it, so its cave stays shut; walking through it is allowed."""
    state = game(s0="goldmeadow", s1="iron-crag")
    with pytest.raises(RuleViolation, match="passed through"):
        act(state, 0, move("hazel-thicket", ("walk", "iron-crag"), ("cave", "hazel-thicket")))
    for path in listed(state).values():
        assert not any(a == ["walk", "iron-crag"] and b[0] == "cave" for a, b in zip(path, path[1:])), path
    free = game(s0="goldmeadow", s1="crownfield")
    assert listed(free)["hazel-thicket"] == [["walk", "iron-crag"], ["cave", "hazel-thicket"]]


def test_ogre_moves_two_extra_spaces_after_a_mountain_cave():
    """Caves: 'Ogres are allowed to move 2 extra spaces after exiting a Mountain cave.'"""
    chars = {0: "Ogre", 1: "Dwarf", 2: "Elf", 3: "Orc"}
    legs = (("walk", "iron-crag"), ("cave", "raven-tor"), ("walk", "lark-heath"), ("walk", "willowmere"))
    new, _ = act(game(chars, s0="goldmeadow"), 0, move("willowmere", *legs))
    assert new.players[0]["at"] == "willowmere"
    with pytest.raises(RuleViolation):  # a Forest cave gives the Ogre nothing
        act(game(chars, s0="goldmeadow"), 0, move("elderglade", ("walk", "iron-crag"), ("cave", "owlwood"),
                                                 ("walk", "elderglade")))
    with pytest.raises(RuleViolation):  # nor does a Mountain cave give anyone else the bonus
        act(game({0: "Orc", 1: "Dwarf", 2: "Elf", 3: "Warrior"}, s0="goldmeadow"), 0, move("willowmere", *legs))


def test_minotaur_moves_two_extra_spaces_after_a_forest_cave():
    """Caves: 'Minotaurs are allowed to move 2 extra spaces after exiting a Forest cave.'"""
    chars = {0: "Minotaur", 1: "Dwarf", 2: "Elf", 3: "Orc"}
    legs = (("walk", "iron-crag"), ("cave", "hazel-thicket"), ("walk", "crownfield"), ("walk", "slate-pass"))
    new, _ = act(game(chars, s0="goldmeadow"), 0, move("slate-pass", *legs))
    assert new.players[0]["at"] == "slate-pass"
    assert "slate-pass" in destinations(game(chars, s0="goldmeadow"))


def test_the_cave_bonus_comes_once_a_turn():
    """Caves: the Ogre's 2 extra spaces follow 'exiting a Mountain cave'; a chain of caves may not feed
    itself (reading in movement.py)."""
    chars = {0: "Ogre", 1: "Dwarf", 2: "Elf", 3: "Orc"}
    legs = [("walk", "iron-crag"), ("cave", "eagle-spire"), ("cave", "raven-tor"), ("walk", "lark-heath")]
    new, _ = act(game(chars, s0="goldmeadow"), 0, move("lark-heath", *legs))
    assert new.players[0]["at"] == "lark-heath"
    with pytest.raises(RuleViolation):
        act(game(chars, s0="goldmeadow"), 0, move("willowmere", *legs, ("walk", "willowmere")))


def test_every_listed_move_is_a_legal_path_to_its_destination():
    """Movement on the Board: the listed path of every destination obeys every movement rule."""
    rng = random.Random(5)
    for _ in range(30):
        chars, spots, state = scattered(rng)
        others = set(spots[1:])
        for a in E.legal_actions(state, 0):
            if a["kind"] == "move":
                assert movement.check_path(spots[0], chars[0], others, a["path"]) == a["to"]


def test_a_regular_turn_must_move_when_it_can(monkeypatch):
    """Movement on the Board: 'move 1, 2 or 3 territories'; with nowhere to go the turn passes so the
    game goes on (reading in turns.py)."""
    state = game(s0="thornwood")
    assert {"kind": "pass"} not in E.legal_actions(state, 0)
    with pytest.raises(RuleViolation):
        act(state, 0, {"kind": "pass"})
    monkeypatch.setattr(movement, "reachable", lambda *a: {})
    assert E.legal_actions(state, 0) == [{"kind": "pass"}]
    new, events = act(state, 0, {"kind": "pass"})
    assert "passed" in [e["type"] for e in events] and E.actor(new) == 1


def test_move_actions_are_checked_for_shape_and_destination():
    """Movement on the Board: a path that does not end at 'to' or is not a path at all is refused."""
    state = game(s0="thornwood")
    with pytest.raises(RuleViolation):
        act(state, 0, move("foggy-fen", ("walk", "goldmeadow")))
    with pytest.raises(MalformedAction):
        act(state, 0, {"kind": "move", "to": "goldmeadow", "path": ["goldmeadow"]})
    with pytest.raises(MalformedAction):
        act(state, 0, {"kind": "move", "to": "goldmeadow", "path": [["swim", "goldmeadow"]]})
    with pytest.raises(RuleViolation):
        act(state, 0, move("atlantis", ("walk", "atlantis")))
    assert top(state)["task"] == "move"
