"""The match driver: create matches, apply actions, answer reads.

Every action follows one path: load the record (one HGETALL), check the seat,
apply the action with the game's engine, fulfil every chance step with the
match's dice, then commit state, events, dice cursor and the action id in one
compare-and-set. A lost race is retried on fresh state (or answered ABORTED when
the client pinned a version).

In the common case the load is skipped: the process keeps the record it last committed
of each match it served lately, decoded (`RecordCache`), and applies the action to that
copy. The copy is only a guess; the compare-and-set decides. It commits only if the
match is still at the copy's version, log position and log head and the action id is
new, so a copy made stale by another process (or by a Redis that lost its last second)
is never applied: the commit refuses it, handing back the record as it is now, and the
action runs again on that (a stale copy costs the two round trips of a load). An
action the rules refuse on a copy is also tried again on a fresh load before it is
answered, so every answer but a commit's own comes from the record as Redis holds it.

A seat resigning (Board.Resign) takes the same path, with the engine's resign() in place of
apply() and "resigned" logged in place of "action", always on a fresh load (it is rare).
When the next seat to act is an AI, its turn is queued. Rules live in the engines; this
module only moves state around them.

Every write goes through the match store (services/core/store_contract.py), which is
handed in already wrapped with its metrics (services/core/instrumented_store.py); the
AI seats' turns are scheduled by services/core/ai_turns.py.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import AsyncIterator, Sequence

from services.core import ai_seats, clocks
from services.core import seats as seat_tokens
from services.core.ai_levels import checked_level
from services.core.ai_turns import AiTurns, TurnNotifier
from services.core.deadlines import Deadlines
from services.core.dice_sessions import PoolSpec
from services.core.dicesource import DiceSource
from services.core.errors import BadRequest, Conflict, NotFound, Precondition, Unauthenticated
from services.core.jsontext import json_object
from services.core.metrics import Children
from services.core.store_contract import MatchStore
from services.core.tokens import hash_token, token_matches
from services.core.turn_notices import TurnNotices, next_turn, turn_field
from services.core.visibility import redact, sealer_for
from shared import dicelog
from shared.engine import CHANCE, TERMINAL, GameEngine, MatchConfig, NotYourTurn, RuleViolation
from shared.engine.registry import engine_for, game_names
from shared.eventlog import LoggedEvent, link

log = logging.getLogger("archmage.matches")

MAX_CHANCE_STEPS = 10_000
MAX_ACTION_BYTES = 16_384
SEAT_KINDS = ("human", "ai")
ENDED = ("finished", "cancelled", "abandoned")  # a match's status once it is over
MAX_LISTED = 200  # a player's newest matches kept for ListMyMatches

# the metrics of the resolution path, each child bound once per label set
RESOLUTION_SECONDS = Children("resolution_seconds")
RESOLUTIONS = Children("resolutions")
DICE_DRAWS = Children("dice_calls")
EVENTS_PUBLISHED = Children("events_published")
MATCHES_CREATED = Children("matches_created")
MATCHES_FINISHED = Children("matches_finished")
CAS_CONFLICTS = Children("cas_conflicts")
CAS_RETRIES = Children("cas_retries")
RECORD_CACHE = Children("record_cache")
TIMEOUTS = Children("clock_timeouts")
TAKEOVERS = Children("ai_takeovers")
ABANDONED = Children("matches_abandoned")
RETURNS = Children("stand_in_returns")


TIMEOUT_IDS = "clock:"  # the action ids of the platform's own timeouts (Matches.time_out)


def _check_ids(match_id: str, action_id: str) -> None:
    """The ids a seat's step names: a match, and an idempotency key of its own. A key in the
    platform's timeout form is refused: sent ahead of a deadline, it would make that timeout a
    "replay" and the seat's clock would never fall."""
    if not match_id:
        raise BadRequest("match_id is required", "match_id")
    if not action_id or len(action_id) > 128:
        raise BadRequest("action_id is required (1 to 128 characters) so a retry is applied once", "action_id")
    if action_id.startswith(TIMEOUT_IDS):
        raise BadRequest(f"action ids starting {TIMEOUT_IDS!r} are the platform's own (its clock's timeouts)",
                         "action_id")


def _in_time(clock: dict | None, seat: int) -> None:
    """A seat whose clock has run out acts no more: its timeout (the sweep's, a moment later) is
    what comes next, as the match's time control says, never one more move."""
    if clock is not None and clock["running"] == seat:
        late = now_ms() - clocks.deadline_ms(clock)
        if late > 0:
            raise Precondition(f"seat {seat} is out of time (its deadline passed {late} ms ago): "
                               f"its timeout is on its way")


def now_ms() -> int:
    """Server time in whole milliseconds: the only time a match's clock reads."""
    return int(time.time() * 1000)


