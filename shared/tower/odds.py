"""Exact odds of a battle roll under the rulebook's comparison (highest die, then the
next...; an extra die wins; a full tie holds for the defender). Used by the AI policy.

Dice are looked at face by face from the top: with every die at most `face`, the
number showing `face` on each side is binomial; more of them wins outright, equal
counts pass the comparison down to the remaining dice."""
from __future__ import annotations

from functools import cache
from math import comb


@cache
def attacker_wins(a: int, d: int, face: int = 6) -> float:
    """P(the attacker wins) with a dice against d dice, every die at most `face`."""
    if a == 0:
        return 0.0
    if d == 0:
        return 1.0
    if face == 1:  # every remaining die is a 1: the longer pool wins, a tie holds
        return 1.0 if a > d else 0.0
    p = 1.0 / face
    total = 0.0
    for ca in range(a + 1):
        pa = comb(a, ca) * p**ca * (1 - p) ** (a - ca)
        for cd in range(d + 1):
            pd = comb(d, cd) * p**cd * (1 - p) ** (d - cd)
            if ca > cd:
                total += pa * pd
            elif ca == cd:
                total += pa * pd * attacker_wins(a - ca, d - cd, face - 1)
    return total
