"""The match store's metrics, as a wrapper around any MatchStore.

`InstrumentedStore(inner)` is a MatchStore (services/core/store_contract.py) that does what
`inner` does, guarantee for guarantee, and times the round trips of the hot path in
`archmage_store_seconds` by operation: `load` (a record, or a record with an action id's
answer: one round trip either way), `commit` (the compare-and-set) and `read_log`. A call
that raises is timed too: a slow Redis shows however the call ended. The rest passes
through untimed: the indexes beside a match are off the hot path, and a `follow_log` batch
waits on news, not on Redis.

The children of the histogram are bound once (a lookup by label costs twice an observe)
and bound again when `METRICS.switched_off()` swaps the metrics, so the benchmark of the
instrumentation's cost switches these off as well.
"""
from __future__ import annotations

from typing import AsyncIterator, Iterable, Mapping

from services.core.metrics import METRICS
from services.core.store_contract import Committed, MatchStore
from shared.eventlog import LoggedEvent


class InstrumentedStore:
    """A MatchStore that times `inner`'s round trips; `inner` is reachable for the composition root."""

    def __init__(self, inner: MatchStore):
        self.inner = inner
        self._histogram = None
        self._timers: dict[str, object] = {}

    def _timer(self, op: str):
        histogram = METRICS.store_seconds
        if histogram is not self._histogram:
            self._histogram, self._timers = histogram, {}
        timer = self._timers.get(op)
        if timer is None:
            timer = self._timers[op] = histogram.labels(op)
        return timer.time()

    async def load(self, match_id: str) -> dict[str, bytes]:
        with self._timer("load"):
            return await self.inner.load(match_id)

    async def load_for_action(self, match_id: str, action_id: str) -> tuple[dict[str, bytes], str | None]:
        with self._timer("load"):
            return await self.inner.load_for_action(match_id, action_id)

    async def commit(self, match_id: str, *, new: bool = False, expected_version: int | None, expected_seq: int,
                     fields: Mapping[str, str | bytes | int], events: Iterable[LoggedEvent], ttl_s: int,
                     action_id: str = "", answer: str = "", action_ttl_s: int = 86400,
                     ai_due: bool = False) -> Committed:
        with self._timer("commit"):
            return await self.inner.commit(match_id, new=new, expected_version=expected_version,
                                           expected_seq=expected_seq, fields=fields, events=events, ttl_s=ttl_s,
                                           action_id=action_id, answer=answer, action_ttl_s=action_ttl_s,
                                           ai_due=ai_due)

    async def read_log(self, match_id: str, after_seq: int = 0, count: int | None = None) -> list[LoggedEvent]:
        with self._timer("read_log"):
            return await self.inner.read_log(match_id, after_seq, count)

    def follow_log(self, match_id: str, after_seq: int, block_ms: int = 5000) -> AsyncIterator[list[LoggedEvent]]:
        return self.inner.follow_log(match_id, after_seq, block_ms)

    async def due_ai_turns(self, due_before: float, limit: int) -> list[tuple[str, float]]:
        return await self.inner.due_ai_turns(due_before, limit)

    async def claim_ai_turn(self, match_id: str, seen: float, then: float | None) -> bool:
        return await self.inner.claim_ai_turn(match_id, seen, then)

    async def clear_ai_turn(self, match_id: str) -> None:
        await self.inner.clear_ai_turn(match_id)

    async def list_for_players(self, match_id: str, players: Iterable[str], keep: int, ttl_s: int) -> None:
        await self.inner.list_for_players(match_id, players, keep, ttl_s)

    async def listed_matches(self, player: str, limit: int) -> list[str]:
        return await self.inner.listed_matches(player, limit)

    async def unlist(self, player: str, match_id: str) -> None:
        await self.inner.unlist(player, match_id)

    async def census_started(self, game: str, match_id: str) -> None:
        await self.inner.census_started(game, match_id)

    async def census_ended(self, game: str, match_id: str) -> None:
        await self.inner.census_ended(game, match_id)

    async def keep_first(self, name: str, value: bytes) -> bytes:
        return await self.inner.keep_first(name, value)

    async def ping(self) -> bool:
        return await self.inner.ping()

    async def close(self) -> None:
        await self.inner.close()
