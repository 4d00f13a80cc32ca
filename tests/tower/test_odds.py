"""The policy's battle odds agree with the rulebook's comparison, die for die."""
from __future__ import annotations

from itertools import product

import pytest

from shared.tower.battle import winner
from shared.tower.odds import attacker_wins


@pytest.mark.parametrize("a,d", [(1, 1), (2, 1), (1, 3), (3, 3), (4, 3), (2, 5), (3, 2)])
def test_exact_odds_match_every_roll(a, d):
    """Combat 3: highest die wins, ties look down, a full tie holds for the defender - counted roll by roll."""
    wins = total = 0
    for A in product(range(1, 7), repeat=a):
        for D in product(range(1, 7), repeat=d):
            total += 1
            wins += winner(list(A), list(D)) == "attacker"
    assert attacker_wins(a, d) == pytest.approx(wins / total, abs=1e-12)
