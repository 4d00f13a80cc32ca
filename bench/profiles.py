"""Where the time of the hot path goes: cProfile of the paths whose goals `make bench` reports,
the functions that take the most of it, own time first (a figure to read, not a test).

    python -m bench.profiles [battle|resolution|games|all] [--top N]

    battle      the Tower engine's battle resolution alone (fight, then its dice), in process
    resolution  one Combat.Resolve through the match driver in process: Redis, rules, dice,
                the commit (armed behind the driver's back, as bench/overhead.py arms it)
    games       random full Tower, Incantris and Wizards games, in process
    matching    one matchmaker matching a backlog of 2,000 queued Tower tickets (4 seats), in
                process, until every ticket is seated (a Redis of its own: nothing else's queue)
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import random
import time
from pathlib import Path

from bench.battles import FIGHT, GAME, armed_match, armed_state
from shared.engine import MatchConfig
from shared.engine.playout import sample_chance
from shared.engine.registry import engine_for

ROOT = str(Path(__file__).resolve().parents[1]) + "/"


def _short(path: str) -> str:
    """A source path as a reader finds it: from the project root, or from site-packages / the stdlib."""
    if path.startswith(ROOT):
        return path[len(ROOT):]
    return path.split("site-packages/")[-1].split("/lib/python3.11/")[-1]


def report(profile: cProfile.Profile, title: str, calls: int, top: int) -> str:
    """The `top` functions by own time, with their share of the whole and per-call cost."""
    stats = pstats.Stats(profile)
    total = sum(row[2] for row in stats.stats.values())  # own times add up to the whole
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
    out = io.StringIO()
    print(f"\n== {title}: {calls} runs, {total / calls * 1e6:,.0f} us each under the profiler", file=out)
    print(f"{'own %':>6} {'cum %':>6} {'us/run':>8}  function", file=out)
    for (path, line, name), (_, _, own, cum, _) in rows:
        where = f"{_short(path)}:{line}" if line else path
        print(f"{own / total * 100:6.1f} {cum / total * 100:6.1f} {own / calls * 1e6:8.1f}  {name} ({where})",
              file=out)
    return out.getvalue()


def battle(top: int, seconds: float = 2.0) -> str:
    engine, (state, seat) = engine_for(GAME), armed_state()
    rng, n = random.Random(1), 0
    profile = cProfile.Profile()
    profile.enable()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        rolled, _ = engine.apply(state, seat, FIGHT)
        engine.apply_chance(rolled, sample_chance(engine.chance_request(rolled), rng))
        n += 1
    profile.disable()
    return report(profile, "engine battle resolution (Tower), in process", n, top)


async def _resolutions(redis_url: str, count: int, profile: cProfile.Profile) -> int:
    from services.core.store import action_key, log_key, match_key

    in_redis, store, matches, mid, claim, fields = await armed_match(redis_url)
    used = []
    for n in range(count + 20):  # the first 20 warm up, unprofiled
        await in_redis.redis.hset(match_key(mid), mapping=fields)
        matches.records.drop(mid)
        used.append(action_key(mid, f"p{n}"))
        if n >= 20:
            profile.enable()
        await matches.act(mid, claim, f"p{n}", 0, '{"kind": "fight"}', "combat")
        profile.disable()
    await in_redis.redis.delete(match_key(mid), log_key(mid), *used)
    await store.close()
    return count


def resolution(top: int, count: int = 500) -> str:
    import os

    profile = cProfile.Profile()
    n = asyncio.run(_resolutions(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"), count, profile))
    return report(profile, "one resolution through the match driver (Redis, rules, dice, commit)", n, top)


def games(top: int, seconds: float = 3.0) -> str:
    from shared.engine.playout import random_playout

    out = []
    for game, seats in (("tower", 2), ("incantris", 2), ("wizards", 2)):
        engine, rng, n = engine_for(game), random.Random(3), 0
        profile = cProfile.Profile()
        profile.enable()
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            random_playout(engine, MatchConfig(seats, engine.default_variant(seats)), rng)
            n += 1
        profile.disable()
        out.append(report(profile, f"random full {game} games, {seats} seats", max(n, 1), top))
    return "".join(out)


async def _match_backlog(redis_url: str, count: int, profile: cProfile.Profile) -> int:
    import secrets

    from services.core.config import Settings
    from services.matchmaking.matchmaker import Matchmaker, MatchmakerSettings
    from services.runtime.app import Platform

    platform = Platform(Settings.from_env({"REDIS_URL": redis_url, "AI_ENABLED": "0"}))
    invite, now = "profile-" + secrets.token_hex(4), int(time.time() * 1000)
    for i in range(count):
        await platform.tickets.create("tower", "standard", [f"{invite}-{i}"], 4, 1000, False, 600, invite, now + i)
    matchmaker = Matchmaker(platform.tickets, platform.matches, "board", "combat", MatchmakerSettings())
    formed = 0
    profile.enable()
    while formed < count // 4:
        formed += await matchmaker.cycle()
    profile.disable()
    await platform.close()
    return formed


def matching(top: int, count: int = 2000) -> str:
    from tests.support.redis_db import RedisServer

    profile = cProfile.Profile()
    with RedisServer(durable=False) as own:
        started = time.perf_counter()
        formed = asyncio.run(_match_backlog(own.url, count, profile))
        took = time.perf_counter() - started
    return report(profile, f"one matchmaker seating {count} queued tickets ({formed} matches, {took:.1f}s with "
                           "the queueing)", formed, top)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="?", default="all",
                        choices=["battle", "resolution", "games", "matching", "all"])
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args(argv)
    for name, run in (("battle", battle), ("resolution", resolution), ("games", games), ("matching", matching)):
        if args.what in (name, "all"):
            print(run(args.top), flush=True)


if __name__ == "__main__":
    main()
