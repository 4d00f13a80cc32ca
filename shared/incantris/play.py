"""The side's turn while the match is played (Sequence of Play): activate one wizard, then
that wizard's choices - step, cast, the hydra, Cleansing Fire, cancelling, sapping, picking up,
items - until it ends its turn. Each kind of action has its options, its rule and its refusal
in one row of `ACTIONS`; the engine routes to `SideTurn` when nothing is queued.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from shared.engine import MalformedAction, RuleViolation
from shared.incantris import campaign, casting, effects, match, scenarios, turns, walking
from shared.incantris.arena import as_hex
from shared.incantris.movement import SHARE, passing_through
from shared.incantris.state import IncantrisState
from shared.incantris.tasks import Clause, Task

ACTIVATE = Clause("Sequence of Play", "The player selects a wizard to activate and flips the corresponding turn token "
                                      "over to indicate that wizard has been activated this round.")
ONCE_A_ROUND = Clause("Sequence of Play", "A player may only activate one wizard per turn, and wizards may only be "
                                          "activated once per round.")
OWN_WIZARD = Clause("Sequence of Play", "On a turn, a player may activate only one of his or her wizards.")
ACTIVE_ONLY = Clause("Sequence of Play", "The active wizard may move and cast a spell or cast a spell and then move.")


@dataclass(frozen=True)
class Kind:
    """One kind of action on a wizard's turn: what may be done, doing it, and why not."""
    options: Callable[[IncantrisState, str | None], list[dict]]
    apply: Callable[[IncantrisState, dict, list], None]
    refuse: Callable[[IncantrisState, dict], RuleViolation]


def _cleanse(s: IncantrisState, action: dict, ev: list) -> None:
    wiz = turns.acting(s)
    turns.used_cast(s, "cleansing-fire")
    match.event(ev, "cleansing-fire", wizard=wiz["id"], effect=action["effect"])
    effects.remove(s, action["effect"], "Cleansing Fire", ev)


def _cancel(s: IncantrisState, action: dict, ev: list) -> None:
    turns.current(s)["cancelled"] = True
    effects.remove(s, action["effect"], "cancelled by its caster", ev)


def _cancel_options(s: IncantrisState, _spell: str | None) -> list[dict]:
    t = turns.current(s)
    return [] if t["cancelled"] else effects.cancel_options(s, turns.acting(s))


def _end_refused(s: IncantrisState, action: dict) -> RuleViolation:
    w = turns.acting(s)
    return SHARE.violated(f"{w['id']} is passing through {w['hex']} and cannot end its movement there")


ACTIONS: dict[str, Kind] = {
    "step": Kind(lambda s, _: [a for a in walking.step_options(s) if a["kind"] == "step"],
                 lambda s, a, ev: walking.step(s, turns.acting(s), as_hex(a["to"]),
                                               walking.step_cost(s, turns.acting(s), as_hex(a["to"])), ev),
                 lambda s, a: walking.refuse_step(s, as_hex(a["to"]))),
    "exit": Kind(lambda s, _: [a for a in walking.step_options(s) if a["kind"] == "exit"],
                 lambda s, a, ev: walking.exit_arena(s, turns.acting(s), ev),
                 lambda s, a: walking.refuse_exit(s)),
    "cast": Kind(lambda s, spell: casting.cast_options(s, spell), casting.cast, casting.refuse_cast),
    "hydra": Kind(lambda s, _: casting.hydra_options(s), casting.hydra, casting.refuse_hydra),
    "cleanse": Kind(lambda s, _: casting.cleanse_options(s), _cleanse, casting.refuse_cleanse),
    "cancel": Kind(_cancel_options, _cancel,
                   lambda s, a: effects.refuse_cancel(s, turns.acting(s), a, turns.current(s)["cancelled"])),
    "sap": Kind(lambda s, _: scenarios.sap_options(s), scenarios.sap, scenarios.refuse_sap),
    "pick-up": Kind(lambda s, _: scenarios.pick_up_options(s), scenarios.pick_up, scenarios.refuse_pick_up),
    "potion": Kind(lambda s, _: [a for a in campaign.item_options(s) if a["kind"] == "potion"],
                   lambda s, a, ev: campaign.potion(s, ev), campaign.refuse_item),
    "boots": Kind(lambda s, _: [a for a in campaign.item_options(s) if a["kind"] == "boots"],
                  lambda s, a, ev: campaign.boots(s, ev), campaign.refuse_item),
    "end": Kind(lambda s, _: [{"kind": "end"}], lambda s, a, ev: turns.end_turn(s, ev), _end_refused),
}
MOVING = ("step", "exit")  # what a wizard passing through a team-mate's hex (or its own fog) may do


class SideTurn(Task):
    kind = "turn"
    rule = ACTIVE_ONLY

    def waits(self, state, task):
        t = state.turn
        if t is None or (t["wizard"] is None and state.sides[t["side"]]["auto"]):
            return None
        return ("seat", state.sides[t["side"]]["seat"])

    def options(self, state, task, kind: str | None = None, spell: str | None = None) -> list[dict]:
        t = state.turn
        if t is None:
            return []
        if t["wizard"] is None:
            if kind not in (None, "activate"):
                return []
            return [{"kind": "activate", "wizard": wid} for wid in turns.waiting_wizards(state, t["side"])]
        if t["ending"]:
            return []
        wiz = turns.acting(state)
        here = as_hex(wiz["hex"])
        passing = passing_through(state, wiz, here)
        out: list[dict] = []
        for name, row in ACTIONS.items():
            if kind is not None and name != kind:
                continue
            if passing and name not in MOVING:
                continue  # still moving through
            out += row.options(state, spell)
        return out

    def accepts(self, state, task, action):
        spell = action.get("spell") if action["kind"] == "cast" else None
        return action in self.options(state, task, action["kind"], spell)

    def choose(self, state, task, action, ev):
        if action["kind"] == "activate":
            turns.activate(state, action["wizard"], ev)
            return
        ACTIONS[action["kind"]].apply(state, action, ev)

    def refuse(self, state, task, action):
        kind = action["kind"]
        t = state.turn
        assert t is not None, "a seat acts only on a turn"
        if kind == "activate":
            wid = action["wizard"]
            if wid not in state.wizards:
                raise MalformedAction(f"no wizard {wid!r}")
            w = state.wizards[wid]
            if t["wizard"] is not None:
                return ONCE_A_ROUND.violated(f"{t['wizard']} is active this turn")
            if w["side"] != t["side"]:
                return OWN_WIZARD.violated(f"{wid} is not on this player's team")
            if not w["alive"]:
                return casting.DEAD.violated(f"{wid} is dead")
            return ONCE_A_ROUND.violated(f"{wid} was activated this round")
        if t["wizard"] is None:
            return ACTIVATE.violated(f"no wizard is active yet: activate one before {kind!r}")
        if kind not in ACTIONS:
            return self.rule.violated(f"{kind!r} is not an action of a wizard's turn")
        wiz = turns.acting(state)
        here = as_hex(wiz["hex"])
        if kind not in MOVING and passing_through(state, wiz, here):
            return casting.PASSING.violated(f"{wiz['id']} is passing through {list(here)}")
        return ACTIONS[kind].refuse(state, action)
