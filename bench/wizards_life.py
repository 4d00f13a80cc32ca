"""Wizards, the middle of the game, in process: all-AI matches of 28 days (two Fortnights'
worth of turns, every seat on the AI policy), and what the seats made of them.

    wizards_rank2_share        players at Rank 2 or higher when the 28 days are over
    wizards_order_share        players who joined an Order
    wizards_tasks_completed    Tasks completed per match
    wizards_encounters_<kind>  encounters of each kind per match (specific kinds and "random")
    wizards_random_<kind>      random encounters of each kind per match (8: the table's results)
    wizards_animal_<kind>      animals met per match (8.4), by kind, each seen by an animal roll

    python -m bench.wizards_life [MATCHES]   (6 by default; the counts are printed per match)
"""
from __future__ import annotations

import collections
import random

from shared.engine import MatchConfig
from shared.engine.playout import policy_playout
from shared.engine.registry import engine_for
from shared.wizards.policy import choose

SEATS = 3
DAYS = 28


def measure(matches: int = 6, seed: int = 1) -> dict:
    engine = engine_for("wizards")
    seen: collections.Counter = collections.Counter()
    ranks: list[int] = []
    orders = 0
    for n in range(matches):
        rng = random.Random(seed + n)
        state, log = policy_playout(engine, MatchConfig(SEATS, options={"days": DAYS}), choose, rng, 60_000)
        ranks += [p["rank"] for p in state.players]
        orders += sum(1 for p in state.players if p["order"])
        seen["tasks_completed"] += len([h for p in state.players for h in p["task_history"]
                                        if h.get("status") == "completed"])
        replayed = engine.setup(MatchConfig(SEATS, options={"days": DAYS}))  # the events, from a replay
        for step in log:
            if step[0] == "chance":
                replayed, events = engine.apply_chance(replayed, step[1])
            else:
                replayed, events = engine.apply(replayed, step[1], step[2])
            for e in events:
                if e["type"] == "encounter_due":
                    for d in e["specific"]:
                        seen[f"encounters_{d['kind']}"] += 1
                    seen["encounters_random"] += bool(e["random"])
                elif e["type"] == "random_encounter":
                    seen[f"random_{e['encounter']}"] += 1
                elif e["type"] == "animal_roll":
                    seen[f"animal_{e['animal']}"] += 1
    out = {"wizards_rank2_share": sum(r >= 2 for r in ranks) / len(ranks),
           "wizards_order_share": orders / len(ranks),
           "wizards_tasks_completed": seen.pop("tasks_completed") / matches}
    out.update({f"wizards_{k}": v / matches for k, v in sorted(seen.items())})
    return out


if __name__ == "__main__":
    from bench.counts import counts

    (count,) = counts(__doc__, ("matches", 6))
    print(f"{count} all-AI matches of {SEATS} seats, {DAYS} days; per match (x {count} for the counts seen):")
    for name, value in measure(count).items():
        print(f"{name:<40} {value:>10,.3f}")
