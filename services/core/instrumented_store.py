"""The match store's metrics, as a wrapper around any MatchStore.

`InstrumentedStore(inner)` is a MatchStore (services/core/store_contract.py) that does what
`inner` does, guarantee for guarantee, and times the round trips of the hot path in
`archmage_store_seconds` by operation: `load` (a record, or a record with an action id's
answer: one round trip either way), `commit` (the compare-and-set) and `read_log`. A call
that raises is timed too: a slow Redis shows however the call ended. The rest passes
through untimed: the indexes beside a match are off the hot path, and a `follow_log` batch
waits on news, not on Redis.

The histogram's children are bound once per operation (services/core/metrics.py `Children`),
and `METRICS.switched_off()` switches them off as well, for the benchmark of the
instrumentation's own cost.
"""
from __future__ import annotations

from time import perf_counter
from typing import AsyncIterator, Iterable, Mapping

from services.core.metrics import Children
from services.core.store_contract import Committed, MatchStore
from shared.eventlog import LoggedEvent

_STORE_SECONDS = Children("store_seconds")


class InstrumentedStore:
    """A MatchStore that times `inner`'s round trips; `inner` is reachable for the composition root."""

    def __init__(self, inner: MatchStore):
        self.inner = inner

    async def load(self, match_id: str) -> dict[str, bytes]:
        start = perf_counter()
        try:
            return await self.inner.load(match_id)
        finally:
            _STORE_SECONDS("load").observe(perf_counter() - start)

    async def load_for_action(self, match_id: str, action_id: str) -> tuple[dict[str, bytes], str | None]:
        start = perf_counter()
        try:
            return await self.inner.load_for_action(match_id, action_id)
        finally:
            _STORE_SECONDS("load").observe(perf_counter() - start)

    async def commit(self, match_id: str, *, new: bool = False, expected_version: int | None, expected_seq: int,
                     fields: Mapping[str, str | bytes | int], events: Iterable[LoggedEvent], ttl_s: int,
                     action_id: str = "", answer: str = "", action_ttl_s: int = 86400,
                     ai_due: bool = False, expected_head: str | None = None, deadline=...) -> Committed:
        start = perf_counter()
        try:
            return await self.inner.commit(match_id, new=new, expected_version=expected_version,
                                           expected_seq=expected_seq, fields=fields, events=events, ttl_s=ttl_s,
                                           action_id=action_id, answer=answer, action_ttl_s=action_ttl_s,
                                           ai_due=ai_due, expected_head=expected_head, deadline=deadline)
        finally:
            _STORE_SECONDS("commit").observe(perf_counter() - start)

    async def read_log(self, match_id: str, after_seq: int = 0, count: int | None = None) -> list[LoggedEvent]:
        start = perf_counter()
        try:
            return await self.inner.read_log(match_id, after_seq, count)
        finally:
            _STORE_SECONDS("read_log").observe(perf_counter() - start)

    def follow_log(self, match_id: str, after_seq: int, block_ms: int = 5000) -> AsyncIterator[list[LoggedEvent]]:
        return self.inner.follow_log(match_id, after_seq, block_ms)

    async def due_ai_turns(self, due_before: float, limit: int) -> list[tuple[str, float]]:
        return await self.inner.due_ai_turns(due_before, limit)

    async def claim_ai_turn(self, match_id: str, seen: float, then: float | None) -> bool:
        return await self.inner.claim_ai_turn(match_id, seen, then)

    async def clear_ai_turn(self, match_id: str) -> None:
        await self.inner.clear_ai_turn(match_id)

    async def due_deadlines(self, due_before: float, limit: int) -> list[tuple[str, float]]:
        return await self.inner.due_deadlines(due_before, limit)

    async def claim_deadline(self, match_id: str, seen: float, then: float | None) -> bool:
        return await self.inner.claim_deadline(match_id, seen, then)

    async def deadlines_waiting(self) -> int:
        return await self.inner.deadlines_waiting()

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