@dataclass(frozen=True)
class SeatInfo:
    index: int
    kind: str
    name: str
    player: str = ""  # the player seated here (a human seat); the seat token goes to them alone
    level: str = ""  # an AI seat's level (easy, normal, hard: services/core/ai_levels.py)


@dataclass
class MatchRecord:
    """A match as loaded from the store, decoded."""

    match_id: str
    game: str
    config: MatchConfig
    seats: list[SeatInfo]
    token_hashes: list[str]
    status: str
    version: int
    seq: int
    head: str
    cursor: int
    commitment: str
    state: object
    raw: dict

    @property
    def finished(self) -> bool:
        """Over: played to the end, or cancelled."""
        return self.status in ENDED

    @property
    def seat_kinds(self) -> list[str]:
        return [s.kind for s in self.seats]

    @property
    def clock(self) -> dict | None:
        """The match's clock (services/core/clocks.py), or None for a match with no time control."""
        raw = self.raw.get("clock")
        return json.loads(raw) if raw else None

    @property
    def legacy_ai_tokens(self) -> dict[str, str]:
        """The AI seats' tokens, by seat number as text, of a match created before they were derived
        from the AI key (services/core/ai_seats.py): it goes on handing them to the workers until it
        ends. Empty for every match created since."""
        raw = self.raw.get("ai_tokens")
        return json.loads(raw) if raw else {}


class RecordCache:
    """The newest record this process committed of each match it served lately, decoded:
    a bounded LRU of `size` matches (0 keeps none). A match's entry is replaced only by a
    newer version, so two commits of one match finishing out of order never leave the
    older behind."""

    def __init__(self, size: int):
        self.size = size
        self._records: OrderedDict[str, MatchRecord] = OrderedDict()

    def __len__(self) -> int:
        return len(self._records)

    def get(self, match_id: str) -> "MatchRecord | None":
        rec = self._records.get(match_id)
        if rec is not None:
            self._records.move_to_end(match_id)
        return rec

    def keep(self, rec: "MatchRecord") -> None:
        if self.size <= 0:
            return
        held = self._records.get(rec.match_id)
        if held is not None and held.version >= rec.version:
            return
        self._records[rec.match_id] = rec
        self._records.move_to_end(rec.match_id)
        while len(self._records) > self.size:
            self._records.popitem(last=False)

    def drop(self, match_id: str) -> None:
        self._records.pop(match_id, None)


def _stored(value) -> bytes:
    """A field as Redis hands it back: bytes (an int or a str as its text)."""
    return value if isinstance(value, bytes) else str(value).encode()


@dataclass(frozen=True)
class ActResult:
    version: int
    events: list[LoggedEvent]
    replayed: bool


@dataclass(frozen=True)
class Created:
    match_id: str
    commitment: str
    tokens: dict[int, str]
    version: int


def parse_action(action_json: str, name: str = "action_json") -> dict:
    action = json_object(action_json, name, MAX_ACTION_BYTES)
    if not isinstance(action.get("kind"), str):
        raise BadRequest(f'{name} needs a string "kind"')
    return action


def _known_kinds(engine: GameEngine, rec: "MatchRecord") -> set[str]:
    """Action kinds worth a metric label: those some seat could take now (bounded)."""
    return {a["kind"] for s in range(len(rec.seats)) for a in engine.legal_actions(rec.state, s)}


def _deadline(clock: dict | None, finished: bool, abandon_at: float | None = None) -> float | None:
    """The Unix time the deadline sweep must look at a committed match (None: never): its clock's
    next deadline, or the moment it counts as abandoned if that comes first."""
    if finished:
        return None
    due = None if clock is None else clocks.due_ms(clock)
    times = [t for t in (None if due is None else due / 1000, abandon_at) if t is not None]
    return min(times) if times else None


def _turn_deadline_ms(clock: dict | None, finished: bool) -> int:
    """The deadline of the turn under way (Unix ms) a turn notice carries; 0 with no clock."""
    return 0 if clock is None or finished else clocks.deadline_ms(clock) or 0


