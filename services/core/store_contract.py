"""The match store's contract: what every implementation guarantees, and what it does not.

A match (or a free-standing dice session, which is stored the same way) is three things:
a *record* (named byte fields, among them the version `v`, the log position `seq` and the
log head `head`), an append-only *event log*, and the *answers* stored under the action
ids already applied. Beside them the store keeps a few platform-wide indexes a match
writes to as it moves: the AI turns that are due, each player's newest matches, the
census of active matches, and first-writer-wins secrets (the AI seats' key).

`services/core/store.py` is the Redis implementation (one Redis or a Redis Cluster);
`services/core/instrumented_store.py` wraps any implementation with the store's metrics.
The callers (the match driver, the dice sessions, the AI turns) hold a `MatchStore` and
never a Redis client, so every write of a match goes through the methods below.

Errors. The store raises domain errors (services/core/errors.py), never gRPC codes:

    NotFound         no such record (never created, or expired)
    Conflict         a compare-and-set lost: nothing was written
    redis.RedisError (and OSError) the store is unreachable or timed out; the edge maps it
                     to UNAVAILABLE through `errors.unavailable_from` and the client retries

An UNAVAILABLE read changed nothing. An UNAVAILABLE `commit` is *indeterminate*: the write
may or may not have happened (the reply was lost). Retrying it with the same action id is
safe (the first answer comes back if it did happen); a commit without an action id must
load the record again and look at its version.

What survives which fault (the Redis implementation, AOF on with `appendfsync everysec`,
as deploy/ configures it):

* a crash of a service process at any point: a commit is whole or absent; a due AI mark
  written ahead of its commit survives, so the sweep re-queues a turn whose queueing died
  with the process;
* a restart of Redis: every commit acknowledged more than about a second before the crash
  survives, and those of the last second may be lost, but only as a suffix of each match's
  history: a match comes back at an earlier version, whole, never half-applied (a script's
  writes reach the AOF as one transaction);
* a Cluster failover (replication is asynchronous): the same, per master; and the due AI
  marks live on another master than the match, so a mark may be lost while its commit
  survives. The turn was queued to the broker too; only a turn whose queueing also failed
  waits for its match's next commit;
* a reader of the log that saw events later lost notices it: the event that now bears the
  next seq does not name, as `prev`, the hash of the last event the reader saw.

TTLs. Every commit sets the TTL of the record and of its log to the commit's `ttl_s` (the
match's or, once it is over, the shorter finished TTL): a match lives `ttl_s` after its last
commit. An action id's answer lives `action_ttl_s`: a retry older than that is applied as a
new action, which is why a caller that must never apply twice pins `expected_version`.
The due AI marks and the clock deadlines carry no TTL: one whose match expired is dropped
by its sweep. A
player's list of matches lives as long as a match after its newest entry.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import AsyncIterator, Iterable, Mapping, Protocol, runtime_checkable

from shared.eventlog import LoggedEvent


@dataclass(frozen=True)
class Committed:
    """The answer of a commit: `replayed` is set when the action id was seen before,
    and `answer` is then the answer stored the first time."""

    replayed: bool
    answer: str


@runtime_checkable
class MatchStore(Protocol):
    """Where matches live. Every method may raise the store's unavailability (see the module
    docstring); the other errors each method names."""

    # --- the record -------------------------------------------------------------------
    async def load(self, match_id: str) -> dict[str, bytes]:
        """Every field of the record, as one consistent snapshot (never half of a commit).
        Raises NotFound when there is no record (never created, or expired)."""
        ...

    async def load_for_action(self, match_id: str, action_id: str) -> tuple[dict[str, bytes], str | None]:
        """The record and the answer stored under `action_id` (None when that id was never
        committed, or its answer expired), read together in one round trip. Raises NotFound.
        Both halves are from the same moment or the answer is newer: a non-None answer always
        means the action is in the log."""
        ...

    async def commit(
        self,
        match_id: str,
        *,
        new: bool = False,
        expected_version: int | None,
        expected_seq: int,
        fields: Mapping[str, str | bytes | int],
        events: Iterable[LoggedEvent],
        ttl_s: int,
        action_id: str = "",
        answer: str = "",
        action_ttl_s: int = 86400,
        ai_due: bool = False,
        expected_head: str | None = None,
        deadline=...,
    ) -> Committed:
        """Write `fields` into the record and append `events` to the log, as one atomic step.

        * Compare-and-set: the commit happens only if the record's version is still
          `expected_version` (None: any version), its log position is still
          `expected_seq` and, when `expected_head` is given, its log head (the hash of the
          last event) is still that one. Otherwise it raises Conflict and changes nothing
          at all; the Conflict carries `record`, the record as it was when the commit was
          refused (a snapshot, as `load` gives: the action id was not committed then), so
          the loser retries on it without loading. The head names one history: after a
          Redis restart lost a suffix of a match and another commit took the same version
          and seq, only the head tells the two apart (a writer that kept a copy of the
          record, services/core/matches.py, passes it).
        * Creation: with `new`, the record must not exist yet (Conflict if it does); without,
          it must (NotFound if it does not, or expired).
        * Idempotence: with an `action_id` (and a non-empty `answer` to store under it; an
          empty answer makes it a commit without an id), a commit whose id was committed
          before changes nothing and returns `Committed(replayed=True, answer=<the first commit's answer>)`,
          whatever its version, fields or events; this check comes before the version's,
          so a retry of an applied action is a replay, never a Conflict. Otherwise the
          answer is stored under the id with the commit, and returned with replayed=False.
        * The log: `events` must continue it, seq `expected_seq + 1, + 2, ...` (ValueError
          otherwise, before anything is sent). They are appended in that order, with no gap,
          in the same step as the fields; the record's `seq` and `head` become the last
          event's seq and hash, so the record always names the end of its log.
        * All or nothing: fields, events, the action id's answer and the TTLs are written
          together or not at all; no reader sees a part of a commit.
        * `ai_due` marks the match as waiting on an AI seat (see `due_ai_turns`) in the
          same round trip (two on a Redis Cluster), written *ahead* of the commit: a committed AI turn is always
          marked; a mark whose commit failed is a false alarm the sweep drops.
        * `deadline` (a Unix time, or None; omitted for a match with no clock) sets the match's
          clock deadline (see `due_deadlines`), or drops it with None. On one Redis it moves in
          the commit itself, all or nothing with it. On a Redis Cluster the deadlines live on
          another slot: a deadline earlier than the one kept is written ahead of the commit
          (never a later one, so no deadline is missed; a mark left early is moved on by the
          sweep, which reads the record's clock); a mark with no deadline behind it is left for
          the sweep to drop (a drop after the commit could drop a newer commit's mark).
        * TTLs: the record and log expire `ttl_s` after this commit; the action's answer
          `action_ttl_s` after it.
        """
        ...

    # --- the event log ----------------------------------------------------------------
    async def read_log(self, match_id: str, after_seq: int = 0, count: int | None = None) -> list[LoggedEvent]:
        """The events with seq > `after_seq`, in seq order, at most `count` of them. Seqs
        are consecutive from 1: a reader that keeps the last seq it saw resumes exactly
        there, missing nothing and seeing nothing twice. Empty (not NotFound) for a log that
        does not exist."""
        ...

    def follow_log(self, match_id: str, after_seq: int, block_ms: int = 5000) -> AsyncIterator[list[LoggedEvent]]:
        """Batches of the events after `after_seq` as they are committed, forever: each
        batch continues the one before with no gap, and an empty batch is yielded after
        each `block_ms` without news (so the caller may check whether to go on)."""
        ...

    # --- AI turns that are due --------------------------------------------------------
    async def due_ai_turns(self, due_before: float, limit: int) -> list[tuple[str, float]]:
        """(match id, when it was marked) of up to `limit` marks older than `due_before`
        (a Unix time), oldest first. Marks come from `commit(ai_due=True)`."""
        ...

    async def claim_ai_turn(self, match_id: str, seen: float, then: float | None) -> bool:
        """Move the match's mark from `seen` to `then` (or drop it, with None), atomically,
        and only if it is still at `seen`. True when this call moved it: of many sweepers
        racing on one mark, exactly one wins; a match that was marked again meanwhile (it
        moved) is left alone."""
        ...

    async def clear_ai_turn(self, match_id: str) -> None:
        """Drop the match's mark, whatever it is (the match is over)."""
        ...

    # --- clock deadlines (services/core/deadlines.py) ----------------------------------
    async def due_deadlines(self, due_before: float, limit: int) -> list[tuple[str, float]]:
        """(match id, deadline) of up to `limit` clock deadlines at or before `due_before` (a
        Unix time), earliest first. Deadlines come from `commit(deadline=...)`."""
        ...

    async def claim_deadline(self, match_id: str, seen: float, then: float | None) -> bool:
        """Move the match's deadline from `seen` to `then` (or drop it, with None), atomically,
        and only if it is still at `seen`: of many sweepers racing on one deadline, exactly one
        wins, and a deadline a commit moved meanwhile is left alone."""
        ...

    async def deadlines_waiting(self) -> int:
        """How many matches have a clock deadline kept."""
        ...

    # --- players' matches, the census, shared secrets -------------------------------
    async def list_for_players(self, match_id: str, players: Iterable[str], keep: int, ttl_s: int) -> None:
        """Put the match first in each player's list of matches, which keeps the `keep`
        newest and lives `ttl_s` after this call."""
        ...

    async def listed_matches(self, player: str, limit: int) -> list[str]:
        """The ids in the player's list, newest first (some may name expired matches)."""
        ...

    async def unlist(self, player: str, match_id: str) -> None:
        """Take a match (one that expired) off the player's list."""
        ...

    async def census_started(self, game: str, match_id: str) -> None:
        """Count the match among the active matches of its game (services/core/metrics.py).
        Instrumentation: it never raises; a failure is logged and the census heals at the
        probe's next sweep."""
        ...

    async def census_ended(self, game: str, match_id: str) -> None:
        """Take the match out of the census. Never raises, as `census_started`."""
        ...

    async def keep_first(self, name: str, value: bytes) -> bytes:
        """The secret kept under `name`: `value` if there was none (the first writer wins),
        else the one kept before. Every replica that calls it gets the same bytes."""
        ...

    # --- the connection ---------------------------------------------------------------
    async def ping(self) -> bool:
        """True when the store answers; raises its unavailability otherwise."""
        ...

    async def close(self) -> None:
        """Release the connections. The store is not used after this."""
        ...
