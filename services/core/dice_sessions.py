"""Dice sessions: commit, roll, reveal, verify. The domain behind the dice service,
also used in process by the match driver (DICE_MODE=inprocess): same code, same faces.

A session's fields live in the match hash `{m:<id>}` (a match's dice session has
the match's id), its events in the match's log.

A match's session is read as the match allows: while it runs its log is redacted for
the caller's seat exactly as WatchMatch redacts it (secret rolls as "?", private
events as {"redacted": true}), in full once the match has ended and its seed is
revealed. Client seeds for a match come only from its seated players, with their
seat token, once per seat (see docs/security.md, "Client seeds").
"""
from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Awaitable, Callable, Sequence, TypeVar

from services.core import seats
from services.core.errors import BadRequest, Conflict, LimitExceeded, NotFound, PermissionDenied, Precondition
from services.core.store_contract import MatchStore
from services.core.tokens import hash_token, token_matches
from services.core.visibility import redact, sealer_for
from shared import dicelog, fairdice
from shared.eventlog import CHAIN_VERSION, GENESIS, LoggedEvent, link

MAX_DICE_PER_CALL = 2000
MAX_FACES = 1000
MAX_DRAW_AHEAD = 100_000
MAX_CLIENT_SEEDS = 16  # a free-standing session's log grows by at most this many client seeds
T = TypeVar("T")


@dataclass(frozen=True)
class PoolSpec:
    """A pool as the dice see it: purpose, count and the list of faces."""

    purpose: str
    count: int
    faces: tuple

    def to_body(self) -> dict:
        return {"purpose": self.purpose, "faces": list(self.faces)}


def check_pools(pools: Sequence[PoolSpec]) -> None:
    if not pools:
        raise BadRequest("a roll needs at least one pool")
    total = 0
    for p in pools:
        if p.count < 1:
            raise BadRequest(f"pool {p.purpose!r}: count must be at least 1")
        if not 2 <= len(p.faces) <= MAX_FACES:
            raise BadRequest(f"pool {p.purpose!r}: a die needs 2 to {MAX_FACES} faces")
        if len(p.purpose) > 200:
            raise BadRequest("a purpose is at most 200 characters")
        total += p.count
    if total > MAX_DICE_PER_CALL:
        raise LimitExceeded(f"at most {MAX_DICE_PER_CALL} dice per call, asked for {total}")


async def with_retries(attempts: int, step: Callable[[], Awaitable[T]]) -> T:
    """Run a load-compute-commit step again on fresh state while it loses races."""
    for i in range(attempts):
        try:
            return await step()
        except Conflict:
            if i == attempts - 1:
                raise
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class SessionInfo:
    session_id: str
    commitment: str
    next_nonce: int
    revealed: bool
    seed_hex: str  # only once revealed
    client_seeds: int
    owned_by_match: bool
    token: str = ""


