""""Your turn in match X" and "match X ended", one stream per player across all their matches.

A notice is written after the commit that made it true, by the process that committed:
* `your_turn` when a human seat of the player comes to act (a turn begins: the match's
  `turn` field, "<seat>:<version the turn began>", is kept in the same commit);
* `ended` when a match the player sits in ends (finished, resigned out, abandoned).
Each player has a Redis stream `{p:<player>}:turns` (the last KEEP notices, kept TTL_S after
the last one) and a hash `{p:<player>}:marks`, match -> the version of the newest notice sent
for it ("ended" once ended). One script checks the mark and appends, so a notice is sent once
however many processes try (a retried commit, a repair racing the committer), and never one
older than a notice already sent; both keys share the player's hash tag (Cluster-legal).

A process that dies between its commit and the notice loses it; `repair` finds such turns by
reading the player's matches (a turn whose beginning is newer than the match's mark) and sends
what is missing. WatchMyTurns repairs when a player connects and every REPAIR_S while watching,
so no turn is missed for long, and a notice is read again by resuming from the last id seen.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from services.core.metrics import METRICS, Children

log = logging.getLogger("archmage.turns")

KEEP = 1000  # notices kept per player (about: the stream is trimmed approximately)
TTL_S = 7 * 24 * 3600  # a player's notices live this long after the last one (the match TTL)
REPAIR_S = 30.0  # a watching player's matches are checked for lost notices this often
NOTICES = Children("turn_notices")

_SEND = """
-- KEYS: 1 the player's notice stream, 2 the player's marks; ARGV: match, version, kind, keep, ttl,
-- then the notice's fields as name, value pairs. Returns the new notice's id, or false when a
-- notice as new (or the match's end) was sent already.
local mark = redis.call('HGET', KEYS[2], ARGV[1])
if mark == 'ended' then return false end
if ARGV[3] ~= 'ended' and mark and tonumber(mark) >= tonumber(ARGV[2]) then return false end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3] == 'ended' and 'ended' or ARGV[2])
local fields = {}
for i = 6, #ARGV do fields[#fields + 1] = ARGV[i] end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '*', unpack(fields))
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return id
"""


def stream_key(player: str) -> str:
    return f"{{p:{player}}}:turns"


def marks_key(player: str) -> str:
    return f"{{p:{player}}}:marks"


def turn_field(actor: int, since: int) -> str:
    """The match's `turn` field: who acts and the version at which their turn began."""
    return f"{actor}:{since}"


def parse_turn(raw, version: int) -> tuple[int | None, int]:
    """(seat to act, version its turn began) from a stored `turn` field; a match stored before
    the field existed: (None, its version)."""
    if not raw:
        return None, version
    seat, since = (raw.decode() if isinstance(raw, bytes) else raw).split(":")
    return int(seat), int(since)


def next_turn(previous, actor: int, version: int) -> tuple[str, bool]:
    """The `turn` field after a commit at `version` leaves `actor` to act, and whether a turn
    began (another seat acts now, or the one that acted had its turn end and begin again)."""
    seat, since = parse_turn(previous, version)
    if seat == actor:
        return turn_field(actor, since), False
    return turn_field(actor, version), True


@dataclass(frozen=True)
class Notice:
    id: str
    kind: str  # "your_turn" | "ended"
    match_id: str
    game: str
    seat: int
    version: int
    deadline_ms: int
    at_ms: int


def _decoded(entry_id, fields: dict) -> Notice:
    f = {(k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v)
         for k, v in fields.items()}
    return Notice(entry_id.decode() if isinstance(entry_id, bytes) else entry_id, f["kind"], f["match"], f["game"],
                  int(f["seat"]), int(f["version"]), int(f.get("deadline_ms") or 0), int(f["at_ms"]))


class TurnNotices:
    def __init__(self, redis, keep: int = KEEP, ttl_s: int = TTL_S):
        self.redis, self.keep, self.ttl_s = redis, keep, ttl_s
        self._send = redis.register_script(_SEND)

    async def send(self, player: str, kind: str, match_id: str, game: str, seat: int, version: int,
                   deadline_ms: int = 0) -> str | None:
        """Append a notice unless one as new was sent for the match; its id, or None."""
        fields = {"kind": kind, "match": match_id, "game": game, "seat": seat, "version": version,
                  "deadline_ms": deadline_ms, "at_ms": int(time.time() * 1000)}
        flat = [str(x) for pair in fields.items() for x in pair]
        sent = await self._send(keys=[stream_key(player), marks_key(player)],
                                args=[match_id, version, kind, self.keep, self.ttl_s, *flat])
        if sent:
            NOTICES(kind).inc()
        return sent.decode() if isinstance(sent, bytes) else sent

    async def send_quietly(self, *args, **kwargs) -> None:
        """`send` after a commit: a failure is logged, never the commit's; `repair` sends it later."""
        try:
            await self.send(*args, **kwargs)
        except Exception as exc:
            log.warning("could not send a turn notice %s: %s", args[:4], exc)

    async def after_commit(self, game: str, match_id: str, seats, actor: int, began: bool, version: int,
                           finished: bool, deadline_ms: int = 0) -> None:
        """The notices a commit at `version` calls for: `ended` to every human seat's player of a
        match that ended; `your_turn` to the player of a human seat whose turn began."""
        if finished:
            for seat in seats:
                if seat.kind == "human" and seat.player:
                    await self.send_quietly(seat.player, "ended", match_id, game, seat.index, version)
        elif began and 0 <= actor < len(seats) and seats[actor].kind == "human" and seats[actor].player:
            await self.send_quietly(seats[actor].player, "your_turn", match_id, game, actor, version, deadline_ms)

    async def repair(self, player: str, records, actor_of, deadline_of) -> int:
        """Send what `player` should have been sent for these matches (MatchRecords) and was not:
        the turn of one of their seats begun after the match's mark, or the end of a match they
        were told of before. `actor_of(rec)` and `deadline_of(rec)` read the record. How many sent."""
        sent = 0
        marks = {(k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v)
                 for k, v in (await self.redis.hgetall(marks_key(player))).items()}  # one round trip for all
        for rec in records:
            mark = marks.get(rec.match_id)
            if rec.finished:
                if mark is not None and mark != "ended":
                    seat = next((s.index for s in rec.seats if s.player == player), 0)
                    sent += bool(await self.send(player, "ended", rec.match_id, rec.game, seat, rec.version))
                continue
            actor, since = parse_turn(rec.raw.get("turn"), rec.version)
            actor = actor_of(rec) if actor is None else actor
            if not 0 <= actor < len(rec.seats) or rec.seats[actor].player != player \
                    or rec.seats[actor].kind != "human":
                continue
            if mark is None or mark == "ended" or int(mark) < since:
                sent += bool(await self.send(player, "your_turn", rec.match_id, rec.game, actor, since,
                                             deadline_of(rec)))
        if sent:
            METRICS.turn_notices_repaired.inc(sent)
        return sent

    async def read(self, player: str, after_id: str, block_ms: int, count: int = 100) -> list[Notice]:
        """The notices after `after_id` ("0": every one kept), waiting up to block_ms for one."""
        reply = await self.redis.xread({stream_key(player): after_id or "0"}, block=block_ms, count=count)
        return [_decoded(entry_id, fields) for _, entries in reply or () for entry_id, fields in entries]

    async def last_id(self, player: str) -> str:
        """The id of the player's newest notice ("0-0" when none)."""
        newest = await self.redis.xrevrange(stream_key(player), count=1)
        return (newest[0][0].decode() if isinstance(newest[0][0], bytes) else newest[0][0]) if newest else "0-0"


