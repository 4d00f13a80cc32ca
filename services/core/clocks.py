"""Match clocks: the time control a match chose, and the arithmetic of its seats' time.

A time control is one of
* none (the default): no clock, nothing kept;
* "turn": each turn of a seat has `turn_s`, and once that is spent the seat's time bank
  (`bank_s`, the whole match's) runs; a turn is every step a seat takes before another
  seat is to act;
* "total": chess-style, each seat has `total_s` for the whole match.
When a seat's time runs out (`on_timeout`), its seat is played by a stand-in AI at the default
level until its player acts again ("ai", the default), or the player forfeits ("forfeit",
the engine's resign(): the match goes on or ends as the game's rules say).

The clock is server time in whole milliseconds, kept in the match record (field `clock`,
JSON) and changed by the commit of the step that stops or starts it, in the same
compare-and-set. Only a human seat's clock runs; an AI seat, a chance step and a seat played
by its stand-in run none. A seat played by its stand-in gives its player `grace_s` at the
start of each of its turns to come back (by acting) before the stand-in plays it.

Every function here is pure: the caller passes the time in.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from services.core.errors import BadRequest

MODES = ("none", "turn", "total")
ON_TIMEOUT = ("ai", "forfeit")
MIN_LIMIT_S = 1.0  # a turn or a whole match of less than a second cannot be played over a network
MAX_LIMIT_S = 30 * 24 * 3600.0  # a turn, a bank or a match total of at most 30 days
DEFAULT_GRACE_S = 5.0


@dataclass(frozen=True)
class TimeControl:
    mode: str = "none"
    turn_s: float = 0.0
    bank_s: float = 0.0
    total_s: float = 0.0
    on_timeout: str = "ai"

    @property
    def clocked(self) -> bool:
        return self.mode != "none"

    def to_dict(self) -> dict:
        return {"mode": self.mode, "turn_s": self.turn_s, "bank_s": self.bank_s, "total_s": self.total_s,
                "on_timeout": self.on_timeout}


def _seconds(name: str, value, minimum: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BadRequest(f"time_control.{name} must be a number of seconds", f"time_control.{name}")
    if value < 0:
        raise BadRequest(f"time_control.{name} cannot be negative ({value:g} s)", f"time_control.{name}")
    if value > MAX_LIMIT_S:
        raise BadRequest(f"time_control.{name} is at most {MAX_LIMIT_S:g} s (30 days), not {value:g}",
                         f"time_control.{name}")
    if 0 < value < minimum or (minimum and value == 0):
        raise BadRequest(f"time_control.{name} is at least {minimum:g} s, not {value:g}", f"time_control.{name}")
    return float(value)


def checked(mode: str, turn_s=0.0, bank_s=0.0, total_s=0.0, on_timeout: str = "") -> TimeControl:
    """The time control asked for, checked; BadRequest names the field that is wrong. Fields the
    mode does not use must be left at zero, so a request never means something it does not say."""
    mode = mode or "none"
    on_timeout = on_timeout or "ai"
    if mode not in MODES:
        raise BadRequest(f"time_control.mode is one of {', '.join(MODES)}, not {mode[:40]!r}", "time_control.mode")
    if on_timeout not in ON_TIMEOUT:
        raise BadRequest(f"time_control.on_timeout is 'ai' or 'forfeit', not {on_timeout[:40]!r}",
                         "time_control.on_timeout")
    used = {"none": (), "turn": ("turn_s", "bank_s"), "total": ("total_s",)}[mode]
    given = {"turn_s": turn_s, "bank_s": bank_s, "total_s": total_s}
    for name, value in given.items():
        if name not in used:
            _seconds(name, value, 0.0)
            if value:
                raise BadRequest(f"time_control.{name} is not used by mode {mode!r}; leave it 0",
                                 f"time_control.{name}")
    if mode == "turn":
        return TimeControl(mode, _seconds("turn_s", turn_s, MIN_LIMIT_S), _seconds("bank_s", bank_s, 0.0), 0.0,
                           on_timeout)
    if mode == "total":
        return TimeControl(mode, 0.0, 0.0, _seconds("total_s", total_s, MIN_LIMIT_S), on_timeout)
    return TimeControl(on_timeout=on_timeout)


def from_pb(msg) -> TimeControl:
    """A proto TimeControl (archmage.matchmaking.v1), checked; an unset one is no clock."""
    return checked(msg.mode, msg.turn_s, msg.bank_s, msg.total_s, msg.on_timeout)


def from_dict(d: dict | None) -> TimeControl:
    return TimeControl() if not d else checked(d["mode"], d["turn_s"], d["bank_s"], d["total_s"], d["on_timeout"])


# --- the clock of a match -----------------------------------------------------------------
def start(control: TimeControl, seats: int, grace_s: float, now_ms: int) -> dict:
    """A new match's clock, stopped (the first commit starts it)."""
    left = int(control.bank_s * 1000) if control.mode == "turn" else int(control.total_s * 1000)
    return {"mode": control.mode, "turn_ms": int(control.turn_s * 1000), "on_timeout": control.on_timeout,
            "grace_ms": int(grace_s * 1000), "control": control.to_dict(), "left": [left] * seats,
            "turn_left": 0, "running": -1, "since": now_ms, "stand_in": {}}


