"""Matchmaking in bulk: a batch of proposals claimed in one script, seats assigned a slice at
a time, and two matchmakers on one backlog at once (their locks waived, so both match the same
queue in the same moments): no ticket in two matches, every ticket assigned, cancelled or still
queued, nothing left claimed, and a cancel either wins or loses to the match, never both.

Each test queues on a Redis of its own: the suite's platform runs a matchmaker on the shared
database, and it matches any queue with tickets, these tests' queue among them."""
from __future__ import annotations

import asyncio
import json
import random
import secrets
import time

import pytest

from services.core.config import Settings
from services.matchmaking.matching import QueuedTicket, Window, propose
from services.matchmaking.matchmaker import Matchmaker, MatchmakerSettings
from services.matchmaking.tickets import TicketStore, tag

QUEUE = "race:standard"
T = tag(QUEUE)


def run(coro):
    return asyncio.run(coro)


async def platform_on(redis_url):
    from services.runtime.app import Platform

    platform = Platform(Settings.from_env({"REDIS_URL": redis_url, "AI_ENABLED": "0"}))
    await platform.store.ping()
    return platform


async def queued(tickets: TicketStore, n: int, invite: str, seats: int = 2) -> list[str]:
    now = int(time.time() * 1000)
    return [(await tickets.create("race", "standard", [f"{invite}-{i}"], seats, 1000, False, 600, invite,
                                  now + i)).ticket_id for i in range(n)]


async def state_of(redis, ticket_id: str) -> str:
    return (await redis.hget(f"{T}:t:{ticket_id}", "state")).decode()


def test_a_batch_claims_each_proposal_whole_or_not_at_all(own_redis):
    async def go():
        platform = await platform_on(own_redis)
        try:
            tickets, redis = platform.tickets, platform.redis
            a, b, c, d, e = await queued(tickets, 5, "batch-" + secrets.token_hex(4))
            assert await tickets.finish(e, "cancelled") == "ok"
            deadline = int(time.time() * 1000) + 30_000
            won = await tickets.claim_many(QUEUE, [("p1", [a, b]), ("p2", [b, c]), ("p3", [d, e])], deadline)
            assert won == [True, False, False]  # b is p1's; e was cancelled
            assert [await state_of(redis, t) for t in (a, b, c, d, e)] == \
                ["matching", "matching", "queued", "queued", "cancelled"]
            waiting = {i.decode() for i in await redis.zrange(f"{T}:waiting", 0, -1)}
            assert {c, d} <= waiting and not {a, b, e} & waiting
            assert {i.decode() for i in await redis.zrange(f"{T}:pending", 0, -1)} >= {a, b}
            assert await tickets.assign_many(QUEUE, [("p1", {a: {"match_id": "p1"}, b: {"match_id": "p1"}},
                                                      {a: [], b: []})]) == [True]
            assert [await state_of(redis, t) for t in (a, b)] == ["assigned", "assigned"]
            assert not {a, b} & {i.decode() for i in await redis.zrange(f"{T}:pending", 0, -1)}
        finally:
            await platform.store.close()

    run(go())


def test_a_late_seater_neither_seats_nor_unclaims_tickets_claimed_again(own_redis):
    """A replica that stalls past its claim's deadline: the tickets go back to the queue and
    are claimed again for another proposal; its late assignment seats nobody, and leaves the
    new claim (and its deadline, which would return them should that replica die) as it was."""
    async def go():
        platform = await platform_on(own_redis)
        try:
            tickets, redis = platform.tickets, platform.redis
            a, b = await queued(tickets, 2, "late-" + secrets.token_hex(4))
            now = int(time.time() * 1000)
            assert await tickets.claim_many(QUEUE, [("stalled", [a, b])], now - 1) == [True]
            assert "stalled" in await tickets.release_stale(QUEUE, now)
            assert await tickets.claim_many(QUEUE, [("fresh", [a, b])], now + 30_000) == [True]
            late = {a: {"match_id": "stalled"}, b: {"match_id": "stalled"}}
            assert await tickets.assign_many(QUEUE, [("stalled", late, {a: [], b: []})]) == [False]
            assert [await state_of(redis, t) for t in (a, b)] == ["matching", "matching"]
            assert await redis.zscore(f"{T}:pending", a) is not None
            assert await redis.zscore(f"{T}:pending", b) is not None
            fresh = {a: {"match_id": "fresh"}, b: {"match_id": "fresh"}}
            assert await tickets.assign_many(QUEUE, [("fresh", fresh, {a: [], b: []})]) == [True]
            assert json.loads(await redis.hget(f"{T}:t:{a}", "assignment"))["match_id"] == "fresh"
        finally:
            await platform.store.close()

    run(go())


