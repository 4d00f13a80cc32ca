"""Hex geometry shared by Incantris and Wizards: axial coordinates, rotation, lines, and the
plane geometry behind "from any part of a hex to the centre of another" sight lines."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from shared import hexgrid as hg

hexes = st.tuples(st.integers(-12, 12), st.integers(-12, 12))


def test_directions_run_clockwise_from_east():
    assert hg.DIRECTIONS[0] == (1, 0) and hg.DIRECTION_NAMES[1] == "SE"
    for d in range(6):
        x0, y0 = hg.to_pixel(hg.DIRECTIONS[d])
        x1, y1 = hg.to_pixel(hg.DIRECTIONS[(d + 1) % 6])
        assert x0 * y1 - y0 * x1 > 0  # clockwise on screen (y downwards)


@given(hexes, hexes)
def test_distance_is_a_metric(a, b):
    assert hg.distance(a, b) == hg.distance(b, a) >= 0
    assert (hg.distance(a, b) == 0) == (a == b)


def test_neighbours_ring_and_spiral():
    assert len(set(hg.neighbours((0, 0)))) == 6 and all(hg.distance((0, 0), n) == 1 for n in hg.neighbours((0, 0)))
    assert len(hg.ring((2, -1), 3)) == 18 and all(hg.distance((2, -1), h) == 3 for h in hg.ring((2, -1), 3))
    assert len(hg.spiral((0, 0), 2)) == 19
    assert sorted(hg.spiral((1, 1), 3)) == sorted(hg.iter_within((1, 1), 3))
    assert hg.direction_to((0, 0), (0, 1)) == 1 and hg.direction_to((0, 0), (2, 0)) is None


def test_rotate_turns_clockwise_in_sixths():
    assert hg.rotate((1, 0), 1) == (0, 1)  # east to south-east
    assert hg.rotate((1, 0), 6) == (1, 0)
    assert hg.rotate((3, 2), 2, center=(1, 1)) == hg.add((1, 1), hg.rotate((2, 1), 2))


@given(hexes, st.integers(0, 5))
def test_rotation_keeps_distance(h, k):
    assert hg.distance(hg.rotate(h, k), (0, 0)) == hg.distance(h, (0, 0))


def test_side_key_is_shared():
    assert hg.side_key((0, 0), 0) == hg.side_key((1, 0), 3)


@given(hexes, hexes)
def test_line_is_connected(a, b):
    ln = hg.line(a, b)
    assert ln[0] == a and ln[-1] == b and len(ln) == hg.distance(a, b) + 1
    assert all(hg.distance(p, q) == 1 for p, q in zip(ln, ln[1:]))


def test_corners_are_a_pointy_top_hexagon():
    cs = hg.corners((0, 0))
    assert len(cs) == 6
    assert all(abs(math.hypot(x, y) - 1) < 1e-9 for x, y in cs)
    assert min(y for _, y in cs) == min(cs, key=lambda p: p[1])[1] and abs(min(y for _, y in cs) + 1) < 1e-9
    assert abs(hg.polygon_area(cs) - 3 * math.sqrt(3) / 2) < 1e-9


def test_clip_half_plane_halves_a_hex_through_its_centre():
    cs = hg.corners((0, 0))
    half = hg.clip_half_plane(cs, (-2, 0), (2, 0), keep_left=True)
    assert abs(hg.polygon_area(half) - hg.polygon_area(cs) / 2) < 1e-9


def test_clear_line_with_nothing_in_the_way():
    assert hg.sight_clear((0, 0), (5, -2), [])
    assert hg.sight_clear((3, 3), (3, 3), [hg.corners((3, 3))])


def test_a_blocker_straight_between_blocks():
    assert not hg.sight_clear((0, 0), (4, 0), [hg.corners((2, 0))])
    assert not hg.sight_clear((0, 0), (4, 0), [hg.corners((1, 0))])


def test_a_blocker_off_to_the_side_does_not():
    assert hg.sight_clear((0, 0), (4, 0), [hg.corners((2, -2))])
    assert hg.sight_clear((0, 0), (4, 0), [hg.corners((2, 2))])


def test_any_part_of_the_source_hex_may_see_round_a_corner():
    """A line from the corner of the source hex clears a blocker that the centre line hits."""
    blocker = [hg.corners((1, 0))]
    # from the centre of (0, 0) the line to (3, -1) grazes (1, 0); from its upper corner it passes
    assert hg.sight_clear((0, 0), (3, -1), blocker)
    # but two blockers side by side leave no crack
    assert not hg.sight_clear((0, 0), (3, 0), [hg.corners((1, 0)), hg.corners((2, -1)), hg.corners((1, 1))])


def test_sight_is_not_symmetric():
    """Figure 5: one wizard may see another that cannot see it back, since sight runs from
    any part of the caster's hex to the centre of the target's."""
    found = False
    for blocker in [(1, 0), (2, 0), (1, 1), (2, -1), (1, -1)]:
        for target in hg.iter_within((0, 0), 4):
            if target in ((0, 0), blocker):
                continue
            there = hg.sight_clear((0, 0), target, [hg.corners(blocker)])
            back = hg.sight_clear(target, (0, 0), [hg.corners(blocker)])
            if there != back:
                found = True
    assert found


def test_sight_corridor_holds_every_hex_that_can_touch_the_line():
    corridor = set(hg.sight_corridor((0, 0), (6, -2)))
    assert (3, -1) in corridor and (0, 0) not in corridor and (6, -2) not in corridor
    assert (0, 5) not in corridor
    # a blocker outside the corridor never changes the answer
    for h in hg.iter_within((3, -1), 5):
        if h not in corridor and h not in ((0, 0), (6, -2)):
            assert hg.sight_clear((0, 0), (6, -2), [hg.corners(h)])


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.integers(-5, 5), st.integers(-5, 5)),
       st.sets(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), max_size=8))
def test_more_blockers_never_open_a_line(target, walls):
    walls.discard((0, 0))
    walls.discard(target)
    polys = [hg.corners(h) for h in walls]
    if not hg.sight_clear((0, 0), target, polys):
        extra = polys + [hg.corners((1, 0))] if (1, 0) != target else polys
        assert not hg.sight_clear((0, 0), target, extra)
