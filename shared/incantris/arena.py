"""The arena: tiles laid on the hex grid, and what each hex of the arena is.

A tile is a flat-topped hexagon whose corners sit on the centres of the hexes four steps
from its middle, so the straight tile edges cut the rim hexes through their centres. Where
two tiles meet, their half hexes make one whole hex ("hexes created by two or more tiles");
where a rim hex has no neighbouring tile it stays a partial hex, which wizards may never
enter (Movement & Terrain). A half tile is a tile cut along a long diagonal (a trapezoid).

Coverage is counted exactly in sixths of a hex: a whole hex inside a tile is 6, a rim hex
cut by one edge 3, a tile corner 2 (a 120 degree corner) and a half tile's sharp corner 1.
A hex is whole when its pieces add up to 6.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Sequence

from shared import hexgrid
from shared.hexgrid import DIRECTIONS, Hex, add, distance, rotate, sub
from shared.incantris.pack import load

OPEN, STREAM, OCEAN = "open", "stream", "ocean"


@dataclass(frozen=True)
class Arena:
    key: str
    placements: tuple  # the tile placements as given (dicts as JSON text)
    coverage: dict  # hex -> sixths covered
    owners: dict  # hex -> tile indices covering part of it
    terrain: dict  # hex -> OPEN | STREAM | OCEAN
    whole: frozenset
    partial: frozenset
    single: frozenset  # whole hexes lying on one tile only
    outside: dict  # hex -> convex polygons of the world off the arena inside that hex
    tile_hexes: tuple  # per tile: frozenset of hexes it covers (any part)

    def is_whole(self, h: Hex) -> bool:
        return h in self.whole


def _tile_polygon(centre: Hex, rotation: int, half: bool, radius: int) -> list[hexgrid.Point]:
    ids = (0, 1, 2, 3) if half else (0, 1, 2, 3, 4, 5)
    return [hexgrid.to_pixel(add(centre, rotate((DIRECTIONS[i][0] * radius, DIRECTIONS[i][1] * radius), rotation)))
            for i in ids]


def _local_share(local: Hex, half: bool, radius: int) -> int:
    """Sixths of a hex a tile covers at a local position (before turning)."""
    d = distance(local, (0, 0))
    corners = {(DIRECTIONS[i][0] * radius, DIRECTIONS[i][1] * radius) for i in range(6)}
    if half and local[1] == 0:
        return 1 if d == radius else 3
    if d < radius:
        return 6
    return 2 if local in corners else 3


def _outside_pieces(h: Hex, polygons: list[list[hexgrid.Point]]) -> list[list[hexgrid.Point]]:
    """Convex pieces covering the part of hex h no tile covers."""
    pieces = [hexgrid.corners(h)]
    for poly in polygons:
        cx = sum(p[0] for p in poly) / len(poly)
        cy = sum(p[1] for p in poly) / len(poly)
        nxt = []
        for piece in pieces:
            for i in range(len(poly)):
                a, b = poly[i], poly[(i + 1) % len(poly)]
                inside_left = (b[0] - a[0]) * (cy - a[1]) - (b[1] - a[1]) * (cx - a[0]) > 0
                cut = hexgrid.clip_half_plane(piece, a, b, keep_left=not inside_left)
                if len(cut) >= 3 and hexgrid.polygon_area(cut) > 1e-9:
                    nxt.append(cut)
        pieces = nxt
    return pieces


@lru_cache(maxsize=64)
def _build(key: str) -> Arena:
    pack = load()
    placements = json.loads(key)
    radius = pack.radius
    coverage: dict[Hex, int] = {}
    owners: dict[Hex, list[int]] = {}
    water: dict[Hex, list[int]] = {}  # hex -> [stream sixths, ocean sixths]
    polygons: list[list[hexgrid.Point]] = []
    tile_hexes = []
    for index, p in enumerate(placements):
        half, face = pack.face(p["tile"], p["side"])
        centre, rot = tuple(p["centre"]), p["rotation"]
        polygons.append(_tile_polygon(centre, rot, half, radius))
        mine = set()
        for local, char in face.items():
            g = add(centre, rotate(local, rot))
            share = _local_share(local, half, radius)
            coverage[g] = coverage.get(g, 0) + share
            owners.setdefault(g, []).append(index)
            w = water.setdefault(g, [0, 0])
            if char == "~":
                w[0] += share
            elif char == "#":
                w[1] += share
            mine.add(g)
        tile_hexes.append(frozenset(mine))
    for h, c in coverage.items():
        if c > 6:
            raise ValueError(f"tiles overlap at hex {h}")
    terrain = {}
    for h, c in coverage.items():
        stream, ocean = water[h]
        # Movement & Terrain: "Any hex that is more than 50% water is a stream/ocean hex."
        if 2 * ocean > c:
            terrain[h] = OCEAN
        elif 2 * (stream + ocean) > c:
            terrain[h] = STREAM
        else:
            terrain[h] = OPEN
    whole = frozenset(h for h, c in coverage.items() if c == 6)
    partial = frozenset(h for h, c in coverage.items() if c < 6)
    single = frozenset(h for h in whole if len(owners[h]) == 1)
    outside: dict[Hex, tuple] = {}
    qmin, qmax, rmin, rmax = hexgrid.bounding(coverage)
    for q in range(qmin - 3, qmax + 4):
        for r in range(rmin - 3, rmax + 4):
            h = (q, r)
            c = coverage.get(h, 0)
            if c == 0:
                outside[h] = (tuple(hexgrid.corners(h)),)
            elif c < 6:
                outside[h] = tuple(tuple(piece) for piece in _outside_pieces(h, [polygons[i] for i in owners[h]]))
    return Arena(key, tuple(json.dumps(p, sort_keys=True) for p in placements), coverage,
                 {h: tuple(v) for h, v in owners.items()}, terrain, whole, partial, single, outside, tuple(tile_hexes))


def arena_of(tiles: Sequence[Mapping[str, Any]]) -> Arena:
    """The arena for a list of tile placements (cached: states share their arena)."""
    return _by_tuple(tuple((t["tile"], t["side"], t["centre"][0], t["centre"][1], t["rotation"]) for t in tiles))


@lru_cache(maxsize=256)
def _by_tuple(key: tuple) -> Arena:
    return _build(json.dumps([{"tile": a, "side": b, "centre": [q, r], "rotation": rot} for a, b, q, r, rot in key],
                             sort_keys=True, separators=(",", ":")))


def hex_key(h) -> str:
    return f"{h[0]},{h[1]}"


def as_hex(v) -> Hex:
    return (int(v[0]), int(v[1]))


def slot_vector(i: int) -> Hex:
    """Centre of the tile next to the centre tile in slot i (0..5, clockwise from 30 degrees)."""
    r = load().radius
    d1, d2 = DIRECTIONS[i % 6], DIRECTIONS[(i + 1) % 6]
    return (r * (d1[0] + d2[0]), r * (d1[1] + d2[1]))


def slot_of(centre: Hex) -> int | None:
    for i in range(6):
        if slot_vector(i) == tuple(centre):
            return i
    return None


def turned(h: Hex, steps: int = 1) -> Hex:
    """Where a hex goes when its tile turns round the centre tile (Shifting Arena, Figure 7)."""
    return rotate(h, steps)


def relative(h: Hex, centre: Hex, rot: int) -> Hex:
    """Local position on a tile of a hex of the arena."""
    return rotate(sub(h, centre), -rot)
