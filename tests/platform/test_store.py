"""The Redis match store against a real Redis: compare-and-set, idempotency, the log."""
from __future__ import annotations

import asyncio
import secrets

import pytest

from services.core.errors import Conflict, NotFound
from services.core.store import RedisMatchStore
from shared.eventlog import GENESIS, link


async def _new(store: RedisMatchStore) -> str:
    mid = "t" + secrets.token_hex(6)
    events = link([("created", {"n": 0})], 0, GENESIS)
    await store.commit(mid, new=True, expected_version=None, expected_seq=0, ttl_s=60, events=events,
                       fields={"v": 1, "seq": 1, "head": events[-1].hash})
    return mid


async def _write(store: RedisMatchStore, mid: str, writer: int, action_id: str = "") -> bool:
    rec = await store.load(mid)
    v, seq, head = int(rec["v"]), int(rec["seq"]), rec["head"].decode()
    events = link([("step", {"writer": writer}), ("step2", {"writer": writer})], seq, head)
    try:
        await store.commit(mid, expected_version=v, expected_seq=seq, ttl_s=60, events=events,
                           fields={"v": v + 1, "seq": events[-1].seq, "head": events[-1].hash},
                           action_id=action_id, answer=f"writer {writer}")
        return True
    except Conflict:
        return False


def test_fifty_concurrent_writers_on_one_version_one_wins(redis_url):
    async def run():
        store = RedisMatchStore.from_url(redis_url)
        mid = await _new(store)
        # every writer reads version 1 before any writes: then all race
        recs = await asyncio.gather(*(store.load(mid) for _ in range(50)))
        assert {int(r["v"]) for r in recs} == {1}

        async def attempt(i, rec):
            events = link([("step", {"writer": i})], int(rec["seq"]), rec["head"].decode())
            try:
                await store.commit(mid, expected_version=1, expected_seq=int(rec["seq"]), ttl_s=60, events=events,
                                   fields={"v": 2, "seq": events[-1].seq, "head": events[-1].hash})
                return True
            except Conflict:
                return False

        wins = await asyncio.gather(*(attempt(i, r) for i, r in enumerate(recs)))
        log = await store.read_log(mid)
        await store.close()
        return wins, log

    wins, log = asyncio.run(run())
    assert sum(wins) == 1
    assert [e.seq for e in log] == [1, 2]


def test_retrying_writers_lose_no_event_and_leave_no_gap(redis_url):
    async def run():
        store = RedisMatchStore.from_url(redis_url)
        mid = await _new(store)

        async def writer(i):
            while not await _write(store, mid, i):
                pass

        await asyncio.gather(*(writer(i) for i in range(50)))
        rec, log = await store.load(mid), await store.read_log(mid)
        await store.close()
        return rec, log

    rec, log = asyncio.run(run())
    assert int(rec["v"]) == 51
    assert [e.seq for e in log] == list(range(1, 102))
    writers = [e.body["writer"] for e in log if e.type == "step"]
    assert sorted(writers) == list(range(50))  # each exactly once
    assert all(b.prev_hash == a.hash for a, b in zip(log, log[1:]))


def test_an_idempotent_replay_changes_nothing(redis_url):
    async def run():
        store = RedisMatchStore.from_url(redis_url)
        mid = await _new(store)
        assert await _write(store, mid, 1, action_id="a1")
        rec = await store.load(mid)
        events = link([("step", {"writer": 2})], int(rec["seq"]), rec["head"].decode())
        again = await store.commit(mid, expected_version=int(rec["v"]), expected_seq=int(rec["seq"]), ttl_s=60,
                                   events=events, fields={"v": 99}, action_id="a1", answer="second")
        after, log = await store.load(mid), await store.read_log(mid)
        await store.close()
        return again, after, log

    again, after, log = asyncio.run(run())
    assert again.replayed and again.answer == "writer 1"
    assert int(after["v"]) == 2 and len(log) == 3


def test_keys_share_one_hash_tag_and_expire(redis_url):
    async def run():
        store = RedisMatchStore.from_url(redis_url)
        mid = await _new(store)
        await _write(store, mid, 1, action_id="x")
        keys = sorted(k.decode() for k in await store.redis.keys("{m:%s}*" % mid))
        ttls = [await store.redis.ttl(k) for k in keys]
        await store.close()
        return mid, keys, ttls

    mid, keys, ttls = asyncio.run(run())
    assert keys == ["{m:%s}" % mid, "{m:%s}:act:x" % mid, "{m:%s}:log" % mid]
    assert all(0 < t <= 86400 for t in ttls)


def test_missing_match_is_not_found(redis_url):
    async def run():
        store = RedisMatchStore.from_url(redis_url)
        try:
            with pytest.raises(NotFound):
                await store.load("nope" + secrets.token_hex(4))
            with pytest.raises(NotFound):
                await store.commit("nope" + secrets.token_hex(4), expected_version=1, expected_seq=0, fields={},
                                   events=[], ttl_s=5)
        finally:
            await store.close()

    asyncio.run(run())


def test_a_clock_deadline_moves_with_its_commit_and_never_without_it(own_redis):
    """On one Redis the deadline is written by the commit script itself: a refused commit leaves
    it as it was, a commit that holds sets it (later or earlier) or drops it."""
    from services.core.store import DEADLINES_KEY

    async def scenario():
        store = RedisMatchStore.from_url(own_redis)
        try:
            mid = await _new(store)
            score = lambda: store.redis.zscore(DEADLINES_KEY, mid)  # noqa: E731
            await store.commit(mid, expected_version=1, expected_seq=1, ttl_s=60, events=[], fields={"v": 2},
                               deadline=2000.5)
            assert await score() == 2000.5
            with pytest.raises(Conflict):
                await store.commit(mid, expected_version=1, expected_seq=1, ttl_s=60, events=[], fields={"v": 3},
                                   deadline=None)
            assert await score() == 2000.5
            await store.commit(mid, expected_version=2, expected_seq=1, ttl_s=60, events=[], fields={"v": 3},
                               deadline=1500.0)
            assert await score() == 1500.0 and await store.due_deadlines(1600, 10) == [(mid, 1500.0)]
            assert await store.claim_deadline(mid, 1500.0, 1505.0) and not await store.claim_deadline(mid, 1500.0, 9.0)
            await store.commit(mid, expected_version=3, expected_seq=1, ttl_s=60, events=[], fields={"v": 4})
            assert await score() == 1505.0  # a commit with no clock leaves the deadline alone
            await store.commit(mid, expected_version=4, expected_seq=1, ttl_s=60, events=[], fields={"v": 5},
                               deadline=None)
            assert await score() is None and await store.deadlines_waiting() == 0
        finally:
            await store.close()

    asyncio.run(scenario())
