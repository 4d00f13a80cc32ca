"""Board queries (GameEngine.query): sight, range, movement and targets, by the engine's own rules.

    {"kind": "line_of_sight", "from": [q, r], "to": [q, r]}
        Confirm line of sight (Casting Spells): whether a wizard in `from` sees the centre of
        `to`, for the asking seat's team (its own Fog Walls do not block it; a spectator is
        blocked by every Fog Wall), and what lies in the way.
    {"kind": "range", "from": [q, r], "to": [q, r]}
        Confirm range: hexes counted from the caster's hex to the target's, as spell ranges count.
    {"kind": "reachable", "wizard": id}
        Movement & Terrain: the hexes the wizard can end its movement on this turn, the points
        each costs and a cheapest path of hexes entered.
    {"kind": "targets", "wizard": id, "spell": key}
        Casting Spells: the legal targets of one of the wizard's spells from where it stands
        (and from its Spell Totem, if it placed one on an earlier turn).

Everything in Incantris is public, and answers are read from the seat's view all the same.
"""
from __future__ import annotations

import dataclasses
import heapq
from typing import Any

from shared import hexgrid
from shared.engine import MalformedAction
from shared.engine.queries import query_kind
from shared.hexgrid import Hex, distance, neighbours
from shared.incantris import casting, match, sight, turns, walking
from shared.incantris.arena import as_hex
from shared.incantris.movement import Ground
from shared.incantris.pack import load
from shared.incantris.state import IncantrisState, Turn, Wizard

FIELDS = {"line_of_sight": {"from", "to"}, "range": {"from", "to"}, "reachable": {"wizard"},
          "targets": {"wizard", "spell"}}


def answer(view: dict[str, Any], seat: int | None, query) -> dict:
    seen = IncantrisState.of_view(view)
    kind = query_kind(query, FIELDS, "Incantris")
    if kind == "range":
        a, b = _hex(query, "from"), _hex(query, "to")
        return {"from": list(a), "to": list(b), "hexes": distance(a, b)}
    if kind == "line_of_sight":
        return line_of_sight(seen, seat, _arena_hex(seen, query, "from"), _arena_hex(seen, query, "to"))
    w = _wizard(seen, query)
    if kind == "reachable":
        return reachable(seen, w)
    spell = query.get("spell")
    if not isinstance(spell, str) or spell not in load().spells:
        raise MalformedAction(f"targets needs 'spell': one of {sorted(load().spells)}")
    if spell not in casting.match_spells(w):
        raise MalformedAction(f"{w['id']} has no spell {spell!r} on its reference board: {casting.match_spells(w)}")
    return targets(seen, w, spell)


# --- reading the fields -------------------------------------------------------------------------
def _hex(query: dict, field: str) -> Hex:
    v = query.get(field)
    if not (isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v)):
        raise MalformedAction(f"{query['kind']} needs '{field}': a hex [q, r] of integers")
    return (v[0], v[1])


def _arena_hex(view: IncantrisState, query: dict, field: str) -> Hex:
    h = _hex(query, field)
    if h not in match.arena(view).coverage:
        raise MalformedAction(f"{query['kind']}: {field} {list(h)} is not a hex of the arena")
    return h


def _wizard(view: IncantrisState, query: dict) -> Wizard:
    wid = query.get("wizard")
    if not isinstance(wid, str) or wid not in view.wizards:
        raise MalformedAction(f"{query['kind']} needs 'wizard': one of {match.wizard_ids(view)}")
    return view.wizards[wid]


# --- line of sight --------------------------------------------------------------------------------
def line_of_sight(view: IncantrisState, seat: int | None, source: Hex, target: Hex) -> dict:
    """sight.can_see with the blockers of the seat's team; `in_the_way` lists each blocking hex (and
    each piece of the arena's edge) that some straight line from `source` to the centre of
    `target` touches: when `sees` is false, together they close every such line."""
    side = match.side_of_seat(view, seat) if seat is not None else None
    arena = match.arena(view)
    blocked = sight.blocking(view, side)
    sees = sight.can_see(arena, source, target, blocked)
    cone = _cone(source, target)
    why = _blockers(view, side)
    in_way = []
    if source != target:
        for h in hexgrid.sight_corridor(source, target):
            if h in blocked and _touch(cone, hexgrid.corners(h)):
                in_way.append(dict(why.get(h, {"what": "wizard"}), hex=list(h)))
            elif any(_touch(cone, piece) for piece in arena.outside.get(h, ())):
                in_way.append({"what": "arena-edge", "hex": list(h)})
    return {"from": list(source), "to": list(target), "team": None if side is None else match.team_of_side(view, side),
            "sees": sees, "hexes": distance(source, target), "in_the_way": in_way}


def _blockers(view: IncantrisState, side: int | None) -> dict[Hex, dict]:
    """What stands on each hex that blocks sight (Casting Spells, Obstacles, the persistent spells)."""
    out: dict[Hex, dict] = {}
    for o in view.obstacles:
        if o["kind"] in ("tree", "high-wall"):
            for h in o["hexes"]:
                out[as_hex(h)] = {"what": o["kind"]}
    for e in match.effects(view):
        if e["spell"] in match.SINGLE_HEX:
            out[as_hex(e["hex"])] = {"what": e["spell"], "caster": e["caster"]}
        elif e["spell"] == "fog-wall" and e["side"] != side:
            for h in e["hexes"]:
                out[as_hex(h)] = {"what": "fog-wall", "caster": e["caster"]}
    for w in match.on_board(view):
        out[as_hex(w["hex"])] = {"what": "wizard", "wizard": w["id"]}
    return out


