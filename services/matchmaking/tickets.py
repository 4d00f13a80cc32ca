"""The ticket store: tickets, queues and their state changes, in Redis.

Keys of one queue share the hash tag `{q:<game>:<variant>}`, so each state change
is one Lua script in one Cluster slot:
    {q:..}:t:<id>   the ticket (hash)       {q:..}:waiting  queued ids by arrival (zset)
    {q:..}:pending  ids being matched, by claim deadline (zset)
    {q:..}:lock     which replica is matching this queue now
`mm:player:<id>` (one active ticket per player) and `mm:queues` live elsewhere and are
only ever used on their own (a Redis Cluster puts them in other slots).

A ticket moves (forming ->) queued -> matching -> assigned, or forming / queued ->
cancelled / expired. A party ticket is forming until every member has accepted it;
each member's `mm:player:<id>` is taken only when that member accepts, so nobody can
be blocked from queueing by a party they never joined.
Only a script moves it, checking the state it expects, so no ticket is in two
matches, a cancel either wins (queued) or loses to the match (matching, assigned),
and a replica that dies after claiming leaves tickets that go back to the queue
when the claim's deadline passes; the match it may have made for them (its id is the
claim's proposal id) is then cancelled by the replica that returns them.

The matchmaker works in bulk, each step one script (or pipeline) for many tickets: the
waiting set is read once per cycle (and only newcomers' hashes), a batch of proposals is
claimed in one script (each proposal whole or not at all), a slice of them seated in one
script (each proposal's tickets all, or none when its claim was lost meanwhile), expired
tickets finished in one, and the players' marks freed in one pipeline.
"""
from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass

import redis.asyncio as aioredis
from redis.exceptions import NoScriptError

from services.core.errors import AlreadyExists, NotFound
from services.core.redisclient import is_cluster
from services.matchmaking.matching import QueuedTicket

_CLAIM = """
-- KEYS: waiting, pending, ticket keys...   ARGV: deadline_ms, proposal, ids...
for i = 3, #KEYS do
  if redis.call('HGET', KEYS[i], 'state') ~= 'queued' then return i - 2 end
end
for i = 3, #KEYS do
  redis.call('HSET', KEYS[i], 'state', 'matching', 'proposal', ARGV[2])
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('ZADD', KEYS[2], ARGV[1], ARGV[i])
end
return 0
"""

_CLAIM_MANY = """
-- many proposals at once, each all or nothing, as _CLAIM does for one; returns 1 or 0 for each
-- KEYS: waiting, pending, then the ticket keys of every proposal in turn
-- ARGV: deadline_ms, P (how many proposals), P pairs (proposal id, ticket count), then the ticket
-- ids in the order of their keys
local p = tonumber(ARGV[2])
local ids = 2 + 2 * p
local out, k = {}, 0
for j = 1, p do
  local proposal, n = ARGV[1 + 2 * j], tonumber(ARGV[2 + 2 * j])
  local ok = 1
  for i = k + 1, k + n do
    local state = redis.call('HGET', KEYS[2 + i], 'state')
    if state ~= 'queued' then
      ok = 0
      if not state then redis.call('ZREM', KEYS[1], ARGV[ids + i]) end  -- its hash expired: drop the id too
    end
  end
  if ok == 1 then
    for i = k + 1, k + n do
      redis.call('HSET', KEYS[2 + i], 'state', 'matching', 'proposal', proposal)
      redis.call('ZREM', KEYS[1], ARGV[ids + i])
      redis.call('ZADD', KEYS[2], ARGV[1], ARGV[ids + i])
    end
  end
  out[j] = ok
  k = k + n
end
return out
"""

