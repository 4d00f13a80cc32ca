"""Ratings the platform keeps: one per player and game, changed when a rated match ends.

The method is openskill's Plackett-Luce model: it rates free-for-all matches of any
number of seats (Tower 2-4, Incantris 1-4, Wizards 1-6) from the finishing order,
treats tied places (partners who win together) as ties, and keeps an uncertainty
(sigma) so a new player's rating moves fast and a settled one slowly. It is
maintained, pure Python and patent-free (TrueSkill is neither of the last two).
The number matchmaking compares is the ordinal mu - 3 sigma mapped to 0..5000,
a new player at 1000. AI seats are rated too, as one player per game ("ai"), so a
win against the AI counts.

A match's rating change is one optimistic transaction: WATCH the match's mark and its
players' ratings, read them, compute, then MULTI/EXEC the new ratings together with the
mark. If another match of one of these players (or this same match, processed again)
wrote first, EXEC fails and the change is computed again on the fresh ratings, so two
matches of one player ending at once both count, and a match is rated once: its mark
(`rated:<match>`) is written in the same transaction as its ratings, never without them.

    rating:<game>:<player>   hash mu, sigma, matches
    leaders:<game>           zset player -> matchmaking rating
    rated:<match>            the match's result was applied (kept RATED_TTL_S)
"""
from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

from openskill.models import PlackettLuce
from redis.exceptions import WatchError

from services.core.errors import Conflict
from services.core.metrics import METRICS

AI_PLAYER = "ai"
RATED_TTL_S = 7 * 24 * 3600  # longer than a finished match is kept (FINISHED_TTL_S)
RETRIES = 32  # lost races in a row before giving up (each retry waits a little longer, jittered)
_model = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    player_id: str
    game: str
    mu: float
    sigma: float
    matches: int

    @property
    def rating(self) -> int:
        """The matchmaking number: 1000 for a new player, 40 points per unit of ordinal."""
        return max(0, min(5000, round(1000 + 40 * (self.mu - 3 * self.sigma))))


def places(scores: tuple, winners: tuple) -> list[int]:
    """Each seat's place (0 is first): winners first, then by score, ties sharing a place."""
    keys = [(0 if i in winners else 1, -(scores[i] if i < len(scores) else 0)) for i in range(len(scores))]
    return [sorted(set(keys)).index(k) for k in keys]


def rating_key(game: str, player_id: str) -> str:
    return f"rating:{game}:{player_id}"


def _decoded(game: str, player_id: str, raw: dict) -> Rating:
    if not raw:
        fresh = _model.rating()
        return Rating(player_id, game, fresh.mu, fresh.sigma, 0)
    return Rating(player_id, game, float(raw[b"mu"]), float(raw[b"sigma"]), int(raw[b"matches"]))


class Ratings:
    def __init__(self, redis, retries: int = RETRIES):
        self.redis = redis
        self.retries = retries

    async def get(self, game: str, player_id: str) -> Rating:
        return _decoded(game, player_id, await self.redis.hgetall(rating_key(game, player_id)))

    async def leaders(self, game: str, limit: int) -> list[Rating]:
        ids = await self.redis.zrevrange(f"leaders:{game}", 0, limit - 1)
        return [await self.get(game, i.decode()) for i in ids]

    async def record(self, match_id: str, game: str, seat_players: list[str], scores: tuple, winners: tuple) -> bool:
        """Rate a finished match once. `seat_players` names each seat's player (AI_PLAYER for AI).
        A player in several seats is rated by their best place. Returns whether it was rated now
        (False: it was rated before, or has fewer than two players). Raises Conflict only after
        `retries` lost races in a row."""
        order = places(tuple(scores) or (0,) * len(seat_players), tuple(winners))
        best: dict[str, int] = {}
        for seat, player in enumerate(seat_players):
            best[player] = min(best.get(player, len(seat_players)), order[seat] if seat < len(order) else 0)
        if len(best) < 2:
            return False
        players = sorted(best)
        mark, keys = f"rated:{match_id}", [rating_key(game, p) for p in players]
        for attempt in range(self.retries):
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(mark, *keys)
                    if await pipe.exists(mark):
                        return False  # its result is in already
                    before = [_decoded(game, p, await pipe.hgetall(k)) for p, k in zip(players, keys)]
                    teams = [[_model.rating(mu=r.mu, sigma=r.sigma, name=r.player_id)] for r in before]
                    after = _model.rate(teams, ranks=[best[p] for p in players])
                    pipe.multi()
                    pipe.set(mark, 1, ex=RATED_TTL_S)
                    for key, old, [new] in zip(keys, before, after):
                        rated = Rating(old.player_id, game, new.mu, new.sigma, old.matches + 1)
                        pipe.hset(key, mapping={"mu": rated.mu, "sigma": rated.sigma, "matches": rated.matches})
                        if old.player_id != AI_PLAYER:
                            pipe.zadd(f"leaders:{game}", {old.player_id: rated.rating})
                    await pipe.execute()
                    return True
                except WatchError:  # another match of these players (or this one) was rated meanwhile
                    METRICS.cas_conflicts.labels("rating").inc()
            if attempt + 1 < self.retries:
                METRICS.cas_retries.labels("rating").inc()
            await asyncio.sleep(random.uniform(0, 0.001 * 2 ** min(attempt, 7)))
        raise Conflict(f"the rating change of match {match_id} lost its race {self.retries} times in a row")
