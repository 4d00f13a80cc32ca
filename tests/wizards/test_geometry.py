"""Tile footprints on the water board, rotation and the reserve cells."""
from __future__ import annotations

from shared import hexgrid
from shared.wizards.geometry import LABELS, board, footprint, placed_direction, placed_hex


def test_board_is_a_rectangle_of_water_hexes():
    """3.22: tiles cover Game Board Water hexagons; the board (authored) is 30 x 22 hexes."""
    b = board()
    assert len(b.hexes) == b.columns * b.rows == 660
    row_by_row = ((c, r) for r in range(b.rows) for c in range(b.columns))
    assert all(b.offset(h) == (col, row) for h, (col, row) in zip(b.order, row_by_row))


def test_a_tile_covers_nineteen_distinct_board_hexes_in_any_rotation():
    """3.23: any orientation, each tile hex over one board hex."""
    at = board().centers[40]
    for rot in range(6):
        covered = {placed_hex(at, rot, lab) for lab in LABELS}
        assert covered == set(footprint(at)) and len(covered) == 19


def test_rotation_turns_labels_clockwise():
    """A sixth-turn moves A1 (east) to where A2 (south-east) lay, and a wall's side with it."""
    at = (10, 10)
    assert placed_hex(at, 1, "A1") == placed_hex(at, 0, "A2")
    assert placed_hex(at, 2, "B1") == placed_hex(at, 0, "B3")
    assert placed_direction(0, 1) == 1 and placed_direction(5, 1) == 0


def test_reserve_cells_are_disjoint_and_enough_for_every_tile():
    """3.21 (authored room rule): at least 18 whole cells, none overlapping."""
    b = board()
    assert len(b.cells) >= 18
    seen = set()
    for c in b.cells:
        fp = set(footprint(c))
        assert fp <= b.hexes and not (fp & seen)
        seen |= fp
    for i, c in enumerate(b.cells):
        assert b.cells_hit[c] == {i}
    assert all(hexgrid.distance(a, c) >= 5 for i, a in enumerate(b.cells) for c in b.cells[i + 1:])
