"""Wizards geometry on top of shared.hexgrid: the water board, tile footprints and the
placement room check.

A territory tile is a hexagon of 19 hexes (radius 2). Laid with its Center on board
hex `at` and turned `rotation` sixth-turns clockwise, its space `label` covers
`at + rotate(label's local hex, rotation)`. Every tile has the same footprint
whatever its rotation, so what may go where depends only on the Center's hex.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from shared import hexgrid
from shared.hexgrid import Hex
from shared.wizards.pack import pack

LABELS = ("Center",) + tuple(f"{ring}{i}" for ring in "ABC" for i in range(1, 7))
SPACE_LABELS = LABELS[1:]  # 4.2: every space except the Center is numbered A1-C6
TILE_RADIUS = 2
# Two tiles overlap exactly when their Centers are this close or closer.
OVERLAP_DISTANCE = 2 * TILE_RADIUS


def label_hex(label: str) -> Hex:
    return pack().labels[label]


def placed_hex(at: Hex, rotation: int, label: str) -> Hex:
    """The board hex under `label` of a tile laid at `at` with `rotation`."""
    return hexgrid.add(at, hexgrid.rotate(label_hex(label), rotation))


def placed_direction(direction: int, rotation: int) -> int:
    return (direction + rotation) % 6


def footprint(at: Hex) -> list[Hex]:
    return hexgrid.spiral(at, TILE_RADIUS)


@dataclass(frozen=True)
class Board:
    """The Game Board's water hexes and the fixed cells used to count room (3.21)."""

    hexes: frozenset[Hex]
    order: tuple[Hex, ...]  # row by row, west to east: for drawing and stable listings
    centers: tuple[Hex, ...]  # where a tile's Center may go so every hex lies on the board
    cells: tuple[Hex, ...]  # centres of the reserve lattice cells lying wholly on the board
    cells_hit: dict  # centre hex -> frozenset of cell indices its footprint touches
    columns: int
    rows: int

    def offset(self, h: Hex) -> tuple[int, int]:
        """(column, row) of an axial hex in the odd-r layout."""
        q, r = h
        return (q + (r - (r & 1)) // 2, r)


@lru_cache(maxsize=1)
def board() -> Board:
    spec = pack().board
    cols, rows = spec["columns"], spec["rows"]
    order = []
    for row in range(rows):
        for col in range(cols):
            order.append((col - (row - (row & 1)) // 2, row))
    hexes = frozenset(order)
    centers = tuple(h for h in order if all(x in hexes for x in footprint(h)))
    centre_set = set(centers)
    o = tuple(spec["reserve"]["origin_hex"])
    b1, b2 = (tuple(v) for v in spec["reserve"]["basis"])
    cells = []
    span = cols + rows
    for i in range(-span, span + 1):
        for j in range(-span, span + 1):
            c = (o[0] + i * b1[0] + j * b2[0], o[1] + i * b1[1] + j * b2[1])
            if c in centre_set:
                cells.append(c)
    cells.sort(key=lambda h: (h[1], h[0]))
    cell_of = {}
    for idx, c in enumerate(cells):
        for h in footprint(c):
            cell_of[h] = idx
    cells_hit = {c: frozenset(cell_of[h] for h in footprint(c) if h in cell_of) for c in centers}
    return Board(hexes, tuple(order), centers, tuple(cells), cells_hit, cols, rows)


def free_cells(placed_centers: list[Hex]) -> set[int]:
    """Reserve cells no placed tile touches."""
    b = board()
    used: set[int] = set()
    for c in placed_centers:
        used |= b.cells_hit[c]
    return set(range(len(b.cells))) - used


def open_centers(placed_centers: list[Hex]) -> list[Hex]:
    """Centres where a tile fits without overlapping a placed tile (3.22), in board order."""
    b = board()
    if not placed_centers:
        return list(b.centers)
    blocked: set[Hex] = set()
    for c in placed_centers:
        blocked.update(hexgrid.iter_within(c, OVERLAP_DISTANCE))
    return [h for h in b.centers if h not in blocked]