class Matches:
    def __init__(self, store: MatchStore, dice: DiceSource, notifier: TurnNotifier | None = None, *,
                 match_ttl_s: int = 7 * 24 * 3600, finished_ttl_s: int = 24 * 3600,
                 action_ttl_s: int = 24 * 3600, retries: int = 8, ratings=None, ai_key_file: str = "",
                 cached_matches: int = 2000, stand_in_grace_s: float = clocks.DEFAULT_GRACE_S,
                 notices: TurnNotices | None = None, abandon_after_s: float = 0.0):
        self.store = store
        self.abandon_after_s = abandon_after_s  # ABANDON_AFTER_S: no human action this long ends a match
        self.notices = notices  # players' "your turn" streams; None: no notices (tests of the driver alone)
        self.stand_in_grace_s = stand_in_grace_s  # STAND_IN_GRACE_S: a timed-out player's time to come back per turn
        self.records = RecordCache(cached_matches)  # MATCH_CACHE: the copies the common case acts on
        self.ai_key_file = ai_key_file  # AI_KEY_FILE; empty = the AI key kept in Redis
        self._ai_key: bytes | None = None
        self.ratings = ratings  # services.players.ratings.Ratings: rated matches change it when they end
        self.dice = dice
        self.ai = AiTurns(store, notifier)
        self.deadlines = Deadlines(store, self.ai)
        self.match_ttl_s = match_ttl_s
        self.finished_ttl_s = finished_ttl_s
        self.action_ttl_s = action_ttl_s
        self.retries = retries

    @property
    def plays_ai(self) -> bool:
        """Whether this process can start AI turns (and so may seat AI players)."""
        return self.ai.plays_ai

    async def ai_key(self) -> bytes:
        """The key AI seats' tokens are derived from, loaded once (services/core/ai_seats.py)."""
        if self._ai_key is None:
            self._ai_key = await ai_seats.load(self.store, self.ai_key_file)
        return self._ai_key

    async def sweep_stalled_ai(self, stall_s: float) -> int:
        """Queue again the AI turns due for more than stall_s seconds with no move (ai_turns.py)."""
        return await self.ai.sweep(self.load, stall_s)

    async def sweep_deadlines(self, now: float | None = None, batch: int = 200) -> int:
        """Act on the clock deadlines that are due (services/core/deadlines.py)."""
        return await self.deadlines.sweep(self, now, batch)

    async def time_out(self, rec: MatchRecord, seat: int, now: int) -> bool:
        """Seat `seat` ran out of time at `now` (Unix ms) in `rec`: log "timed_out" and, as the
        match's time control says, hand the seat to its stand-in ("ai_took_over") or resign it
        for its player (the engine's resign(), "resigned"), in one compare-and-set on `rec`'s
        version. The action id, from the version, makes a second sweeper's attempt a replay.
        True when this call committed it; False when the match moved meanwhile (its commit set
        the deadline anew) or another sweeper committed it first."""
        engine = engine_for(rec.game)
        clock = rec.clock
        deadline = clocks.deadline_ms(clock)
        on_timeout = clock["on_timeout"]
        action_id = f"{TIMEOUT_IDS}{rec.version}"
        events: list[tuple[str, dict]] = [("timed_out", {"seat": seat, "deadline_ms": deadline,
                                                         "late_ms": max(0, now - deadline), "on_timeout": on_timeout})]
        if on_timeout == "ai":
            stand_in = ai_seats.derive(await self.ai_key(), rec.match_id, seat)
            clock = clocks.timed_out(clock, seat, hash_token(stand_in), now)
            events.append(("ai_took_over", {"seat": seat, "level": "default", "grace_ms": clock["grace_ms"]}))
            state = rec.state
        else:
            clock = clocks.timed_out(clock, seat, None, now)
            state, game_events = engine.resign(rec.state, seat)
            events.append(("resigned", {"seat": seat, "action_id": action_id, "reason": "timed_out"}))
            events += [(e["type"], e) for e in game_events]
        probe = {"game": rec.game, "kind": "timed_out"}
        try:
            result = await self._commit_step(rec, engine, None, None, state, events, action_id, probe, clock=clock)
        except Conflict:
            return False
        if result.replayed:
            return False
        TIMEOUTS(rec.game, on_timeout).inc()
        if on_timeout == "ai":
            TAKEOVERS(rec.game).inc()
        log.info("match %s seat %s ran out of time (%s ms late): %s", rec.match_id, seat, now - deadline,
                 "its stand-in plays" if on_timeout == "ai" else "it forfeits")
        return True

    def abandon_at(self, raw: dict, seats) -> float | None:
        """When a match with these stored fields counts as abandoned (Unix time): ABANDON_AFTER_S
        after a human last acted in it (or it was made); None with no human seat or none set."""
        if not self.abandon_after_s or not any(s.kind == "human" for s in seats):
            return None
        touched = raw.get("touched") or raw.get("created") or 0
        return int(touched) + self.abandon_after_s

    async def abandon(self, rec: MatchRecord, now: float) -> bool:
        """End a match no human acted in for ABANDON_AFTER_S: "abandoned" (how long it lay idle),
        its dice revealed so it still verifies, unrated, its players told. One compare-and-set on
        `rec`'s version: a second sweeper, or a human acting meanwhile, makes it a no-op. True
        when this call ended it."""
        touched = int(rec.raw.get("touched") or rec.raw.get("created") or 0)
        idle = {"idle_s": max(0, int(now) - touched), "after_s": int(self.abandon_after_s)}
        try:
            await self._end_unplayed(rec, ("abandoned", idle), "abandoned")
        except Conflict:
            return False
        ABANDONED(rec.game).inc()
        log.info("match %s abandoned: no human acted in it for %s s", rec.match_id, idle["idle_s"])
        return True

    def due_ms(self, rec: MatchRecord) -> tuple[float | None, float | None]:
        """When the deadline sweep must act on `rec` (Unix ms, None for never): (its clock's next
        deadline, the moment it counts as abandoned)."""
        if rec.finished:
            return None, None
        abandon_at = self.abandon_at(rec.raw, rec.seats)
        return (None if rec.clock is None else clocks.due_ms(rec.clock)), \
            (None if abandon_at is None else abandon_at * 1000)

    async def _end_unplayed(self, rec: MatchRecord, why: tuple[str, dict], status: str) -> None:
        """End `rec` where it stands, not by its rules (cancelled, abandoned): `why` and its seed in
        the log (so it verifies), its deadline mark dropped, out of the census and the AI sweep, its
        players told. One compare-and-set on `rec`'s version (Conflict when the match moved)."""
        events = [why, ("dice_revealed", {"seed": rec.raw["seed"].decode()})]
        linked = link(events, rec.seq, rec.head, sealer_for(rec.match_id, rec.raw))
        fields = {"v": rec.version + 1, "status": status, "revealed": 1, "seq": linked[-1].seq,
                  "head": linked[-1].hash}
        await self.store.commit(rec.match_id, expected_version=rec.version, expected_seq=rec.seq, fields=fields,
                                events=linked, ttl_s=self.finished_ttl_s, deadline=None)
        self.records.drop(rec.match_id)
        EVENTS_PUBLISHED(rec.game).inc(len(linked))
        await self.store.census_ended(rec.game, rec.match_id)
        await self.ai.finished(rec.match_id)
        if self.notices is not None:
            await self.notices.after_commit(rec.game, rec.match_id, rec.seats, TERMINAL, False, rec.version + 1, True)

    # --- creation ---------------------------------------------------------------------
    async def create(self, game: str, variant: str, seats: Sequence[tuple[str, str]], options: dict,
                     match_id: str | None = None, *, players: Sequence[str] = (), rated: bool = False,
                     time_control: clocks.TimeControl | None = None, levels: Sequence[str] = ()) -> Created:
        """A new match. `players` names the player of each seat ("" for AI seats); `levels` each
        AI seat's level ("" = normal); a rated match changes its players' ratings when it ends;
        `time_control` (checked by clocks.checked) gives it a clock."""
        if game not in game_names():
            raise BadRequest(f"unknown game {game!r}; this platform hosts {', '.join(game_names())}")
        engine = engine_for(game)
        variant = variant or engine.default_variant(len(seats))
        if variant not in engine.variants:
            raise BadRequest(f"{engine.title} has no variant {variant!r}; it has {', '.join(engine.variants)}")
        if not engine.min_seats <= len(seats) <= engine.max_seats:
            raise BadRequest(f"{engine.title} seats {engine.min_seats} to {engine.max_seats} players, not {len(seats)}")
        if len(seats) not in engine.seat_counts(variant):
            counts = ", ".join(str(n) for n in engine.seat_counts(variant))
            raise BadRequest(f"{engine.title} {variant} is played by {counts} players, not {len(seats)}")
        for kind, name in seats:
            if kind not in SEAT_KINDS:
                raise BadRequest(f"a seat is 'human' or 'ai', not {kind!r}")
            if len(name) > 64:
                raise BadRequest("a seat name is at most 64 characters")
        config = MatchConfig(len(seats), variant, options)
        state = engine.setup(config)  # InvalidConfig surfaces as INVALID_ARGUMENT
        match_id = match_id or secrets.token_hex(8)
        session = await self.dice.create_session(match_id)
        ai_key = await self.ai_key() if any(kind == "ai" for kind, _ in seats) else b""
        # a human seat's token is random and goes to its player; an AI seat's is derived from the
        # AI key, so the AI worker makes it itself and nobody needs to keep or carry it
        tokens = {i: ai_seats.derive(ai_key, match_id, i) if kind == "ai" else seat_tokens.issue(match_id, i)
                  for i, (kind, _) in enumerate(seats)}
        players = list(players) or [""] * len(seats)
        levels = list(levels) or [""] * len(seats)
        seat_list = [{"index": i, "kind": k, "name": n or f"{k} {i + 1}", "player": players[i] if k == "human" else ""}
                     for i, (k, n) in enumerate(seats)]
        for entry, level in zip(seat_list, levels):
            if entry["kind"] == "ai":
                entry["level"] = checked_level(game, level)
        rec = await self.store.load(match_id)  # the dice session just made: seed, cursor, log head
        created = {"game": game, "config": config.to_dict(), "seats": seat_list}
        control = time_control or clocks.TimeControl()
        if control.clocked:
            created["time_control"] = control.to_dict()
        events: list[tuple[str, dict]] = [("match_created", created)]
        state, cursor = await self._run_chance(engine, match_id, rec, session.token, state, 0, events)
        finished = engine.actor(state) == TERMINAL
        due = self.ai.due_after(engine, state, [s["kind"] for s in seat_list])
        fields = {
            "game": game, "config": json.dumps(config.to_dict()), "seats": json.dumps(seat_list),
            "tokens": json.dumps([hash_token(tokens[i]) for i in range(len(seats))]),
            "dice_token": session.token, "status": "active", "v": 1, "s": engine.encode(state),
            "cursor": cursor, "created": int(time.time()), "rated": int(rated),
            "turn": turn_field(engine.actor(state), 1), "touched": int(time.time()),
        }
        clocked = {}
        clock = None
        if control.clocked:
            clock = clocks.start(control, len(seats), self.stand_in_grace_s, now_ms())
            clock, _ = clocks.advance(clock, None, engine.actor(state), [s["kind"] for s in seat_list], clock["since"])
            fields["clock"] = json.dumps(clock, sort_keys=True)
        abandon_at = self.abandon_at(fields, [SeatInfo(**s) for s in seat_list])
        if clock is not None or abandon_at is not None:
            clocked["deadline"] = _deadline(clock, finished, abandon_at)
        linked = link(events, int(rec["seq"]), rec["head"].decode(), sealer_for(match_id, rec))
        fields.update(seq=linked[-1].seq, head=linked[-1].hash)
        await self.store.commit(match_id, expected_version=None, expected_seq=int(rec["seq"]), fields=fields,
                                events=linked, ttl_s=self.match_ttl_s, ai_due=due is not None, **clocked)
        MATCHES_CREATED(game).inc()
        EVENTS_PUBLISHED(game).inc(len(linked))
        await self.store.list_for_players(match_id, {p for p in players if p}, MAX_LISTED, self.match_ttl_s)
        if not finished:
            await self.store.census_started(game, match_id)
            await self.ai.queue(match_id, due, 1)
        if self.notices is not None:
            await self.notices.after_commit(game, match_id, [SeatInfo(**s) for s in seat_list], engine.actor(state),
                                            True, 1, finished, _turn_deadline_ms(clock, finished))
        return Created(match_id, session.commitment,
                       {i: t for i, t in tokens.items() if seat_list[i]["kind"] == "human"}, 1)

    async def cancel(self, match_id: str, reason: str) -> bool:
        """End an active match nobody will play (an orphan of matchmaking): its dice revealed, out
        of the census and the AI sweep. True when this call ended it; False when there is no such
        match or it is over already."""
        for _ in range(self.retries):
            try:
                rec = await self.load(match_id)
            except NotFound:
                return False
            if rec.finished:
                return False
            try:
                await self._end_unplayed(rec, ("match_cancelled", {"reason": reason}), "cancelled")
            except Conflict:
                continue
            return True
        return False

    # --- actions ----------------------------------------------------------------------
    async def act(self, match_id: str, claim, action_id: str, expected_version: int, action_json: str,
                  domain: str) -> ActResult:
        _check_ids(match_id, action_id)
        action = parse_action(action_json)
        probe = {"game": "unknown", "kind": "invalid"}
        return await self._measured(domain, probe, (RuleViolation, NotYourTurn),
                                    self._act_retrying(match_id, claim, action_id, expected_version, action, domain,
                                                       probe))

    async def resign(self, match_id: str, claim, action_id: str, expected_version: int) -> ActResult:
        """The claimed seat resigns: logged as "resigned" (seat and action id) and applied with the
        engine's resign(), then committed like an action (the same compare-and-set, retries,
        replays of a repeated action id, dice for what follows, the end of the match)."""
        _check_ids(match_id, action_id)
        probe = {"game": "unknown", "kind": "resign"}
        return await self._measured("board", probe, (RuleViolation, NotYourTurn, Precondition),
                                    self._retrying(match_id, claim, action_id, expected_version,
                                                   lambda rec: self._resign_once(rec, claim, action_id,
                                                                                 expected_version, probe)))

    @staticmethod
    async def _measured(domain: str, probe: dict, refused: tuple, step) -> ActResult:
        """Await a seat's step and count it (resolution time and outcome, by the game and kind
        the step wrote into `probe`)."""
        start = time.perf_counter()
        outcome = "error"
        try:
            result = await step
            outcome = "replayed" if result.replayed else "ok"
            return result
        except refused:
            outcome = "refused"
            raise
        except Exception as exc:
            outcome = "conflict" if isinstance(exc, Conflict) else "invalid"
            raise
        finally:
            game, kind = probe["game"], probe["kind"]
            RESOLUTION_SECONDS(game, domain, kind).observe(time.perf_counter() - start)
            RESOLUTIONS(game, domain, kind, outcome).inc()

    async def _resign_once(self, rec: "MatchRecord", claim, action_id, expected_version, probe) -> ActResult:
        probe["game"] = rec.game
        seat = seat_tokens.check(claim, rec.match_id, rec.token_hashes)  # a player's alone, never a stand-in's
        if rec.finished:
            raise Precondition("the match is over: there is nothing left to resign")
        if expected_version and expected_version != rec.version:
            raise Conflict(f"stale version: you saw {expected_version}, the match is at {rec.version}")
        engine = engine_for(rec.game)
        state, game_events = engine.resign(rec.state, seat)  # RuleViolation: this seat resigned already
        events: list[tuple[str, dict]] = [("resigned", {"seat": seat, "action_id": action_id})]
        events += [(e["type"], e) for e in game_events]
        return await self._commit_step(rec, engine, claim, seat, state, events, action_id, probe)

    async def _act_retrying(self, match_id, claim, action_id, expected_version, action, domain, probe) -> ActResult:
        fresh: dict | None = None  # the record a refused commit handed back: no load needed
        cached = self.records.get(match_id)
        if cached is not None:
            # one round trip: the commit checks the copy is still the match's newest
            probe["on_copy"] = True
            try:
                result = await self._act_once(cached, claim, action_id, expected_version, action, domain, probe)
            except Exception as exc:
                probe["on_copy"] = False
                if probe.get("committed"):
                    raise  # it is in Redis: never run twice
                self.records.drop(match_id)
                stale = isinstance(exc, Conflict)
                fresh = exc.record if stale else None
                RECORD_CACHE("stale" if stale else "rechecked").inc()
            else:
                RECORD_CACHE("hit").inc()
                return result
        else:
            RECORD_CACHE("miss").inc()
        return await self._retrying(match_id, claim, action_id, expected_version,
                                    lambda rec: self._act_once(rec, claim, action_id, expected_version, action,
                                                               domain, probe), fresh)

    async def _retrying(self, match_id, claim, action_id, expected_version, once, fresh: dict | None = None
                        ) -> ActResult:
        """Run one step (`once(rec)`) on fresh state until its compare-and-set holds; a lost race
        is retried, or answered ABORTED when the client pinned a version. `fresh`: the record a
        refused commit handed back, used in place of the first load."""
        last_error: Conflict | None = None
        for attempt in range(self.retries):
            if fresh is not None:  # its action id was not committed when the store refused the commit
                raw, prior, fresh = fresh, None, None
            else:  # one round trip reads the match and whether this action id was applied before
                raw, prior = await self.store.load_for_action(match_id, action_id)
            rec = self._record(match_id, raw)
            if prior is not None:
                return await self._replayed(rec, prior, claim)
            try:
                return await once(rec)
            except Conflict as exc:
                CAS_CONFLICTS("act").inc()
                if expected_version:
                    raise
                if attempt + 1 < self.retries:
                    CAS_RETRIES("act").inc()
                last_error = exc
                fresh = exc.record
        raise last_error  # type: ignore[misc]

    async def _act_once(self, rec: "MatchRecord", claim, action_id, expected_version, action, domain,
                        probe) -> ActResult:
        probe["game"] = rec.game
        seat = self._seat(rec, claim, to_act=True)
        if rec.finished:
            raise Precondition("the match is over")
        if expected_version and expected_version != rec.version:
            raise Conflict(f"stale version: you saw {expected_version}, the match is at {rec.version}")
        _in_time(rec.clock, seat)
        engine = engine_for(rec.game)
        owner = engine.action_domain(action)
        if owner != domain:
            service = "Combat.Resolve" if owner == "combat" else "Board.Move"
            raise BadRequest(f"a {action['kind']!r} action is served by {service}")
        try:
            state, game_events = engine.apply(rec.state, seat, action)
        except (RuleViolation, NotYourTurn):
            if not probe.get("on_copy"):  # a refusal on a copy is checked again: label the final one
                probe["kind"] = action["kind"][:40] if action["kind"] in _known_kinds(engine, rec) else "invalid"
            raise
        probe["kind"] = action["kind"]
        logged = {"seat": seat, "action": action, "action_id": action_id}
        private = engine.action_visible_to(rec.state, seat, action)
        if private is not None:
            logged["visible_to"] = list(private)  # a secret exchange: only its seats read it
        events: list[tuple[str, dict]] = [("action", logged)]
        events += [(e["type"], e) for e in game_events]
        clock = rec.clock
        if clock is not None and str(seat) in clock["stand_in"]:
            if token_matches(claim.token, rec.token_hashes[seat]):  # its player is back
                clock = clocks.returned(clock, seat)
                events.insert(0, ("returned", {"seat": seat}))
                probe["returned"] = True
            else:
                logged["stand_in"] = True  # played by the AI standing in for a player out of time
        return await self._commit_step(rec, engine, claim, seat, state, events, action_id, probe, clock=clock)

    async def _commit_step(self, rec: "MatchRecord", engine: GameEngine, claim, seat: int | None, state, events: list,
                           action_id: str, probe: dict, clock: dict | None = None) -> ActResult:
        """Fulfil the chance steps that follow a seat's step, then commit state, events, dice cursor,
        clock and the action id in one compare-and-set (Conflict when the match moved meanwhile),
        and keep the committed record as this process's copy of the match. `seat` None: a step
        of the platform's own (a timeout), with `clock` as the timeout left it."""
        match_id = rec.match_id
        state, cursor = await self._run_chance(engine, match_id, rec.raw, rec.raw["dice_token"].decode(),
                                               state, rec.cursor, events)
        version = rec.version + 1
        fields: dict = {"v": version, "s": engine.encode(state), "cursor": cursor}
        ttl = self.match_ttl_s
        finished = engine.actor(state) == TERMINAL
        if finished:
            outcome = engine.outcome(state)
            events.append(("match_finished", {"outcome": outcome.to_dict() if outcome else None}))
            events.append(("dice_revealed", {"seed": rec.raw["seed"].decode()}))
            fields.update(status="finished", revealed=1)
            ttl = self.finished_ttl_s
        clocked = {}
        if seat is not None and rec.seats[seat].kind == "human" \
                and not any(body.get("stand_in") for kind, body in events if kind == "action"):
            fields["touched"] = int(time.time())  # a human acted: the match is not abandoned
        clock = clock if clock is not None else rec.clock
        if clock is not None:
            clock, used = clocks.advance(clock, seat, engine.actor(state), rec.seat_kinds, now_ms())
            if used is not None and events[0][0] in ("action", "resigned", "returned"):
                first = next(body for kind, body in events if kind in ("action", "resigned"))
                first["time_used_ms"] = used  # the seat's own clock, from its turn's start or its step before
                first["time_left_ms"] = clocks.remaining_ms(clock, seat, clock["since"])
            fields["clock"] = json.dumps(clock, sort_keys=True)
            clocked["deadline"] = _deadline(clock, finished, self.abandon_at({**rec.raw, **fields}, rec.seats))
        actor = engine.actor(state)
        fields["turn"], began = next_turn(rec.raw.get("turn"), actor, version)
        sealer = sealer_for(match_id, rec.raw)
        linked = link(events, rec.seq, rec.head, sealer)
        fields.update(seq=linked[-1].seq, head=linked[-1].hash)
        due = self.ai.due_after(engine, state, rec.seat_kinds, rec.legacy_ai_tokens)
        answer = json.dumps({"version": version, "first": linked[0].seq, "last": linked[-1].seq})
        done = await self.store.commit(match_id, expected_version=rec.version, expected_seq=rec.seq,
                                       expected_head=rec.head, fields=fields, events=linked, ttl_s=ttl,
                                       action_id=action_id, answer=answer, action_ttl_s=self.action_ttl_s,
                                       ai_due=due is not None, **clocked)
        probe["committed"] = True
        if done.replayed:
            self.records.drop(match_id)  # another process applied it: this copy may be behind
            return await self._replayed(await self.load(match_id), done.answer, claim)
        if finished:
            self.records.drop(match_id)
        else:
            self.records.keep(dataclasses.replace(
                rec, version=version, seq=linked[-1].seq, head=linked[-1].hash, cursor=cursor, state=state,
                raw={**rec.raw, **{k: _stored(v) for k, v in fields.items()}}))
        EVENTS_PUBLISHED(rec.game).inc(len(linked))
        if probe.get("returned"):
            RETURNS(rec.game).inc()
        if finished:
            MATCHES_FINISHED(rec.game).inc()
            await self.store.census_ended(rec.game, match_id)
            await self.ai.finished(match_id)
            await self._rate(rec, outcome)
        else:
            await self.ai.queue(match_id, due, version)
        if self.notices is not None:
            await self.notices.after_commit(rec.game, match_id, rec.seats, actor, began, version, finished,
                                            _turn_deadline_ms(clock, finished))
        return ActResult(version, [redact(e, seat, finished, sealer) for e in linked], False)

    async def _rate(self, rec: "MatchRecord", outcome) -> None:
        """Change the ratings of a rated match's players. After the commit: a failure here is
        logged and costs this match's rating change, never the match."""
        if self.ratings is None or outcome is None or rec.raw.get("rated") != b"1":
            return
        from services.players.ratings import AI_PLAYER

        try:
            await self.ratings.record(rec.match_id, rec.game, [s.player or AI_PLAYER for s in rec.seats],
                                      outcome.scores, outcome.winners)
        except Exception:
            log.exception("could not rate match %s", rec.match_id)

    async def matches_of(self, player: str, limit: int) -> list[MatchRecord]:
        """The player's newest matches that still exist, newest first."""
        out = []
        for match_id in await self.store.listed_matches(player, limit):
            try:
                out.append(await self.load(match_id))
            except NotFound:
                await self.store.unlist(player, match_id)
        return out

    async def repair_notices(self, player: str, limit: int = 50) -> int:
        """Send the player's turn notices lost after their commits (services/core/turn_notices.py)."""
        if self.notices is None:
            return 0
        return await self.notices.repair(
            player, await self.matches_of(player, limit), lambda rec: engine_for(rec.game).actor(rec.state),
            lambda rec: (clocks.deadline_ms(rec.clock) or 0) if rec.clock is not None else 0)

    async def _replayed(self, rec: "MatchRecord", answer: str, claim) -> ActResult:
        a = json.loads(answer)
        seat = None if claim is None else self._seat(rec, claim)  # None: the deadline sweep's own step
        events = await self.store.read_log(rec.match_id, a["first"] - 1, a["last"] - a["first"] + 1)
        sealer = sealer_for(rec.match_id, rec.raw)
        return ActResult(a["version"], [redact(e, seat, rec.finished, sealer) for e in events], True)

    async def _run_chance(self, engine: GameEngine, match_id: str, raw: dict, dice_token: str, state,
                          cursor: int, events: list) -> tuple[object, int]:
        """Fulfil every pending chance step with the match's dice, logging each roll."""
        for _ in range(MAX_CHANCE_STEPS):
            if engine.actor(state) != CHANCE:
                return state, cursor
            request = engine.chance_request(state)
            pools = [PoolSpec(p.purpose, p.count, tuple(p.faces)) for p in request.pools]
            drawing = time.perf_counter()
            try:
                faces, nonces = await self.dice.draw(match_id, dice_token, raw, cursor, pools)
            finally:
                DICE_DRAWS(engine.name).observe(time.perf_counter() - drawing)
            events.append(("roll", dicelog.roll_body([p.to_body() for p in pools], faces, nonces, request.secret)))
            state, chance_events = engine.apply_chance(state, faces)
            events += [(e["type"], e) for e in chance_events]
            cursor = nonces[-1][-1] + 1 if nonces and nonces[-1] else cursor
        raise RuntimeError(f"{engine.name}: more than {MAX_CHANCE_STEPS} chance steps in one action")

    # --- reads --------------------------------------------------------------------------
    async def load(self, match_id: str) -> MatchRecord:
        return self._record(match_id, await self.store.load(match_id))

    @staticmethod
    def _record(match_id: str, raw: dict) -> MatchRecord:
        if "game" not in raw:
            raise NotFound(f"no match {match_id!r}")
        engine = engine_for(raw["game"].decode())
        return MatchRecord(
            match_id=match_id, game=raw["game"].decode(),
            config=MatchConfig.from_dict(json.loads(raw["config"])),
            seats=[SeatInfo(s["index"], s["kind"], s["name"], s.get("player", ""), s.get("level", ""))
                   for s in json.loads(raw["seats"])],
            token_hashes=json.loads(raw["tokens"]), status=raw["status"].decode(), version=int(raw["v"]),
            seq=int(raw["seq"]), head=raw["head"].decode(), cursor=int(raw["cursor"]),
            commitment=raw["commitment"].decode(), state=engine.decode(raw["s"]), raw=raw,
        )

    def seat_of(self, rec: MatchRecord, claim) -> int | None:
        """The caller's seat, or None for a spectator (no token)."""
        return None if claim is None else self._seat(rec, claim)

    @staticmethod
    def _seat(rec: MatchRecord, claim, to_act: bool = False) -> int:
        """The seat the claim proves: its player's token, or (while a seat that ran out of time is
        played by AI, `to_act`; or ever since, to read) the stand-in's, derived from the AI key as
        an AI seat's is."""
        try:
            return seat_tokens.check(claim, rec.match_id, rec.token_hashes)
        except Unauthenticated:
            kept = (rec.clock or {}).get("stand_in" if to_act else "stand_in_reads", {})
            stand_in = kept.get(str(claim.seat)) if claim is not None else None
            if stand_in is None or claim.match_id != rec.match_id or not token_matches(claim.token, stand_in):
                raise
            return claim.seat

    async def legal_actions(self, match_id: str, claim) -> tuple[MatchRecord, int, list[tuple[dict, str, str]]]:
        rec = await self.load(match_id)
        seat = self._seat(rec, claim)
        engine = engine_for(rec.game)
        actions = [] if rec.finished else engine.legal_actions(rec.state, seat)
        return rec, seat, [(a, engine.label(rec.state, seat, a), engine.action_domain(a)) for a in actions]

    async def watch(self, match_id: str, claim, from_seq: int) -> AsyncIterator[LoggedEvent]:
        """Events after from_seq as the caller may see them, live until the match ends."""
        rec = await self.load(match_id)
        seat = self.seat_of(rec, claim)
        from_seq = min(from_seq, rec.seq)  # nothing lies past the newest event; a larger offset waits there
        sealer = sealer_for(match_id, rec.raw)
        if rec.finished:
            for event in await self.store.read_log(match_id, from_seq):
                yield redact(event, seat, True, sealer)
            return
        async for batch in self.store.follow_log(match_id, from_seq):
            ended = any(e.type == "dice_revealed" for e in batch)
            for event in batch:
                yield redact(event, seat, ended, sealer)
            if ended:
                return
