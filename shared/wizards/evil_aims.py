"""The AI seat's watch on the Evil attack (12.12-12.3), from the public board: how near the Sacred
Circle is to being taken over, and so whether a player gathering Gems should still complete the
Optional Tasks it holds (13: "in order to affect the Evil Attack"; every ten thwart one attack, 12.2).

12.131: every Common Territory falls before any Elven one, every Elven one before any Magic one, so
the Circle (a Magic Territory) can fall only once none of the others is left; the Circle is at risk
when the Commons and Elven Territories left are no more than RISK (two attacks, four weeks).
"""
from __future__ import annotations

from shared.wizards.pack import CIRCLE_TILE

RISK = 2


def shield(view: dict, w) -> int:
    """Common and Elven Territories still on the board: the takeovers left before a Magic one falls."""
    taken = set(view["taken"])
    return sum(1 for t in w.tiles if t[0] in "CE" and t not in taken)


def circle_at_risk(view: dict, w) -> bool:
    return CIRCLE_TILE not in view["taken"] and shield(view, w) <= RISK

