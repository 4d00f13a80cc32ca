"""Range and line of sight (Casting Spells: "Confirm range", "Confirm line of sight").

A wizard sees a hex if a straight line can be drawn from any part of the hex the caster
occupies to the centre of the target hex without passing through any part of a hex that
blocks sight. Blockers: hexes of other wizards (any team), trees, high walls, hydras,
spell totems, fog walls (for wizards not of the conjurer's team) and the outside edge of
the arena. Streams, bridges, ocean, low walls, crystals, Blaze and Power Circle do not
block. A wizard always sees the hex it occupies.

Reading (authored): a line that touches a blocking hex at all, even along a side or at a
corner, passes through "part of" it and is blocked; the line may start at any point of the
caster's hex, corners and sides included.
"""
from __future__ import annotations

from typing import Callable

from shared import hexgrid
from shared.hexgrid import Hex, distance
from shared.incantris import match
from shared.incantris.arena import Arena
from shared.incantris.state import IncantrisState

_LIMIT = 400_000


def blocking(state: IncantrisState, team_side: int | None, ignore: tuple[Hex, ...] = ()) -> frozenset:
    """Hexes that block sight for a wizard of side `team_side` (None: everyone's fog blocks)."""
    out = set(match.obstacle_hexes(state, ("tree", "high-wall")))
    out.update(match.occupied(state))
    out.update(match.token_hexes(state))
    for h, side in match.fog_hexes(state).items():
        if side != team_side:
            out.add(h)
    return frozenset(out.difference(ignore))


class _Table:
    """Per-arena caches: each pair's corridor as a bit mask over the arena's hexes, and
    answers keyed by which corridor hexes block."""

    def __init__(self, arena: Arena):
        self.arena = arena
        self.bit = {h: 1 << i for i, h in enumerate(sorted(arena.coverage))}
        self.corridors: dict = {}
        self.answers: dict = {}

    def mask(self, blocked) -> int:
        bit = self.bit
        m = 0
        for h in blocked:
            m |= bit.get(h, 0)
        return m

    def sees(self, source: Hex, target: Hex, bmask: int) -> bool:
        if source == target:
            return True
        pair = (source, target)
        c = self.corridors.get(pair)
        if c is None:
            if len(self.corridors) > _LIMIT:
                self.corridors.clear()
            cells = hexgrid.sight_corridor(source, target)
            cmask = 0
            outside = []
            for h in cells:
                cmask |= self.bit.get(h, 0)
                pieces = self.arena.outside.get(h)
                if pieces:
                    outside.extend(pieces)
            c = self.corridors[pair] = (cmask, cells, outside)
        in_way = c[0] & bmask
        key = (source, target, in_way)
        hit = self.answers.get(key)
        if hit is None:
            if len(self.answers) > _LIMIT:
                self.answers.clear()
            polygons = [hexgrid.corners(h) for h in c[1] if self.bit.get(h, 0) & in_way]
            polygons.extend(c[2])
            hit = self.answers[key] = hexgrid.sight_clear(source, target, polygons)
        return hit


_TABLES: dict = {}


def _table(arena: Arena) -> _Table:
    t = _TABLES.get(arena.key)
    if t is None:
        if len(_TABLES) > 32:
            _TABLES.clear()
        t = _TABLES[arena.key] = _Table(arena)
    return t


def seer(arena: Arena, blocked) -> Callable[[Hex, Hex], bool]:
    """A sight test for one set of blocking hexes: seer(a, blocked)(source, target)."""
    table = _table(arena)
    bmask = table.mask(blocked)
    return lambda source, target: table.sees(source, target, bmask)


def can_see(arena: Arena, source: Hex, target: Hex, blocked) -> bool:
    """Line of sight from any part of `source` to the centre of `target` (both never block)."""
    table = _table(arena)
    return table.sees(source, target, table.mask(blocked) & ~table.bit.get(source, 0) & ~table.bit.get(target, 0))


def in_range(source: Hex, target: Hex, reach: int) -> bool:
    """The target can be up to and including `reach` hexes away (Confirm range)."""
    return distance(source, target) <= reach
