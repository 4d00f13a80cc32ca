"""Shifting Arena: after each round one arm of the arena (two with four players) turns a
sixth clockwise round the centre tile, keeping the edge that touched the centre tile in
contact with it (Figure 7).

An arm is a full tile next to the centre tile together with the starting half tile beyond
it (authored reading: "in a two-player game, the first shift brings the players' starting
zones together" only works if a starting zone travels with its tile). Arms take turns
shifting, each into the free slot clockwise of it.

Before a tile shifts, a wizard standing on a hex made by a shifting tile and a staying one
is moved by its player into an adjacent open or stream hex on a single tile - on the
shifting tile to ride along, or off it to stay. A hydra or totem there is moved the same way
by its caster's player; an area token centred there may be moved one hex or left. Reading
(authored): a Fog Wall with a hex on such a seam, or spanning shifting and staying tiles, is
torn apart and ends.
"""
from __future__ import annotations

from shared.hexgrid import Hex, distance, neighbours
from shared.incantris import effects, flow, match
from shared.incantris.arena import OCEAN, as_hex, slot_of, turned
from shared.incantris.movement import Ground
from shared.incantris.state import IncantrisState, Task, Wizard
from shared.incantris.tasks import Clause
from shared.incantris.tasks import Task as Step


def _slot(state: IncantrisState, arm: list[int]) -> int:
    """The slot round the centre tile of an arm's full tile."""
    slot = slot_of(as_hex(state.tiles[arm[0]]["centre"]))
    assert slot is not None, "an arm's full tile lies next to the centre tile"
    return slot


def arms_to_shift(state: IncantrisState) -> list[int]:
    info = state.shift
    assert info is not None, "not a Shifting Arena"
    arms = state.arms
    slots = {i: _slot(state, arm) for i, arm in enumerate(arms)}
    taken = set(slots.values())
    chosen: list[int] = []
    last = info["next"] - 1
    for k in range(len(arms)):
        i = (info["next"] + k) % len(arms)
        target = (slots[i] + 1) % 6
        if target in taken:
            continue
        chosen.append(i)
        taken.add(target)
        last = i
        if len(chosen) == info["per_round"]:
            break
    state.edit("shift")["next"] = (last + 1) % len(arms)
    return chosen


def _moving_tiles(state: IncantrisState, arms: list[int]) -> set[int]:
    return {t for i in arms for t in state.arms[i]}


def seam_hexes(state: IncantrisState, moving: set[int]) -> set[Hex]:
    """Whole hexes made by a shifting tile and a staying one."""
    a = match.arena(state)
    return {h for h in a.whole if len(a.owners[h]) > 1 and (set(a.owners[h]) & moving)
            and not set(a.owners[h]) <= moving}


def queue_shift(state: IncantrisState, ev: list) -> None:
    arms = arms_to_shift(state)
    if not arms:
        return
    moving = _moving_tiles(state, arms)
    seams = seam_hexes(state, moving)
    tasks: list[Task] = []
    for w in match.on_board(state):
        if as_hex(w["hex"]) in seams:
            tasks.append({"t": "relocate", "what": "wizard", "id": w["id"], "side": w["side"], "arms": arms})
    for e in match.effects(state):
        if e["spell"] in match.SINGLE_HEX and as_hex(e["hex"]) in seams:
            tasks.append({"t": "relocate", "what": "token", "id": e["id"], "side": e["side"], "arms": arms})
        elif e["spell"] in match.AREA and as_hex(e["centre"]) in seams:
            tasks.append({"t": "relocate", "what": "area", "id": e["id"], "side": e["side"], "arms": arms})
    for task in tasks:
        flow.push_back(state, task)
    flow.push_back(state, {"t": "shift", "arms": arms})


def _landing(state: IncantrisState, h: Hex, moving: set[int], who: Wizard | None) -> list[Hex]:
    """"an adjacent open or stream hex on a single tile" (and free to stand on)."""
    g = Ground(state)
    a = g.arena
    out = []
    for n in neighbours(h):
        if n not in a.single or a.terrain[n] == OCEAN:
            continue
        if n in g.walls or n in g.tokens or n in g.crystals or n in g.fog or n in g.occupied:
            continue
        out.append(n)
    return sorted(out)


