"""The AI seat's watch on the Evil attack (12.12-12.3), from the public board: how near the Sacred
Circle is to being taken over, and so whether a player gathering Gems should still complete the
Optional Tasks it holds (13: "in order to affect the Evil Attack"; every ten thwart one attack, 12.2).

12.131: every Common Territory falls before any Elven one, every Elven one before any Magic one, so
the Circle (a Magic Territory) can fall only once none of the others is left; the Circle is at risk
when the Common and Elven Territories left would fall in RISK attacks (four weeks).
"""
from __future__ import annotations

from shared.wizards.evil import PARTNERSHIP_TAKES
from shared.wizards.pack import CIRCLE_TILE, TILE_TYPES, pack

RISK = 2  # attacks


def shield(view: dict, w) -> int:
    """Common and Elven Territories still on the board (by the pack's tile types, as 12.131 orders
    them): the takeovers left before a Magic one falls."""
    taken = set(view["taken"])
    return sum(1 for t in w.tiles if pack().tiles[t]["type"] in TILE_TYPES[:2] and t not in taken)


def circle_at_risk(view: dict, w, attacks: int = RISK) -> bool:
    """No more than `attacks` attacks away: in the partnership game each attack takes two Territories. With 0
    none of the others is left, and the next attack may take the Circle itself."""
    per_attack = PARTNERSHIP_TAKES if view["variant"] == "partnership" else 1
    return CIRCLE_TILE not in view["taken"] and shield(view, w) <= attacks * per_attack
