"""The match record and the questions every rule asks of it: who is where, who is alive,
which team a wizard fights for, which persistent spells lie where.

A state is plain JSON data (dicts, lists, ints, strings), so it encodes exactly and a
copy is a JSON round trip. Hexes are [q, r] lists in the state and (q, r) tuples in code.
"""
from __future__ import annotations

import json
from typing import Iterator

from shared.hexgrid import Hex, distance, neighbours
from shared.incantris.arena import Arena, arena_of, as_hex
from shared.incantris.pack import load

PERSISTENT_ON_WIZARD = ("bane", "entanglement")
SINGLE_HEX = ("guardian-hydra", "spell-totem")
AREA = ("blaze", "power-circle")


def copy(state: dict) -> dict:
    return json.loads(json.dumps(state))


def arena(state: dict) -> Arena:
    return arena_of(state["tiles"])


def wizard(state: dict, wid: str) -> dict:
    return state["wizards"][wid]


def wizard_ids(state: dict) -> list[str]:
    return sorted(state["wizards"])


def in_arena(w: dict) -> bool:
    return w["alive"] and w["hex"] is not None


def living(state: dict) -> Iterator[dict]:
    for wid in wizard_ids(state):
        w = state["wizards"][wid]
        if w["alive"]:
            yield w


def on_board(state: dict) -> Iterator[dict]:
    """Living wizards standing in the arena (attacking wizards waiting outside are not)."""
    for w in living(state):
        if w["hex"] is not None:
            yield w


def hex_of(w: dict) -> Hex | None:
    return as_hex(w["hex"]) if w["hex"] is not None else None


def occupant(state: dict, h: Hex) -> dict | None:
    for w in on_board(state):
        if tuple(w["hex"]) == h:
            return w
    return None


def occupied(state: dict) -> dict[Hex, dict]:
    return {as_hex(w["hex"]): w for w in on_board(state)}


def team_of_side(state: dict, side: int) -> str:
    return state["sides"][side]["team"]


def opposed(state: dict, a: dict, b: dict) -> bool:
    """Wizards of different teams oppose each other."""
    return a["side"] != b["side"]


def seat_of_side(state: dict, side: int) -> int | None:
    return state["sides"][side]["seat"]


def side_of_seat(state: dict, seat: int) -> int | None:
    for i, s in enumerate(state["sides"]):
        if s["seat"] == seat:
            return i
    return None


def kind(w: dict):
    return load().types[w["type"]]


def ability(w: dict) -> str:
    return kind(w).ability


def effects(state: dict) -> list[dict]:
    return [state["effects"][k] for k in sorted(state["effects"])]


def effect_hexes(e: dict) -> list[Hex]:
    """The hexes a persistent spell's token lies on (none for spells on a wizard)."""
    if "centre" in e:
        c = as_hex(e["centre"])
        return [c] + neighbours(c)
    if "hexes" in e:
        return [as_hex(h) for h in e["hexes"]]
    if "hex" in e:
        return [as_hex(e["hex"])]
    return []


def obstacle_hexes(state: dict, kinds=("tree", "low-wall", "high-wall")) -> set[Hex]:
    return {as_hex(h) for o in state["obstacles"] if o["kind"] in kinds for h in o["hexes"]}


def token_hexes(state: dict) -> set[Hex]:
    """Hexes made impassable by hydras and spell totems."""
    return {as_hex(e["hex"]) for e in effects(state) if e["spell"] in SINGLE_HEX}


def fog_hexes(state: dict) -> dict[Hex, int]:
    """Fog Wall hex -> the side whose wizard conjured it."""
    return {as_hex(h): e["side"] for e in effects(state) if e["spell"] == "fog-wall" for h in e["hexes"]}


def crystal_hexes(state: dict) -> set[Hex]:
    """Crystals on the arena make their hex impassable (Crystal Sap, Capture the Crystal)."""
    return {as_hex(c["hex"]) for c in state["crystals"] if c.get("hex") is not None}


def has_effect_on(state: dict, spell: str, wid: str) -> dict | None:
    for e in effects(state):
        if e["spell"] == spell and e.get("wizard") == wid:
            return e
    return None


def in_power_circle(state: dict, h: Hex) -> bool:
    return any(e["spell"] == "power-circle" and h in effect_hexes(e) for e in effects(state))


def adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def living_sides(state: dict) -> list[int]:
    return sorted({w["side"] for w in living(state)})


def event(ev: list, type_: str, **fields) -> None:
    fields["type"] = type_
    ev.append(fields)
