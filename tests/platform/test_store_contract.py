"""The match store's contract (services/core/store_contract.py), guarantee by guarantee,
against every implementation the platform runs: the Redis store, and the same store inside
its metrics wrapper. A real Redis, never a fake."""
from __future__ import annotations

import asyncio
import inspect
import secrets
import time

import pytest

from services.core.errors import Conflict, NotFound, unavailable_from
from services.core.instrumented_store import InstrumentedStore
from services.core.metrics import METRICS
from services.core.store import RedisMatchStore
from services.core.store_contract import Committed, MatchStore
from shared.eventlog import GENESIS, link
from tests.support.counts import TRIES, fewest, since, store_round_trips

IMPLEMENTATIONS = {
    "redis": lambda url: RedisMatchStore.from_url(url),
    "instrumented": lambda url: InstrumentedStore(RedisMatchStore.from_url(url)),
}


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def run(request, redis_url):
    """run(scenario): the scenario `async def (store)` on a fresh store of each implementation."""
    def runner(scenario):
        async def go():
            store = IMPLEMENTATIONS[request.param](redis_url)
            try:
                return await scenario(store)
            finally:
                await store.close()

        return asyncio.run(go())

    return runner


def redis_of(store):
    return getattr(store, "inner", store).redis


async def created(store: MatchStore, **extra) -> str:
    mid = "c" + secrets.token_hex(6)
    events = link([("created", {"n": 0})], 0, GENESIS)
    await store.commit(mid, new=True, expected_version=None, expected_seq=0, ttl_s=600, events=events,
                       fields={"v": 1, **extra})
    return mid


async def step(store: MatchStore, mid: str, n_events: int = 2, **kwargs) -> Committed:
    """A commit of the next version with `n_events` events, from what the store holds now."""
    rec = await store.load(mid)
    v, seq = int(rec["v"]), int(rec["seq"])
    events = link([("step", {"i": i, "v": v + 1}) for i in range(n_events)], seq, rec["head"].decode())
    kwargs.setdefault("expected_version", v)
    return await store.commit(mid, expected_seq=seq, fields={"v": v + 1}, events=events, ttl_s=600, **kwargs)


async def snapshot(store: MatchStore, mid: str):
    r = redis_of(store)
    keys = sorted(k.decode() for k in await r.keys("{m:%s}*" % mid))
    return await store.load(mid), await store.read_log(mid), keys


# --- the shape ------------------------------------------------------------------------
def test_every_implementation_is_a_match_store_method_for_method(redis_url):
    wanted = {name: inspect.signature(getattr(MatchStore, name)) for name in dir(MatchStore)
              if not name.startswith("_") and callable(getattr(MatchStore, name))}
    assert {"commit", "load", "load_for_action", "read_log", "follow_log", "due_ai_turns"} <= set(wanted)
    for make in IMPLEMENTATIONS.values():
        store = make(redis_url)
        assert isinstance(store, MatchStore)
        for name, signature in wanted.items():
            assert inspect.signature(getattr(type(store), name)).parameters.keys() == signature.parameters.keys(), name
        asyncio.run(store.close())


# --- compare-and-set ------------------------------------------------------------------
def test_a_stale_version_is_refused_and_changes_nothing(run):
    async def scenario(store):
        mid = await created(store)
        await step(store, mid)
        before = await snapshot(store, mid)
        with pytest.raises(Conflict):
            await step(store, mid, expected_version=1, action_id="late", answer="x", ai_due=True)
        after = await snapshot(store, mid)
        prior = (await store.load_for_action(mid, "late"))[1]
        return before, after, prior

    before, after, prior = run(scenario)
    assert after == before  # record, log and keys: no action answer, no event, no field
    assert prior is None


def test_a_stale_log_position_is_refused_and_changes_nothing(run):
    async def scenario(store):
        mid = await created(store)
        rec = await store.load(mid)
        await step(store, mid)  # another writer moves the log on
        before = await snapshot(store, mid)
        events = link([("late", {})], int(rec["seq"]), rec["head"].decode())
        with pytest.raises(Conflict):
            await store.commit(mid, expected_version=None, expected_seq=int(rec["seq"]), fields={"v": 9},
                               events=events, ttl_s=600)
        return before, await snapshot(store, mid)

    before, after = run(scenario)
    assert after == before


