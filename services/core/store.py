"""The match store: a match's record, its versioned state and its event log, in Redis.

Guarantees (what callers may rely on):
* every key of match M is hash-tagged `{m:M}`, so a match lives in one Cluster slot;
* `commit` is one atomic compare-and-set in one round trip (a Lua script): it checks
  the version and the log position the caller read, and the action id; then writes
  the fields, appends the events to the match's stream, stores the answer under the
  action id and refreshes every key's TTL. Either all of that happens or none;
* a lost race raises Conflict and changes nothing; a replayed action id returns the
  first answer and changes nothing;
* the log is gap-free: event seq n is stream entry "0-n", so a reader resumes
  exactly where it stopped.
The store knows nothing of games or gRPC: it moves bytes and raises domain errors.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import AsyncIterator, Iterable, Mapping

import redis.asyncio as aioredis
from redis.exceptions import NoScriptError

from services.core.errors import Conflict, NotFound
from services.core.redisclient import connect, is_cluster
from shared.eventlog import LoggedEvent

_COMMIT = """
-- KEYS: 1 match hash, 2 event stream, 3 action-id key
-- ARGV: 1 mode (new|update), 2 expected version ('' = any), 3 expected seq,
--       4 ttl, 5 action ttl, 6 answer ('' = none), 7 field count, fields..., event count, events...
if ARGV[6] ~= '' then
  local prior = redis.call('GET', KEYS[3])
  if prior then return {'replayed', prior} end
end
local exists = redis.call('EXISTS', KEYS[1])
if ARGV[1] == 'new' then
  if exists == 1 then return {'exists', ''} end
else
  if exists == 0 then return {'missing', ''} end
  local cur = redis.call('HMGET', KEYS[1], 'v', 'seq')
  if ARGV[2] ~= '' and cur[1] ~= ARGV[2] then return {'conflict', cur[1] or ''} end
  if (cur[2] or '0') ~= ARGV[3] then return {'conflict', cur[1] or ''} end
end
local i = 8
local nfields = tonumber(ARGV[7])
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
local ttl = tonumber(ARGV[4])
redis.call('EXPIRE', KEYS[1], ttl)
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ttl) end
if ARGV[6] ~= '' then redis.call('SET', KEYS[3], ARGV[6], 'EX', tonumber(ARGV[5])) end
return {'ok', ''}
"""


DUE_KEY = "ai:due"  # match id -> when its AI turn fell due (services/core/ai_turns.py)


def match_key(match_id: str) -> str:
    return "{m:%s}" % match_id


def log_key(match_id: str) -> str:
    return "{m:%s}:log" % match_id


def action_key(match_id: str, action_id: str) -> str:
    return "{m:%s}:act:%s" % (match_id, action_id)


@dataclass(frozen=True)
class Committed:
    """The answer of a commit: `replayed` is set when the action id was seen before,
    and `answer` is then the answer stored the first time."""

    replayed: bool
    answer: str


class MatchStore:
    """Redis implementation of the match store (see the module docstring)."""

    def __init__(self, client: aioredis.Redis):
        self.redis = client
        self.clustered = is_cluster(client)
        self._commit = client.register_script(_COMMIT)

    @classmethod
    def from_url(cls, url: str, cluster: bool = False) -> "MatchStore":
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
    ) -> Committed:
        """Atomically check (version, seq, action id), write fields and append events.

        With `ai_due`, the match is also marked in the set of due AI turns (DUE_KEY) in the
        same round trip, ahead of the commit: a committed AI turn is never unmarked, and a
        mark whose commit failed is a false alarm the sweep drops."""
        events = list(events)
        args: list = ["new" if new else "update", "" if expected_version is None else str(expected_version),
                      str(expected_seq), ttl_s, action_ttl_s, answer if action_id else "", len(fields)]
        for k, v in fields.items():
            args += [k, v]
        args.append(len(events))
        for e in events:
            args += [e.seq, e.type, e.body_json, e.prev_hash, e.hash]
        keys = [match_key(match_id), log_key(match_id), action_key(match_id, action_id or "-")]
        if ai_due:
            status, detail = await self._marked_commit(match_id, keys, args)
        else:
            status, detail = await self._commit(keys=keys, args=args)
        status = status.decode()
        if status == "ok":
            return Committed(False, answer)
        if status == "replayed":
            return Committed(True, detail.decode())
        if status == "missing":
            raise NotFound(f"no match or dice session {match_id!r}")
        if status == "exists":
            raise Conflict(f"match {match_id!r} already exists")
        raise Conflict(f"match {match_id!r} changed meanwhile (now at version {detail.decode() or '?'})")

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

    async def ping(self) -> bool:
        return bool(await self.redis.ping())


def _event(entry_id: bytes, data: dict) -> LoggedEvent:
    seq = int(entry_id.decode().split("-")[1])
    field = lambda name: data[name].decode()
    return LoggedEvent(seq, field(b"type"), field(b"body"), field(b"prev"), field(b"hash"))


def jloads(raw: bytes | str | None, default=None):
    return default if raw is None else json.loads(raw)
