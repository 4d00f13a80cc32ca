"""Limits per player and per peer, counted in Redis by the `limits` library.

Each limit has a name, a rate ("60/minute") and the key it counts by; a call over a
limit is refused with RESOURCE_EXHAUSTED naming the limit and when to retry (also
sent as trailing metadata `retry-after`, in seconds). The counters are fixed windows
in Redis (one INCR and EXPIRE per hit, in the library's own script), so every replica
counts against the same budget. Rates come from the environment (LIMIT_<NAME>, e.g.
LIMIT_TICKETS_PER_PLAYER=5/minute), with these defaults and why:

    calls_per_peer        2000/second  far above any honest client (one play call is a few
                                       calls; the AI workers share a peer): a flood guard only
    calls_per_player      50/second    counted where a session credential is checked (every
                                       call made for a player: tickets, matches, ratings); a
                                       client polling its ticket and matches makes a few a
                                       second. Seat calls (actions, views) are not counted per
                                       player: a seat acts only on its turn, each action a
                                       compare-and-set, so the game bounds them and the action
                                       path keeps one counter (the peer's), not two. Like
                                       calls_per_peer a flood guard (Quotas.guard)
    matches_per_player    60/minute    a player plays a match in minutes; this only stops scripts
    matches_per_peer      1200/minute  a NAT or a bot host may front many players
    tickets_per_player    20/minute    one active ticket at a time already; this bounds churn
    tickets_per_peer      1200/minute  the "1,000 tickets in 7 s" flood is 8,500/minute
    guests_per_peer       120/minute   a guest is one call: a crowd behind one address is fine,
                                       minting thousands of players is not
    signins_per_name      10/minute    password guessing against one account
    signins_per_peer      60/minute    password guessing across accounts
    dice_sessions_per_peer 1200/minute a session holds a seed and a log in Redis; in split mode
                                       every match's own session is made from the board's peer
"""
from __future__ import annotations

import logging
import math
import time

from limits import parse
from limits.aio.storage import RedisClusterStorage, RedisStorage
from limits.aio.strategies import FixedWindowRateLimiter

from services.core.errors import QuotaLike, unavailable_from
from services.core.redisclient import survive_a_dead_master

log = logging.getLogger("archmage.quotas")

DEFAULTS = {
    "calls_per_peer": "2000/second",
    "calls_per_player": "50/second",
    "matches_per_player": "60/minute",
    "matches_per_peer": "1200/minute",
    "tickets_per_player": "20/minute",
    "tickets_per_peer": "1200/minute",
    "guests_per_peer": "120/minute",
    "signins_per_name": "10/minute",
    "signins_per_peer": "60/minute",
    "dice_sessions_per_peer": "1200/minute",
}


class QuotaExceeded(QuotaLike):
    def __init__(self, name: str, rate, retry_s: int):
        super().__init__(f"limit {name} ({rate}) reached; retry in {retry_s} s")
        self.name, self.retry_s = name, retry_s


class Quotas:
    def __init__(self, redis_url: str, overrides: dict[str, str] | None = None, cluster: bool = False):
        unknown = sorted(set(overrides or {}) - set(DEFAULTS))
        if unknown:
            raise ValueError(f"no limit named {unknown[0]!r}; the limits are {', '.join(DEFAULTS)}")
        # fail fast like the match store: a Redis that is down is UNAVAILABLE, not a hang. Each
        # counter is one key (one INCR and EXPIRE script on it), so a Redis Cluster serves them too.
        if cluster:
            self.storage = RedisClusterStorage(redis_url.replace("redis://", "async+redis+cluster://", 1),
                                               implementation="redispy", key_prefix="limits",
                                               socket_connect_timeout=2.0, socket_timeout=5.0)
            survive_a_dead_master(getattr(getattr(self.storage, "bridge", None), "storage", None))
        else:
            self.storage = RedisStorage(redis_url.replace("redis://", "async+redis://", 1), implementation="redispy",
                                        key_prefix="limits", socket_connect_timeout=2.0, socket_timeout=5.0)
        self.limiter = FixedWindowRateLimiter(self.storage)
        self.items = {name: parse(rate) for name, rate in dict(DEFAULTS, **(overrides or {})).items()}

    async def hit(self, name: str, key: str) -> None:
        """Count one against limit `name` for `key`; QuotaExceeded when over."""
        item = self.items[name]
        if not await self.limiter.hit(item, name, key):
            stats = await self.limiter.get_window_stats(item, name, key)
            raise QuotaExceeded(name, item, max(1, math.ceil(stats.reset_time - time.time())))

    async def guard(self, name: str, key: str) -> None:
        """`hit` for a flood guard, which lets a call through when its counter cannot be reached
        (Redis down, or the Cluster master holding that counter): the call then stands or falls
        with the keys it needs itself, rather than with one master every call of a peer counts on."""
        try:
            await self.hit(name, key)
        except QuotaExceeded:
            raise
        except Exception as exc:
            if unavailable_from(exc) is None:
                raise
            log.warning("limit %s not counted for %s: %s", name, key, exc)


def peer_of(context) -> str:
    """The caller's address without its port ("ipv4:1.2.3.4:5678" -> "ipv4:1.2.3.4")."""
    peer = context.peer() or "unknown"
    return peer.rsplit(":", 1)[0] if peer.count(":") >= 2 else peer