def test_another_log_head_is_refused_and_changes_nothing_though_version_and_seq_match(run):
    async def scenario(store):
        mid = await created(store)
        head = (await store.load(mid))["head"].decode()
        await step(store, mid, expected_head=head)  # the head it names is the record's: committed
        before = await snapshot(store, mid)
        with pytest.raises(Conflict) as refused:
            await step(store, mid, expected_head=head, action_id="other", answer="x")  # a head of the past
        return before, await snapshot(store, mid), refused.value.record

    before, after, record = run(scenario)
    assert after == before
    assert record == before[0]  # the loser is handed the record as it is: no load to retry on it


def test_of_many_writers_on_one_version_exactly_one_wins(run):
    async def scenario(store):
        mid = await created(store)

        async def attempt():
            try:
                await step(store, mid, expected_version=1)
                return True
            except Conflict:
                return False

        wins = await asyncio.gather(*(attempt() for _ in range(20)))
        return wins, await store.load(mid), await store.read_log(mid)

    wins, rec, log = run(scenario)
    assert sum(wins) == 1
    assert int(rec["v"]) == 2 and [e.seq for e in log] == [1, 2, 3]


def test_creation_needs_a_fresh_id_and_an_update_an_existing_record(run):
    async def scenario(store):
        mid = await created(store)
        before = await snapshot(store, mid)
        with pytest.raises(Conflict):
            await store.commit(mid, new=True, expected_version=None, expected_seq=0, fields={"v": 7}, events=[],
                               ttl_s=600)
        gone = "g" + secrets.token_hex(6)
        with pytest.raises(NotFound):
            await store.commit(gone, expected_version=None, expected_seq=0, fields={"v": 1},
                               events=link([("x", {})], 0, GENESIS), ttl_s=600, action_id="a", answer="a")
        with pytest.raises(NotFound):
            await store.load(gone)
        left = await redis_of(store).keys("{m:%s}*" % gone)
        return before, await snapshot(store, mid), left, await store.read_log(gone)

    before, after, left, log = run(scenario)
    assert after == before
    assert left == [] and log == []  # a refused commit leaves no key behind; a missing log reads empty


# --- idempotence ----------------------------------------------------------------------
def test_a_replayed_action_id_returns_the_first_answer_and_changes_nothing(run):
    async def scenario(store):
        mid = await created(store)
        first = await step(store, mid, action_id="a1", answer="first")
        before = await snapshot(store, mid)
        # the retry carries the version it saw then (stale now): a replay, never a Conflict
        again = await step(store, mid, expected_version=1, action_id="a1", answer="second")
        fresh = await step(store, mid, action_id="a1", answer="third")
        seen = await store.load_for_action(mid, "a1")
        return first, again, fresh, before, await snapshot(store, mid), seen

    first, again, fresh, before, after, seen = run(scenario)
    assert first == Committed(False, "first")
    assert again == Committed(True, "first") and fresh == Committed(True, "first")
    assert after == before
    assert seen == (before[0], "first")


def test_an_action_answer_is_stored_with_its_commit(run):
    async def scenario(store):
        mid = await created(store)
        rec, none = await store.load_for_action(mid, "b1")
        await step(store, mid, action_id="b1", answer="done")
        rec2, answer = await store.load_for_action(mid, "b1")
        return int(rec["v"]), none, int(rec2["v"]), answer

    assert run(scenario) == (1, None, 2, "done")


# --- the log ----------------------------------------------------------------------------
def test_a_commits_events_appear_in_order_with_no_gap_and_the_record_names_the_end(run):
    async def scenario(store):
        mid = await created(store)
        for n in (1, 3, 5):
            await step(store, mid, n_events=n)
        return await store.load(mid), await store.read_log(mid), await store.read_log(mid, 4, 3)

    rec, log, page = run(scenario)
    assert [e.seq for e in log] == list(range(1, 11))
    assert [(e.body["v"], e.body["i"]) for e in log[1:]] == [(2, 0)] + [(3, i) for i in range(3)] + [
        (4, i) for i in range(5)]
    assert all(b.prev_hash == a.hash for a, b in zip(log, log[1:]))
    assert int(rec["seq"]) == 10 and rec["head"].decode() == log[-1].hash
    assert [e.seq for e in page] == [5, 6, 7]  # a reader resumes exactly after the last seq it saw


