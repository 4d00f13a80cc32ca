"""Ratings the platform keeps: one per player and game, changed when a rated match ends.

The method is openskill's Plackett-Luce model: it rates free-for-all matches of any
number of seats (Tower 2-4, Incantris 1-4, Wizards 1-6) from the finishing order,
treats tied places (partners who win together) as ties, and keeps an uncertainty
(sigma) so a new player's rating moves fast and a settled one slowly. It is
maintained, pure Python and patent-free (TrueSkill is neither of the last two).
The number matchmaking compares is the ordinal mu - 3 sigma mapped to 0..5000,
a new player at 1000. AI seats are rated too, as one player per game ("ai"), so a
win against the AI counts. A match is rated at most once (`rated:<match>`).

    rating:<game>:<player>   hash mu, sigma, matches
    leaders:<game>           zset player -> matchmaking rating
"""
from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from services.core.redisclient import is_cluster

AI_PLAYER = "ai"
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


class Ratings:
    def __init__(self, redis):
        self.redis = redis

    async def get(self, game: str, player_id: str) -> Rating:
        raw = await self.redis.hgetall(f"rating:{game}:{player_id}")
        if not raw:
            fresh = _model.rating()
            return Rating(player_id, game, fresh.mu, fresh.sigma, 0)
        return Rating(player_id, game, float(raw[b"mu"]), float(raw[b"sigma"]), int(raw[b"matches"]))

    async def leaders(self, game: str, limit: int) -> list[Rating]:
        ids = await self.redis.zrevrange(f"leaders:{game}", 0, limit - 1)
        return [await self.get(game, i.decode()) for i in ids]

    async def record(self, match_id: str, game: str, seat_players: list[str], scores: tuple, winners: tuple) -> bool:
        """Rate a finished match once. `seat_players` names each seat's player (AI_PLAYER for AI).
        A player in several seats is rated by their best place. Returns whether it was rated now."""
        order = places(tuple(scores) or (0,) * len(seat_players), tuple(winners))
        best: dict[str, int] = {}
        for seat, player in enumerate(seat_players):
            best[player] = min(best.get(player, len(seat_players)), order[seat] if seat < len(order) else 0)
        if len(best) < 2 or not await self.redis.set(f"rated:{match_id}", 1, nx=True, ex=7 * 24 * 3600):
            return False
        players = sorted(best)
        before = [await self.get(game, p) for p in players]
        teams = [[_model.rating(mu=r.mu, sigma=r.sigma, name=r.player_id)] for r in before]
        after = _model.rate(teams, ranks=[best[p] for p in players])
        # one transaction on a single Redis; on a Cluster the players' ratings live in different
        # slots, so a plain pipeline (the rated: mark above still rates a match once)
        async with self.redis.pipeline(transaction=not is_cluster(self.redis)) as pipe:
            for old, [new] in zip(before, after):
                rated = Rating(old.player_id, game, new.mu, new.sigma, old.matches + 1)
                pipe.hset(f"rating:{game}:{old.player_id}",
                          mapping={"mu": rated.mu, "sigma": rated.sigma, "matches": rated.matches})
                if old.player_id != AI_PLAYER:
                    pipe.zadd(f"leaders:{game}", {old.player_id: rated.rating})
            await pipe.execute()
        return True
