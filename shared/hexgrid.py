"""Hex geometry on axial coordinates (q, r), pointy-top, shared by Incantris and Wizards.

Cube coordinates are (q, r, s) with s = -q - r. Directions are numbered 0..5
clockwise starting east: E, SE, SW, W, NW, NE. A hex side is named by the hex and
a direction; `side_key` gives both hexes that share it the same key.
"""
from __future__ import annotations

import math
from typing import Iterable, Iterator, Sequence

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


# --- Geometry in the plane: corners, polygons and line of sight ---------------------------
#
# Games that draw sight lines "from any part of a hex to the centre of another" need the
# hexes as polygons. Distances are in units of the hex size (centre to corner = 1).

Point = tuple[float, float]
SQRT3 = 3 ** 0.5
_CORNER_OFFSETS: tuple[Point, ...] = tuple(
    (math.cos(math.radians(30 + 60 * k)), math.sin(math.radians(30 + 60 * k))) for k in range(6)
)


def corners(h: Hex, size: float = 1.0) -> list[Point]:
    """The six corners of a pointy-top hex, clockwise (y downwards) from the lower right."""
    x, y = to_pixel(h, size)
    return [(x + size * dx, y + size * dy) for dx, dy in _CORNER_OFFSETS]


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    cx, cy = ax + t * dx - p[0], ay + t * dy - p[1]
    return (cx * cx + cy * cy) ** 0.5


_CORRIDORS: dict[Hex, tuple[Hex, ...]] = {}


def sight_corridor(source: Hex, target: Hex) -> list[Hex]:
    """Every hex whose polygon may touch a straight line from some point of `source` to the
    centre of `target` (the hexes that can block such a line), source and target excluded."""
    offset = sub(target, source)
    cached = _CORRIDORS.get(offset)
    if cached is None:
        origin = (0, 0)
        a, b = to_pixel(origin), to_pixel(offset)
        seen: set[Hex] = set()
        for base in line(origin, offset, 1e-6) + line(origin, offset, -1e-6):
            seen.update(iter_within(base, 2))
        # a touching hex has its centre within (source radius + own radius) of the centre segment
        cached = tuple(sorted(h for h in seen if h not in (origin, offset)
                              and _segment_distance(to_pixel(h), a, b) <= 2.0 + 1e-9))
        _CORRIDORS[offset] = cached
    return [add(source, h) for h in cached]


def _ray_entry(origin: Point, angle: float, poly: Sequence[Point]) -> float:
    """Distance along the ray from `origin` at `angle` to where it first meets the polygon
    (inf if it misses)."""
    ux, uy = math.cos(angle), math.sin(angle)
    best = math.inf
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        ex, ey = x2 - x1, y2 - y1
        denom = ux * ey - uy * ex
        if abs(denom) < 1e-12:
            continue
        wx, wy = x1 - origin[0], y1 - origin[1]
        s = (wx * ey - wy * ex) / denom  # distance along the ray
        u = (wx * uy - wy * ux) / denom  # position along the edge
        if s >= -1e-12 and -1e-9 <= u <= 1 + 1e-9:
            best = min(best, s)
    return best


def sight_clear(source: Hex, target: Hex, blockers: Iterable[Sequence[Point]], eps: float = 1e-9) -> bool:
    """True if a straight line can be drawn from some point of hex `source` (corners and
    sides included) to the centre of hex `target` without touching any blocker polygon.

    Blockers are convex polygons (hexes that block sight, pieces of the world outside a
    board) that do not contain the target's centre. A line that only grazes a blocker's
    corner or runs along its side counts as touching it, so two blocking hexes side by
    side leave no crack to look through."""
    if source == target:
        return True
    tx, ty = to_pixel(target)
    sx, sy = to_pixel(source)
    base = math.atan2(sy - ty, sx - tx)

    def rel(p: Point) -> float:
        a = math.atan2(p[1] - ty, p[0] - tx) - base
        while a <= -math.pi:
            a += 2 * math.pi
        while a > math.pi:
            a -= 2 * math.pi
        return a

    src_poly = corners(source)
    src_angles = [rel(p) for p in src_poly]
    lo, hi = min(src_angles), max(src_angles)
    shadows: list[tuple[float, float]] = []
    for poly in blockers:
        angles = [rel(p) for p in poly]
        a, b = min(angles), max(angles)
        if b - a > math.pi:  # wraps round behind the target: cannot reach the source
            continue
        if b < lo - eps or a > hi + eps:
            continue
        mid = (max(a, lo) + min(b, hi)) / 2
        ray = base + mid
        if _ray_entry((tx, ty), ray, poly) <= _ray_entry((tx, ty), ray, src_poly) + 1e-9:
            shadows.append((a - eps, b + eps))
    shadows.sort()
    cur = lo
    for a, b in shadows:
        if a > cur:
            return True
        cur = max(cur, b)
        if cur > hi:
            return False
    return cur <= hi


def clip_half_plane(poly: Sequence[Point], a: Point, b: Point, keep_left: bool) -> list[Point]:
    """The part of convex `poly` on one side of the line through a and b (Sutherland-Hodgman).

    "Left" is the side where cross((b - a), (p - a)) > 0."""
    def side(p: Point) -> float:
        v = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
        return v if keep_left else -v

    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        sp, sq = side(p), side(q)
        if sp >= 0:
            out.append(p)
        if (sp >= 0) != (sq >= 0):
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def polygon_area(poly: Sequence[Point]) -> float:
    n = len(poly)
    return abs(sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))) / 2
