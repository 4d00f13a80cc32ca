"""Tiles, whole and partial hexes, terrain by the 50% rule (Movement & Terrain)."""
from __future__ import annotations

from shared.hexgrid import distance
from shared.incantris.arena import OCEAN, OPEN, STREAM, arena_of, slot_vector, turned
from shared.incantris.pack import load

PACK = load()


def one(tile="T1", side="A", centre=(0, 0), rotation=0):
    return {"tile": tile, "side": side, "centre": list(centre), "rotation": rotation}


def test_a_lone_tile_has_whole_middle_and_partial_rim():
    """Rim hexes are cut by the tile edge: wizards "may not enter, pass through, or stop in
    partial hexes"."""
    a = arena_of([one()])
    assert len(a.whole) == 37 and len(a.partial) == 24
    assert all(distance(h, (0, 0)) <= 3 for h in a.whole)
    assert a.coverage[(4, 0)] == 2 and a.coverage[(2, 2)] == 3  # a corner third, an edge half


def test_two_tiles_make_whole_hexes_along_their_seam():
    """Hexes "created by two or more tiles" are whole."""
    a = arena_of([one(), one("T2", "A", slot_vector(0))])
    seam = [(4, 0), (3, 1), (2, 2), (1, 3), (0, 4)]
    assert all(h in a.whole for h in seam[1:-1])
    assert all(len(a.owners[h]) == 2 for h in seam)
    assert (4, 0) in a.partial  # two thirds only
    assert (3, 1) not in a.single and (0, 0) in a.single


def test_three_tiles_meet_in_a_whole_corner():
    a = arena_of([one(), one("T2", "A", slot_vector(0)), one("T3", "A", slot_vector(1))])
    assert (0, 4) in a.whole and len(a.owners[(0, 4)]) == 3


def test_half_tile_is_a_trapezoid():
    """6 double-sided half tiles: the long edge is a partial row, its sharp corners a sixth."""
    a = arena_of([one("H1", "A")])
    assert a.coverage[(0, 0)] == 3 and a.coverage[(4, 0)] == 1 and a.coverage[(0, 2)] == 6
    assert not any(h[1] < 0 for h in a.coverage)


def test_overlapping_tiles_are_refused():
    import pytest

    with pytest.raises(ValueError):
        arena_of([one(), one("T2", "A", (1, 0))])


def test_more_than_half_water_is_water():
    """"Any hex that is more than 50% water is a stream hex" (and likewise ocean); the bridge
    is open ground; exactly half water is not more than half."""
    a = arena_of([one("T1", "B")])  # a stream along the middle row with a bridge
    assert a.terrain[(2, 0)] == STREAM and a.terrain[(0, 0)] == OPEN and a.terrain[(0, 1)] == OPEN
    # a stream half hex meeting an open half hex makes an open hex (exactly 50% water)
    b = arena_of([one("T5", "A"), one("T1", "A", slot_vector(5))])
    assert b.terrain[(3, -1)] == STREAM
    assert (4, -1) in b.whole and b.coverage[(4, -1)] == 6 and b.terrain[(4, -1)] == OPEN
    c = arena_of([one("T5", "A"), one("T5", "A", slot_vector(5), 5)])
    assert c.terrain[(4, -1)] == STREAM  # both halves stream
    pond = arena_of([one("T3", "B")])
    assert pond.terrain[(0, 0)] == OCEAN and pond.terrain[(0, 2)] == OPEN


def test_turning_an_arm_keeps_its_contact_edge_on_the_centre_tile():
    """Figure 7: "the edge of the shifting tile ... that was in contact with the center tile
    remains in contact with the center tile after the tile's shift"."""
    before = arena_of([one(), one("T2", "A", slot_vector(0))])
    after = arena_of([one(), one("T2", "A", turned(slot_vector(0)), 1)])
    seam_before = {h for h in before.whole if len(before.owners[h]) == 2}
    seam_after = {h for h in after.whole if len(after.owners[h]) == 2}
    assert {turned(h) for h in seam_before} == seam_after
    # the same hexes of the turned tile touch the centre: local positions are kept
    assert after.terrain[turned((5, 2))] == before.terrain[(5, 2)]
