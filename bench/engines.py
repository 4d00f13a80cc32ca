"""The engines alone, in process: random full games per second per game, and what one
step's copy of the state costs against the JSON round trip the engines once used
(measured on the same states in the same run, so the ratio holds on any machine).

    games_per_s_<game>          random legal play from set-up to the end (or 20,000 steps)
    steps_per_s_<game>          the steps of those games, per second
    copy_us_<game>              one successor() of a mid-game state (the copy a step makes)
    json_roundtrip_us_<game>    json.loads(json.dumps(...)) of the same state
    copy_vs_json_<game>         copy_us / json_roundtrip_us (below 1: cheaper than JSON)
"""
from __future__ import annotations

import json
import random
import time

from shared.engine import MatchConfig
from shared.engine.playout import random_playout
from shared.engine.registry import engine_for

GAMES = {"tower": MatchConfig(2), "incantris": MatchConfig(2, "battle-royale"), "wizards": MatchConfig(2)}


def _per_call_us(fn, seconds: float = 0.5) -> float:
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            fn()
        n += 50
    return (time.perf_counter() - start) / n * 1e6


def measure(seconds: float = 3.0) -> dict:
    out: dict = {}
    for game, config in GAMES.items():
        engine = engine_for(game)
        rng = random.Random(11)
        games = steps = 0
        middle = None
        start = time.perf_counter()
        while time.perf_counter() - start < seconds or games == 0:
            states: list = []
            _, log = random_playout(engine, config, rng, on_state=states.append)
            games += 1
            steps += len(log)
            middle = middle or states[len(states) // 2]
        elapsed = time.perf_counter() - start
        out[f"games_per_s_{game}"] = games / elapsed
        out[f"steps_per_s_{game}"] = steps / elapsed
        if hasattr(middle, "successor"):
            data = middle.to_json()
            out[f"copy_us_{game}"] = _per_call_us(middle.successor)
            out[f"json_roundtrip_us_{game}"] = _per_call_us(lambda d=data: json.loads(json.dumps(d)))
            out[f"copy_vs_json_{game}"] = out[f"copy_us_{game}"] / out[f"json_roundtrip_us_{game}"]
    return out


if __name__ == "__main__":
    for name, value in measure().items():
        print(f"{name:<28} {value:>12,.2f}")