def test_events_that_do_not_continue_the_log_are_refused_before_anything_is_written(run):
    async def scenario(store):
        mid = await created(store)
        before = await snapshot(store, mid)
        skipping = link([("x", {})], 2, GENESIS)  # seq 3 after seq 1
        with pytest.raises(ValueError):
            await store.commit(mid, expected_version=1, expected_seq=1, fields={"v": 2}, events=skipping, ttl_s=600)
        return before, await snapshot(store, mid)

    before, after = run(scenario)
    assert after == before


def test_following_the_log_continues_each_batch_and_reports_idle_time(run):
    async def scenario(store):
        mid = await created(store)
        follow = store.follow_log(mid, 0, block_ms=50)
        first = await anext(follow)
        idle = await anext(follow)
        await step(store, mid, n_events=3)
        later = await anext(follow)
        await follow.aclose()
        return first, idle, later

    first, idle, later = run(scenario)
    assert [e.seq for e in first] == [1]
    assert idle == []
    assert [e.seq for e in later] == [2, 3, 4]


# --- the AI-due mark ------------------------------------------------------------------------
def test_the_ai_due_mark_is_written_with_its_commit(run):
    async def scenario(store):
        mid = await created(store)
        t0 = time.time()
        await step(store, mid)
        unmarked = [m for m, _ in await store.due_ai_turns(time.time() + 1, 10_000) if m == mid]
        await step(store, mid, ai_due=True)
        marks = dict(await store.due_ai_turns(time.time() + 1, 10_000))
        return unmarked, marks.get(mid), t0

    unmarked, mark, t0 = run(scenario)
    assert unmarked == []
    assert mark is not None and t0 <= mark <= time.time()


def test_one_claim_of_a_mark_wins_and_a_mark_that_moved_is_left_alone(run):
    async def scenario(store):
        mid = await created(store)
        await step(store, mid, ai_due=True)
        seen = dict(await store.due_ai_turns(time.time() + 1, 10_000))[mid]
        later = seen + 5
        claims = await asyncio.gather(*(store.claim_ai_turn(mid, seen, later) for _ in range(10)))
        stale = await store.claim_ai_turn(mid, seen, None)  # the mark is no longer at `seen`
        moved = dict(await store.due_ai_turns(later + 1, 10_000)).get(mid)
        dropped = await store.claim_ai_turn(mid, later, None)
        after_drop = dict(await store.due_ai_turns(later + 1, 10_000)).get(mid)
        await step(store, mid, ai_due=True)
        await store.clear_ai_turn(mid)
        cleared = dict(await store.due_ai_turns(time.time() + 1, 10_000)).get(mid)
        return claims, stale, moved, later, dropped, after_drop, cleared

    claims, stale, moved, later, dropped, after_drop, cleared = run(scenario)
    assert sum(claims) == 1 and stale is False
    assert moved == later
    assert dropped is True and after_drop is None and cleared is None


# --- TTLs ---------------------------------------------------------------------------------
def test_every_commit_sets_the_ttls_of_the_record_the_log_and_the_answer(run):
    async def scenario(store):
        mid = await created(store)
        r = redis_of(store)
        await step(store, mid, action_id="t1", answer="x", action_ttl_s=120)
        long = [await r.ttl(k) for k in ("{m:%s}" % mid, "{m:%s}:log" % mid, "{m:%s}:act:t1" % mid)]
        rec = await store.load(mid)
        events = link([("finished", {})], int(rec["seq"]), rec["head"].decode())
        await store.commit(mid, expected_version=2, expected_seq=int(rec["seq"]), fields={"v": 3}, events=events,
                           ttl_s=30)
        short = [await r.ttl(k) for k in ("{m:%s}" % mid, "{m:%s}:log" % mid)]
        return long, short

    long, short = run(scenario)
    assert 590 <= long[0] <= 600 and 590 <= long[1] <= 600 and 110 <= long[2] <= 120
    assert all(20 <= t <= 30 for t in short)  # the finished TTL replaces the longer one


