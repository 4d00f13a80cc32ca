"""Moving across the arena (Movement & Terrain, Obstacles, Bear Presence, Water Walk).

Wizards move one hex at a time so that every rule tied to a single step applies where it
happens: Retribution when leaving a hex next to an Arcane Knight, Bear Presence when
entering a hex next to a Shaman, Blaze for each hex entered (FAQ 3).
"""
from __future__ import annotations

import heapq

from shared.hexgrid import Hex, distance, neighbours
from shared.incantris import match
from shared.incantris.arena import OCEAN, STREAM, as_hex
from shared.incantris.state import IncantrisState, Wizard
from shared.incantris.tasks import Clause

MT = "Movement & Terrain"
OFF = Clause(MT, "Wizards expend movement points to move across the arena.")
PARTIAL = Clause(MT, "Wizards may not enter, pass through or stop in partial hexes.")
OCEAN_HEX = Clause(MT, "Wizards may not enter, pass through, or otherwise occupy ocean hexes.")
OBSTACLE = Clause("Obstacles", "Hexes that contain obstacles are always impassable.")
CRYSTAL = Clause("Scenarios", "Crystals occupy the hex they are in and make the hex impassable.")
HYDRA = Clause("Guardian Hydra", "Hydras block line of sight, cannot move, are indestructible, and impassable.")
TOTEM = Clause("Spell Totem", "Spell Totem blocks line of sight, cannot move, is indestructible, and is impassable.")
FOG_THROUGH = Clause("Fog Wall", "Wizards on opposing teams may not move through the wall")
FOG_STAY = Clause("Fog Wall", "no wizard may occupy a fog wall hex for any reason.")
FOE = Clause(MT, "The hexes occupied by wizards of opposing teams are impassable.")
SHARE = Clause(MT, "two wizards may never occupy the same hex at the end of movement.")
ADJACENT = Clause(MT, "it costs one movement point to move from the hex the wizard is in to an adjacent hex.")
STREAM_POINTS = Clause(MT, "If a wizard does not have at least two movement points remaining, he or she cannot "
                           "enter the hex.")
POINTS = Clause(MT, "This is the maximum number of movement points a wizard may expend on a turn")
BEAR_STOP = Clause("Bear Presence", "Wizards from opposing teams must immediately stop and end their movement upon "
                                    "entering a hex adjacent to the Shaman.")
BEAR_BAN = Clause("Bear Presence", "An opposing wizard who begins his or her turn adjacent to the Shaman may not move "
                                   "directly into another hex adjacent to him.")


def may_stop(state: IncantrisState, w: Wizard, h: Hex) -> bool:
    """Ground(state).may_stop(w, h) for a single question, reading only who stands on h and the fog."""
    if any(x["id"] != w["id"] and as_hex(x["hex"]) == h for x in match.on_board(state)):
        return False
    return h not in match.fog_hexes(state)


def passing_through(state: IncantrisState, w: Wizard, h: Hex) -> bool:
    """Whether w on h is still moving, not yet able to end its movement there and act: on a partial hex, a
    team-mate's or a Fog Wall's."""
    return h not in match.arena(state).whole or not may_stop(state, w, h)


