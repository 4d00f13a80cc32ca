"""The serving process's copy of each match (services/core/matches.py `RecordCache`): an
action on a copy costs one round trip, and a copy made stale by another serving process, or
by a Redis that lost its last commits, is never applied. Two drivers with stores of their
own (as two serving processes are) race on one match of the Race game (tests/support/race.py).

What holds after every race: the log replays (each action applied to the state before it)
to exactly the state stored, the version counts the actions once each, every action id is
in the log at most once, and the dice verify once the match is over."""
from __future__ import annotations

import asyncio
import itertools

from services.core.dice_sessions import DiceSessions
from services.core.dicesource import InProcessDice
from services.core.errors import Conflict
from services.core.instrumented_store import InstrumentedStore
from services.core.matches import Matches
from services.core.seats import parse
from services.core.store import RedisMatchStore, log_key, match_key
from shared.engine import NotYourTurn, RuleViolation
from shared.engine.registry import engine_for
from shared.matchlog import replay_events
from tests.support.counts import TRIES, fewest, since, store_round_trips

ENGINE = engine_for("race")
_ids = itertools.count()


def driver(redis_url: str, cached: int = 100) -> Matches:
    """The match driver of one serving process: its own Redis connections and its own copies."""
    store = InstrumentedStore(RedisMatchStore.from_url(redis_url))
    return Matches(store, InProcessDice(DiceSessions(store, 600, 8)), match_ttl_s=600, finished_ttl_s=600,
                   action_ttl_s=600, retries=8, cached_matches=cached)


async def new_match(matches: Matches, seats: int = 2):
    created = await matches.create("race", "", [("human", "")] * seats, {})
    return created.match_id, {i: parse(t) for i, t in created.tokens.items()}


