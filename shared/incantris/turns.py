"""Rounds, turns and activations (Sequence of Play).

Each round every living wizard is activated once. Turns pass round the table (side 0
first every round, the attacking team first in the solo game); on a turn the side activates
one of its wizards whose turn token is not yet flipped. A side with no wizard left to
activate is skipped, so skipped turns always fall at the end of a round (FAQ 6). When every
living wizard has acted the round ends, the Shifting Arena shifts, and the tokens flip back.
"""
from __future__ import annotations

from shared.engine import ChanceRequest, DicePool
from shared.hexgrid import Hex
from shared.incantris import effects, flow, match, shifting
from shared.incantris.arena import as_hex
from shared.incantris.state import IncantrisState, Turn, Wizard
from shared.incantris.tasks import Task as Step


def waiting_wizards(state: IncantrisState, side: int) -> list[str]:
    """Living wizards of a side whose turn token is still portrait side up."""
    return [w["id"] for w in match.living(state) if w["side"] == side and not w["done"]]


def begin_turn(state: IncantrisState, side: int, ev: list) -> None:
    state.serial += 1
    state.turn = {"side": side, "wizard": None}
    match.event(ev, "turn", side=side, seat=state.sides[side]["seat"], round=state.round)


def activate(state: IncantrisState, wid: str, ev: list) -> None:
    """Flip the wizard's turn token and fill its movement points (Movement & Terrain:
    "Movement points return to full at the start of the wizard's turn")."""
    w = match.wizard(state, wid)
    w["done"] = True
    mp = match.kind(w).movement
    if match.has_effect_on(state, "entanglement", wid):
        mp = min(mp, 2)  # Entanglement: "reduced to only two per turn"
    t = current(state)
    here = match.hex_of(w)
    # Bear Presence binds a wizard that "begins his or her turn adjacent to the Shaman"
    bound = [] if here is None else [s["id"] for s in match.on_board(state) if s["type"] == "shaman"
                                     and match.opposed(state, s, w) and match.adjacent(as_hex(s["hex"]), here)]
    t.update({"wizard": wid, "bound": bound, "mp": mp, "spent": 0, "moved": False, "cast": False, "locked": False,
              "halted": False, "cancelled": False, "hydra": False, "sapped": False, "boots": False,
              "ending": False, "start": w["hex"], "burned": []})
    match.event(ev, "activate", wizard=wid, side=w["side"], movement=mp)


def budget(state: IncantrisState) -> int:
    """Movement points the active wizard may still spend now.

    "Movement may not be split before and after spell casting" - except Shadow Dance:
    move, cast, move again, no more than five points in all."""
    t = state.turn
    w = active(state)
    if t is None or w is None or t["halted"] or t["ending"]:
        return 0
    if t["locked"]:
        if match.ability(w) == "shadow-dance":
            return max(0, min(t["mp"], 5 - t["spent"]))
        return 0
    return t["mp"]


def used_cast(state: IncantrisState, what: str = "spell", closes: bool = True) -> None:
    """A spell (or an ability used instead of one: `what`) closes the first movement (the Red
    Potion does not: "The wizard may still move as normal on the turn the potion is drunk")."""
    t = current(state)
    t["cast"] = True
    t["cast_as"] = what
    if t["moved"] and closes:
        t["locked"] = True


def end_turn(state: IncantrisState, ev: list) -> None:
    """End the active wizard's turn: Blaze bites a wizard ending its turn in it (FAQ 3)."""
    t = state.turn
    if t is None or t.get("ending"):
        return
    t["ending"] = True
    wid = t.get("wizard")
    if wid is not None:
        w = match.wizard(state, wid)
        if match.in_arena(w):
            effects.blaze_on_stay(state, w, ev)
        match.event(ev, "end-turn", wizard=wid)
    flow.push_back(state, {"t": "next"})


def start_round(state: IncantrisState, ev: list) -> None:
    for w in match.living(state):
        w["done"] = False
    for side in range(len(state.sides)):
        if waiting_wizards(state, side):
            begin_turn(state, side, ev)
            return
    state.turn = None


def advance(state: IncantrisState, ev: list) -> bool:
    """With nothing queued: start whatever runs by itself. False when a seat must act."""
    if state.phase != "play":
        return False
    t = state.turn
    if t is None:
        match.event(ev, "round", round=state.round)
        start_round(state, ev)
        return state.turn is not None
    if t["wizard"] is None and state.sides[t["side"]]["auto"]:
        flow.push_back(state, {"t": "draw", "side": t["side"]})
        return True
    return False


class NextTurn(Step):
    """Play passes to the next side with a wizard to activate, or the round ends."""

    kind = "next"

    def waits(self, state, task):
        return None

    def run(self, state, task, ev):
        flow.pop(state)
        current = state.turn["side"] if state.turn else -1
        state.turn = None
        n = len(state.sides)
        for k in range(1, n + 1):
            side = (current + k) % n
            if waiting_wizards(state, side):
                begin_turn(state, side, ev)
                return
        # the round is over; a round in which no wizard lost life and no crystal moved is quiet
        state.quiet = 0 if state.stirred else state.quiet + 1
        state.stirred = False
        match.event(ev, "round-end", round=state.round, quiet=state.quiet)
        if state.shift:
            shifting.queue_shift(state, ev)
        flow.push_back(state, {"t": "round"})


class NewRound(Step):
    """Turn tokens flip back to the portrait side and a new round begins."""

    kind = "round"

    def waits(self, state, task):
        return None

    def run(self, state, task, ev):
        flow.pop(state)
        state.round += 1
        match.event(ev, "round", round=state.round)
        start_round(state, ev)


class DrawToken(Step):
    """Solo Play: the attacking wizard to act is drawn at random from its face-down tokens."""

    kind = "draw"

    def waits(self, state, task):
        return "chance" if len(waiting_wizards(state, task["side"])) > 1 else None

    def chance(self, state, task):
        return ChanceRequest((DicePool("attacking turn token", 1, tuple(waiting_wizards(state, task["side"]))),))

    def roll(self, state, task, outcome, ev):
        flow.pop(state)
        wid = outcome[0][0]
        match.event(ev, "token-drawn", wizard=wid)
        self._go(state, wid, ev)

    def run(self, state, task, ev):
        flow.pop(state)
        wid = waiting_wizards(state, task["side"])[0]
        self._go(state, wid, ev)

    def _go(self, state, wid, ev):
        activate(state, wid, ev)
        flow.push_back(state, {"t": "auto", "wizard": wid, "stage": "plan"})


def active(state: IncantrisState) -> Wizard | None:
    t = state.turn
    wid = t.get("wizard") if t is not None else None
    return None if wid is None else match.wizard(state, wid)


def current(state: IncantrisState) -> Turn:
    """The turn under way, for the rules that only run during one."""
    assert state.turn is not None, "no turn is under way"
    return state.turn


def acting(state: IncantrisState) -> Wizard:
    """The active wizard, for the rules that only run on its turn."""
    w = active(state)
    assert w is not None, "no wizard is active"
    return w


def start_hex(state: IncantrisState) -> Hex | None:
    t = state.turn
    start = t.get("start") if t is not None else None
    return as_hex(start) if start is not None else None