# --- the indexes beside a match ---------------------------------------------------------------
def test_a_players_list_keeps_the_newest_matches_newest_first(run):
    async def scenario(store):
        player = "p" + secrets.token_hex(4)
        for i in range(5):
            await store.list_for_players(f"m{i}", [player], keep=3, ttl_s=60)
            await asyncio.sleep(0.002)
        listed = await store.listed_matches(player, 10)
        await store.unlist(player, "m3")
        return listed, await store.listed_matches(player, 10), await redis_of(store).ttl(f"player:{player}:matches")

    listed, after, ttl = run(scenario)
    assert listed == ["m4", "m3", "m2"] and after == ["m4", "m2"]
    assert 0 < ttl <= 60


def test_the_first_secret_kept_wins(run):
    async def scenario(store):
        name = "test:secret:" + secrets.token_hex(4)
        got = await asyncio.gather(*(store.keep_first(name, f"v{i}".encode()) for i in range(8)))
        await redis_of(store).delete(name)
        return got

    got = run(scenario)
    assert len(set(got)) == 1 and got[0] in {f"v{i}".encode() for i in range(8)}


def test_the_census_takes_a_match_in_and_out(run):
    from services.core.metrics import active_key

    async def scenario(store):
        mid = "c" + secrets.token_hex(6)
        r = redis_of(store)
        await store.census_started("race", mid)
        inside = await r.zscore(active_key("race"), mid)
        await store.census_ended("race", mid)
        return inside, await r.zscore(active_key("race"), mid)

    inside, after = run(scenario)
    assert inside is not None and after is None


# --- faults ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(IMPLEMENTATIONS))
def test_a_store_that_cannot_reach_redis_is_unavailable(kind):
    async def scenario():
        store = IMPLEMENTATIONS[kind]("redis://127.0.0.1:1/0")
        failures = []
        for call in (lambda: store.load("x"), lambda: store.read_log("x"),
                     lambda: store.commit("x", expected_version=None, expected_seq=0, fields={}, events=[],
                                          ttl_s=5)):
            try:
                await call()
            except Exception as exc:
                failures.append(unavailable_from(exc))
        await store.close()
        return failures

    failures = asyncio.run(scenario())
    assert len(failures) == 3 and all(f is not None and "Redis is unavailable" in str(f) for f in failures)


# --- the instrumentation --------------------------------------------------------------------
def test_the_wrapper_times_the_hot_path_and_switches_off_with_the_metrics(redis_url):
    async def scenario():
        store = InstrumentedStore(RedisMatchStore.from_url(redis_url))
        try:
            mid = await created(store)
            seen = []
            for _ in range(TRIES):  # the fewest of a few tries (tests/support/counts.py)
                counts = store_round_trips("load", "commit", "read_log")
                await step(store, mid)  # one load, one commit
                await store.load_for_action(mid, "z")
                await store.read_log(mid)
                seen.append(since(counts))
            counts = store_round_trips(*seen[0])
            with METRICS.switched_off():
                await step(store, mid)
            still = since(counts)
            return fewest(seen), still
        finally:
            await store.close()

    grown, still = asyncio.run(scenario())
    assert grown == {"load": 2, "commit": 1, "read_log": 1}
    assert still == {"load": 0, "commit": 0, "read_log": 0}


def test_the_wrapper_times_a_call_that_fails_and_passes_its_error_on(redis_url):
    async def scenario():
        store = InstrumentedStore(RedisMatchStore.from_url(redis_url))
        try:
            before = store_round_trips("commit")
            with pytest.raises(Conflict):
                mid = await created(store)
                await step(store, mid, expected_version=7)
            return since(before)["commit"]
        finally:
            await store.close()

    assert asyncio.run(scenario()) == 2  # the creation and the refused commit
