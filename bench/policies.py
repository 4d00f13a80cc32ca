"""How long each game's AI policy takes to choose, per call, over whole policy-played
matches in process (the figure the policy tests used to assert; a benchmark measures it)."""
from __future__ import annotations

import random
import time

from bench.stats import percentiles
from shared.engine import MatchConfig
from shared.engine.playout import random_playout
from shared.engine.registry import engine_for, policy_for

GAMES = [("tower", MatchConfig(4)), ("incantris", MatchConfig(4, "battle-royale")),
         ("wizards", MatchConfig(6, options={"days": 7}))]


def policy_call_times(game: str, config: MatchConfig, seed: int = 1, max_steps: int = 20_000) -> list[float]:
    """Seconds per policy call over one match every seat of which the policy plays."""
    engine, policy = engine_for(game), policy_for(game)
    rng = random.Random(seed)
    times = []

    def timed(state, who: int, legal: list[dict]) -> dict:
        view = engine.view(state, who)
        start = time.perf_counter()
        action = policy(view, who, legal, rng)
        times.append(time.perf_counter() - start)
        return action

    random_playout(engine, config, rng, max_steps, choose=timed)
    return times


def measure() -> dict:
    figures = {}
    for game, config in GAMES:
        p50, p99 = percentiles(policy_call_times(game, config), 50, 99)
        figures[f"policy_{game}_p50_ms"] = p50 * 1000
        figures[f"policy_{game}_p99_ms"] = p99 * 1000
    return figures
