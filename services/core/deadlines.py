"""Clock deadlines, and abandoned matches: when a seat's time runs out, or a match has had no
human action for ABANDON_AFTER_S, act on it once, whichever replica sees it.

A match with a human seat has a mark in the deadlines set from its creation, at the moment it
would count as abandoned (or its clock's deadline, if sooner). Only a clocked match's commits
move the mark; an unclocked match's mark is left where it was set (no write on the action
path), and when the sweep reaches it the record says whether a human acted since: then the
mark moves on to ABANDON_AFTER_S after that action; if not, the match ends as abandoned
(`Matches.abandon`, one compare-and-set: a human acting meanwhile wins, and so does a second
sweeper).

Every commit of a match with a clock (services/core/clocks.py) sets the match's deadline in
the store (`MatchStore.commit(deadline=...)`; in Redis one sorted set, match id -> Unix time)
in the same step: the running seat's deadline, or the end of the grace a stand-in gives its
player before it plays a turn, or none. No timer lives in memory: every board replica sweeps
the set every CLOCK_SWEEP_S, as the stalled AI turns are swept (services/core/ai_turns.py):

1. take the deadlines that are due, earliest first;
2. claim each atomically on the time it holds (`claim_deadline`), moving it a lease ahead
   (LEASE_S): of many sweepers, one wins; one that dies after the claim leaves a deadline that
   falls due again when the lease ends, for any sweeper to take;
3. load the match and read its clock: a deadline not due by the record (an early mark a
   Redis Cluster wrote ahead, or a match that moved) is moved to the record's; a finished
   match or a stopped clock drops it;
4. a running seat out of time is timed out (`Matches.time_out`): one compare-and-set on the
   version read, with an action id from that version, so a second sweeper (or the first one
   again, after a restart) replays it and never times the seat out twice; its commit sets the
   next deadline;
5. a stand-in's turn whose grace ended is queued for the AI workers at the match's version
   (the AI's action id comes from the version: a turn queued twice is played once); the lease
   brings it round again if the turn is lost.

Lag (how late a deadline is acted on) is one sweep interval plus the sweep's own time; the
sweep measures it (`archmage_clock_sweep_lag_seconds`).
"""
from __future__ import annotations

import asyncio
import logging
import time

from services.core.errors import NotFound
from services.core.metrics import METRICS, Children

log = logging.getLogger("archmage.deadlines")

LEASE_S = 5.0  # a claimed deadline comes due again this long after, unless a commit moved it
IN_FLIGHT = 32  # deadlines a sweep acts on at once: their round trips overlap
MAX_BATCHES = 50  # batches one sweep takes at most before it rests a sweep interval
SWEEP_LAG = Children("clock_sweep_lag")
STAND_IN_TURNS = Children("stand_in_turns")


class Deadlines:
    def __init__(self, store, ai, lease_s: float = LEASE_S):
        self.store = store
        self.ai = ai  # services/core/ai_turns.py AiTurns: its notifier plays the stand-ins' turns
        self.lease_s = lease_s

    async def sweep(self, matches, now: float | None = None, batch: int = 200) -> int:
        """Act on every deadline due at `now` (a Unix time; None: the clock's, read again for each
        deadline, so lag and timeouts are as late as they really are): time out the seats out of
        time and queue the stand-ins' turns, IN_FLIGHT at once. Returns how many deadlines this
        call acted on."""
        bound = asyncio.Semaphore(IN_FLIGHT)

        async def one(match_id: str, score: float) -> bool:
            async with bound:
                return await self._act(matches, match_id, score, time.time() if now is None else now)

        acted = 0
        for _ in range(MAX_BATCHES):  # a full batch: more may be due (each one taken is leased past now)
            due = await self.store.due_deadlines(time.time() if now is None else now, batch)
            acted += sum(await asyncio.gather(*(one(match_id, score) for match_id, score in due)))
            if len(due) < batch:
                break
        return acted

    async def _act(self, matches, match_id: str, score: float, now: float) -> bool:
        lease = now + self.lease_s
        if not await self.store.claim_deadline(match_id, score, lease):
            return False  # another sweeper took it, or a commit moved it
        try:
            rec = await matches.load(match_id)
        except NotFound:
            await self.store.claim_deadline(match_id, lease, None)
            return False
        clock = rec.clock
        clock_due, abandon_due = matches.due_ms(rec)
        due = min((t for t in (clock_due, abandon_due) if t is not None), default=None)
        if due is None:
            await self.store.claim_deadline(match_id, lease, None)
            return False
        if due > now * 1000:  # not due by the record (a human acted since): wait for the record's time
            await self.store.claim_deadline(match_id, lease, due / 1000)
            return False
        SWEEP_LAG(rec.game).observe(max(0.0, now - due / 1000))
        if abandon_due is not None and abandon_due <= due:  # nobody human acted in it for too long
            return await matches.abandon(rec, now)
        if clock["running"] >= 0:
            return await matches.time_out(rec, clock["running"], int(now * 1000))
        seat = clock["waiting"]
        try:
            await self.ai.notifier.ai_turn(match_id, seat, rec.version, None)
        except Exception:  # the lease brings it round again
            log.warning("could not queue the stand-in's turn of %s v%s", match_id, rec.version, exc_info=True)
            METRICS.ai_queue_failures.inc()
            return False
        STAND_IN_TURNS(rec.game).inc()
        return True
