"""Battle odds under the rulebook's comparison (highest die, then the next...; an extra
die wins; a full tie holds for the defender). Used by the AI policy.

Dice are looked at face by face from the top: with every die at most `face`, the
number showing `face` on each side is binomial; more of them wins outright, equal
counts pass the comparison down to the remaining dice.

The defender's re-rolls (Defender's Special Pennant Power) are played as well as they
can be: re-rolling a die never helps less than re-rolling a higher one, so the lowest
die (or the lowest few) is the one to pick up; the single die is re-rolled until it wins
or its tries run out. The odds against re-rolls are an estimate from a fixed sample of
first rolls (the same numbers on every call), each scored exactly."""
from __future__ import annotations

import random
from functools import cache
from math import comb

SAMPLES = 600


def _binomial(n: int, k: int, p: float) -> float:
    """P(exactly k of n dice show a face that each shows with probability p)."""
    return comb(n, k) * p**k * (1 - p) ** (n - k)


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
        pa = _binomial(a, ca, p)
        for cd in range(d + 1):
            pd = _binomial(d, cd, p)
            if ca > cd:
                total += pa * pd
            elif ca == cd:
                total += pa * pd * attacker_wins(a - ca, d - cd, face - 1)
    return total


@cache
def defender_holds(attacker: tuple[int, ...], kept: tuple[int, ...], fresh: int, face: int = 6) -> float:
    """P(the defender wins) against the attacker's rolled dice when he keeps `kept` and
    rolls `fresh` new dice; every die at most `face`."""
    if face == 0:  # every face compared equal: a full tie holds for the defender
        return 1.0
    ac, kc = attacker.count(face), kept.count(face)
    below_a = tuple(x for x in attacker if x != face)
    below_k = tuple(x for x in kept if x != face)
    p = 1.0 / face
    total = 0.0
    for cf in range(fresh + 1):
        pf = _binomial(fresh, cf, p)
        if pf == 0.0:
            continue
        if kc + cf > ac:
            total += pf
        elif kc + cf == ac:
            total += pf * defender_holds(below_a, below_k, fresh - cf, face - 1)
    return total


def best_defence(attacker: tuple[int, ...], defender: tuple[int, ...], single: int, multi: int) -> float:
    """P(the defender wins) from these rolled dice (both sorted high to low), re-rolling
    as well as he can: one die up to `single` times, or up to `multi` dice once."""
    if defender_holds(attacker, defender, 0) == 1.0:
        return 1.0  # already winning: keep the dice
    best = 0.0
    if single:
        once = defender_holds(attacker, defender[:-1], 1)
        best = 1 - (1 - once) ** single
    for j in range(2, min(multi, len(defender)) + 1):
        best = max(best, defender_holds(attacker, defender[:-j], j))
    return best


@cache
def _first_rolls(a: int, d: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """A fixed sample of SAMPLES first rolls of a dice against d, sorted high to low, keeping
    only those the defender is losing (the only ones where re-rolls matter). The same sample
    serves every row of the re-roll table: the same answer every time, and more Pennants can
    never look like less help."""
    rng = random.Random(f"tower odds {a} {d}")
    rolls = []
    for _ in range(SAMPLES):
        att = tuple(sorted((rng.randint(1, 6) for _ in range(a)), reverse=True))
        dfd = tuple(sorted((rng.randint(1, 6) for _ in range(d)), reverse=True))
        if defender_holds(att, dfd, 0) == 0.0:
            rolls.append((att, dfd))
    return tuple(rolls)


@cache
def attacker_wins_against_rerolls(a: int, d: int, single: int, multi: int) -> float:
    """P(the attacker wins) with a dice against d dice when the defender may re-roll one
    die `single` times or `multi` dice once (0, 0: no home advantage, exact)."""
    if not single and not multi or a == 0 or d == 0:
        return attacker_wins(a, d)
    return sum(1 - best_defence(att, dfd, single, multi) for att, dfd in _first_rolls(a, d)) / SAMPLES
