"""The match store in Redis: the implementation of services/core/store_contract.py.

How the contract's guarantees are kept here:
* every key of match M is hash-tagged `{m:M}` (the record `{m:M}`, the log `{m:M}:log`,
  an action's answer `{m:M}:act:<id>`), so a match lives in one Cluster slot and its script
  stays legal when Redis is sharded;
* `commit` is one Lua script in one round trip: it checks the action id, then the version,
  the log position and (when given) the log head, and only then writes the fields, appends the events (event seq n is
  stream entry "0-n", which makes the log gap-free and resumable), stores the answer and
  refreshes the TTLs. A script runs alone and reaches the AOF and the replicas as one
  transaction: whole or absent;
* the platform-wide indexes are single keys of their own (`ai:due`, `player:<p>:matches`,
  `archmage:active:<game>`, `ai:seat-key`), each used alone, so they are Cluster-legal too;
* a Redis that is down fails fast (services/core/redisclient.py): redis-py's errors reach
  the edge, which answers UNAVAILABLE.
The store knows nothing of games or gRPC: it moves bytes and raises domain errors.
"""
from __future__ import annotations

import json
import time
from typing import AsyncIterator, Iterable, Mapping

import redis.asyncio as aioredis
from redis.exceptions import NoScriptError

from services.core.errors import Conflict, NotFound
from services.core.metrics import match_ended, match_started
from services.core.redisclient import connect, is_cluster
from services.core.store_contract import Committed
from shared.eventlog import LoggedEvent

_COMMIT = """
-- KEYS: 1 match hash, 2 event stream, 3 action-id key, 4 (one Redis only) the clock deadlines
-- ARGV: 1 mode (new|update), 2 expected version ('' = any), 3 expected seq,
--       4 ttl, 5 action ttl, 6 answer ('' = none), 7 expected log head ('' = any),
--       8 field count, fields..., event count, events...,
--       then with KEYS[4]: the deadline ('' = none: drop the match's), the match id
if ARGV[6] ~= '' then
  local prior = redis.call('GET', KEYS[3])
  if prior then return {'replayed', prior} end
end
local exists = redis.call('EXISTS', KEYS[1])
if ARGV[1] == 'new' then
  if exists == 1 then return {'exists', ''} end
else
  if exists == 0 then return {'missing', ''} end
  local cur = redis.call('HMGET', KEYS[1], 'v', 'seq', 'head')
  if (ARGV[2] ~= '' and cur[1] ~= ARGV[2]) or (cur[2] or '0') ~= ARGV[3]
      or (ARGV[7] ~= '' and cur[3] ~= ARGV[7]) then
    -- the loser gets the record as it is now: its retry needs no load of its own
    return {'conflict', cur[1] or '', redis.call('HGETALL', KEYS[1])}
  end
end
local i = 9
local nfields = tonumber(ARGV[8])
if nfields > 0 then
  local args = {}
  for j = 0, nfields * 2 - 1 do args[#args + 1] = ARGV[i + j] end
  redis.call('HSET', KEYS[1], unpack(args))
end
i = i + nfields * 2
local nevents = tonumber(ARGV[i])
i = i + 1
for j = 1, nevents do
  redis.call('XADD', KEYS[2], '0-' .. ARGV[i], 'type', ARGV[i + 1], 'body', ARGV[i + 2],
             'prev', ARGV[i + 3], 'hash', ARGV[i + 4])
  i = i + 5
end
if KEYS[4] then
  if ARGV[i] == '' then redis.call('ZREM', KEYS[4], ARGV[i + 1])
  else redis.call('ZADD', KEYS[4], ARGV[i], ARGV[i + 1]) end
end
local ttl = tonumber(ARGV[4])
redis.call('EXPIRE', KEYS[1], ttl)
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ttl) end
if ARGV[6] ~= '' then redis.call('SET', KEYS[3], ARGV[6], 'EX', tonumber(ARGV[5])) end
return {'ok', ''}
"""


