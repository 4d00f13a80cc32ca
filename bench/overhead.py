"""What the instrumentation costs on the hot path: battle resolutions through the match
driver (Matches.act: Redis, rules, dice, compare-and-set), in process, with every metric
live and with every metric switched off (METRICS.switched_off()), alternating one by
one so that drift on a shared machine falls on both sides alike; the cost is the median
of the paired differences. The headline figure is this process's CPU time.

Also timed alone: the metric updates one resolution makes, for a figure that noise
on the machine cannot blur."""
from __future__ import annotations

import asyncio
import statistics
import time

from bench.battles import GAME, armed_match
from services.core.metrics import METRICS, active_key
from services.core.store import action_key, log_key, match_key

PAIRS = 1500


async def _resolutions(redis_url: str, pairs: int) -> dict:
    in_redis, store, matches, mid, claim, fields = await armed_match(redis_url)
    used: list[str] = []
    n = 0

    async def fight_once() -> tuple[float, float]:
        """(wall seconds, this process's CPU seconds) of one resolution."""
        nonlocal n
        n += 1
        await in_redis.redis.hset(match_key(mid), mapping=fields)  # arm (untimed)
        matches.records.drop(mid)  # armed behind the driver's back: its copy is not the match (a load, as before)
        used.append(action_key(mid, f"o{n}"))
        t0, c0 = time.perf_counter(), time.process_time()
        await matches.act(mid, claim, f"o{n}", 0, '{"kind": "fight"}', "combat")
        return time.perf_counter() - t0, time.process_time() - c0

    for _ in range(50):  # warm up both paths
        await fight_once()
    on, off = [], []
    for i in range(pairs):
        # alternate every resolution (and which goes first), so drift falls on both alike
        for live in ((True, False) if i % 2 == 0 else (False, True)):
            if live:
                on.append(await fight_once())
            else:
                with METRICS.switched_off():
                    off.append(await fight_once())
    await in_redis.redis.delete(match_key(mid), log_key(mid), *used)
    await in_redis.redis.zrem(active_key(GAME), mid)
    await store.close()

    def cost(k: int) -> tuple[float, float]:
        """(median without metrics, median of the paired differences with minus without)."""
        return statistics.median(o[k] for o in off), statistics.median(a[k] - b[k] for a, b in zip(on, off))

    (wall_off, wall_extra), (cpu_off, cpu_extra) = cost(0), cost(1)
    # The headline is CPU: the service's throughput is bound by its CPU, and other load
    # on this shared machine moves wall time far more than this process's CPU time.
    return {"resolution_us_without_metrics": wall_off * 1e6,
            "resolution_us_with_metrics": (wall_off + wall_extra) * 1e6,
            "resolution_cpu_us_without_metrics": cpu_off * 1e6, "metrics_cpu_us_per_resolution": cpu_extra * 1e6,
            "metrics_overhead_pct": cpu_extra / cpu_off * 100, "metrics_overhead_wall_pct": wall_extra / wall_off * 100}


def metric_updates_us(repeat: int = 20000) -> float:
    """The metric updates of one battle resolved through Combat.Resolve, timed alone, as the
    hot path makes them (each child bound once): the RPC interceptor's histogram and counter,
    the resolution histogram and counter, two Redis timers, one dice timer, the events counter
    and the count of actions served on the process's copy of the match."""
    from services.core.instrumented_store import _STORE_SECONDS
    from services.core.matches import DICE_DRAWS, EVENTS_PUBLISHED, RECORD_CACHE, RESOLUTION_SECONDS, RESOLUTIONS
    from services.rpc.edge import RPC_SECONDS, RPC_TOTAL

    clock = time.perf_counter
    t0 = clock()
    for _ in range(repeat):
        RPC_SECONDS("Combat", "Resolve").observe(0.002)
        RPC_TOTAL("Combat", "Resolve", "OK").inc()
        _STORE_SECONDS("load").observe(clock() - t0)
        DICE_DRAWS(GAME).observe(clock() - t0)
        _STORE_SECONDS("commit").observe(clock() - t0)
        EVENTS_PUBLISHED(GAME).inc(6)
        RESOLUTION_SECONDS(GAME, "combat", "fight").observe(0.002)
        RESOLUTIONS(GAME, "combat", "fight", "ok").inc()
        RECORD_CACHE("hit").inc()
    return (clock() - t0) / repeat * 1e6


def measure(redis_url: str, pairs: int = PAIRS) -> dict:
    figures = asyncio.run(_resolutions(redis_url, pairs))
    figures["metric_updates_us_per_resolution"] = metric_updates_us()
    figures["metric_updates_pct_of_resolution"] = (figures["metric_updates_us_per_resolution"]
                                                   / figures["resolution_cpu_us_without_metrics"] * 100)
    return figures