def _charge(clock: dict, now_ms: int) -> int:
    """Stop the running seat's clock at now_ms: the time it used since its clock last started."""
    seat, used = clock["running"], max(0, now_ms - clock["since"])
    if clock["mode"] == "turn":
        from_turn = min(used, clock["turn_left"])
        clock["turn_left"] -= from_turn
        clock["left"][seat] = max(0, clock["left"][seat] - (used - from_turn))
    else:
        clock["left"][seat] = max(0, clock["left"][seat] - used)
    clock["since"] = now_ms
    return used


def advance(clock: dict, acting: int | None, actor: int, seat_kinds: list[str], now_ms: int) -> tuple[dict, int | None]:
    """The clock after a commit in which seat `acting` stepped (None: no seat did, as a timeout)
    and after which `actor` is to act (a seat, or CHANCE/TERMINAL below 0). Returns the new
    clock and the time the acting seat used on its running clock (None when its clock did not run)."""
    clock = {**clock, "left": list(clock["left"]), "stand_in": dict(clock["stand_in"])}
    running, used = clock["running"], None
    if running >= 0 and (acting == running or actor != running):
        spent = _charge(clock, now_ms)
        if acting == running:
            used = spent
    if running >= 0 and actor == running:
        return clock, used  # the same turn goes on (its seat stepped again, or another seat reacted)
    runs = actor >= 0 and seat_kinds[actor] == "human" and str(actor) not in clock["stand_in"]
    clock["running"] = actor if runs else -1
    clock["turn_left"] = clock["turn_ms"] if runs else 0
    clock["since"] = now_ms
    clock["waiting"] = actor if actor >= 0 and str(actor) in clock["stand_in"] else -1
    return clock, used


def deadline_ms(clock: dict) -> int | None:
    """When the running seat's time runs out (None when no seat's clock runs)."""
    seat = clock["running"]
    if seat < 0:
        return None
    return clock["since"] + clock["turn_left"] + clock["left"][seat]


def due_ms(clock: dict) -> int | None:
    """When the deadline sweep must next look at the match: the running seat's deadline, or the
    end of the grace a stand-in gives its player before it plays a turn, or None."""
    d = deadline_ms(clock)
    if d is not None:
        return d
    if clock.get("waiting", -1) >= 0:
        return clock["since"] + clock["grace_ms"]
    return None


def remaining_ms(clock: dict, seat: int, now_ms: int) -> int:
    """What seat `seat` has left now: the rest of its turn and its bank (turn), or its total."""
    if seat == clock["running"]:
        return max(0, (deadline_ms(clock) or 0) - now_ms)
    return clock["left"][seat]


def timed_out(clock: dict, seat: int, stand_in_hash: str | None, now_ms: int) -> dict:
    """The clock once seat `seat` ran out at now_ms: nothing left, its clock stopped, and (when its
    stand-in takes over, `stand_in_hash` the hash of the stand-in's seat token) played by AI."""
    clock = {**clock, "left": list(clock["left"]), "stand_in": dict(clock["stand_in"])}
    clock["left"][seat] = 0
    clock["turn_left"] = 0
    clock["running"] = -1
    clock["since"] = now_ms
    if stand_in_hash is not None:
        clock["stand_in"][str(seat)] = stand_in_hash
        # kept once its player is back, for reading only: a stand-in's turn queued just before then
        # reads the match, finds it moved on and stops, as any stale AI turn does
        clock["stand_in_reads"] = {**clock.get("stand_in_reads", {}), str(seat): stand_in_hash}
    return clock


def returned(clock: dict, seat: int) -> dict:
    """The clock once seat `seat`'s player acts again: its stand-in is gone."""
    clock = {**clock, "stand_in": {k: v for k, v in clock["stand_in"].items() if k != str(seat)}}
    if clock.get("waiting") == seat:
        clock["waiting"] = -1
    return clock
