"""A simple AI seat for Wizards, reading only the seat's view (no hidden state).

Part one's aims: lay tiles so the islands touch (a walkable world), and travel to
Territories not yet visited, nearest first, keeping out of the Dragon's Lair and
the Water unless nothing on land gets closer. Part two will steer by Tasks.
"""
from __future__ import annotations

import random

from shared.hexgrid import distance
from shared.wizards.geometry import board
from shared.wizards.world import world_of

TOUCHING = 5  # Centres five apart: the tiles share a coast


def choose(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    if not legal:
        raise ValueError("no legal action to choose from")
    kinds = {a["kind"] for a in legal}
    if "place_tile" in kinds:
        return _place(view, legal, rng)
    if "move" in kinds or "end_move" in kinds:
        return _move(view, seat, legal, rng)
    if "roll" in kinds:
        return {"kind": "roll"}
    if "summon_boat" in kinds:
        return legal[0]
    return rng.choice(legal)


def _place(view: dict, legal: list[dict], rng: random.Random) -> dict:
    placed = [tuple(t["at"]) for t in view["tiles"]["placed"]]
    centres = {tuple(a["at"]) for a in legal}
    if placed:
        def score(c):
            d = min(distance(c, p) for p in placed)
            return (d != TOUCHING, d)
    else:
        b = board()
        mid = b.order[len(b.order) // 2]

        def score(c):
            return (False, distance(c, mid))
    best = min(score(c) for c in centres)
    pick = rng.choice(sorted(c for c in centres if score(c) == best))
    return rng.choice([a for a in legal if tuple(a["at"]) == pick])


def _world(view: dict):
    placements = tuple(sorted((t["tile"], t["at"][0], t["at"][1], t["rotation"]) for t in view["tiles"]["placed"] if t["tile"]))
    return world_of(placements)


def _target(view: dict, seat: int, w) -> tuple[int, int] | None:
    me = view["players"][seat]
    at = tuple(me["at"])
    seen = set(me["visited"])
    centres = [(w.hex_of[(t, "Center")], t) for t in w.tiles if t not in seen and t != "M6"]
    if not centres:
        centres = [(w.hex_of[(t, "Center")], t) for t in w.tiles if t != "M6" and t != w.tile_of(at)]
    if not centres:
        return None
    return min(centres, key=lambda c: (distance(at, c[0]), c[1]))[0]


def _move(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    w = _world(view)
    me = view["players"][seat]
    at = tuple(me["at"])
    target = _target(view, seat, w)
    seen = set(me["visited"])
    casts = [a for a in legal if a["kind"] == "cast"]
    moves = [a for a in legal if a["kind"] == "move"]
    if target is None or not moves:
        return next((a for a in legal if a["kind"] == "end_move"), legal[0])
    swift = [a for a in casts if a.get("spell") == "swiftness"]
    if swift and not view["turn"]["moved"]:
        return swift[0]

    def value(to, by):
        v = -distance(to, target)
        tile = w.tile_of(to)
        if tile and tile not in seen:
            v += 6
        if tile == "M6" or (w.is_water(to) and by != "sail"):
            v -= 4
        return v

    stay = -distance(at, target)
    scored = [(value(tuple(a["to"]), a["by"]), a) for a in moves]
    best = max(s for s, _ in scored)
    if best <= stay:
        boat = [a for a in casts if a.get("spell") == "boat_summoning"]
        if boat:
            return boat[0]
        return next(a for a in legal if a["kind"] == "end_move")
    return rng.choice([a for s, a in scored if s == best])
