"""Who plays whom: the pure part of matchmaking, no Redis, no clock of its own.

Tickets of one queue (one game and variant) are grouped into proposals:
* a proposal has one seat count N the game allows; each ticket wants N or "any";
* tickets with different invite codes never meet (no code is a code of its own), nor do
  tickets with different time controls (services/core/clocks.py; no clock is one of its own);
* ratings: the oldest ticket anchors the group; another ticket joins if the rating
  gap is within the wider of the two tickets' windows, and a window widens the
  longer its ticket waits: base + per_second * waited;
* parties sit together: a ticket takes as many seats as it has players;
* a group that fills N seats with players becomes a match of players only;
* otherwise, once the anchor has waited its limit (0 = at once), the group is
  completed with AI seats if every ticket in it welcomes AI.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice
from typing import Iterable


@dataclass(frozen=True)
class QueuedTicket:
    ticket_id: str
    party: tuple[str, ...]
    seats: int  # 0 = any
    rating: int
    ai_welcome: bool
    max_wait_ms: int
    invite: str
    created_ms: int
    clock: str = ""  # the time control of the match wanted, canonical JSON; "" = no clock
    ai_level: str = ""  # the level of AI seats filling its match ("" = normal)

    @property
    def size(self) -> int:
        return len(self.party)


@dataclass(frozen=True)
class Window:
    base: float = 100.0
    per_second: float = 25.0
    cap: float = 5000.0

    def width(self, waited_ms: int) -> float:
        return min(self.cap, self.base + self.per_second * waited_ms / 1000)


@dataclass
class Proposal:
    seats: int
    tickets: list[QueuedTicket] = field(default_factory=list)
    ai_seats: int = 0

    @property
    def players(self) -> int:
        return sum(t.size for t in self.tickets)


def _fits(anchor: QueuedTicket, other: QueuedTicket, now_ms: int, window: Window) -> bool:
    gap = abs(anchor.rating - other.rating)
    return gap <= max(window.width(now_ms - anchor.created_ms), window.width(now_ms - other.created_ms))


def _gather(anchor: QueuedTicket, later: Iterable[QueuedTicket], taken: set[str], n: int, now_ms: int,
            window: Window, ai_only: bool) -> tuple[list[QueuedTicket], int]:
    """The anchor and the next compatible tickets, up to n seats; returns (group, seats left)."""
    group, free = [anchor], n - anchor.size
    for other in later:
        if free == 0:
            break
        if (other.ticket_id in taken or other.invite != anchor.invite or other.clock != anchor.clock
                or other.seats not in (0, n)
                or other.size > free or (ai_only and not other.ai_welcome) or not _fits(anchor, other, now_ms, window)):
            continue
        group.append(other)
        free -= other.size
    return group, free


def propose(tickets: list[QueuedTicket], seat_counts: tuple[int, ...], now_ms: int,
            window: Window = Window(), ai_fill: bool = True, limit: int | None = None) -> list[Proposal]:
    """Proposals for the tickets of one queue; each ticket is in at most one.

    Oldest first: each ticket not yet taken anchors a group drawn from the tickets
    queued after it (older ones have had their turn as anchors). Without `ai_fill`
    (a replica that cannot start AI turns) only players-only matches are proposed.
    With `limit`, the first `limit` of those proposals (by their anchors' age) alone.

    Tickets of different invite codes or time controls never meet, so each code's (and each
    clock's) tickets are grouped on their own (a ticket waiting for its own friends costs
    nothing to the others)."""
    by_invite: dict[tuple[str, str], list[QueuedTicket]] = {}
    for t in tickets:
        by_invite.setdefault((t.invite, t.clock), []).append(t)
    if len(by_invite) == 1:
        return _propose(next(iter(by_invite.values())), seat_counts, now_ms, window, ai_fill, limit)
    proposals = [p for group in by_invite.values()
                 for p in _propose(group, seat_counts, now_ms, window, ai_fill, limit)]
    proposals.sort(key=lambda p: (p.tickets[0].created_ms, p.tickets[0].ticket_id))  # the anchor leads its group
    return proposals if limit is None else proposals[:limit]


def _propose(tickets: list[QueuedTicket], seat_counts: tuple[int, ...], now_ms: int, window: Window,
             ai_fill: bool, limit: int | None) -> list[Proposal]:
    ordered = sorted(tickets, key=lambda t: (t.created_ms, t.ticket_id))
    taken: set[str] = set()
    proposals: list[Proposal] = []
    largest = max(seat_counts)
    for i, anchor in enumerate(ordered):
        if limit is not None and len(proposals) >= limit:
            break
        if anchor.ticket_id in taken:
            continue
        best = None
        for n in ([anchor.seats] if anchor.seats else sorted(seat_counts, reverse=True)):
            if anchor.size <= n:
                group, free = _gather(anchor, islice(ordered, i + 1, None), taken, n, now_ms, window, ai_only=False)
                if free == 0:
                    best = Proposal(n, group)
                    break
        if best is None and ai_fill and anchor.ai_welcome and now_ms - anchor.created_ms >= anchor.max_wait_ms:
            n = anchor.seats or largest
            if anchor.size <= n:
                group, free = _gather(anchor, islice(ordered, i + 1, None), taken, n, now_ms, window, ai_only=True)
                best = Proposal(n, group, ai_seats=free)
        if best is not None:
            proposals.append(best)
            taken.update(t.ticket_id for t in best.tickets)
    return proposals
