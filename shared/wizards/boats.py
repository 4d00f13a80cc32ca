"""Boats: where the Boat Markers start (3.3-3.32), how far a summoned Boat comes over
water (11.211-11.2111), and a Boat moving with the Demon left in it (12.141)."""
from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from types import MappingProxyType

from shared import hexgrid
from shared.hexgrid import Hex
from shared.wizards.pack import pack
from shared.wizards.state import WizardsState
from shared.wizards.world import World

BOAT_MARKERS = 10  # 1) Equipment: 10 Boat Markers
HARBOURS = ("town", "dwelling", "abbey")  # 3.3: Common Town, Elven Dwelling, Shrineheart Abbey


def mooring(w: World, h: Hex) -> Hex | None:
    """3.31: the Water space next to `h` "farthest clockwise towards land".

    Going clockwise round the structure, a run of Water spaces ends where land (or the
    board's edge) begins; the last Water space of the run is the one farthest clockwise
    towards land. With several runs, the first met clockwise from the east is taken
    (authored: the rulebook does not say)."""
    ring = hexgrid.neighbours(h)  # clockwise from east
    wet = [n in w.water for n in ring]
    if not any(wet):
        return None
    if all(wet):
        return ring[0]
    for d in range(6):
        if wet[d] and not wet[(d + 1) % 6]:
            return ring[d]
    return None


def starting_boats(w: World) -> list[tuple[Hex, Hex]]:
    """(structure hex, boat hex) for each harbour next to Water, in tile then label
    order, at most one Boat Marker each and no more than the ten markers (3.3, 3.32)."""
    out: list[tuple[Hex, Hex]] = []
    for tile in pack().tile_ids:
        for h in w.tile_spaces(tile):
            if w.kind(h) in HARBOURS:
                m = mooring(w, h)
                if m is not None and len(out) < BOAT_MARKERS:
                    out.append((h, m))
    return out


def water_distances(w: World, start: Hex) -> Mapping[Hex, int]:
    """Steps from `start` to each Water space moving through Water only (11.2111: no
    Boat may ever cross over land): found once per world and space (World.memo), read only."""
    key = ("water distances", start)
    found = w.memo.get(key)
    if found is None:
        found = w.memo[key] = MappingProxyType(_water_walk(w, start))
    return found


def _water_walk(w: World, start: Hex) -> dict[Hex, int]:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        x = queue.popleft()
        for y in w.neighbours(x):
            if y in w.water and y not in dist:
                dist[y] = dist[x] + 1
                queue.append(y)
    return dist


def move_boat(state: WizardsState, boat_id: int, to: list[int], events: list) -> None:
    """A Boat moves (sailing, 6; Boat Summoning, 11.211). 12.141: a Demon left in a Boat stays
    in it until dispelled, so it goes with the Boat; where a Demon Marker stands already the
    Boat's goes back to the supply (7.3041: one Demon Marker a space) and the Boat is free of it."""
    boat = state.edit("boats", boat_id)
    old = list(boat["at"])
    boat["at"] = list(to)
    if not boat.get("demon") or old == list(to):
        return
    state.demons.remove(old)
    if list(to) in state.demons:
        del boat["demon"]
        events.append({"type": "demon_removed", "at": list(to), "rule": "7.3041", "boat": boat_id})
    else:
        state.demons.append(list(to))
