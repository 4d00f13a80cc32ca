"""What acknowledging an action only once it is on disk costs: the same battle resolutions
(bench/overhead.py: Matches.act through Redis, rules, dice, compare-and-set) against a
redis-server of its own with the append-only file fsynced every second (compose,
Kubernetes, `make run`) and with `appendfsync always` (`REDIS_FSYNC=always`), each its
median wall time per resolution (docs/operations.md, "Durability").

    durability_everysec_us, durability_always_us   median resolution, each policy
    durability_always_vs_everysec                  the ratio: what "nothing lost on a machine crash" costs
"""
from __future__ import annotations

import asyncio
import statistics

from bench.overhead import _resolutions
from tests.support.redis_db import RedisServer

PAIRS = 100
ROUNDS = 4  # the two policies take turns, so drift on a shared machine falls on both alike


def measure(pairs: int = PAIRS, rounds: int = ROUNDS) -> dict:
    seen: dict[str, list[float]] = {"everysec": [], "always": []}
    with RedisServer(durable=True, fsync="everysec") as everysec, RedisServer(durable=True, fsync="always") as always:
        servers = {"everysec": everysec, "always": always}
        for r in range(rounds):
            for fsync in (("everysec", "always") if r % 2 == 0 else ("always", "everysec")):
                figures = asyncio.run(_resolutions(servers[fsync].url, pairs))
                seen[fsync].append(figures["resolution_us_without_metrics"])
    out = {f"durability_{fsync}_us": statistics.median(v) for fsync, v in seen.items()}
    out["durability_always_vs_everysec"] = out["durability_always_us"] / out["durability_everysec_us"]
    return out


if __name__ == "__main__":
    for name, value in measure().items():
        print(f"{name:<34} {value:>12,.2f}")
