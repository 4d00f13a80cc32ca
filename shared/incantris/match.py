"""The match record and the questions every rule asks of it: who is where, who is alive,
which team a wizard fights for, which persistent spells lie where.

The state is an IncantrisState (shared.incantris.state): typed fields of JSON-ready data.
Hexes are [q, r] lists in the state and (q, r) tuples in code.
"""
from __future__ import annotations

from typing import Any, Iterator

from shared.hexgrid import Hex, distance, neighbours
from shared.incantris.arena import Arena, arena_of, as_hex
from shared.incantris.pack import WizardType, load
from shared.incantris.state import Effect, IncantrisState, Wizard

PERSISTENT_ON_WIZARD = ("bane", "entanglement")
SINGLE_HEX = ("guardian-hydra", "spell-totem")
AREA = ("blaze", "power-circle")


def arena(state: IncantrisState) -> Arena:
    return arena_of(state.tiles)


def wizard(state: IncantrisState, wid: str) -> Wizard:
    return state.wizards[wid]


def wizard_ids(state: IncantrisState) -> list[str]:
    return sorted(state.wizards)


def in_arena(w: Wizard) -> bool:
    return w["alive"] and w["hex"] is not None


def living(state: IncantrisState) -> Iterator[Wizard]:
    for wid in wizard_ids(state):
        w = state.wizards[wid]
        if w["alive"]:
            yield w


def on_board(state: IncantrisState) -> Iterator[Wizard]:
    """Living wizards standing in the arena (attacking wizards waiting outside are not)."""
    for w in living(state):
        if w["hex"] is not None:
            yield w


def hex_of(w: Wizard) -> Hex | None:
    return as_hex(w["hex"]) if w["hex"] is not None else None


def occupant(state: IncantrisState, h: Hex) -> Wizard | None:
    for w in on_board(state):
        if hex_of(w) == h:
            return w
    return None


def occupied(state: IncantrisState) -> dict[Hex, Wizard]:
    return {as_hex(w["hex"]): w for w in on_board(state)}


def team_of_side(state: IncantrisState, side: int) -> str:
    return state.sides[side]["team"]


def opposed(state: IncantrisState, a: Wizard, b: Wizard) -> bool:
    """Wizards of different teams oppose each other."""
    return a["side"] != b["side"]


def seat_of_side(state: IncantrisState, side: int) -> int | None:
    return state.sides[side]["seat"]


def side_of_seat(state: IncantrisState, seat: int) -> int | None:
    for i, s in enumerate(state.sides):
        if s["seat"] == seat:
            return i
    return None


def kind(w: Wizard) -> WizardType:
    return load().types[w["type"]]


def ability(w: Wizard) -> str:
    return kind(w).ability


def effects(state: IncantrisState) -> list[Effect]:
    return [state.effects[k] for k in sorted(state.effects)]


def effect_hexes(e: Effect) -> list[Hex]:
    """The hexes a persistent spell's token lies on (none for spells on a wizard)."""
    if "centre" in e:
        c = as_hex(e["centre"])
        return [c] + neighbours(c)
    if "hexes" in e:
        return [as_hex(h) for h in e["hexes"]]
    if "hex" in e:
        return [as_hex(e["hex"])]
    return []


def obstacle_hexes(state: IncantrisState, kinds=("tree", "low-wall", "high-wall")) -> set[Hex]:
    return {as_hex(h) for o in state.obstacles if o["kind"] in kinds for h in o["hexes"]}


def token_hexes(state: IncantrisState) -> set[Hex]:
    """Hexes made impassable by hydras and spell totems."""
    return {as_hex(e["hex"]) for e in effects(state) if e["spell"] in SINGLE_HEX}


def fog_hexes(state: IncantrisState) -> dict[Hex, int]:
    """Fog Wall hex -> the side whose wizard conjured it."""
    return {as_hex(h): e["side"] for e in effects(state) if e["spell"] == "fog-wall" for h in e["hexes"]}


def crystal_hexes(state: IncantrisState) -> set[Hex]:
    """Crystals on the arena make their hex impassable (Crystal Sap, Capture the Crystal)."""
    return {as_hex(c["hex"]) for c in state.crystals if c.get("hex") is not None}


def has_effect_on(state: IncantrisState, spell: str, wid: str) -> Effect | None:
    for e in effects(state):
        if e["spell"] == spell and e.get("wizard") == wid:
            return e
    return None


def in_power_circle(state: IncantrisState, h: Hex) -> bool:
    return any(e["spell"] == "power-circle" and h in effect_hexes(e) for e in effects(state))


def adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def winners(state: IncantrisState) -> list[int]:
    """The winning sides of a match that is over."""
    assert state.result is not None, "the match is not over"
    return state.result["winners"]


def living_sides(state: IncantrisState) -> list[int]:
    return sorted({w["side"] for w in living(state)})


def event(ev: list[dict[str, Any]], type_: str, **fields: Any) -> None:
    fields["type"] = type_
    ev.append(fields)