_ASSIGN_MANY = """
-- seat many proposals at once; a proposal's tickets are all seated or none (none: its claim
-- expired, the tickets went back to the queue and may be claimed again, by another proposal whose
-- pending entry is not ours to touch). Returns 1 or 0 for each proposal.
-- KEYS: pending, then the ticket keys of every proposal in turn
-- ARGV: keep_s, P, P pairs (proposal id, ticket count), then per ticket: id, assignment json
local p = tonumber(ARGV[2])
local base = 2 + 2 * p
local out, k = {}, 0
for j = 1, p do
  local proposal, n = ARGV[1 + 2 * j], tonumber(ARGV[2 + 2 * j])
  local ok = 1
  for i = k + 1, k + n do
    local f = redis.call('HMGET', KEYS[1 + i], 'proposal', 'state')
    if f[1] ~= proposal or f[2] ~= 'matching' then ok = 0 end
  end
  if ok == 1 then
    for i = k + 1, k + n do
      local id, assignment = ARGV[base + 2 * i - 1], ARGV[base + 2 * i]
      redis.call('HSET', KEYS[1 + i], 'state', 'assigned', 'assignment', assignment)
      redis.call('EXPIRE', KEYS[1 + i], tonumber(redis.call('HGET', KEYS[1 + i], 'keep') or ARGV[1]))
      redis.call('ZREM', KEYS[1], id)
    end
  end
  out[j] = ok
  k = k + n
end
return out
"""

_FINISH_MANY = """
-- _FINISH for many tickets of one queue; returns for each 'ok' or the state that prevented it
-- KEYS: waiting, ticket keys...   ARGV: new state, keep_s, ids...
local out = {}
for i = 2, #KEYS do
  local id = ARGV[i + 1]
  local state = redis.call('HGET', KEYS[i], 'state')
  if not state then
    redis.call('ZREM', KEYS[1], id)  -- its hash expired: drop the id too
    out[i - 1] = 'missing'
  elseif state ~= 'queued' and state ~= 'forming' then
    out[i - 1] = state
  else
    redis.call('HSET', KEYS[i], 'state', ARGV[1])
    redis.call('ZREM', KEYS[1], id)
    redis.call('EXPIRE', KEYS[i], tonumber(redis.call('HGET', KEYS[i], 'keep') or ARGV[2]))
    out[i - 1] = 'ok'
  end
end
return out
"""

_ASSIGN = """
-- KEYS: pending, ticket keys...   ARGV: proposal, keep_s, then per ticket: id, assignment json
local n = 0
for i = 2, #KEYS do
  local id, assignment = ARGV[1 + (i - 1) * 2], ARGV[2 + (i - 1) * 2]
  if redis.call('HGET', KEYS[i], 'proposal') == ARGV[1] and redis.call('HGET', KEYS[i], 'state') == 'matching' then
    redis.call('HSET', KEYS[i], 'state', 'assigned', 'assignment', assignment)
    redis.call('EXPIRE', KEYS[i], tonumber(redis.call('HGET', KEYS[i], 'keep') or ARGV[2]))
    n = n + 1
  end
  redis.call('ZREM', KEYS[1], id)
end
return n
"""

_FINISH = """
-- forming or queued -> cancelled or expired.  KEYS: waiting, ticket   ARGV: id, new state, keep_s
local state = redis.call('HGET', KEYS[2], 'state')
if not state then return {'missing'} end
if state ~= 'queued' and state ~= 'forming' then return {state} end
redis.call('HSET', KEYS[2], 'state', ARGV[2])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[2], tonumber(redis.call('HGET', KEYS[2], 'keep') or ARGV[3]))
return {'ok'}
"""

_RELEASE = """
-- claims past their deadline go back to the queue; returns the proposals they belonged to
-- KEYS: waiting, pending, ticket prefix   ARGV: now_ms
local stale = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
local proposals = {}
for _, id in ipairs(stale) do
  local key = KEYS[3] .. id
  if redis.call('HGET', key, 'state') == 'matching' then
    local proposal = redis.call('HGET', key, 'proposal')
    if proposal then proposals[#proposals + 1] = proposal end
    redis.call('HSET', key, 'state', 'queued')
    redis.call('HDEL', key, 'proposal')
    redis.call('ZADD', KEYS[1], redis.call('HGET', key, 'created'), id)
  end
  redis.call('ZREM', KEYS[2], id)
end
return proposals
"""

