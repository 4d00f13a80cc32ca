"""Ratings the platform keeps: one per player and game, changed when a rated match ends.

The method is openskill's Plackett-Luce model: it rates free-for-all matches of any
number of seats (Tower 2-4, Incantris 1-4, Wizards 1-6) from the finishing order,
treats tied places (partners who win together) as ties, and keeps an uncertainty
(sigma) so a new player's rating moves fast and a settled one slowly. It is
maintained, pure Python and patent-free (TrueSkill is neither of the last two).
The number matchmaking compares is the ordinal mu - 3 sigma mapped to 0..5000,
a new player at 1000. AI seats are rated too, as one player per game ("ai"), so a
win against the AI counts.

A match's rating change is one compare-and-set: read the players' ratings, compute, then
one script writes the new ratings, the leaderboard and the match's mark (`rated:<match>`)
only if the mark is absent and every rating is still the one read (its match count, which
every change raises). If another match of one of these players wrote first, the change is
computed again on the fresh ratings, so two matches of one player ending at once both
count; and a match is rated once: its mark is written with its ratings, never without them.

Every key of a game's ratings shares the hash tag `{r:<game>}`, so the script is legal on a
Redis Cluster (one slot per game: a game's ratings all live on one master).

    {r:<game>}:rating:<player>   hash mu, sigma, matches
    {r:<game>}:leaders           zset player -> matchmaking rating
    {r:<game>}:rated:<match>     the match's result was applied (kept RATED_TTL_S)
"""
from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

from openskill.models import PlackettLuce

from services.core.errors import Conflict
from services.core.metrics import METRICS

AI_PLAYER = "ai"
RATED_TTL_S = 7 * 24 * 3600  # longer than a finished match is kept (FINISHED_TTL_S)
RETRIES = 32  # lost races in a row before giving up (each retry waits a little longer, jittered)
_model = PlackettLuce()

# KEYS: the match's mark, the game's leaderboard, then each player's rating.
# ARGV: the mark's TTL, then per player: its match count as read ('' if it had no rating), the new
# mu, sigma and match count, its leaderboard score ('' for the AI) and its id.
# Returns 1 (rated now), 0 (a rating changed since it was read: compute again), -1 (rated before).
_APPLY = """
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
for i = 3, #KEYS do
  local seen = redis.call('HGET', KEYS[i], 'matches') or ''
  if seen ~= ARGV[2 + (i - 3) * 6] then return 0 end
end
redis.call('SET', KEYS[1], 1, 'EX', ARGV[1])
for i = 3, #KEYS do
  local a = 2 + (i - 3) * 6
  redis.call('HSET', KEYS[i], 'mu', ARGV[a + 1], 'sigma', ARGV[a + 2], 'matches', ARGV[a + 3])
  if ARGV[a + 4] ~= '' then redis.call('ZADD', KEYS[2], ARGV[a + 4], ARGV[a + 5]) end
end
return 1
"""


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


def tag(game: str) -> str:
    """The hash tag every key of a game's ratings carries."""
    return f"{{r:{game}}}"


def rating_key(game: str, player_id: str) -> str:
    return f"{tag(game)}:rating:{player_id}"


def leaders_key(game: str) -> str:
    return f"{tag(game)}:leaders"


def rated_key(game: str, match_id: str) -> str:
    return f"{tag(game)}:rated:{match_id}"


def _decoded(game: str, player_id: str, raw: dict) -> Rating:
    if not raw:
        fresh = _model.rating()
        return Rating(player_id, game, fresh.mu, fresh.sigma, 0)
    return Rating(player_id, game, float(raw[b"mu"]), float(raw[b"sigma"]), int(raw[b"matches"]))


class Ratings:
    def __init__(self, redis, retries: int = RETRIES):
        self.redis = redis
        self.retries = retries
        self._apply = redis.register_script(_APPLY)

    async def get(self, game: str, player_id: str) -> Rating:
        return _decoded(game, player_id, await self.redis.hgetall(rating_key(game, player_id)))

    async def leaders(self, game: str, limit: int) -> list[Rating]:
        ids = await self.redis.zrevrange(leaders_key(game), 0, limit - 1)
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
        mark, keys = rated_key(game, match_id), [rating_key(game, p) for p in players]
        for attempt in range(self.retries):
            if await self.redis.exists(mark):
                return False  # its result is in already
            raw = [await self.redis.hgetall(k) for k in keys]
            before = [_decoded(game, p, r) for p, r in zip(players, raw)]
            teams = [[_model.rating(mu=r.mu, sigma=r.sigma, name=r.player_id)] for r in before]
            after = _model.rate(teams, ranks=[best[p] for p in players])
            args: list = [RATED_TTL_S]
            for seen, old, [new] in zip(raw, before, after):
                rated = Rating(old.player_id, game, new.mu, new.sigma, old.matches + 1)
                args += [seen.get(b"matches", b""), repr(rated.mu), repr(rated.sigma), rated.matches,
                         "" if old.player_id == AI_PLAYER else rated.rating, old.player_id]
            done = await self._apply(keys=[mark, leaders_key(game), *keys], args=args)
            if done != 0:
                return done == 1  # -1: this same match was rated meanwhile
            METRICS.cas_conflicts.labels("rating").inc()  # another match of these players was rated meanwhile
            if attempt + 1 < self.retries:
                METRICS.cas_retries.labels("rating").inc()
            await asyncio.sleep(random.uniform(0, 0.001 * 2 ** min(attempt, 7)))
        raise Conflict(f"the rating change of match {match_id} lost its race {self.retries} times in a row")
