"""The matchmaker: a loop every matchmaking replica runs.

Each cycle, for each queue it can lock for a moment: return stale claims to the
queue, expire old tickets, propose groups (matching.py) and claim a batch of them,
each proposal's tickets atomically, all in one script; then, the lock given back
(another replica claims the next batch meanwhile), create their matches a bounded
number at a time and assign their seats, a slice of proposals per script. Locks only
spread the work; correctness comes from the claim (see tickets.py), so a replica
that stalls past its lock or dies mid-cycle costs time, never a ticket. The match
of a claim that expired before its seats were handed out (its id is the proposal's)
is cancelled, by the replica that returns the tickets or by its own late replica.

Every step reads or writes many tickets per round trip: a backlog of thousands costs
a few scripts per batch and the match creations, not round trips per ticket.
"""
from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Awaitable, Iterable

from services.core import clocks, loops
from services.core.errors import unavailable_from
from services.core.matches import Matches
from services.matchmaking import metrics as m
from services.matchmaking.matching import Proposal, Window, propose
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
    batch: int = 256  # proposals claimed per queue per cycle: a replica's share of a long queue
    in_flight: int = 32  # matches created at once; their seats are assigned together, in one script


class Matchmaker:
    def __init__(self, tickets: TicketStore, matches: Matches, board_addr: str, combat_addr: str,
                 settings: MatchmakerSettings = MatchmakerSettings()):
        self.tickets, self.matches = tickets, matches
        self.board_addr, self.combat_addr = board_addr, combat_addr
        self.settings = settings
        self.owner = secrets.token_hex(6)
        self._task: asyncio.Task | None = None
        self._stopping = False
        self._more = False  # the last cycle left proposals for the next
        self._match_s = 0.0  # seconds per match created, lately (a moving average)
        self._deadline = 0  # the deadline of the claims being seated

    def start(self) -> None:
        self._stopping = False
        self._task = asyncio.create_task(self._run(), name="matchmaker")

    async def stop(self) -> None:
        self._stopping = True
        await loops.stop(self._task)

    BACKOFF_CAP_S = 2.0

    async def _run(self) -> None:
        failures = 0
        while not self._stopping:
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
            if self._more and not failures:  # a full batch was claimed: more are waiting, go on at once
                await asyncio.sleep(0)
                continue
            await asyncio.sleep(min(self.BACKOFF_CAP_S, self.settings.interval_s * 2 ** min(failures, 6)))

    async def cycle(self) -> int:
        """One pass over every queue; returns the number of matches formed."""
        formed = 0
        self._more = False
        for queue in await self.tickets.queues():
            if queue.split(":", 1)[0] not in game_names():
                continue  # a game this replica does not host (yet): leave its queue to those that do
            if not await self.tickets.lock(queue, self.owner, self.settings.lock_ms):
                continue
            started = time.perf_counter()
            claimed: list[tuple[str, Proposal]] = []
            try:
                claimed = await self._claim_queue(queue)
            except Exception:  # one bad queue must not starve the others
                log.exception("matching queue %s failed", queue)
            finally:
                await self.tickets.unlock(queue, self.owner)
            try:
                formed += await self._seat(queue, claimed)
            except Exception:
                log.exception("seating the matches of queue %s failed", queue)
            m.CYCLE_SECONDS.observe(time.perf_counter() - started)
        return formed

    async def _claim_queue(self, queue: str) -> list[tuple[str, Proposal]]:
        """Under the queue's lock: orphans cancelled, old tickets expired, and a batch of
        proposals claimed; returns the claimed ones with their proposal ids."""
        game, variant = queue.split(":", 1)
        now = now_ms()
        orphans = await self.tickets.release_stale(queue, now)
        for orphan, cancelled in zip(orphans, await self._bounded(
                self.matches.cancel(o, "its players' claim expired before they were seated") for o in orphans)):
            # its replica died (or stalled) between claiming and seating: nobody will play it
            if cancelled is True:
                log.warning("cancelled orphan match %s of queue %s", orphan, queue)
            elif isinstance(cancelled, BaseException):
                log.error("could not cancel orphan match %s of queue %s: %s", orphan, queue, cancelled)
        waiting = await self.tickets.waiting(queue)
        expired = [t for t in waiting if t.expires_ms <= now]
        live = [t.queued for t in waiting if t.expires_ms > now]
        if expired:
            results = await self.tickets.finish_many(queue, expired, "expired")
            m.TICKETS.labels(game, "expired").inc(results.count("ok"))
        m.QUEUE_DEPTH.labels(game, variant).set(len(live))
        m.OLDEST_WAIT.labels(game, variant).set((now - min(t.created_ms for t in live)) / 1000 if live else 0)
        counts = engine_for(game).seat_counts(variant)
        batch = self._batch()
        proposals = propose(live, counts, now, self.settings.window, ai_fill=self.matches.plays_ai, limit=batch)
        if len(proposals) >= batch:
            self._more = True
        # each proposal's id is its match's id too: whoever releases the claim can cancel that match
        named = [(secrets.token_hex(8), p) for p in proposals]
        self._deadline = now_ms() + self.settings.claim_ms
        won = await self.tickets.claim_many(queue, [(pid, [t.ticket_id for t in p.tickets]) for pid, p in named],
                                            self._deadline)
        return [pair for pair, ok in zip(named, won) if ok]  # the others: another replica or a cancel came first

    def _batch(self) -> int:
        """How many proposals to claim: `batch`, or fewer when creating that many matches at
        the pace seen so far would take more than half the claim's time."""
        if self._match_s <= 0:
            return self.settings.batch
        fits = int(self.settings.claim_ms / 2000 / self._match_s)
        return max(1, min(self.settings.batch, max(self.settings.in_flight, fits)))

    async def _seat(self, queue: str, claimed: list[tuple[str, Proposal]]) -> int:
        """Create the claimed proposals' matches, `in_flight` at a time, and assign each slice's
        seats in one script. A match whose claim was lost meanwhile (this replica stalled past
        its deadline: the tickets went back to the queue) is cancelled; one whose creation
        failed is left to the claim's deadline, as if this replica had died there."""
        game, variant = queue.split(":", 1)
        formed = 0
        step = max(1, self.settings.in_flight)
        for start in range(0, len(claimed), step):
            if now_ms() >= self._deadline:  # the claim is lost: its tickets go back to the queue, no match is made
                log.warning("claims of queue %s expired before %d matches were created", queue, len(claimed) - start)
                break
            chunk = claimed[start:start + step]
            began = time.perf_counter()
            made = await asyncio.gather(*(self._create(game, variant, pid, p) for pid, p in chunk),
                                        return_exceptions=True)
            pace = (time.perf_counter() - began) / len(chunk)
            self._match_s = pace if self._match_s <= 0 else 0.8 * self._match_s + 0.2 * pace
            ready = []
            for (pid, proposal), created in zip(chunk, made):
                if isinstance(created, BaseException):
                    if isinstance(created, asyncio.CancelledError):
                        raise created
                    log.error("creating match %s of queue %s failed: %s", pid, queue, created)
                    continue
                ready.append((pid, proposal, created))
            seated = await self.tickets.assign_many(queue, [(pid, a, players) for pid, _, (a, players) in ready])
            lost = [pid for (pid, _, _), ok in zip(ready, seated) if not ok]
            await self._bounded(self.matches.cancel(pid, "its players' claim expired before they were seated")
                                for pid in lost)
            done = now_ms()
            for (_, proposal, _), ok in zip(ready, seated):
                if ok:
                    formed += 1
                    self._count(game, proposal, done)
        return formed

    async def _create(self, game: str, variant: str, proposal_id: str,
                      proposal: Proposal) -> tuple[dict[str, dict], dict[str, list[str]]]:
        """The match of a claimed proposal; returns the assignment and the players of each ticket."""
        players = [(t.ticket_id, p) for t in proposal.tickets for p in t.party]
        seats = [("human", p) for _, p in players] + [("ai", f"AI {i + 1}") for i in range(proposal.ai_seats)]
        clock = proposal.tickets[0].clock  # every ticket of a proposal asked for the same one
        level = proposal.tickets[0].ai_level  # the AI that fills it plays at its oldest ticket's level
        created = await self.matches.create(game, variant, seats, {}, match_id=proposal_id, rated=True,
                                            players=[p for _, p in players] + [""] * proposal.ai_seats,
                                            levels=[""] * len(players) + [level] * proposal.ai_seats,
                                            time_control=clocks.from_dict(json.loads(clock)) if clock else None)
        assignments: dict[str, dict] = {}
        for seat, (ticket_id, player) in enumerate(players):
            a = assignments.setdefault(ticket_id, {"match_id": created.match_id, "seats": [],
                                                   "board_addr": self.board_addr, "combat_addr": self.combat_addr,
                                                   "ai_seats": proposal.ai_seats})
            a["seats"].append({"player": player, "seat": seat, "seat_token": created.tokens[seat]})
        return assignments, {t.ticket_id: list(t.party) for t in proposal.tickets}

    @staticmethod
    def _count(game: str, proposal: Proposal, done: int) -> None:
        for t in proposal.tickets:
            m.TIME_TO_MATCH.labels(game).observe((done - t.created_ms) / 1000)
        m.TICKETS.labels(game, "assigned").inc(len(proposal.tickets))
        m.MATCHES_FORMED.labels(game, "with_ai" if proposal.ai_seats else "players_only").inc()
        if proposal.ai_seats:
            m.AI_SEATS.labels(game).inc(proposal.ai_seats)

    async def _bounded(self, calls: Iterable[Awaitable]) -> list:
        """Run the calls `in_flight` at a time; each one's result or exception, in order."""
        bound = asyncio.Semaphore(max(1, self.settings.in_flight))

        async def one(call: Awaitable):
            async with bound:
                return await call

        return await asyncio.gather(*(one(c) for c in calls), return_exceptions=True)
