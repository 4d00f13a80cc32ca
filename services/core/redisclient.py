"""Redis clients of the platform: one plain Redis, or a Redis Cluster (REDIS_CLUSTER=1).

Everything the platform keeps is cluster-legal: a multi-key command, a transaction or a
Lua script only ever touches keys of one hash slot (a match's keys share `{m:<id>}`, a
matchmaking queue's `{q:<game>:<variant>}`); every other key is used on its own. So the
same code runs on both; what differs is only how a client is made, here:

* `connect(url, cluster)`: the asyncio client of the match store, the tickets and the
  players (redis-py's `RedisCluster` for a Cluster: `url` names any one node, the others
  are discovered from it);
* `connect_sync(url, cluster)`: the blocking client of the scrape-time probe.

Both fail fast (a short connect timeout, two quick retries): a Redis (or a Cluster master)
that is down is answered UNAVAILABLE at once and clients retry, rather than waiting out
redis-py's default back-off of up to 14 s.
"""
from __future__ import annotations

import redis
import redis.asyncio as aioredis
from redis._parsers.commands import AsyncCommandsParser
from redis.asyncio.cluster import RedisCluster
from redis.backoff import ExponentialWithJitterBackoff
from redis.cluster import RedisCluster as SyncRedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError


def _retry(asyncio: bool):
    from redis.asyncio.retry import Retry as AsyncRetry
    from redis.retry import Retry

    backoff = ExponentialWithJitterBackoff(base=0.05, cap=0.5)
    return AsyncRetry(backoff, retries=2) if asyncio else Retry(backoff, retries=2)


def connect(url: str, cluster: bool = False, *, connect_timeout_s: float = 2.0,
            timeout_s: float | None = 15.0) -> aioredis.Redis | RedisCluster:
    """The asyncio client for `url`: bytes in, bytes out."""
    options = dict(decode_responses=False, retry=_retry(True), socket_connect_timeout=connect_timeout_s,
                   socket_timeout=timeout_s)
    if not cluster:
        return aioredis.from_url(url, **options)
    return survive_a_dead_master(RedisCluster.from_url(url, **options))


def survive_a_dead_master(client):
    """An asyncio Cluster client that keeps serving the slots of the live masters when one
    master is down (see _AnyLiveMaster); any other client is returned as it is."""
    if isinstance(client, RedisCluster) and not isinstance(client.commands_parser, _AnyLiveMaster):
        client.commands_parser = _AnyLiveMaster(client)
    return client


def connect_sync(url: str, cluster: bool = False, *, timeout_s: float = 0.5) -> redis.Redis | SyncRedisCluster:
    options = dict(socket_timeout=timeout_s, socket_connect_timeout=timeout_s)
    if not cluster:
        return redis.Redis.from_url(url, **options)
    return SyncRedisCluster.from_url(url, retry=_retry(False), **options)


def is_cluster(client) -> bool:
    return isinstance(client, (RedisCluster, SyncRedisCluster))


class _AnyLiveMaster(AsyncCommandsParser):
    """redis-py's table of commands (which arguments are keys), read from any master that
    answers. The library asks its "default node" only (the first master it lists, dead or
    alive), for the table when it rediscovers the Cluster and for the keys of commands like
    XREAD: one master down would then fail every command, even on keys of the others.
    The table is read once: redis-py rediscovers the Cluster after every connection error,
    and reading it again each time (a large reply) would keep a client with one master down
    busy rediscovering. A command missing from it has the table read again, as redis-py does."""

    def __init__(self, client: RedisCluster):
        super().__init__()
        self._client = client

    async def _on_a_live_master(self, *args):
        current = getattr(self, "node", None)
        candidates = ([current] if current is not None else []) + [
            n for n in self._client.get_primaries() if n is not current]
        failure: Exception | None = None
        for node in candidates:
            try:
                reply = await node.execute_command(*args)
            except (RedisConnectionError, RedisTimeoutError) as exc:
                failure = exc
                continue
            self.node = node
            return reply
        raise failure or RedisConnectionError("no Redis Cluster master answers")

    async def initialize(self, node=None) -> None:
        if node is not None:
            self.node = node
            if self.commands:  # a rediscovery of the Cluster (after any connection error): the table stands
                return
        commands = await self._on_a_live_master("COMMAND")
        self.commands = {cmd.lower(): command for cmd, command in commands.items()}

    async def _get_moveable_keys(self, *args):
        try:
            return await self._on_a_live_master("COMMAND GETKEYS", *args)
        except ResponseError as exc:
            if "Invalid arguments" in str(exc) or "The command has no key arguments" in str(exc):
                return None
            raise
