"""Wizards, whole matches, in process: four AI seats from set-up to the end the rules give
(the six Gems delivered to Rüktal, or the Sacred Circle fallen), every seat on the AI policy.

    wizards4_matches_per_min    all-AI 4-player matches played to their end, per minute of one core
    wizards4_won_share          matches won by the delivery of the Gems (7.336, 13)
    wizards4_lost_share         matches lost to the Evil (12.46) or by any other rule with no winner
    wizards4_unfinished         matches still running after the step cap (should be 0)
    wizards4_median_days        days played, median over the matches
    wizards4_think_p50_ms, _p95_ms   the policy's time per choice
    wizards4_largest_legal      the longest list of legal actions any state offered
"""
from __future__ import annotations

import random
import statistics
import time

from shared.engine import MatchConfig
from shared.engine.playout import random_playout
from shared.engine.registry import engine_for
from shared.wizards.policy import choose

SEATS = 4
MAX_STEPS = 400_000


def measure(matches: int = 4, seed: int = 1, seats: int = SEATS) -> dict:
    engine = engine_for("wizards")
    think: list[float] = []
    largest = 0
    won = lost = unfinished = 0
    days: list[int] = []
    started = time.process_time()
    for n in range(matches):
        rng = random.Random(seed + n)

        def policy(state, seat, legal, rng=rng):
            nonlocal largest
            largest = max(largest, len(legal))
            view = engine.view(state, seat)
            t = time.perf_counter()
            pick = choose(view, seat, legal, rng)
            think.append(time.perf_counter() - t)
            return pick

        state, _ = random_playout(engine, MatchConfig(seats), rng, MAX_STEPS, choose=policy)
        outcome = engine.outcome(state)
        days.append(state.calendar["days_played"])
        if outcome is None:
            unfinished += 1
        elif outcome.winners:
            won += 1
        else:
            lost += 1
    minutes = (time.process_time() - started) / 60
    q = statistics.quantiles(think, n=100) if len(think) > 1 else [0.0] * 99
    return {"wizards4_matches_per_min": (matches - unfinished) / minutes if minutes else 0.0,
            "wizards4_won_share": won / matches, "wizards4_lost_share": lost / matches,
            "wizards4_unfinished": unfinished, "wizards4_median_days": statistics.median(days),
            "wizards4_think_p50_ms": q[49] * 1000, "wizards4_think_p95_ms": q[94] * 1000,
            "wizards4_largest_legal": largest}


if __name__ == "__main__":
    from bench.counts import counts

    for name, value in measure(*counts(__doc__, ("matches", 4))).items():
        print(f"{name:<34} {value:>12,.2f}")