async def consistent(matches: Matches, match_id: str) -> list:
    """Check the stored match against its log; the log's action events."""
    raw = await matches.store.load(match_id)
    events = await matches.store.read_log(match_id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert all(e.prev_hash == p.hash for p, e in zip(events, events[1:]))
    actions = [e.body for e in events if e.type == "action"]
    assert int(raw["v"]) == 1 + len(actions)  # each action counted once
    ids = [a["action_id"] for a in actions]
    assert len(ids) == len(set(ids))  # none applied twice
    assert ENGINE.encode(replay_events(ENGINE, events)) == raw["s"]  # each applied to the state before it
    return actions


async def whose_turn(matches: Matches, match_id: str) -> int:
    return ENGINE.actor((await matches.load(match_id)).state)


def test_two_processes_taking_turns_on_one_match_never_act_on_a_stale_copy(redis_url):
    async def scenario():
        a, b = driver(redis_url), driver(redis_url)
        try:
            mid, claims = await new_match(a)
            served = 0
            while not (await a.load(mid)).finished:
                seat = await whose_turn(a, mid)
                # the seats alternate between the two processes, so each one's copy is one
                # action behind whenever it serves: the commit must refuse it every time
                matches = (a, b)[served % 2]
                result = await matches.act(mid, claims[seat], f"t{next(_ids)}", 0, '{"kind": "roll"}', "combat")
                assert not result.replayed
                served += 1
                rec = matches.records.get(mid)
                if rec is not None:  # the copy the process kept is the record as stored
                    stored = await matches.store.load(mid)
                    assert rec.raw == stored and ENGINE.encode(rec.state) == stored["s"]
                    assert (rec.version, rec.seq, rec.head) == (int(stored["v"]), int(stored["seq"]),
                                                              stored["head"].decode())
            await consistent(a, mid)
            verdict = await a.dice.sessions.verify(mid)
            assert verdict.ok, verdict.problems
            return served
        finally:
            await a.store.close()
            await b.store.close()

    assert asyncio.run(scenario()) > 2


def test_the_same_process_acting_again_uses_its_copy_one_round_trip(redis_url):
    async def scenario():
        a = driver(redis_url)
        try:
            mid, claims = await new_match(a, seats=1)
            await a.act(mid, claims[0], "first", 0, '{"kind": "hide", "number": 1}', "board")
            held = a.records.get(mid)
            assert held is not None and held.version == 2
            seen = []
            for n in range(TRIES):  # the fewest of a few tries (tests/support/counts.py)
                trips = store_round_trips("load", "commit")
                await a.act(mid, claims[0], f"again {n}", 0, '{"kind": "hide", "number": 2}', "board")
                assert a.records.get(mid).version == 3 + n
                seen.append(since(trips))
            assert fewest(seen) == {"load": 0, "commit": 1}
            await consistent(a, mid)
        finally:
            await a.store.close()

    asyncio.run(scenario())


def test_processes_racing_on_one_match_apply_each_action_once_on_the_newest_state(redis_url):
    async def scenario():
        drivers = [driver(redis_url) for _ in range(3)]
        try:
            mid, claims = await new_match(drivers[0], seats=2)
            accepted = 0
            for round_ in range(12):
                # every process sends the same seat's move at once, each with its own id: the
                # rules allow one of them; the others lose the race or are refused on fresh state
                seat = await whose_turn(drivers[0], mid)
                if (await drivers[0].load(mid)).finished:
                    break
                calls = [m.act(mid, claims[seat], f"r{round_}-{i}", 0, '{"kind": "hide", "number": 1}', "board")
                         for i, m in enumerate(drivers)]
                results = await asyncio.gather(*calls, return_exceptions=True)
                ok = [r for r in results if not isinstance(r, BaseException)]
                refused = [r for r in results if isinstance(r, (NotYourTurn, RuleViolation, Conflict))]
                assert len(ok) + len(refused) == len(results), results
                assert len(ok) == 1  # one seat's turn: exactly one of the racers moved
                accepted += 1
            actions = await consistent(drivers[0], mid)
            assert len(actions) == accepted
        finally:
            for m in drivers:
                await m.store.close()

    asyncio.run(scenario())


def test_a_replayed_action_id_is_answered_as_before_by_any_process(redis_url):
    async def scenario():
        a, b = driver(redis_url), driver(redis_url)
        try:
            mid, claims = await new_match(a, seats=2)
            await b.act(mid, claims[0], "warm", 0, '{"kind": "hide", "number": 1}', "board")  # b holds a copy
            first = await a.act(mid, claims[1], "once", 0, '{"kind": "roll"}', "combat")
            # b's copy is behind; a's is current: both answer the retry as the first time
            for m in (b, a, b):
                again = await m.act(mid, claims[1], "once", 0, '{"kind": "roll"}', "combat")
                assert again.replayed and again.version == first.version
                assert [e.hash for e in again.events] == [e.hash for e in first.events]
            await consistent(a, mid)
        finally:
            await a.store.close()
            await b.store.close()

    asyncio.run(scenario())


def test_a_copy_from_a_history_redis_lost_is_refused_though_version_and_seq_match(redis_url):
    """After a restart Redis may come back without its last commits, and another process may
    then commit the same version with as many events: only the log head tells them apart."""
    async def scenario():
        a, b = driver(redis_url), driver(redis_url, cached=0)
        try:
            mid, claims = await new_match(a, seats=2)
            redis = a.store.inner.redis
            before = await a.store.load(mid)
            await a.act(mid, claims[0], "lost", 0, '{"kind": "hide", "number": 1}', "board")  # a keeps a copy
            # the commit is lost: the record and the log go back to what they were
            held = a.records.get(mid)
            kept = await redis.xrange(log_key(mid), max=f"0-{int(before['seq'])}")
            await redis.delete(log_key(mid))
            for entry_id, body in kept:
                await redis.xadd(log_key(mid), body, id=entry_id)
            await redis.hset(match_key(mid), mapping=before)
            # another process commits another action at the same version, with as many events
            await b.act(mid, claims[0], "kept", 0, '{"kind": "hide", "number": 2}', "board")
            stored = await a.store.load(mid)
            assert (int(stored["v"]), int(stored["seq"])) == (held.version, held.seq)
            assert stored["head"].decode() != held.head
            # a's copy is of the lost history: seat 1 acting on it must not commit on top of it
            await a.act(mid, claims[1], "next", 0, '{"kind": "hide", "number": 3}', "board")
            actions = await consistent(a, mid)
            assert [x["action_id"] for x in actions] == ["kept", "next"]
            assert [x["action"]["number"] for x in actions] == [2, 3]
        finally:
            await a.store.close()
            await b.store.close()

    asyncio.run(scenario())
