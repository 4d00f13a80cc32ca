"""What the serving process's copy of a match saves (services/core/matches.py `RecordCache`):
random legal Tower play through the match driver (Matches.act: rules, dice, Redis), in
process, by a driver that keeps its copies and one that keeps none (MATCH_CACHE=0),
alternating action by action so that drift on a shared machine falls on both alike.
Every action is an ordinary one (moves, set-up choices, battles, spells), chosen from the
match's state outside the timing; nothing is written to Redis behind the driver's back.

    action_us_cached, action_us_uncached          median wall time of one Matches.act
    action_cpu_us_cached, action_cpu_us_uncached  median CPU time of this process for it
    cached_vs_uncached                            action_us_cached / action_us_uncached
    store_trips_per_action_cached, _uncached      the store's round trips (loads and commits) per action
"""
from __future__ import annotations

import asyncio
import json
import random
import statistics
import time

from prometheus_client import REGISTRY

from services.core.metrics import active_key
from services.core.store import log_key, match_key
from shared.engine import TERMINAL
from shared.engine.registry import engine_for

GAME = "tower"
ACTIONS = 1500


def _trips() -> float:
    return sum(REGISTRY.get_sample_value("archmage_store_seconds_count", {"op": op}) or 0.0
               for op in ("load", "commit"))


class _Player:
    """One driver playing random legal actions in one match at a time."""

    def __init__(self, matches, rng: random.Random):
        self.matches, self.rng = matches, rng
        self.engine = engine_for(GAME)
        self.match_id, self.claims = "", {}
        self.made: list[str] = []
        self.n = 0
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.trips = 0.0

    async def new_match(self) -> None:
        from services.core.seats import parse

        created = await self.matches.create(GAME, "", [("human", "a"), ("human", "b")], {})
        self.match_id, self.claims = created.match_id, {i: parse(t) for i, t in created.tokens.items()}
        self.made.append(self.match_id)

    async def state(self):
        held = self.matches.records.get(self.match_id)  # what this driver acts on: no I/O when held
        return held.state if held is not None else (await self.matches.load(self.match_id)).state

    async def step(self) -> None:
        state = await self.state()
        seat = self.engine.actor(state)
        if seat == TERMINAL:
            await self.new_match()
            state = await self.state()
            seat = self.engine.actor(state)
        action = self.rng.choice(self.engine.legal_actions(state, seat))
        self.n += 1
        text, domain = json.dumps(action), self.engine.action_domain(action)
        trips = _trips()
        t0, c0 = time.perf_counter(), time.process_time()
        await self.matches.act(self.match_id, self.claims[seat], f"a{self.n}", 0, text, domain)
        self.wall.append(time.perf_counter() - t0)
        self.cpu.append(time.process_time() - c0)
        self.trips += _trips() - trips

    async def clean(self) -> None:
        redis = self.matches.store.inner.redis
        for mid in self.made:
            keys = [k async for k in redis.scan_iter(match=f"{match_key(mid)}*")]
            await redis.delete(*keys, log_key(mid))
            await redis.zrem(active_key(GAME), mid)


async def _play(redis_url: str, actions: int) -> dict:
    from services.core.dice_sessions import DiceSessions
    from services.core.dicesource import InProcessDice
    from services.core.instrumented_store import InstrumentedStore
    from services.core.matches import Matches
    from services.core.store import RedisMatchStore

    players = []
    for cached in (2000, 0):
        store = InstrumentedStore(RedisMatchStore.from_url(redis_url))
        matches = Matches(store, InProcessDice(DiceSessions(store, 3600, 8)), match_ttl_s=3600, finished_ttl_s=60,
                          action_ttl_s=600, cached_matches=cached)
        player = _Player(matches, random.Random(5))
        await player.new_match()
        players.append(player)
    for _ in range(30):  # warm up both
        for p in players:
            await p.step()
    for p in players:
        p.wall, p.cpu, p.trips = [], [], 0.0
    for i in range(actions):
        for p in (players if i % 2 == 0 else players[::-1]):
            await p.step()
    out = {}
    for p, name in zip(players, ("cached", "uncached")):
        out[f"action_us_{name}"] = statistics.median(p.wall) * 1e6
        out[f"action_cpu_us_{name}"] = statistics.median(p.cpu) * 1e6
        out[f"store_trips_per_action_{name}"] = p.trips / len(p.wall)
        await p.clean()
        await p.matches.store.close()
    out["cached_vs_uncached"] = out["action_us_cached"] / out["action_us_uncached"]
    return out


def measure(redis_url: str, actions: int = ACTIONS) -> dict:
    return asyncio.run(_play(redis_url, actions))


if __name__ == "__main__":
    import os

    for name, value in measure(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")).items():
        print(f"{name:<34} {value:>12,.2f}")
