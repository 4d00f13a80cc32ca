"""A simple AI seat for Wizards, reading only the seat's view (no hidden state).

Its aims, in order: pick up its own Task Markers (the ones it may fulfil now); join
an Order at a Master Sorcerer's Tower (the Mentors who always stay where they are,
7.34) and go back there when it has the points to advance (10.2); otherwise travel to
Territories not yet visited, nearest first, keeping out of the Dragon's Lair. A goal
it can reach on foot comes first, measured by the Movement Points the walk still takes
(so walls, gorges and mazes are walked round); when its island holds nothing it wants
it takes to the Water (swimming, Boats, Boat Summoning). In an encounter it accepts an
Order when it has none, takes the points it needs most for its next Rank, picks up its
markers, tries for Gems and casts what helps.
"""
from __future__ import annotations

import heapq
import random

from shared.hexgrid import distance
from shared.wizards.geometry import board
from shared.wizards.pack import LAIR_TILE, TOWER_TILES, pack
from shared.wizards.world import world_of

TOUCHING = 5  # Centres five apart: the tiles share a coast
ENTRY_COST = {"woods": 2, "mountains": 2}  # section 6; everything else the policy walks into costs 1


def choose(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    if not legal:
        raise ValueError("no legal action to choose from")
    kinds = {a["kind"] for a in legal}
    if kinds & {"place_tile", "choose_spot"}:  # where (then which turn) for the tile chosen
        return _place(view, [a for a in legal if a["kind"] != "choose_tile"], rng)
    if "choose_tile" in kinds:
        return rng.choice(legal)
    if "move" in kinds or "end_move" in kinds:
        return _move(view, seat, legal, rng)
    if "roll" in kinds:
        return {"kind": "roll"}
    if "summon_boat" in kinds:
        return legal[0]
    if view.get("await") and view["await"].get("for") == "choice":
        return _choice(view, seat, legal, rng)
    return rng.choice(legal)


def _needs(view: dict, seat: int) -> dict[str, int]:
    """Points by type still missing for the next Rank of its Order (10.11-10.13)."""
    me = view["players"][seat]
    if not me["order"] or me["rank"] >= 4:
        return {}
    nxt = pack().orders[me["order"]]["ranks"][me["rank"]]
    return {t: max(0, nxt[t] - me["points"][t]) for t in ("knowledge", "perception", "power")}


def promotion_ready(view: dict, seat: int) -> bool:
    me = view["players"][seat]
    return bool(me["order"]) and me["rank"] < 4 and not any(_needs(view, seat).values())


def _choice(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    """An encounter's choice: the first rule below that applies."""
    me = view["players"][seat]
    by_kind: dict[str, list[dict]] = {}
    for a in legal:
        by_kind.setdefault(a["kind"], []).append(a)
    if "join_order" in by_kind:  # an Order when it has none; it never changes Orders
        return next(a for a in by_kind["join_order"] if a["accept"] == (me["order"] is None))
    if "take_points" in by_kind:
        needs = _needs(view, seat)

        def worth(a):
            pts = a["points"]
            if all(v >= 0 for v in pts.values()):  # a gain: most toward what it lacks
                return sum(min(v, needs.get(t, 0)) * 2 + v for t, v in pts.items())
            return sum(v for v in pts.values()) - sum(needs.get(t, 0) for t, v in pts.items() if v)
        return max(by_kind["take_points"], key=lambda a: (worth(a), sorted(a["points"].items())))
    if "pick_up_task_markers" in by_kind:
        return max(by_kind["pick_up_task_markers"], key=lambda a: len(a["tasks"]))
    for kind, field, wanted in (("attempt_gem", "attempt", True), ("telepathy", "cast", promotion_ready(view, seat))):
        if kind in by_kind:
            return next((a for a in by_kind[kind] if a.get(field) == wanted), by_kind[kind][0])
    if "gem_summoning" in by_kind:
        return next((a for a in by_kind["gem_summoning"] if a["target"] is not None), by_kind["gem_summoning"][0])
    if "complete_task" in by_kind:
        return by_kind["complete_task"][0]
    casts = [a for a in legal if a.get("cast") is True or a.get("ask") is True]
    if casts:  # a spell or a call for help when it is offered
        return casts[0]
    return legal[0]


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


def _goals(view: dict, seat: int, w) -> list:
    """Spaces worth going to before exploring: its own Task Markers it may fulfil now (9,
    7.311), then a Master Sorcerer's Tower Center to join an Order or to advance (7.34, 10.2)."""
    me = view["players"][seat]
    tasks = {t["card"]: t for t in me.get("tasks", [])}
    marks = []
    for m in view.get("task_markers", []):
        task = tasks.get(m["task"])
        if m["seat"] == seat and task is not None and all(s["done"] for s in task["steps"][:m["step"]]):
            marks.append(tuple(m["at"]))
    if marks:
        return marks
    wants_mentor = me["order"] is None or (me["order"] == "sorcerers" and promotion_ready(view, seat))
    if wants_mentor:
        return [w.hex_of[(t, "Center")] for t in TOWER_TILES if (t, "Center") in w.hex_of]
    return []


def _target(view: dict, seat: int, w) -> tuple[tuple[int, int] | None, dict | None]:
    """The nearest goal (_goals) it can walk to, or else the Center of the nearest Territory not yet visited (never
    the Dragon's Lair), and, when it can be reached on foot, the walking cost to it from each space
    (None: the way is over Water)."""
    me = view["players"][seat]
    at = tuple(me["at"])
    goals = [g for g in _goals(view, seat, w) if g != at]
    if goals:
        reach = _on_foot(view, w, at)
        near = [g for g in goals if g in reach]
        if near:
            return min(near, key=lambda g: (distance(at, g), g)), _walking_cost(view, w, near)
        # none on this island: explore as before, which takes to the Water when nothing is left here
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
