"""check_invariants catches broken states (so the property tests that call it can fail)."""
from __future__ import annotations

import pytest

from shared.engine import MatchConfig
from shared.tower.state import TowerState
from tests.tower.scenario import E, at, blank, castle, first_faces, started, wizard

CHARS = {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"}


def broken(change) -> TowerState:
    state = blank(4, CHARS)
    castle(state, "goldmeadow", None, wizard=wizard(state, 1), count=2)
    E.check_invariants(state)
    change(state)
    return state


@pytest.mark.parametrize("why,change", [
    ("Pennants appear from nowhere (25 per colour)",
     lambda s: s.edit("board", "goldmeadow", "pennants").update(count=9)),
    ("Pennants on a territory without a Castle", lambda s: s.edit("board", "thornwood").update(
        pennants={"wizard": s.players[0]["wizard"], "count": 1}) or s.players[0].update(supply=24)),
    ("two Characters on one territory", lambda s: (at(s, 0, "thornwood"), at(s, 1, "thornwood"))),
    ("a Character twice", lambda s: s.players[1].update(character="Warrior")),
    ("the empty chamber away from the door", lambda s: s.edit("tower").update(door=2)),
    ("a Protection on a Home Castle", lambda s: castle(s, "frostpeak", "home:Ogre", up=True, protected=True)),
    ("a spell token on a Castle", lambda s: s.edit("board", "goldmeadow").update(
        token={"id": "spell:power", "up": False})),
    ("a Ramp token below the King", lambda s: (setattr(s, "king", 3), s.replace("ramp", {"2": "ramp:conquer"}))),
    ("the King past the Tower", lambda s: setattr(s, "king", 99)),
])
def test_broken_states_are_caught(why, change):
    """check_invariants raises AssertionError on any broken invariant."""
    with pytest.raises(AssertionError):
        E.check_invariants(broken(change))


def test_apply_chance_leaves_its_input_alone():
    """Contract: apply_chance never mutates its input."""
    state = E.setup(MatchConfig(seats=3))
    before = E.encode(state)
    E.apply_chance(state, first_faces(E.chance_request(state)))
    assert E.encode(state) == before
    played = started(3)
    assert E.check_invariants(played) is None
