"""Hex geometry on axial coordinates (q, r), pointy-top, shared by Incantris and Wizards.

Cube coordinates are (q, r, s) with s = -q - r. Directions are numbered 0..5
clockwise starting east: E, SE, SW, W, NW, NE. A hex side is named by the hex and
a direction; `side_key` gives both hexes that share it the same key.
"""
from __future__ import annotations

from typing import Iterable, Iterator

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIRECTION_NAMES = ("E", "SE", "SW", "W", "NW", "NE")


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    return (a[0] - b[0], a[1] - b[1])


def neighbour(h: Hex, direction: int) -> Hex:
    return add(h, DIRECTIONS[direction % 6])


def neighbours(h: Hex) -> list[Hex]:
    return [add(h, d) for d in DIRECTIONS]


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction from a to an adjacent b, or None if they do not touch."""
    d = sub(b, a)
    return DIRECTIONS.index(d) if d in DIRECTIONS else None


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes exactly `radius` steps away, clockwise from the west-south-west corner."""
    if radius == 0:
        return [center]
    out = []
    h = add(center, (DIRECTIONS[4][0] * radius, DIRECTIONS[4][1] * radius))
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbour(h, side)
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    """Center first, then ring 1, ring 2, ... up to `radius` (a hexagon of hexes)."""
    out = [center]
    for k in range(1, radius + 1):
        out.extend(ring(center, k))
    return out


def rotate(h: Hex, steps: int, center: Hex = (0, 0)) -> Hex:
    """Rotate h about center by `steps` sixth-turns clockwise."""
    q, r = sub(h, center)
    x, y, z = q, r, -q - r
    for _ in range(steps % 6):
        x, y, z = -y, -z, -x
    return add((x, y), center)


def side_key(h: Hex, direction: int) -> tuple[Hex, Hex]:
    """A key for the side between h and its neighbour in `direction`, the same from both hexes."""
    other = neighbour(h, direction)
    return (h, other) if h <= other else (other, h)


def _cube_round(x: float, y: float, z: float) -> tuple[int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return (rx, ry)


def line(a: Hex, b: Hex, nudge: float = 1e-6) -> list[Hex]:
    """The hexes a straight line from the centre of a to the centre of b passes through.

    `nudge` shifts the line slightly so that a line running exactly along a hex side
    picks one side consistently; call with -nudge for the other side."""
    n = distance(a, b)
    if n == 0:
        return [a]
    ax, ay, az = a[0] + nudge, a[1] + nudge, -a[0] - a[1] - 2 * nudge
    bx, by, bz = b[0] + nudge, b[1] + nudge, -b[0] - b[1] - 2 * nudge
    return [_cube_round(ax + (bx - ax) * i / n, ay + (by - ay) * i / n, az + (bz - az) * i / n) for i in range(n + 1)]


def to_pixel(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Centre of a pointy-top hex in a plane with y downwards (for drawing)."""
    q, r = h
    return (size * (3 ** 0.5) * (q + r / 2), size * 1.5 * r)


def bounding(hexes: Iterable[Hex]) -> tuple[int, int, int, int]:
    hs = list(hexes)
    return (min(h[0] for h in hs), max(h[0] for h in hs), min(h[1] for h in hs), max(h[1] for h in hs))


def iter_within(center: Hex, radius: int) -> Iterator[Hex]:
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield (center[0] + dq, center[1] + dr)
