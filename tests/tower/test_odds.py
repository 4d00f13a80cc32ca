"""The policy's battle odds agree with the rulebook's comparison, die for die."""
from __future__ import annotations

import random
from itertools import combinations, product

import pytest

from shared.tower.battle import winner
from shared.tower.odds import attacker_wins, attacker_wins_against_rerolls, best_defence
from shared.tower.pack import pack


@pytest.mark.parametrize("a,d", [(1, 1), (2, 1), (1, 3), (3, 3), (4, 3), (2, 5), (3, 2)])
def test_exact_odds_match_every_roll(a, d):
    """Combat 3: highest die wins, ties look down, a full tie holds for the defender - counted roll by roll."""
    wins = total = 0
    for A in product(range(1, 7), repeat=a):
        for D in product(range(1, 7), repeat=d):
            total += 1
            wins += winner(list(A), list(D)) == "attacker"
    assert attacker_wins(a, d) == pytest.approx(wins / total, abs=1e-12)


def brute_defence(att: list[int], dfd: list[int], single: int, multi: int) -> float:
    """The defender's best chance over every re-roll the rules allow, counted face by face: one chosen die up to
    `single` times (re-rolled while losing), or any 2..`multi` chosen dice once."""
    if winner(att, dfd) == "defender":
        return 1.0
    best = 0.0
    for i in range(len(dfd) if single else 0):
        once = sum(winner(att, dfd[:i] + [f] + dfd[i + 1:]) == "defender" for f in range(1, 7)) / 6
        best = max(best, 1 - (1 - once) ** single)
    for size in range(2, min(multi, len(dfd)) + 1):
        for chosen in combinations(range(len(dfd)), size):
            held = total = 0
            for faces in product(range(1, 7), repeat=size):
                dice = list(dfd)
                for i, f in zip(chosen, faces):
                    dice[i] = f
                held += winner(att, dice) == "defender"
                total += 1
            best = max(best, held / total)
    return best


@pytest.mark.parametrize("single,multi", [(1, 1), (2, 2), (3, 3)])
def test_the_best_defence_rerolls_the_lowest_dice(single, multi):
    """Defender's Special Pennant Power: the odds module plays each re-roll row (2, 3, 4 Pennants) as well as any
    choice the rules allow - checked against every choice for sampled rolls."""
    rng = random.Random(single)
    for _ in range(60):
        att = sorted((rng.randint(1, 6) for _ in range(rng.randint(1, 4))), reverse=True)
        dfd = sorted((rng.randint(1, 6) for _ in range(rng.randint(1, 4))), reverse=True)
        assert best_defence(tuple(att), tuple(dfd), single, multi) == pytest.approx(
            brute_defence(att, dfd, single, multi), abs=1e-12)


def exact_against_rerolls(a: int, d: int, single: int, multi: int) -> float:
    wins = total = 0.0
    for A in product(range(1, 7), repeat=a):
        for D in product(range(1, 7), repeat=d):
            att, dfd = sorted(A, reverse=True), sorted(D, reverse=True)
            wins += 1 - best_defence(tuple(att), tuple(dfd), single, multi)
            total += 1
    return wins / total


@pytest.mark.parametrize("a,d,single,multi", [(2, 2, 1, 1), (3, 2, 2, 2), (2, 3, 3, 3)])
def test_odds_against_rerolls_are_close_to_exact(a, d, single, multi):
    """The policy's estimate of a battle against a defender with Pennants is within a few points of the exact
    odds, and always below the odds without re-rolls."""
    estimate = attacker_wins_against_rerolls(a, d, single, multi)
    assert estimate == pytest.approx(exact_against_rerolls(a, d, single, multi), abs=0.04)
    assert estimate < attacker_wins(a, d)
    assert attacker_wins_against_rerolls(a, d, 0, 0) == attacker_wins(a, d)


def test_more_pennants_mean_worse_odds_for_the_attacker():
    """Defender's Special Pennant Power: each row of the table helps the defender more than the one before."""
    p = pack()
    odds = [attacker_wins_against_rerolls(5, 3, *p.reroll_allowance(n)) for n in range(1, 6)]
    assert odds == sorted(odds, reverse=True) and odds[0] - odds[-1] > 0.2