class Relocate(Step):
    kind = "relocate"
    rule = Clause("Shifting Arena", "the player who controls the wizard immediately moves the wizard into an adjacent "
                                    "open or stream hex on a single tile")

    def waits(self, state, task):
        if not self.options(state, task):
            return None
        seat = state.sides[task["side"]]["seat"]
        return None if seat is None else ("seat", seat)

    def _where(self, state, task) -> Hex | None:
        if task["what"] == "wizard":
            w = match.wizard(state, task["id"])
            return as_hex(w["hex"]) if match.in_arena(w) else None
        e = state.effects.get(task["id"])
        if e is None:
            return None
        return as_hex(e["centre"] if task["what"] == "area" else e["hex"])

    def options(self, state, task):
        h = self._where(state, task)
        if h is None:
            return []
        moving = _moving_tiles(state, task["arms"])
        out = [{"kind": "relocate", "to": list(n)} for n in _landing(state, h, moving, None)]
        if task["what"] == "area" and out:
            out.append({"kind": "relocate-stay"})
        return out

    def choose(self, state, task, action, ev):
        flow.pop(state)
        if action["kind"] == "relocate-stay":
            return
        to = list(action["to"])
        if task["what"] == "wizard":
            w = match.wizard(state, task["id"])
            match.event(ev, "relocated", wizard=w["id"], frm=w["hex"], to=to)
            w["hex"] = to
        else:
            e = state.edit("effects", task["id"])
            e["centre" if task["what"] == "area" else "hex"] = to
            match.event(ev, "relocated", effect=e["id"], to=to)

    def run(self, state, task, ev):
        options = self.options(state, task)
        if options and state.sides[task["side"]]["seat"] is None:
            self.choose(state, task, options[0], ev)
            return
        flow.pop(state)


class Shift(Step):
    kind = "shift"

    def waits(self, state, task):
        return None

    def run(self, state, task, ev):
        flow.pop(state)
        moving = _moving_tiles(state, task["arms"])
        a = match.arena(state)

        def rides(h) -> bool:
            owners = a.owners.get(as_hex(h))
            return owners is not None and bool(owners) and set(owners) <= moving

        for w in match.on_board(state):
            if rides(w["hex"]):
                w["hex"] = list(turned(as_hex(w["hex"])))
        for i, o in enumerate(state.obstacles):
            if all(rides(h) for h in o["hexes"]):
                state.edit("obstacles", i)["hexes"] = [list(turned(as_hex(h))) for h in o["hexes"]]
        for e in match.effects(state):
            if e["spell"] == "fog-wall":
                if all(rides(h) for h in e["hexes"]):
                    state.edit("effects", e["id"])["hexes"] = [list(turned(as_hex(h))) for h in e["hexes"]]
                elif any(rides(h) or as_hex(h) in seam_hexes(state, moving) for h in e["hexes"]):
                    effects.remove(state, e["id"], "torn by the shifting arena", ev)
            elif "hex" in e and rides(e["hex"]):
                state.edit("effects", e["id"])["hex"] = list(turned(as_hex(e["hex"])))
            elif "centre" in e and rides(e["centre"]):
                state.edit("effects", e["id"])["centre"] = list(turned(as_hex(e["centre"])))
        for i in moving:
            t = state.edit("tiles", i)
            t["centre"] = list(turned(as_hex(t["centre"])))
            t["rotation"] = (t["rotation"] + 1) % 6
        match.event(ev, "shift", arms=task["arms"], tiles=sorted(moving))
        self._settle_strays(state, ev)

    def _settle_strays(self, state, ev):
        """A wizard left with no hex to move to ends on no whole hex: it goes to the nearest
        free whole hex it may stand on (authored)."""
        g = Ground(state)
        for w in match.on_board(state):
            h = as_hex(w["hex"])
            if h in g.arena.whole and g.terrain_cost(w, h) is not None and not g.blocked(w, h):
                continue
            spots = [x for x in g.arena.whole if g.terrain_cost(w, x) is not None and not g.blocked(w, x)
                     and x not in g.fog and x not in g.occupied]
            to = min(spots, key=lambda x: (distance(x, h), x))
            match.event(ev, "relocated", wizard=w["id"], frm=w["hex"], to=list(to))
            w["hex"] = list(to)
            g = Ground(state)