class Unlocked(Matchmaker):
    """A matchmaker whose queue lock is always granted: two of them match one queue at once."""

    async def _claim_queue(self, queue):
        await asyncio.sleep(random.random() * 0.002)  # interleave the two replicas' scripts
        return await super()._claim_queue(queue)


async def _waive_lock(tickets: TicketStore) -> None:
    async def lock(queue, owner, ttl_ms):
        return True

    async def unlock(queue, owner):
        return None

    tickets.lock, tickets.unlock = lock, unlock


@pytest.mark.parametrize("batch,in_flight", [(8, 3), (64, 16)])
def test_two_matchmakers_on_one_backlog_never_double_seat_or_lose_a_ticket(own_redis, batch, in_flight):
    async def go():
        platform = await platform_on(own_redis)
        rng = random.Random(batch)
        invite = "two-" + secrets.token_hex(4)
        try:
            redis = platform.redis
            # two replicas: a ticket store (and what it keeps of the queue) of each one's own
            stores = [TicketStore(redis, 600), TicketStore(redis, 600)]
            for s in stores:
                await _waive_lock(s)
            settings = MatchmakerSettings(interval_s=0.0, claim_ms=30_000, window=Window(5000, 0),
                                          batch=batch, in_flight=in_flight)
            replicas = [Unlocked(s, platform.matches, "board", "combat", settings) for s in stores]
            now = int(time.time() * 1000)
            ids, parties = [], {}
            for i in range(600):
                size = 1 if rng.random() < 0.8 else 2
                party = [f"{invite}-{i}-{k}" for k in range(size)]
                t = await stores[0].create("race", "standard", party, rng.choice([0, 2, 3, 4]),
                                           rng.randrange(900, 1100), False, 600, invite, now + i)
                for member in party[1:]:
                    assert await stores[0].accept(t.ticket_id, member) == "ok"
                ids.append(t.ticket_id)
                parties[t.ticket_id] = party
            cancels: dict[str, str] = {}

            async def canceller():
                for t in rng.sample(ids, 60):
                    cancels[t] = await stores[1].finish(t, "cancelled")
                    await asyncio.sleep(0.001)

            async def replica(mm):
                idle = 0
                while True:  # three cycles in a row with nothing to form, and no claim still out: the queue is done
                    idle = 0 if await mm.cycle() else idle + 1
                    if idle >= 3:
                        out = {i.decode() for i in await redis.zrange(f"{T}:pending", 0, -1)}
                        if not out & set(ids):
                            return
                        await asyncio.sleep(0.05)  # the other replica is seating its claims (or they expire)

            await asyncio.gather(canceller(), *(replica(mm) for mm in replicas))

            rows = []
            for t in ids:
                rows.append(await redis.hmget(f"{T}:t:{t}", "state", "assignment"))
            states = [r[0].decode() for r in rows]
            assert set(states) <= {"assigned", "cancelled", "queued"}, {s: states.count(s) for s in set(states)}
            assert "assigned" in states
            waiting = {i.decode() for i in await redis.zrange(f"{T}:waiting", 0, -1)}
            assert {t for t, s in zip(ids, states) if s == "queued"} == waiting & set(ids)
            pending = {i.decode() for i in await redis.zrange(f"{T}:pending", 0, -1)}
            assert not pending & set(ids), "a ticket left claimed"
            for t, verdict in cancels.items():  # a cancel that won is cancelled; one that lost, assigned
                assert states[ids.index(t)] == ("cancelled" if verdict == "ok" else "assigned"), (t, verdict)
            seats_by_match: dict[str, list[tuple[str, int]]] = {}
            for t, (state, assignment) in zip(ids, rows):
                if state == b"assigned":
                    a = json.loads(assignment)
                    assert [s["player"] for s in a["seats"]] == parties[t]
                    seats_by_match.setdefault(a["match_id"], []).extend((s["player"], s["seat"]) for s in a["seats"])
                else:
                    assert assignment is None
                for p in parties[t]:  # a finished ticket's players may queue again
                    if state != b"queued":
                        assert await redis.get(f"mm:player:{p}") != t.encode()
            players = [p for seats in seats_by_match.values() for p, _ in seats]
            assert len(players) == len(set(players)), "a player sits in two matches"
            for match_id, seats in seats_by_match.items():
                rec = await redis.hmget("{m:%s}" % match_id, "status", "seats")
                assert rec[0] == b"active", match_id
                names = [s["name"] for s in json.loads(rec[1])]
                assert len(names) == len(seats) and sorted(s for _, s in seats) == list(range(len(seats)))
                for player, seat in seats:
                    assert names[seat] == player
        finally:
            await platform.store.close()

    run(go())


