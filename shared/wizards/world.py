"""The Enchanted Islands as laid: which space covers each board hex, walls, water,
coasts and islands, built from the tile placements in a state.

A World is derived data: the state records only (tile, Center hex, rotation) per
tile, and `world_for(state)` rebuilds (and caches) the map, so states stay small
and a replay rebuilds the same islands.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from shared import hexgrid
from shared.hexgrid import DIRECTION_NAMES, Hex
from shared.wizards.geometry import LABELS, board, placed_direction, placed_hex
from shared.wizards.pack import LAIR_TILE, pack
from shared.wizards.state import Board

Placement = tuple[str, int, int, int]  # tile id, Center q, Center r, rotation


@dataclass(frozen=True)
class Space:
    """One land space: the tile it belongs to, its label (Center, A1-C6) and what it shows."""

    tile: str
    label: str
    kind: str
    tile_type: str
    name: str = ""
    dots: int = 0
    master: str = ""


@dataclass
class World:
    placements: tuple[Placement, ...]
    spaces: dict[Hex, Space] = field(default_factory=dict)
    hex_of: dict[tuple[str, str], Hex] = field(default_factory=dict)
    walls: set[tuple[Hex, Hex]] = field(default_factory=set)
    water: frozenset[Hex] = frozenset()
    coast: frozenset[Hex] = frozenset()
    island: dict[Hex, int] = field(default_factory=dict)
    by_kind: dict[str, tuple[Hex, ...]] = field(default_factory=dict)
    tiles: tuple[str, ...] = ()
    # answers derived from this world alone (islands walked from a space ...), each found once:
    # a World is never changed after it is built
    memo: dict = field(default_factory=dict, compare=False, repr=False)
    _open: dict = field(default_factory=dict, compare=False, repr=False)  # open_steps, found once a space

    # --- reading -----------------------------------------------------------------
    def is_land(self, h: Hex) -> bool:
        return h in self.spaces

    def is_water(self, h: Hex) -> bool:
        return h in self.water

    def on_board(self, h: Hex) -> bool:
        return h in board().hexes

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        return board_neighbours(h)

    def open_steps(self, h: Hex) -> tuple[tuple[Hex, bool], ...]:
        """The spaces next to `h` with no Wall between (6: Walls are impassable on foot), each with
        whether it is land, in the order of `neighbours`: what every walk asks of each space."""
        found = self._open.get(h)
        if found is None:
            found = self._open[h] = tuple((n, n in self.spaces) for n in board_neighbours(h)
                                          if not self.wall_between(h, n))
        return found

    def wall_between(self, a: Hex, b: Hex) -> bool:
        return (a, b) in self.walls if a <= b else (b, a) in self.walls

    def tile_of(self, h: Hex) -> str | None:
        s = self.spaces.get(h)
        return s.tile if s else None

    def kind(self, h: Hex) -> str:
        s = self.spaces.get(h)
        return s.kind if s else "water"

    def space_name(self, h: Hex) -> str:
        """"Green Grove A5", "Water 12,4": how a person names a space."""
        s = self.spaces.get(h)
        if s is None:
            return f"Water {h[0]},{h[1]}"
        return f"{pack().tiles[s.tile]['name']} {s.label}"

    def in_lair(self, h: Hex) -> bool:
        return self.tile_of(h) == LAIR_TILE

    def in_circle(self, h: Hex) -> bool:
        """Any part of the Sacred Circle: its stones and its Center (6, 7.3043 e)."""
        return self.kind(h) in ("stone", "circle")

    def find(self, kind: str) -> tuple[Hex, ...]:
        return self.by_kind.get(kind, ())

    def tile_spaces(self, tile: str) -> list[Hex]:
        return [self.hex_of[(tile, lab)] for lab in LABELS if (tile, lab) in self.hex_of]


def build(placements: tuple[Placement, ...]) -> World:
    p = pack()
    w = World(placements=placements)
    walls = set()
    for tile, q, r, rot in placements:
        spec = p.tiles[tile]
        at = (q, r)
        for label in LABELS:
            h = placed_hex(at, rot, label)
            s = spec["spaces"][label]
            w.spaces[h] = Space(tile, label, s["kind"], spec["type"], s.get("name", ""), s.get("dots", 0),
                                s.get("master", ""))
            w.hex_of[(tile, label)] = h
        for label, dname in spec["walls"]:
            h = placed_hex(at, rot, label)
            walls.add(hexgrid.side_key(h, placed_direction(DIRECTION_NAMES.index(dname), rot)))
    w.walls = walls
    hexes = board().hexes
    w.water = frozenset(h for h in hexes if h not in w.spaces)
    w.coast = frozenset(h for h in w.spaces if any(n in w.water for n in hexgrid.neighbours(h)))
    kinds: dict[str, list[Hex]] = {}
    for h in board().order:
        s = w.spaces.get(h)
        if s:
            kinds.setdefault(s.kind, []).append(h)
    w.by_kind = {k: tuple(v) for k, v in kinds.items()}
    # Islands: land masses joined hex to hex (walls do not divide an island).
    n = 0
    for h in board().order:
        if h in w.spaces and h not in w.island:
            stack = [h]
            w.island[h] = n
            while stack:
                x = stack.pop()
                for y in hexgrid.neighbours(x):
                    if y in w.spaces and y not in w.island:
                        w.island[y] = n
                        stack.append(y)
            n += 1
    w.tiles = tuple(t for t, *_ in placements)
    return w


@lru_cache(maxsize=None)
def board_neighbours(h: Hex) -> tuple[Hex, ...]:
    """The spaces of the Game Board next to `h`, clockwise from east: the board never changes, so
    each space's are found once (a walk asks them millions of times in a search)."""
    hexes = board().hexes
    return tuple(n for n in hexgrid.neighbours(h) if n in hexes)


@lru_cache(maxsize=256)
def world_of(placements: tuple[Placement, ...]) -> World:
    return build(placements)


def placements_of(state: Board) -> tuple[Placement, ...]:
    return placements_in(state.tiles)


def placements_in(tiles: Mapping) -> tuple[Placement, ...]:
    """The face-up placements of a state's or a view's `tiles` (a face-down tile's face is no part of the world)."""
    return tuple(sorted((t["tile"], t["at"][0], t["at"][1], t["rotation"]) for t in tiles["placed"] if t["tile"]))


def view_world(view: Mapping) -> World:
    """The islands as a seat's view shows them: its face-up tiles only."""
    return world_of(placements_in(view["tiles"]))


# The World of each placements list met lately, by the list's identity: a step shares its
# input's `tiles` (state.py), so every state after the set-up finds its World at once. The
# entry holds the list (its id cannot be reused meanwhile) and its length: tiles are only
# ever added to a list in place, and a placement never changes once laid.
_BY_LIST: dict[int, tuple[list, int, World]] = {}


def world_for(state: Board) -> World:
    placed = state.tiles["placed"]
    hit = _BY_LIST.get(id(placed))
    if hit is not None and hit[0] is placed and hit[1] == len(placed):
        return hit[2]
    w = world_of(placements_of(state))
    if len(_BY_LIST) >= 256:
        _BY_LIST.clear()
    _BY_LIST[id(placed)] = (placed, len(placed), w)
    return w