class DiceSessions:
    def __init__(self, store: MatchStore, ttl_s: int = 7 * 24 * 3600, retries: int = 8):
        self.store = store
        self.ttl_s = ttl_s
        self.retries = retries

    async def create(self, session_id: str = "", owned_by_match: bool = False) -> SessionInfo:
        """Draw a secret seed and publish its commitment as the log's first event."""
        session_id = session_id or secrets.token_hex(8)
        if not (0 < len(session_id) <= 64) or not all(c.isalnum() or c in "-_" for c in session_id):
            raise BadRequest("a session id is 1 to 64 letters, digits, '-' or '_'")
        seed = fairdice.new_seed()
        token = secrets.token_hex(24)  # 192 bits; hex, so a command line takes it as written (never "-...")
        commitment = fairdice.commitment(seed)
        # the log declares its chain version: version 2 seals private events (shared/eventlog.py)
        events = link([("dice_committed", {"chain": CHAIN_VERSION, "commitment": commitment})], 0, GENESIS)
        await self.store.commit(
            session_id, new=True, expected_version=None, expected_seq=0, ttl_s=self.ttl_s, events=events,
            fields={"seed": seed.hex(), "commitment": commitment, "cursor": 0, "cdigest": "", "nclient": 0,
                    "revealed": 0, "dtoken": hash_token(token), "owned": int(owned_by_match),
                    "seq": 1, "head": events[-1].hash, "created": int(time.time()), "chain": CHAIN_VERSION},
        )
        return SessionInfo(session_id, commitment, 0, False, "", 0, owned_by_match, token)

    async def get(self, session_id: str) -> SessionInfo:
        return self._info(session_id, await self._load(session_id))

    async def add_client_seed(self, session_id: str, client_seed: str, claim: seats.SeatClaim | None = None
                              ) -> SessionInfo:
        """Mix a client seed into every later roll. A match's session takes one seed from each
        seated player, proved by the seat token; a free-standing one up to MAX_CLIENT_SEEDS."""
        if not 1 <= len(client_seed) <= 256:
            raise BadRequest("a client seed is 1 to 256 characters")

        async def step():
            rec = await self._load(session_id)
            if rec["revealed"] == b"1":
                raise Precondition("the session is revealed: no more client seeds")
            body: dict = {"seed": client_seed}
            fields: dict = {}
            if rec["owned"] == b"1":
                seat = seats.check(claim, session_id, json.loads(rec.get("tokens") or b"[]"))
                seeded = json.loads(rec.get("cseats") or b"[]")
                if seat in seeded:
                    raise Precondition(f"seat {seat} has added its client seed to this match already")
                body["seat"] = seat
                fields["cseats"] = json.dumps(sorted(seeded + [seat]))
            elif int(rec["nclient"]) >= MAX_CLIENT_SEEDS:
                raise LimitExceeded(f"a dice session takes at most {MAX_CLIENT_SEEDS} client seeds")
            digest = fairdice.fold_client_seed(rec["cdigest"].decode(), client_seed)
            seq = int(rec["seq"])
            events = link([("client_seed", body)], seq, rec["head"].decode())
            fields.update(cdigest=digest, nclient=int(rec["nclient"]) + 1, seq=events[-1].seq, head=events[-1].hash)
            await self.store.commit(session_id, expected_version=None, expected_seq=seq, ttl_s=self.ttl_s,
                                    events=events, fields=fields)
            return await self.get(session_id)

        return await with_retries(self.retries, step)

    async def roll(self, session_id: str, token: str, pools: Sequence[PoolSpec]) -> tuple[list[list], list[list[int]]]:
        """Roll and record, for a free-standing session."""
        check_pools(pools)

        async def step():
            rec = await self._load(session_id)
            self._authorise(rec, token)
            if rec["owned"] == b"1":
                raise Precondition("this session belongs to a match: its dice are rolled by the match")
            if rec["revealed"] == b"1":
                raise Precondition("the session is revealed: it rolls no more")
            cursor, seq = int(rec["cursor"]), int(rec["seq"])
            faces, nonces = self.compute(session_id, rec, cursor, pools)
            body = dicelog.roll_body([p.to_body() for p in pools], faces, nonces, secret=False)
            events = link([("roll", body)], seq, rec["head"].decode())
            await self.store.commit(session_id, expected_version=None, expected_seq=seq, ttl_s=self.ttl_s,
                                    events=events, fields={"cursor": nonces[-1][-1] + 1, "seq": events[-1].seq,
                                                           "head": events[-1].hash})
            return faces, nonces

        return await with_retries(self.retries, step)

    async def draw(self, session_id: str, token: str, first_nonce: int, pools: Sequence[PoolSpec]):
        """Dice of a match-owned session from `first_nonce`, not recorded (the match records them)."""
        check_pools(pools)
        rec = await self._load(session_id)
        self._authorise(rec, token)
        if rec["owned"] != b"1":
            raise Precondition("only a match's own session draws without recording; use Roll")
        if rec["revealed"] == b"1":
            raise Precondition("the session is revealed: it rolls no more")
        # a match may draw several chance steps before it commits them all at once, so the
        # draw may start past the recorded cursor; never before it (those dice are spent)
        cursor = int(rec["cursor"])
        if not cursor <= first_nonce <= cursor + MAX_DRAW_AHEAD:
            raise Conflict(f"the next unrecorded nonce is {cursor}; a draw starts there or up to "
                           f"{MAX_DRAW_AHEAD} past it, not at {first_nonce}")
        return self.compute(session_id, rec, first_nonce, pools)

    @staticmethod
    def compute(session_id: str, rec: dict, first_nonce: int, pools: Sequence[PoolSpec]):
        seed = bytes.fromhex(rec["seed"].decode())
        return fairdice.roll_pools(seed, session_id, first_nonce, rec["cdigest"].decode(),
                                   [(p.count, p.faces) for p in pools])

    async def reveal(self, session_id: str, token: str) -> SessionInfo:
        async def step():
            rec = await self._load(session_id)
            self._authorise(rec, token)
            if rec["revealed"] == b"1":
                return self._info(session_id, rec)
            if rec["owned"] == b"1" and rec.get("status") != b"finished":
                raise Precondition("a match's seed is revealed when the match ends")
            seq = int(rec["seq"])
            events = link([("dice_revealed", {"seed": rec["seed"].decode()})], seq, rec["head"].decode())
            await self.store.commit(session_id, expected_version=None, expected_seq=seq, ttl_s=self.ttl_s,
                                    events=events,
                                    fields={"revealed": 1, "seq": events[-1].seq, "head": events[-1].hash})
            return await self.get(session_id)

        return await with_retries(self.retries, step)

    async def export(self, session_id: str, claim: seats.SeatClaim | None = None, after_seq: int = 0,
                     count: int | None = None) -> tuple[str, list[LoggedEvent]]:
        """The session's log (its events after `after_seq`, at most `count`) as the caller may read
        it: a running match's log redacted for the caller's seat (a spectator without a seat
        token), as WatchMatch shows it."""
        rec = await self._load(session_id)
        events = await self.store.read_log(session_id, after_seq, count)
        revealed = rec["revealed"] == b"1"
        seat = None
        if rec["owned"] == b"1" and not revealed and claim is not None:
            seat = seats.check(claim, session_id, json.loads(rec.get("tokens") or b"[]"))
        if rec["owned"] == b"1" or revealed:
            sealer = sealer_for(session_id, rec)
            events = [redact(e, seat, revealed, sealer) for e in events]
        return rec["commitment"].decode(), events

    async def verify(self, session_id: str) -> dicelog.Verdict:
        """Check the log as everyone may read it (as `export` shows it to a spectator): until the
        seed is revealed only the chain (up to its head) and the commitment can be, and the
        verdict names no roll."""
        commitment, events = await self.export(session_id)
        return dicelog.verify(session_id, commitment, events)

    async def _load(self, session_id: str) -> dict:
        rec = await self.store.load(session_id)
        if "commitment" not in rec:
            raise NotFound(f"{session_id!r} has no dice session")
        return rec

    @staticmethod
    def _authorise(rec: dict, token: str) -> None:
        if not token_matches(token, rec.get("dtoken")):
            raise PermissionDenied("that is not this session's dice token")

    @staticmethod
    def _info(session_id: str, rec: dict) -> SessionInfo:
        revealed = rec["revealed"] == b"1"
        return SessionInfo(session_id, rec["commitment"].decode(), int(rec["cursor"]), revealed,
                           rec["seed"].decode() if revealed else "", int(rec["nclient"]), rec["owned"] == b"1")