def _cone(source: Hex, target: Hex) -> list[hexgrid.Point]:
    """Every straight line from a point of `source` to the centre of `target` lies in the convex
    hull of the source hex and that centre (and fills it)."""
    return _hull(hexgrid.corners(source) + [hexgrid.to_pixel(target)])


def _hull(points: list[hexgrid.Point]) -> list[hexgrid.Point]:
    pts = sorted(set(points))

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    upper: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _touch(a, b, eps: float = 1e-9) -> bool:
    """Two convex polygons meet (touching counts, as it blocks sight: sight.py's reading)."""
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
            nx, ny = y2 - y1, x1 - x2
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) < min(pb) - eps or max(pb) < min(pa) - eps:
                return False
    return True


# --- movement -------------------------------------------------------------------------------------
def reachable(view: IncantrisState, w: Wizard) -> dict:
    """Ground.reachable with the points the wizard has this turn: what is left of them if it is
    the active wizard; its full movement points (two under Entanglement, as on activation) if its
    turn token is still portrait side up; none once it has acted this round."""
    out: dict[str, Any] = {"wizard": w["id"], "from": w["hex"], "movement_points": 0, "hexes": []}
    active = turns.active(view)
    if view.phase != "play":
        out["why"] = "the wizards are not in play yet"
        return out
    if not w["alive"]:
        out["why"] = f"{w['id']} is dead"
        return out
    if active is not None and active["id"] == w["id"]:
        mp = turns.budget(view)
    elif w["done"]:
        out["why"] = f"{w['id']} has acted this round"
        return out
    else:
        mp = match.kind(w).movement
        if match.has_effect_on(view, "entanglement", w["id"]):
            mp = min(mp, 2)  # Entanglement: "reduced to only two per turn"
    out["movement_points"] = mp
    g = Ground(view)
    here = as_hex(w["hex"]) if w["hex"] is not None else None
    entries = None
    if here is None:  # Solo Play: an attacking wizard waiting outside steps in at its entry point
        entry = w["entry"]
        entries = [as_hex(h) for h in view.entries[entry]["hexes"]] if entry is not None else []
    if here is not None and view.scenario == "capture-the-crystal" and w.get("carrying"):
        out["hexes"] = _carrier(view, g, w, here, mp) if mp > 0 else []
        return out
    spots = g.reachable(w, here, mp, entries) if mp > 0 else {}
    out["hexes"] = [{"hex": list(h), "cost": cost, "path": [list(x) for x in path]}
                    for h, (cost, path) in sorted(spots.items()) if h != here]
    return out


def _carrier(view: IncantrisState, g: Ground, w: Wizard, here: Hex, mp: int) -> list[dict]:
    """Capture the Crystal: a carrier may also step into (and along, and back from) the partial
    hexes of its own starting zone while a point is left to step off the arena
    (walking._partial_steps); the same cheapest-first search as Ground.reachable with those steps
    added. A partial hex is no place to end the movement, only to step off from."""
    best: dict[Hex, tuple[int, list]] = {}
    seen: dict[Hex, int] = {}
    heap: list = [(0, here, [])]
    while heap:
        cost, h, path = heapq.heappop(heap)
        if h in seen and seen[h] <= cost:
            continue
        seen[h] = cost
        if h != here and (h in g.arena.partial or g.may_stop(w, h)) and (h not in best or best[h][0] > cost):
            best[h] = (cost, path)
        if path and g.halts(w, h):
            continue  # Bear Presence
        nexts = [(n, g.step_cost(w, h, n)) for n in neighbours(h)]
        nexts += [(p, g.terrain_cost(w, p)) for p in walking._partial_steps(view, g, w, h, mp - cost)]
        for n, c in nexts:
            if c is not None and cost + c <= mp and (n not in seen or seen[n] > cost + c):
                heapq.heappush(heap, (cost + c, n, path + [n]))
    out = []
    for h, (cost, path) in sorted(best.items()):
        x = {"hex": list(h), "cost": cost, "path": [list(p) for p in path]}
        if h in g.arena.partial:
            x.update(partial=True, exit_cost=cost + 1)
        out.append(x)
    return out


# --- spells ---------------------------------------------------------------------------------------
def targets(view: IncantrisState, w: Wizard, key: str) -> dict:
    """casting.spell_targets from the wizard's hex (and its totem). For a wizard that is not the
    active one its turn would begin where it stands, which is what Spectral Rush counts from."""
    spell = load().spells[key]
    out: dict[str, Any] = {"wizard": w["id"], "spell": key, "range": spell.range, "target": spell.target,
                           "targets": []}
    active = turns.active(view)
    is_active = active is not None and active["id"] == w["id"]
    out["may_cast_now"] = bool(is_active and casting.may_cast(view))
    if view.phase != "play" or not match.in_arena(w):
        out["why"] = f"{w['id']} is not in the arena"
        return out
    state = view
    if not is_active:  # its turn would begin where it stands
        turn: Turn = ({**view.turn, "start": w["hex"]} if view.turn is not None
                      else {"side": w["side"], "wizard": None, "start": w["hex"]})
        state = dataclasses.replace(view, turn=turn)
    for via, origin in casting.origins(state, w):
        found = casting.spell_targets(state, w, key, origin)
        if via is None:
            out["targets"] = found
        else:
            out["from_totem"] = {"hex": list(origin), "targets": found}
    return out