class Ground:
    """What stands where, computed once per question so step checks stay cheap."""

    def __init__(self, state: IncantrisState):
        self.state = state
        self.arena = match.arena(state)
        self.occupied = match.occupied(state)
        self.crowd: dict[Hex, list[str]] = {}
        for w in match.on_board(state):
            self.crowd.setdefault(as_hex(w["hex"]), []).append(w["id"])
        self.walls = match.obstacle_hexes(state)
        self.tokens = match.token_hexes(state)
        self.crystals = match.crystal_hexes(state)
        self.fog = match.fog_hexes(state)
        self.shamans = [w for w in self.occupied.values() if w["type"] == "shaman"]

    def enemy_shamans(self, w: Wizard) -> list[Hex]:
        return [as_hex(s["hex"]) for s in self.shamans if match.opposed(self.state, s, w)]

    def impassable(self, w: Wizard, h: Hex) -> Clause | None:
        """The clause that keeps w out of h (entering or passing through), or None."""
        if h not in self.arena.terrain:
            return OFF
        if h not in self.arena.whole:
            return PARTIAL
        if self.terrain_cost(w, h) is None:
            return OCEAN_HEX
        if h in self.walls:
            return OBSTACLE
        if h in self.crystals:
            return CRYSTAL
        if h in self.tokens:
            spell = next(e["spell"] for e in match.effects(self.state) if e.get("hex") == list(h))
            return HYDRA if spell == "guardian-hydra" else TOTEM
        side = self.fog.get(h)
        if side is not None and side != w["side"]:
            return FOG_THROUGH
        other = self.occupied.get(h)
        if other is not None and other["id"] != w["id"] and match.opposed(self.state, other, w):
            return FOE
        return None

    def no_standing(self, w: Wizard, h: Hex) -> Clause | None:
        """The clause that keeps w from ending on h (put there by a spell or a shift), or None."""
        why = self.impassable(w, h)
        if why is not None:
            return why
        if h in self.fog:
            return FOG_STAY
        if any(wid != w["id"] for wid in self.crowd.get(h, ())):
            return SHARE
        return None

    def binding_shamans(self, w: Wizard) -> list[Hex]:
        """Bear Presence: "An opposing wizard who begins his or her turn adjacent to the Shaman
        may not move directly into another hex adjacent to him." The Shamans (where they stand
        now) that the active wizard began its turn next to; a wizard whose turn has not begun
        would begin it where it stands, so for it those next to it now."""
        t = self.state.turn
        if t is not None and t.get("wizard") == w["id"] and "bound" in t:
            bound = set(t.get("bound", ()))  # (a turn stored before Bear Presence was recorded: none)
            return [as_hex(s["hex"]) for s in self.shamans if s["id"] in bound and match.opposed(self.state, s, w)]
        if w["hex"] is None:
            return []
        here = as_hex(w["hex"])
        return [s for s in self.enemy_shamans(w) if distance(here, s) == 1]

    def terrain_cost(self, w: Wizard, h: Hex) -> int | None:
        """Movement points to enter h, ignoring who stands there; None if never enterable."""
        terrain = self.arena.terrain.get(h)
        if terrain is None:
            return None
        druid = w["type"] == "druid"  # Water Walk
        if terrain == OCEAN:
            return 2 if druid else None
        if terrain == STREAM:
            return 1 if druid else 2
        return 1

    def blocked(self, w: Wizard, h: Hex) -> bool:
        """Obstacles, crystals, hydras, totems and enemy fog are impassable to w."""
        if h in self.walls or h in self.tokens or h in self.crystals:
            return True
        side = self.fog.get(h)
        return side is not None and side != w["side"]

    def may_stop(self, w: Wizard, h: Hex) -> bool:
        """No two wizards share a hex at the end of movement, and no one stays in fog."""
        if any(wid != w["id"] for wid in self.crowd.get(h, ())):
            return False
        return h not in self.fog

    def halts(self, w: Wizard, h: Hex) -> bool:
        """Bear Presence: entering a hex next to an opposing Shaman ends movement."""
        return any(distance(h, s) == 1 for s in self.enemy_shamans(w))

    def step_cost(self, w: Wizard, frm: Hex, to: Hex, binding: list[Hex] | None = None) -> int | None:
        """Cost of one step frm -> to for w (whole hexes only), None if the step is illegal;
        `binding`: binding_shamans(w), when the caller asks many times over."""
        if distance(frm, to) != 1 or to not in self.arena.whole:
            return None
        cost = self.terrain_cost(w, to)
        if cost is None or self.blocked(w, to):
            return None
        other = self.occupied.get(to)
        if other is not None and other["id"] != w["id"] and match.opposed(self.state, other, w):
            return None  # "The hexes occupied by wizards of opposing teams are impassable."
        for s in self.binding_shamans(w) if binding is None else binding:
            # Bear Presence: "may not move directly into another hex adjacent to him" (FAQ 1),
            # for a wizard that began its turn next to him
            if distance(frm, s) == 1 and distance(to, s) == 1:
                return None
        return cost

    def can_finish(self, w: Wizard, h: Hex, mp: int, halted: bool) -> bool:
        """Whether w standing on h with mp points left can end its movement legally."""
        if self.may_stop(w, h):
            return True
        if halted:
            return False
        for n in neighbours(h):
            c = self.step_cost(w, h, n)
            if c is not None and c <= mp and self.can_finish(w, n, mp - c, self.halts(w, n)):
                return True
        return False

    def steps(self, w: Wizard, frm: Hex, mp: int) -> list[tuple[Hex, int]]:
        """Legal single steps (destination, cost) with mp points left."""
        out = []
        for n in neighbours(frm):
            c = self.step_cost(w, frm, n)
            if c is None or c > mp:
                continue
            if self.can_finish(w, n, mp - c, self.halts(w, n)):
                out.append((n, c))
        return sorted(out)

    def reachable(self, w: Wizard, start: Hex | None, mp: int,
                  entries: list[Hex] | None = None) -> dict[Hex, tuple[int, list[Hex]]]:
        """Every hex w can end its movement on: hex -> (cost, path of hexes entered).

        `entries` are the arena hexes an attacking wizard waiting outside may step into for
        one movement point (Solo Play: Gameplay)."""
        best: dict[Hex, tuple[int, list[Hex]]] = {}
        heap: list = []
        if start is not None:
            heap.append((0, 0, start, []))
        else:
            for e in entries or []:
                if e in self.arena.whole and not self.blocked(w, e) and self.terrain_cost(w, e) is not None and mp >= 1:
                    other = self.occupied.get(e)
                    if other is None or not match.opposed(self.state, other, w):
                        heapq.heappush(heap, (1, 1, e, [e]))
        seen: dict[Hex, int] = {}
        binding, shamans = self.binding_shamans(w), self.enemy_shamans(w)
        while heap:
            cost, n_steps, h, path = heapq.heappop(heap)
            if h in seen and seen[h] <= cost:
                continue
            seen[h] = cost
            if self.may_stop(w, h) and (h not in best or best[h][0] > cost):
                best[h] = (cost, path)
            if path and any(distance(h, s) == 1 for s in shamans):  # halts: Bear Presence
                continue
            for n in neighbours(h):
                c = self.step_cost(w, h, n, binding)
                if c is None or cost + c > mp:
                    continue
                if n not in seen or seen[n] > cost + c:
                    heapq.heappush(heap, (cost + c, n_steps + 1, n, path + [n]))
        return best

    def walk_distance(self, w: Wizard, goal_near: Hex, starts: list[Hex]) -> dict[Hex, int]:
        """Movement-point distance from every hex to the hexes next to `goal_near`, ignoring
        movement limits and Bear Presence (used to move "toward" a wizard). `starts` are the hexes
        asked about: the search stops once it has settled all of them (none given: every hex)."""
        dist: dict[Hex, int] = {}
        heap = [(0, h) for h in neighbours(goal_near) if h in self.arena.whole and not self.blocked(w, h)
                and self.terrain_cost(w, h) is not None]
        heapq.heapify(heap)
        enterable: dict[Hex, bool] = {}  # each hex judged once, not once from each neighbour
        left = set(starts)
        while heap:
            d, h = heapq.heappop(heap)
            if h in dist:
                continue
            dist[h] = d
            if left:
                left.discard(h)
                if not left:
                    break
            cost_here = self.terrain_cost(w, h) or 1
            for n in neighbours(h):
                if n in dist:
                    continue
                ok = enterable.get(n)
                if ok is None:
                    other = self.occupied.get(n)
                    ok = enterable[n] = (n in self.arena.whole and not self.blocked(w, n)
                                         and self.terrain_cost(w, n) is not None
                                         and not (other is not None and other["id"] != w["id"]
                                                  and match.opposed(self.state, other, w)))
                if ok:
                    heapq.heappush(heap, (d + cost_here, n))
        return dist

    # --- forced movement ------------------------------------------------------------
    def shove_steps(self, target: Wizard, frm: Hex) -> list[Hex]:
        """Primal Reach: hexes the caster may move the target into. "The caster may not move
        the target into or through any impassable hex. Streams do not slow down the target."
        Reading (authored): the target may not be moved into any occupied or fog hex, since
        it may stop after any step."""
        out = []
        for n in neighbours(frm):
            if n not in self.arena.whole or self.terrain_cost(target, n) is None:
                continue
            if self.blocked(target, n) or n in self.fog or n in self.occupied:
                continue
            out.append(n)
        return sorted(out)

    def teleport_spots(self, target: Wizard) -> list[Hex]:
        """Teleport: up to four hexes from the target's hex, never onto an impassable hex
        (through them is fine, FAQ 4); the target's own hex means staying put."""
        here = as_hex(target["hex"])
        out = []
        for h in self.arena.whole:
            if distance(h, here) > 4:
                continue
            if h == here:
                out.append(h)
                continue
            if self.terrain_cost(target, h) is None or self.blocked(target, h) or h in self.fog or h in self.occupied:
                continue
            out.append(h)
        return sorted(out)
