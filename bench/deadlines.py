"""Deadline sweep lag with 10,000 matches waiting on clocks (services/core/deadlines.py).

A Redis of the bench's own; MATCHES two-seat matches of the platform-test game, each with a
turn clock (on_timeout "forfeit") whose deadlines fall due over a window of WINDOW_S seconds,
and two sweepers (two board replicas' Matches, each with its own store) sweeping every
CLOCK_SWEEP_S as the service does. Nobody acts: every seat 0 runs out of time. Lag is how
late each timeout was committed after its deadline (wall time at the commit's return).

    matches_waiting            deadlines kept in clock:due when the first one fell due
    timeouts                   timeouts committed (one per match: never two)
    lag_ms_p50, lag_ms_p99     how late a timeout was committed, median and 99th percentile
    lag_ms_max
"""
from __future__ import annotations

import asyncio
import time

from bench.stats import percentiles

MATCHES = 10_000
WINDOW_S = 20.0  # deadlines fall due over this long
SWEEP_S = 0.5  # CLOCK_SWEEP_S
SWEEPERS = 2


async def _run(url: str, matches_n: int, window_s: float) -> dict:
    from services.core import clocks
    from services.core.dice_sessions import DiceSessions
    from services.core.dicesource import InProcessDice
    from services.core.instrumented_store import InstrumentedStore
    from services.core.matches import Matches
    from services.core.store import DEADLINES_KEY, RedisMatchStore

    lags: list[float] = []

    class Timed(Matches):
        async def time_out(self, rec, seat, now):
            deadline = clocks.deadline_ms(rec.clock)
            done = await super().time_out(rec, seat, now)
            if done:
                lags.append(time.time() * 1000 - deadline)
            return done

    def replica() -> Matches:
        store = InstrumentedStore(RedisMatchStore.from_url(url))
        return Timed(store, InProcessDice(DiceSessions(store, 3600, 8)), match_ttl_s=3600, finished_ttl_s=600)

    maker, sweepers = replica(), [replica() for _ in range(SWEEPERS)]
    # the first deadline falls due once every match is made (about 1.5 ms a match here)
    lead_s = 5.0 + matches_n * 0.003
    start = time.time()
    sem = asyncio.Semaphore(32)

    async def make(i: int) -> None:
        async with sem:
            turn_s = lead_s - (time.time() - start) + window_s * i / matches_n  # due at start + lead + spread
            control = clocks.checked("turn", max(1.0, turn_s), 0.0, 0.0, "forfeit")
            await maker.create("race", "", [("human", "a"), ("human", "b")], {}, players=("", ""),
                               time_control=control)

    await asyncio.gather(*(make(i) for i in range(matches_n)))
    waiting = await maker.store.inner.redis.zcard(DEADLINES_KEY)
    made_s = time.time() - start

    async def sweep(m: Matches, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await m.sweep_deadlines()
            await asyncio.sleep(SWEEP_S)

    stop = asyncio.Event()
    tasks = [asyncio.create_task(sweep(m, stop)) for m in sweepers]
    first_due = start + lead_s
    while len(lags) < waiting and time.time() < first_due + window_s + 120:
        await asyncio.sleep(0.2)
    stop.set()
    await asyncio.gather(*tasks)
    for m in (maker, *sweepers):
        await m.store.close()
    p50, p99 = percentiles(lags, 50, 99)
    return {"matches_waiting": waiting, "made_s": made_s, "timeouts": len(lags), "lag_ms_p50": p50,
            "lag_ms_p99": p99, "lag_ms_max": max(lags)}


def measure(matches_n: int = MATCHES, window_s: float = WINDOW_S) -> dict:
    from tests.support import race
    from tests.support.redis_db import RedisServer

    race.host()
    with RedisServer(durable=False) as server:
        return asyncio.run(_run(server.url, matches_n, window_s))


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=MATCHES)
    parser.add_argument("--window", type=float, default=WINDOW_S)
    args = parser.parse_args()
    for name, value in measure(args.matches, args.window).items():
        print(f"{name:<20} {value:>12,.1f}")
