"""Rating changes against a real Redis, from several platform replicas at once: two matches
of one player ending together both count, and a match ending twice counts once."""
from __future__ import annotations

import asyncio
import secrets

import pytest
import redis.asyncio as aioredis
from openskill.models import PlackettLuce

from services.players.ratings import Ratings, leaders_key

GAME = "race"


def names(*who: str) -> list[str]:
    run = secrets.token_hex(4)
    return [f"{w}-{run}" for w in who]


@pytest.fixture
def replicas(redis_url):
    """Three Ratings, each on a Redis client of its own, as three platform processes are."""

    async def make():
        return [Ratings(aioredis.Redis.from_url(redis_url)) for _ in range(3)]

    async def close(made):
        for r in made:
            await r.redis.aclose()

    def run(coro_fn):
        async def body():
            made = await make()
            try:
                return await coro_fn(made)
            finally:
                await close(made)
        return asyncio.run(body())

    return run


def sequential(order: list[tuple[str, str]]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) of each player after the two-player matches `order` (winner, loser), one after another."""
    model = PlackettLuce()
    now: dict[str, object] = {}
    for winner, loser in order:
        w, lo = now.get(winner) or model.rating(), now.get(loser) or model.rating()
        [[now[winner]], [now[loser]]] = model.rate([[w], [lo]], ranks=[0, 1])
    return {p: (r.mu, r.sigma) for p, r in now.items()}


def test_two_matches_of_one_player_ending_at_once_both_count(replicas):
    alice, bob, carol = names("alice", "bob", "carol")

    async def body(rs):
        done = await asyncio.gather(rs[0].record(f"m1-{alice}", GAME, [alice, bob], (15, 3), (0,)),
                                    rs[1].record(f"m2-{alice}", GAME, [carol, alice], (15, 9), (0,)))
        return done, [await rs[2].get(GAME, p) for p in (alice, bob, carol)]

    done, (a, b, c) = replicas(body)
    assert done == [True, True]
    assert (a.matches, b.matches, c.matches) == (2, 1, 1)
    # alice's rating is the two results applied one after the other, in one order or the other
    orders = (sequential([(alice, bob), (carol, alice)]), sequential([(carol, alice), (alice, bob)]))
    assert any(o[alice] == pytest.approx((a.mu, a.sigma)) for o in orders)


def test_many_matches_of_one_player_ending_at_once_all_count(replicas):
    [star] = names("star")
    others = names(*[f"p{i}" for i in range(12)])

    async def body(rs):
        done = await asyncio.gather(*(rs[i % 3].record(f"m{i}-{star}", GAME, [star, other], (15, 1), (0,))
                                      for i, other in enumerate(others)))
        return done, await rs[0].get(GAME, star), await rs[0].redis.zscore(leaders_key(GAME), star)

    done, rating, listed = replicas(body)
    assert all(done)
    assert rating.matches == len(others)
    expected = sequential([(star, o) for o in others])[star]  # every opponent new: the order cannot matter
    assert (rating.mu, rating.sigma) == pytest.approx(expected)
    assert listed == rating.rating  # the leaderboard shows the last write, which saw every match


def test_a_match_ended_twice_counts_once(replicas):
    alice, bob = names("alice", "bob")
    match = f"twice-{alice}"

    async def body(rs):
        at_once = await asyncio.gather(*(r.record(match, GAME, [alice, bob], (15, 4), (0,)) for r in rs))
        again = await rs[0].record(match, GAME, [alice, bob], (15, 4), (0,))
        return at_once, again, [await rs[0].get(GAME, p) for p in (alice, bob)]

    at_once, again, (a, b) = replicas(body)
    assert sorted(at_once) == [False, False, True] and again is False
    assert (a.matches, b.matches) == (1, 1)
    assert (a.mu, a.sigma) == pytest.approx(sequential([(alice, bob)])[alice])


def test_a_match_of_one_player_is_not_rated(replicas):
    [solo] = names("solo")

    async def body(rs):
        return await rs[0].record(f"solo-{solo}", GAME, [solo, solo], (15, 2), (0,)), await rs[0].get(GAME, solo)

    done, rating = replicas(body)
    assert done is False and rating.matches == 0