_ACCEPT = """
-- a party member accepts a forming ticket; the last one queues it. The member's active-ticket
-- mark (mm:player:<id>, in a slot of its own) was taken just before, naming this ticket.
-- KEYS: waiting, ticket   ARGV: id, member
local state = redis.call('HGET', KEYS[2], 'state')
if not state then return {'missing'} end
if state ~= 'forming' then return {state} end
local party = cjson.decode(redis.call('HGET', KEYS[2], 'party'))
local accepted = cjson.decode(redis.call('HGET', KEYS[2], 'accepted'))
for _, p in ipairs(accepted) do if p == ARGV[2] then return {'again'} end end
table.insert(accepted, ARGV[2])
redis.call('HSET', KEYS[2], 'accepted', cjson.encode(accepted))
if #accepted == #party then
  redis.call('HSET', KEYS[2], 'state', 'queued')
  redis.call('ZADD', KEYS[1], redis.call('HGET', KEYS[2], 'created'), ARGV[1])
end
return {'ok'}
"""

_FREE = """
-- drop a player's active-ticket mark if it still names this ticket.  KEYS: mm:player key   ARGV: id
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

_FREE_ANY = """
-- drop a player's active-ticket mark if it names one of these tickets.  KEYS: mm:player key   ARGV: ids...
local held = redis.call('GET', KEYS[1])
for _, id in ipairs(ARGV) do
  if held == id then return redis.call('DEL', KEYS[1]) end
