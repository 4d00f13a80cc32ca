"""bench/wizards_foresight.py: its figures are the ones its data give (a linear end recovered
exactly), and a game it plays is the same game for the same seed."""
from __future__ import annotations

import random

import pytest

from bench.wizards_foresight import figures, least_squares, play


def test_least_squares_recovers_the_weights_of_an_exact_linear_end():
    rng = random.Random(3)
    rows = [[1.0, rng.randint(-3, 3), rng.randint(-6, 6), rng.uniform(-1, 1)] for _ in range(40)]
    y = [0.5 + 1.0 * r[1] + 0.2 * r[2] - 0.7 * r[3] for r in rows]
    assert least_squares(rows, y) == pytest.approx([0.5, 1.0, 0.2, -0.7])


def test_figures_weigh_the_parts_of_the_lead_as_the_final_lead_does():
    """Games whose final lead is 1 x the Rank margin + 0.2 x the Gem margin + 0.8 x the rest of the
    lead held all game long: the weights come back as those, the foresight is positive, and a lead
    that never changes has no change to persist (0)."""
    rng = random.Random(5)
    games = []
    for _ in range(30):
        rank, gems, rest = rng.randint(-2, 2), rng.randint(-3, 3), rng.uniform(-1, 1)
        point = [rank + 0.5 * gems + rest, rank, gems]
        games.append({"final": rank + 0.2 * gems + 0.8 * rest, "points": [point] * 20})
    for row in figures(games).values():
        assert row["weights"] == pytest.approx([1.0, 0.2, 0.8])
        assert row["foresight"] > 0.5
        assert row["persistence"] == 0.0


def test_a_whole_game_is_the_same_for_the_same_seed_and_read_each_day():
    first, again = play(11), play(11)
    assert first == again
    assert len(first["points"]) > 20  # a whole game lasts many days
    assert first["points"][0] == [0.0, 0, 0]  # level at the first day of play