def test_a_limited_proposal_list_is_the_head_of_the_whole_one():
    rng = random.Random(3)
    ts = [QueuedTicket(f"t{i}", tuple(f"p{i}-{k}" for k in range(rng.choice([1, 1, 2]))), rng.choice([0, 2, 4]),
                       rng.randrange(800, 1200), True, rng.choice([0, 5_000]), rng.choice(["", "x", "y"]), i * 10)
          for i in range(400)]
    whole = propose(ts, (2, 3, 4), 4_000, Window(100, 25))
    for limit in (1, 7, 50, len(whole) + 5):
        head = propose(ts, (2, 3, 4), 4_000, Window(100, 25), limit=limit)
        assert [[t.ticket_id for t in p.tickets] for p in head] == \
            [[t.ticket_id for t in p.tickets] for p in whole[:limit]]
    taken = [t.ticket_id for p in whole for t in p.tickets]
    assert len(taken) == len(set(taken))
    assert all(len({t.invite for t in p.tickets}) == 1 for p in whole)


def test_claims_that_expire_before_seating_make_no_match_and_return_to_the_queue(own_redis):
    """A replica too slow for its claims (here: a claim of no time at all) creates no match for
    them; the tickets go back to the queue at the next cycle and a timely replica seats them.
    (On a Redis of its own: the suite's matchmaker would return the expired claims at once.)"""
    async def go():
        platform = await platform_on(own_redis)
        try:
            redis = platform.redis
            ids = await queued(platform.tickets, 4, "slow-" + secrets.token_hex(4))
            slow = Matchmaker(platform.tickets, platform.matches, "board", "combat",
                              MatchmakerSettings(claim_ms=0, batch=8, in_flight=2))
            assert await slow.cycle() == 0
            claimed = [(await redis.hget(f"{T}:t:{t}", "proposal")) for t in ids]
            assert all(claimed) and [await state_of(redis, t) for t in ids] == ["matching"] * 4
            for proposal in {p.decode() for p in claimed}:
                assert not await redis.exists("{m:%s}" % proposal), "a match was made for a lost claim"
            timely = Matchmaker(platform.tickets, platform.matches, "board", "combat", MatchmakerSettings())
            for _ in range(5):  # (other tests' leftovers in the queue may be matched too)
                await timely.cycle()
                if [await state_of(redis, t) for t in ids] == ["assigned"] * 4:
                    break
            assert [await state_of(redis, t) for t in ids] == ["assigned"] * 4
            assert not any([await redis.zscore(f"{T}:pending", t) for t in ids])
        finally:
            await platform.store.close()

    run(go())