# the mark still has the score the sweeper saw: move it to ARGV[3] (or drop it when '');
# used on the due AI turns and on the clock deadlines alike
_CLAIM = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1]) else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
"""

DUE_KEY = "ai:due"  # match id -> when its AI turn fell due (services/core/ai_turns.py)
DEADLINES_KEY = "clock:due"  # match id -> when its clock must next be looked at (services/core/deadlines.py)


def match_key(match_id: str) -> str:
    return "{m:%s}" % match_id


def log_key(match_id: str) -> str:
    return "{m:%s}:log" % match_id


def action_key(match_id: str, action_id: str) -> str:
    return "{m:%s}:act:%s" % (match_id, action_id)


def player_matches_key(player: str) -> str:
    return f"player:{player}:matches"


class RedisMatchStore:
    """The match store on one Redis or a Redis Cluster (services/core/store_contract.py says
    what each method guarantees). `redis` is the client beneath: the composition root shares
    it with the stores of tickets and players."""

    def __init__(self, client: aioredis.Redis):
        self.redis = client
        self.clustered = is_cluster(client)
        self._commit = client.register_script(_COMMIT)
        self._claim = client.register_script(_CLAIM)

    @classmethod
    def from_url(cls, url: str, cluster: bool = False) -> "RedisMatchStore":
        """A store on the Redis (or, with `cluster`, the Redis Cluster) at `url`; it fails fast
        when Redis is down (services/core/redisclient.py): the caller answers UNAVAILABLE."""
        return cls(connect(url, cluster))

    async def close(self) -> None:
        await self.redis.aclose()

    async def load(self, match_id: str) -> dict[str, bytes]:
        """Every field of the match record; NotFound if there is none (or it expired)."""
        fields = await self.redis.hgetall(match_key(match_id))
        if not fields:
            raise NotFound(f"no match or dice session {match_id!r}")
        return {k.decode(): v for k, v in fields.items()}

    async def commit(
        self,
        match_id: str,
        *,
        new: bool = False,
        expected_version: int | None,
        expected_seq: int,
        fields: Mapping[str, str | bytes | int],
        events: Iterable[LoggedEvent],
        ttl_s: int,
        action_id: str = "",
        answer: str = "",
        action_ttl_s: int = 86400,
        ai_due: bool = False,
        expected_head: str | None = None,
        deadline=...,
    ) -> Committed:
        """Atomically check (action id, version, seq, head), write fields and append events; with
        `ai_due`, mark the match in DUE_KEY ahead of it; with a `deadline` (a Unix time, or None to
        drop it), set the match's clock deadline in DEADLINES_KEY: inside the script on one Redis,
        around it on a Cluster (see MatchStore.commit)."""
        events = list(events)
        for n, e in enumerate(events, expected_seq + 1):
            if e.seq != n:
                raise ValueError(f"the events of a commit continue the log at seq {n}, not {e.seq}")
        if events:  # the record names the end of its log
            fields = {**fields, "seq": events[-1].seq, "head": events[-1].hash}
        args: list = ["new" if new else "update", "" if expected_version is None else str(expected_version),
                      str(expected_seq), ttl_s, action_ttl_s, answer if action_id else "", expected_head or "",
                      len(fields)]
        for k, v in fields.items():
            args += [k, v]
        args.append(len(events))
        for e in events:
            args += [e.seq, e.type, e.body_json, e.prev_hash, e.hash]
        keys = [match_key(match_id), log_key(match_id), action_key(match_id, action_id or "-")]
        clocked = deadline is not ...  # the default: a match with no clock
        if clocked and not self.clustered:  # one Redis: the deadline moves in the commit itself
            keys.append(DEADLINES_KEY)
            args += ["" if deadline is None else repr(deadline), match_id]
        elif clocked and deadline is not None:
            # a Cluster keeps the deadlines on another slot: an earlier mark, never a later one, goes
            # ahead of the commit, so no deadline is missed; the sweep moves an early mark on
            await self.redis.zadd(DEADLINES_KEY, {match_id: deadline}, lt=True)
        if ai_due:
            reply = await self._marked_commit(match_id, keys, args)
        else:
            reply = await self._commit(keys=keys, args=args)
        status, detail = reply[0].decode(), reply[1]
        if status == "ok":  # (on a Cluster a mark with no deadline behind it is dropped by the sweep: removing
            return Committed(False, answer)  # it here could remove a newer commit's mark)
        if status == "replayed":
            return Committed(True, detail.decode())
        if status == "missing":
            raise NotFound(f"no match or dice session {match_id!r}")
        if status == "exists":
            raise Conflict(f"match {match_id!r} already exists")
        flat = reply[2]
        record = {flat[i].decode(): flat[i + 1] for i in range(0, len(flat), 2)}
        raise Conflict(f"match {match_id!r} changed meanwhile (now at version {detail.decode() or '?'})",
                       record=record)

    async def _marked_commit(self, match_id: str, keys: list, args: list):
        """The due-AI mark, then the commit script, in one round trip (a plain pipeline: the
        two keys may live in different Cluster slots). A Cluster pipeline cannot carry a script,
        so there the mark is written first and the script run after it: two round trips."""
        if self.clustered:
            await self.redis.zadd(DUE_KEY, {match_id: time.time()})
            return await self._commit(keys=keys, args=args)
        for attempt in (1, 2):
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zadd(DUE_KEY, {match_id: time.time()})
                pipe.evalsha(self._commit.sha, len(keys), *keys, *args)
                try:
                    _, reply = await pipe.execute()
                    return reply
                except NoScriptError:  # a Redis that restarted (or a new one) forgot the script
                    if attempt == 2:
                        raise
                    await self.redis.script_load(_COMMIT)

    async def load_for_action(self, match_id: str, action_id: str) -> tuple[dict[str, bytes], str | None]:
        """The match record and the answer stored under `action_id`, if any, in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(match_key(match_id))
            pipe.get(action_key(match_id, action_id))
            fields, prior = await pipe.execute()
        if not fields:
            raise NotFound(f"no match or dice session {match_id!r}")
        return {k.decode(): v for k, v in fields.items()}, prior.decode() if prior is not None else None

    async def read_log(self, match_id: str, after_seq: int = 0, count: int | None = None) -> list[LoggedEvent]:
        """Events with seq > after_seq, in order."""
        entries = await self.redis.xrange(log_key(match_id), min=f"0-{after_seq + 1}", count=count)
        return [_event(entry_id, data) for entry_id, data in entries]

    async def follow_log(self, match_id: str, after_seq: int, block_ms: int = 5000) -> AsyncIterator[list[LoggedEvent]]:
        """Yield batches of new events forever (an empty batch on each idle timeout)."""
        last = after_seq
        while True:
            reply = await self.redis.xread({log_key(match_id): f"0-{last}"}, block=block_ms, count=500)
            batch = [_event(entry_id, data) for _, entries in reply for entry_id, data in entries]
            if batch:
                last = batch[-1].seq
            yield batch

    # --- due marks: AI turns and clock deadlines, each a sorted set swept the same way ------
    async def _due(self, key: str, due_before: float, limit: int) -> list[tuple[str, float]]:
        due = await self.redis.zrangebyscore(key, "-inf", due_before, start=0, num=limit, withscores=True)
        return [(raw.decode() if isinstance(raw, bytes) else raw, float(score)) for raw, score in due]

    async def _claim_mark(self, key: str, match_id: str, seen: float, then: float | None) -> bool:
        return bool(await self._claim(keys=[key], args=[match_id, repr(seen), "" if then is None else repr(then)]))

    async def due_ai_turns(self, due_before: float, limit: int) -> list[tuple[str, float]]:
        return await self._due(DUE_KEY, due_before, limit)

    async def claim_ai_turn(self, match_id: str, seen: float, then: float | None) -> bool:
        return await self._claim_mark(DUE_KEY, match_id, seen, then)

    async def clear_ai_turn(self, match_id: str) -> None:
        await self.redis.zrem(DUE_KEY, match_id)

    async def due_deadlines(self, due_before: float, limit: int) -> list[tuple[str, float]]:
        return await self._due(DEADLINES_KEY, due_before, limit)

    async def claim_deadline(self, match_id: str, seen: float, then: float | None) -> bool:
        return await self._claim_mark(DEADLINES_KEY, match_id, seen, then)

    async def deadlines_waiting(self) -> int:
        return await self.redis.zcard(DEADLINES_KEY)

    # --- players' matches, the census, shared secrets ---------------------------------
    async def list_for_players(self, match_id: str, players: Iterable[str], keep: int, ttl_s: int) -> None:
        players = list(players)
        if not players:
            return
        now = time.time()
        async with self.redis.pipeline(transaction=False) as pipe:
            for p in players:
                key = player_matches_key(p)
                pipe.zadd(key, {match_id: now})
                pipe.zremrangebyrank(key, 0, -(keep + 1))
                pipe.expire(key, ttl_s)
            await pipe.execute()

    async def listed_matches(self, player: str, limit: int) -> list[str]:
        return [raw.decode() for raw in await self.redis.zrevrange(player_matches_key(player), 0, limit - 1)]

    async def unlist(self, player: str, match_id: str) -> None:
        await self.redis.zrem(player_matches_key(player), match_id)

    async def census_started(self, game: str, match_id: str) -> None:
        await match_started(self.redis, game, match_id)

    async def census_ended(self, game: str, match_id: str) -> None:
        await match_ended(self.redis, game, match_id)

    async def keep_first(self, name: str, value: bytes) -> bytes:
        await self.redis.set(name, value, nx=True)
        return await self.redis.get(name)

    async def ping(self) -> bool:
        return bool(await self.redis.ping())


def _event(entry_id: bytes, data: dict) -> LoggedEvent:
    seq = int(entry_id.decode().split("-")[1])
    field = lambda name: data[name].decode()
    return LoggedEvent(seq, field(b"type"), field(b"body"), field(b"prev"), field(b"hash"))


def jloads(raw: bytes | str | None, default=None):
    return default if raw is None else json.loads(raw)
