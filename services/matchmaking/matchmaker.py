"""The matchmaker: a loop every matchmaking replica runs.

Each cycle, for each queue it can lock for a moment: return stale claims to the
queue, expire old tickets, propose groups (matching.py), and for each proposal
claim its tickets atomically, create the match, and assign the seats. Locks only
spread the work; correctness comes from the claim (see tickets.py), so a replica
that stalls past its lock or dies mid-cycle costs time, never a ticket. The match
of a claim that expired before its seats were handed out (its id is the proposal's)
is cancelled, by the replica that returns the tickets or by its own late replica.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass

from services.core.errors import unavailable_from
from services.core.matches import Matches
from services.matchmaking import metrics as m
from services.matchmaking.matching import Window, propose
from services.matchmaking.tickets import TicketStore
from shared.engine.registry import engine_for, game_names

log = logging.getLogger("archmage.matchmaker")


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class MatchmakerSettings:
    interval_s: float = 0.2
    lock_ms: int = 5_000
    claim_ms: int = 30_000
    window: Window = Window()


class Matchmaker:
    def __init__(self, tickets: TicketStore, matches: Matches, board_addr: str, combat_addr: str,
                 settings: MatchmakerSettings = MatchmakerSettings()):
        self.tickets, self.matches = tickets, matches
        self.board_addr, self.combat_addr = board_addr, combat_addr
        self.settings = settings
        self.owner = secrets.token_hex(6)
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="matchmaker")

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    BACKOFF_CAP_S = 2.0

    async def _run(self) -> None:
        failures = 0
        while True:
            try:
                await self.cycle()
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a bad cycle must not stop matchmaking; the next one retries
                failures += 1
                down = unavailable_from(exc)
                if down is not None:  # one line per cycle, not a traceback, while Redis is down
                    log.warning("matchmaking cycle failed: %s", down)
                else:
                    log.exception("matchmaking cycle failed")
            # while cycles fail, they come less often (doubling, up to 2 s): a Redis (or a Cluster
            # master) that is down is not hammered, nor the connections shared with the calls served
            await asyncio.sleep(min(self.BACKOFF_CAP_S, self.settings.interval_s * 2 ** min(failures, 6)))

    async def cycle(self) -> int:
        """One pass over every queue; returns the number of matches formed."""
        formed = 0
        for queue in await self.tickets.queues():
            if queue.split(":", 1)[0] not in game_names():
                continue  # a game this replica does not host (yet): leave its queue to those that do
            if not await self.tickets.lock(queue, self.owner, self.settings.lock_ms):
                continue
            try:
                with m.CYCLE_SECONDS.time():
                    formed += await self._match_queue(queue)
            except Exception:  # one bad queue must not starve the others
                log.exception("matching queue %s failed", queue)
            finally:
                await self.tickets.unlock(queue, self.owner)
        return formed

    async def _match_queue(self, queue: str) -> int:
        game, variant = queue.split(":", 1)
        now = now_ms()
        for orphan in await self.tickets.release_stale(queue, now):
            # its replica died (or stalled) between claiming and seating: nobody will play it
            if await self.matches.cancel(orphan, "its players' claim expired before they were seated"):
                log.warning("cancelled orphan match %s of queue %s", orphan, queue)
        waiting = await self.tickets.waiting(queue)
        live = []
        for t in waiting:
            if t.expires_ms <= now:
                if await self.tickets.finish(t.ticket_id, "expired") == "ok":
                    m.TICKETS.labels(game, "expired").inc()
            else:
                live.append(t.queued)
        m.QUEUE_DEPTH.labels(game, variant).set(len(live))
        m.OLDEST_WAIT.labels(game, variant).set((now - min(t.created_ms for t in live)) / 1000 if live else 0)
        engine = engine_for(game)
        counts = engine.seat_counts(variant)
        formed = 0
        for proposal in propose(live, counts, now, self.settings.window, ai_fill=self.matches.plays_ai):
            if await self._form(queue, game, variant, proposal):
                formed += 1
        return formed

    async def _form(self, queue: str, game: str, variant: str, proposal) -> bool:
        ids = [t.ticket_id for t in proposal.tickets]
        proposal_id = secrets.token_hex(8)  # and the match's id: whoever releases the claim can cancel it
        if not await self.tickets.claim(queue, ids, proposal_id, now_ms() + self.settings.claim_ms):
            return False  # another replica or a cancel got there first
        players = [(t.ticket_id, p) for t in proposal.tickets for p in t.party]
        seats = [("human", p) for _, p in players] + [("ai", f"AI {i + 1}") for i in range(proposal.ai_seats)]
        created = await self.matches.create(game, variant, seats, {}, match_id=proposal_id, rated=True,
                                            players=[p for _, p in players] + [""] * proposal.ai_seats)
        assignments: dict[str, dict] = {}
        for seat, (ticket_id, player) in enumerate(players):
            a = assignments.setdefault(ticket_id, {"match_id": created.match_id, "seats": [],
                                                   "board_addr": self.board_addr, "combat_addr": self.combat_addr,
                                                   "ai_seats": proposal.ai_seats})
            a["seats"].append({"player": player, "seat": seat, "seat_token": created.tokens[seat]})
        seated = await self.tickets.assign(queue, proposal_id, assignments, [p for _, p in players])
        if seated < len(assignments):  # we stalled past the claim: the tickets went back to the queue
            await self.matches.cancel(created.match_id, "its players' claim expired before they were seated")
            return False
        done = now_ms()
        for t in proposal.tickets:
            m.TIME_TO_MATCH.labels(game).observe((done - t.created_ms) / 1000)
            m.TICKETS.labels(game, "assigned").inc()
        m.MATCHES_FORMED.labels(game, "with_ai" if proposal.ai_seats else "players_only").inc()
        if proposal.ai_seats:
            m.AI_SEATS.labels(game).inc(proposal.ai_seats)
        return True
