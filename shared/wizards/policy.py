"""A simple AI seat for Wizards, reading only the seat's view (no hidden state).

Part one's aims: lay tiles so the islands touch (a walkable world), and travel to
Territories not yet visited, nearest first, keeping out of the Dragon's Lair. A
Territory it can reach on foot comes first, measured by the Movement Points the
walk still takes (so walls, gorges and mazes are walked round); when its island
holds nothing new it takes to the Water (swimming, Boats, Boat Summoning). Part two
will steer by Tasks.
"""
from __future__ import annotations

import heapq
import random

from shared.hexgrid import distance
from shared.wizards.geometry import board
from shared.wizards.pack import LAIR_TILE
from shared.wizards.world import world_of

TOUCHING = 5  # Centres five apart: the tiles share a coast
ENTRY_COST = {"woods": 2, "mountains": 2}  # section 6; everything else the policy walks into costs 1


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
    placed = view["tiles"]["placed"]
    return world_of(tuple(sorted((t["tile"], t["at"][0], t["at"][1], t["rotation"]) for t in placed if t["tile"])))


def _walkable(view: dict, w):
    """Whether a player may step into a space on foot on some turn: land other than the Sacred
    Circle and the Star Crest (entered by roll or by direction only), or a free Boat (6)."""
    boats = {tuple(b["at"]) for b in view["boats"] if b["rider"] is None}
    return lambda h: (w.is_land(h) and w.kind(h) not in ("stone", "circle", "star_crest")) or h in boats


def _on_foot(view: dict, w, at) -> set:
    """Spaces the player can reach on foot over any number of turns, never through a wall."""
    walkable = _walkable(view, w)
    seen, stack = {at}, [at]
    while stack:
        x = stack.pop()
        for y in w.neighbours(x):
            if y not in seen and not w.wall_between(x, y) and walkable(y):
                seen.add(y)
                stack.append(y)
    return seen


def _walking_cost(view: dict, w, goal: list) -> dict:
    """Movement Points still to walk from each space to the nearest of `goal` (section 6 costs,
    walls respected): a map of the way round walls, gorges and mazes."""
    walkable = _walkable(view, w)
    cost = {g: 0 for g in goal}
    heap = [(0, g) for g in goal]
    while heap:
        c, y = heapq.heappop(heap)
        if c > cost[y]:
            continue
        step = ENTRY_COST.get(w.kind(y), 1)  # entering y
        for x in w.neighbours(y):
            if not w.wall_between(x, y) and (walkable(x) or x in cost) and c + step < cost.get(x, 1 << 30):
                cost[x] = c + step
                heapq.heappush(heap, (c + step, x))
    return cost


def _target(view: dict, seat: int, w) -> tuple[tuple[int, int] | None, dict | None]:
    """The Center of the nearest Territory not yet visited (never the Dragon's Lair), and, when it
    can be reached on foot, the walking cost to it from each space (None: the way is over Water)."""
    me = view["players"][seat]
    at = tuple(me["at"])
    seen = set(me["visited"])
    fresh = [t for t in w.tiles if t not in seen and t != LAIR_TILE]
    if not fresh:
        fresh = [t for t in w.tiles if t != LAIR_TILE and t != w.tile_of(at)]
    if not fresh:
        return None, None
    reach = _on_foot(view, w, at)
    walkable = [t for t in fresh if any(h in reach for h in w.tile_spaces(t))]
    if not walkable:
        centre = min(((w.hex_of[(t, "Center")], t) for t in fresh), key=lambda c: (distance(at, c[0]), c[1]))[0]
        return centre, None
    from_here = _walking_cost(view, w, [at])  # (near enough the cost of walking out from here)
    tile = min(walkable, key=lambda t: (min(from_here.get(h, 1 << 30) for h in w.tile_spaces(t)), t))
    return w.hex_of[(tile, "Center")], _walking_cost(view, w, [h for h in w.tile_spaces(tile) if h in reach])


def _move(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    w = _world(view)
    me = view["players"][seat]
    at = tuple(me["at"])
    target, field = _target(view, seat, w)
    seen = set(me["visited"])
    casts = [a for a in legal if a["kind"] == "cast"]
    moves = [a for a in legal if a["kind"] == "move"]
    if target is None or not moves:
        return next((a for a in legal if a["kind"] == "end_move"), legal[0])
    swift = [a for a in casts if a.get("spell") == "swiftness"]
    if swift and not view["turn"]["moved"]:
        return swift[0]

    def value(to, by):
        # on foot: the walking cost still to go; over Water: the straight distance
        v = -field.get(to, 1 << 20) if field is not None else -2 * distance(to, target)
        tile = w.tile_of(to)
        if tile and tile not in seen:
            v += 12
        if tile == LAIR_TILE:
            v -= 8  # Lair Time (12.511)
        if by == "swim" and field is not None:
            v -= 8  # swim only when nothing new is left on this island
        return v

    stay = value(at, "stay") if field is None else -field.get(at, 1 << 20)
    scored = [(value(tuple(a["to"]), a["by"]), a) for a in moves]
    best = max(s for s, _ in scored)
    if best <= stay:
        boat = [a for a in casts if a.get("spell") == "boat_summoning"]
        if boat:
            return boat[0]
        return next(a for a in legal if a["kind"] == "end_move")
    return rng.choice([a for s, a in scored if s == best])