end
return 0
"""

_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def queue_name(game: str, variant: str) -> str:
    return f"{game}:{variant}"


def tag(queue: str) -> str:
    return "{q:%s}" % queue


@dataclass
class TicketRecord:
    ticket_id: str
    queue: str
    game: str
    variant: str
    state: str
    created_ms: int
    expires_ms: int
    assignment: dict | None
    queued: QueuedTicket
    accepted: tuple[str, ...] = ()

    @property
    def owner(self) -> str:
        return self.queued.party[0]


def ticket_id_for(queue: str) -> str:
    """A ticket id names its queue, so a lookup needs nothing else; the random part is its secret."""
    return f"{queue}:{secrets.token_urlsafe(18)}"


def split_ticket_id(ticket_id: str) -> tuple[str, str]:
    parts = ticket_id.split(":")
    if len(parts) != 3 or not all(parts):
        raise NotFound("no such ticket")
    return f"{parts[0]}:{parts[1]}", ticket_id


class TicketStore:
    def __init__(self, client: aioredis.Redis, ticket_ttl_s: int = 600, keep_s: int = 300):
        self.redis = client
        self.ticket_ttl_s = ticket_ttl_s
        self.keep_s = keep_s
        self._claim = client.register_script(_CLAIM)
        self._assign = client.register_script(_ASSIGN)
        self._finish = client.register_script(_FINISH)
        self._release = client.register_script(_RELEASE)
        self._unlock = client.register_script(_UNLOCK)
        self._accept = client.register_script(_ACCEPT)
        self._free = client.register_script(_FREE)
        self._claim_many = client.register_script(_CLAIM_MANY)
        self._assign_many = client.register_script(_ASSIGN_MANY)
        self._finish_many = client.register_script(_FINISH_MANY)
        self._free_any = client.register_script(_FREE_ANY)
        self.clustered = is_cluster(client)
        # queued tickets already read, by queue: what matching reads of a ticket never changes
        # while it waits, so each cycle reads the hashes of newcomers alone
        self._seen: dict[str, dict[str, TicketRecord]] = {}

    # --- creation and reading -----------------------------------------------------------
    async def create(self, game: str, variant: str, party: list[str], seats: int, rating: int,
                     ai_welcome: bool, max_wait_s: int, invite: str, now_ms: int, clock: str = "",
                     ai_level: str = "") -> TicketRecord:
        queue = queue_name(game, variant)
        ticket_id = ticket_id_for(queue)
        # the owner alone is marked now; each other member when they accept (AcceptTicket)
        if not await self.redis.set(f"mm:player:{party[0]}", ticket_id, nx=True, ex=self.ticket_ttl_s):
            # never the other ticket's id: whoever holds it could watch that ticket's assignment
            raise AlreadyExists("you already have an active ticket; cancel it first")
        key = f"{tag(queue)}:t:{ticket_id}"
        forming = len(party) > 1
        fields = {"game": game, "variant": variant, "party": json.dumps(party), "seats": seats, "rating": rating,
                  "ai": int(ai_welcome), "max_wait_ms": max_wait_s * 1000, "invite": invite, "clock": clock,
                  "ai_level": ai_level,
                  "state": "forming" if forming else "queued", "accepted": json.dumps(party[:1]),
                  "created": now_ms, "expires": now_ms + self.ticket_ttl_s * 1000,
                  "keep": self.keep_s}  # how long a finished ticket stays readable, whoever finishes it
        # mm:queues first: a queue with tickets is always one the replicas visit. On a plain Redis
        # it goes in the ticket's own transaction (one round trip); a Cluster keeps it elsewhere
        if self.clustered:
            await self.redis.sadd("mm:queues", queue)
        async with self.redis.pipeline(transaction=True) as pipe:  # the queue's own slot
            if not self.clustered:
                pipe.sadd("mm:queues", queue)
            pipe.hset(key, mapping=fields)
            pipe.expire(key, self.ticket_ttl_s + self.keep_s)
            if not forming:
                pipe.zadd(f"{tag(queue)}:waiting", {ticket_id: now_ms})
            await pipe.execute()
        # what was written, read back without a round trip
        return _record(ticket_id, queue, {k.encode(): str(v).encode() for k, v in fields.items()})

    async def accept(self, ticket_id: str, player: str) -> str:
        """A party member joins a forming ticket: "ok", "busy" (they have another active
        ticket) or the state that prevents it."""
        queue, _ = split_ticket_id(ticket_id)
        t = tag(queue)
        mark = f"mm:player:{player}"
        # the member's mark first (its own slot), then the ticket's script; a refusal gives it back
        took = await self.redis.set(mark, ticket_id, nx=True, ex=self.ticket_ttl_s)
        if not took and await self.redis.get(mark) != ticket_id.encode():
            return "busy"
        reply = await self._accept(keys=[f"{t}:waiting", f"{t}:t:{ticket_id}"], args=[ticket_id, player])
        result = reply[0].decode()
        if result in ("ok", "again"):
            return "ok"
        if took:
            await self._free(keys=[mark], args=[ticket_id])
        if result == "missing":
            raise NotFound("no such ticket (it may have expired)")
        return result

    async def get(self, ticket_id: str) -> TicketRecord:
        queue, _ = split_ticket_id(ticket_id)
        raw = await self.redis.hgetall(f"{tag(queue)}:t:{ticket_id}")
        if not raw:
            raise NotFound("no such ticket (it may have expired)")
        return _record(ticket_id, queue, raw)

    async def waiting(self, queue: str, limit: int = 50_000) -> list[TicketRecord]:
        """The queued tickets, oldest first. One ZRANGE, and one pipeline of HGETALLs for the
        tickets this store has not read yet: a queued ticket's fields stay as they were when it
        was queued (only a script moves it out of the waiting set, and every such move changes
        its state), so what was read of it once is what it is while its id stays there."""
        ids = [i.decode() for i in await self.redis.zrange(f"{tag(queue)}:waiting", 0, limit - 1)]
        seen = self._seen.get(queue, {})
        fresh = [i for i in ids if i not in seen]
        known: dict[str, TicketRecord] = {i: seen[i] for i in ids if i in seen}
        vanished = []
        for start in range(0, len(fresh), 2_000):  # bounded replies: a long queue read in slices
            chunk = fresh[start:start + 2_000]
            async with self.redis.pipeline(transaction=False) as pipe:
                for i in chunk:
                    pipe.hgetall(f"{tag(queue)}:t:{i}")
                raws = await pipe.execute()
            for i, raw in zip(chunk, raws):
                if raw:
                    rec = _record(i, queue, raw)
                    if rec.state == "queued":  # (moved since the ZRANGE: not queued now, not kept)
                        known[i] = rec
                else:
                    vanished.append(i)
        if vanished:  # the hash expired under a crashed replica: drop the id too
            await self.redis.zrem(f"{tag(queue)}:waiting", *vanished)
        self._seen[queue] = known  # ids gone from the waiting set are forgotten
        return [known[i] for i in ids if i in known]

    async def queues(self) -> list[str]:
        return sorted(q.decode() for q in await self.redis.smembers("mm:queues"))

    async def depth(self, queue: str) -> tuple[int, int | None]:
        """(tickets waiting, arrival of the oldest in ms)."""
        key = f"{tag(queue)}:waiting"
        n = await self.redis.zcard(key)
        oldest = await self.redis.zrange(key, 0, 0, withscores=True)
        return n, int(oldest[0][1]) if oldest else None

    # --- state changes --------------------------------------------------------------------
    async def claim(self, queue: str, ids: list[str], proposal: str, deadline_ms: int) -> bool:
        t = tag(queue)
        keys = [f"{t}:waiting", f"{t}:pending"] + [f"{t}:t:{i}" for i in ids]
        return await self._claim(keys=keys, args=[deadline_ms, proposal, *ids]) == 0

    async def assign(self, queue: str, proposal: str, assignments: dict[str, dict], players: list[str]) -> int:
        t = tag(queue)
        ids = list(assignments)
        args: list = [proposal, self.keep_s]
        for i in ids:
            args += [i, json.dumps(assignments[i])]
        n = await self._assign(keys=[f"{t}:pending"] + [f"{t}:t:{i}" for i in ids], args=args)
        await self._free_players(players, ids)
        return n

    async def claim_many(self, queue: str, proposals: list[tuple[str, list[str]]], deadline_ms: int) -> list[bool]:
        """Claim many proposals (proposal id, ticket ids) in one script; each is claimed whole
        or not at all, as claim() does. Returns, for each, whether it was claimed."""
        if not proposals:
            return []
        t = tag(queue)
        pairs: list = []
        ids: list[str] = []
        for proposal, tickets in proposals:
            pairs += [proposal, len(tickets)]
            ids += tickets
        keys = [f"{t}:waiting", f"{t}:pending"] + [f"{t}:t:{i}" for i in ids]
        reply = await self._claim_many(keys=keys, args=[deadline_ms, len(proposals), *pairs, *ids])
        claimed = [bool(int(r)) for r in reply]
        for (_, tickets), won in zip(proposals, claimed):
            if won:  # out of the waiting set: out of what is kept of it
                for i in tickets:
                    self._seen.get(queue, {}).pop(i, None)
        return claimed

    async def assign_many(self, queue: str,
                          seated: list[tuple[str, dict[str, dict], dict[str, list[str]]]]) -> list[bool]:
        """Seat many claimed proposals in one script: for each (proposal id, assignment of each
        ticket, players of each ticket) all its tickets are assigned, or none if its claim was
        lost. Then the players of those assigned may queue again. Returns, for each, whether
        it was seated."""
        if not seated:
            return []
        t = tag(queue)
        pairs: list = []
        keys = [f"{t}:pending"]
        rows: list = []
        for proposal, assignments, _ in seated:
            pairs += [proposal, len(assignments)]
            for i, a in assignments.items():
                keys.append(f"{t}:t:{i}")
                rows += [i, json.dumps(a)]
        reply = await self._assign_many(keys=keys, args=[self.keep_s, len(seated), *pairs, *rows])
        done = [bool(int(r)) for r in reply]
        marks = []
        for (_, assignments, players), ok in zip(seated, done):
            if ok:
                ids = list(assignments)
                marks += [(p, ids) for i in ids for p in players[i]]
        await self._free_marks(marks)
        return done

    async def finish_many(self, queue: str, tickets: list[TicketRecord], state: str) -> list[str]:
        """finish() for many tickets of one queue, in one script: "ok", "missing" or the state
        that prevented it, for each."""
        if not tickets:
            return []
        t = tag(queue)
        ids = [r.ticket_id for r in tickets]
        reply = await self._finish_many(keys=[f"{t}:waiting"] + [f"{t}:t:{i}" for i in ids],
                                        args=[state, self.keep_s, *ids])
        results = [r.decode() for r in reply]
        seen = self._seen.get(queue, {})
        for i in ids:
            seen.pop(i, None)
        await self._free_marks([(p, [r.ticket_id]) for r, res in zip(tickets, results) if res == "ok"
                                for p in r.queued.party])
        return results

    async def finish(self, ticket_id: str, state: str) -> str:
        """queued -> cancelled or expired. Returns "ok" or the state that prevented it."""
        queue, _ = split_ticket_id(ticket_id)
        t = tag(queue)
        reply = await self._finish(keys=[f"{t}:waiting", f"{t}:t:{ticket_id}"], args=[ticket_id, state, self.keep_s])
        result = reply[0].decode()
        if result == "missing":
            raise NotFound("no such ticket (it may have expired)")
        if result == "ok":
            await self._free_players(list((await self.get(ticket_id)).queued.party), [ticket_id])
        return result

    async def release_stale(self, queue: str, now_ms: int) -> list[str]:
        """Return tickets whose claim passed its deadline to the queue. The proposals they were
        claimed for (each the id of the match its replica may have created) are returned."""
        t = tag(queue)
        released = await self._release(keys=[f"{t}:waiting", f"{t}:pending", f"{t}:t:"], args=[now_ms])
        return sorted({p.decode() for p in released})

    async def lock(self, queue: str, owner: str, ttl_ms: int) -> bool:
        return bool(await self.redis.set(f"{tag(queue)}:lock", owner, nx=True, px=ttl_ms))

    async def unlock(self, queue: str, owner: str) -> None:
        await self._unlock(keys=[f"{tag(queue)}:lock"], args=[owner])

    async def _free_players(self, players: list[str], ticket_ids: list[str]) -> None:
        """Players may queue again: drop their marks that name one of these tickets (and no other)."""
        await self._free_marks([(p, ticket_ids) for p in players])

    FREE_IN_FLIGHT = 64

    async def _free_marks(self, marks: list[tuple[str, list[str]]]) -> None:
        """For each (player, ticket ids): drop the player's mark if it names one of those tickets.
        One script per mark (each lives in a slot of its own): all in one pipeline on a plain
        Redis; on a Cluster, whose pipelines carry no scripts, a bounded number at a time."""
        if not marks:
            return
        if not self.clustered:
            for attempt in (1, 2):
                try:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for p, ids in marks:
                            pipe.evalsha(self._free_any.sha, 1, f"mm:player:{p}", *ids)
                        await pipe.execute()
                    return
                except NoScriptError:  # a Redis that restarted (or a new one) forgot the script
                    if attempt == 2:
                        raise
                    await self.redis.script_load(_FREE_ANY)
        bound = asyncio.Semaphore(self.FREE_IN_FLIGHT)

        async def free(p: str, ids: list[str]) -> None:
            async with bound:
                await self._free_any(keys=[f"mm:player:{p}"], args=ids)

        await asyncio.gather(*(free(p, ids) for p, ids in marks))


def _record(ticket_id: str, queue: str, raw: dict) -> TicketRecord:
    f = {k.decode(): v.decode() for k, v in raw.items()}
    party = tuple(json.loads(f["party"]))
    created = int(f["created"])
    accepted = tuple(json.loads(f.get("accepted") or json.dumps(party)))
    return TicketRecord(
        ticket_id=ticket_id, queue=queue, game=f["game"], variant=f["variant"], state=f["state"],
        created_ms=created, expires_ms=int(f["expires"]),
        assignment=json.loads(f["assignment"]) if "assignment" in f else None,
        queued=QueuedTicket(ticket_id, party, int(f["seats"]), int(f["rating"]), f["ai"] == "1",
                            int(f["max_wait_ms"]), f["invite"], created, f.get("clock", ""),
                            f.get("ai_level", "")), accepted=accepted)
