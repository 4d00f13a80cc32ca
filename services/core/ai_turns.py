"""AI turns: when one is due, queue it; when one was due a while and nothing moved, queue it again.

Nothing waits on a single delivery. Every commit whose next actor is an AI seat marks the
match as due (`MatchStore.commit(ai_due=True)`; in Redis one sorted set, match id -> when
the turn fell due) in the same round trip as the commit, ahead of it, so no committed AI
turn goes unmarked (a mark whose commit failed is a false alarm the sweep discards). Then
the turn is queued on the notifier.
Queueing may fail (the broker is down), the task may fail for good or be lost with its
worker: `sweep` finds marks older than the stall time, claims each atomically on the
mark's time (`MatchStore.claim_ai_turn`: of many replicas sweeping at once, one re-queues
a given stall), loads the match and queues the turn again if an AI seat is still to act at that version.
The action id derived from (match, version) makes a re-queued turn a replay, never a
second action.

Worst case to recover after the cause is gone: the stall time + one sweep interval +
one task round trip; a broker that stays down delays it by one stall time per sweep
that fails.
"""
from __future__ import annotations

import logging
import time
from typing import Protocol

from services.core.errors import NotFound
from services.core.metrics import METRICS
from services.core.store_contract import MatchStore
from shared.engine import TERMINAL, GameEngine

log = logging.getLogger("archmage.ai_turns")


class TurnNotifier(Protocol):
    """Told after every commit whose next actor is an AI seat. `token` is None: the worker
    derives the seat's token from the AI key (services/core/ai_seats.py); only a match
    created before that scheme hands over the token it keeps in its record."""

    async def ai_turn(self, match_id: str, seat: int, version: int, token: str | None) -> None: ...


class NoAI:
    async def ai_turn(self, match_id, seat, version, token) -> None:
        return None


def ai_to_act(engine: GameEngine, state, seat_kinds: list[str], legacy_tokens: dict[str, str] | None = None):
    """(seat, token) when an AI seat is to act in `state`, else None. The token is None but for
    a match that still keeps its AI seats' tokens (`legacy_tokens`, by seat number as text)."""
    who = engine.actor(state)
    if who < 0 or seat_kinds[who] != "ai":
        return None
    return who, (legacy_tokens or {}).get(str(who))


class AiTurns:
    """The AI scheduling of the match driver: which commit marks a turn as due, queueing it
    once committed, clearing the mark of a match that ended, and the sweep."""

    def __init__(self, store: MatchStore, notifier: TurnNotifier | None = None):
        self.store = store
        self.notifier = notifier or NoAI()

    @property
    def plays_ai(self) -> bool:
        return not isinstance(self.notifier, NoAI)

    @staticmethod
    def due_after(engine: GameEngine, state, seat_kinds: list[str], legacy_tokens: dict[str, str] | None = None):
        """The AI turn (seat, token) a commit of `state` leaves due, or None (a human is to act,
        or the match is over). A commit with a due turn is made with `ai_due=True`."""
        if engine.actor(state) == TERMINAL:
            return None
        return ai_to_act(engine, state, seat_kinds, legacy_tokens)

    async def queue(self, match_id: str, due, version: int) -> None:
        """Queue the due turn `due` ((seat, token) or None) of a committed version. A failure is
        logged and counted, never raised: the action is committed, and the sweep queues it later."""
        if due is None:
            return
        try:
            await self.notifier.ai_turn(match_id, due[0], version, due[1])
        except Exception:
            log.warning("could not queue the AI turn of %s v%s; the sweep queues it again", match_id, version,
                        exc_info=True)
            METRICS.ai_queue_failures.inc()

    async def finished(self, match_id: str) -> None:
        try:
            await self.store.clear_ai_turn(match_id)
        except Exception:  # a mark left behind is dropped by the sweep
            log.warning("could not clear the AI mark of finished match %s", match_id, exc_info=True)

    async def sweep(self, load, stall_s: float, batch: int = 200, now: float | None = None) -> int:
        """Queue again every AI turn due for more than `stall_s` seconds with no move since.
        `load(match_id)` gives the match record. Returns how many turns were queued again."""
        from shared.engine.registry import engine_for

        now = time.time() if now is None else now
        requeued = 0
        for match_id, score in await self.store.due_ai_turns(now - stall_s, batch):
            if not await self.store.claim_ai_turn(match_id, score, now):
                continue  # it moved meanwhile, or another replica took this one
            try:
                rec = await load(match_id)
            except NotFound:
                await self.store.claim_ai_turn(match_id, now, None)
                continue
            engine = engine_for(rec.game)
            due = None if rec.finished else ai_to_act(engine, rec.state, rec.seat_kinds, rec.legacy_ai_tokens)
            if due is None:  # a human's turn, or over: nothing to wait for
                await self.store.claim_ai_turn(match_id, now, None)
                continue
            try:
                await self.notifier.ai_turn(match_id, due[0], rec.version, due[1])
            except Exception:  # the mark has moved on: tried again one stall time from now
                log.warning("could not queue again the AI turn of %s v%s", match_id, rec.version, exc_info=True)
                METRICS.ai_queue_failures.inc()
                continue
            METRICS.ai_turns_requeued.inc()
            log.info("queued again the AI turn of %s v%s (seat %s), due since %.1fs", match_id, rec.version, due[0],
                     now - score)
            requeued += 1
        return requeued
