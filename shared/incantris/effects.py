"""Persistent spells: their tokens, recasting, cancelling, Cleansing Fire and Blaze.

Casting Spells: "A wizard may only have one persistent effect created from a single spell
at a time in the arena ... if it is successfully cast again, its spell token is moved from
the previous position to the new position ... If the wizard attempts to cast the spell
again but fails, the first instance of the spell's effect remains." So an effect's id is
"<caster>:<spell>" and placing it again replaces the old one.

Reading (authored): when a caster dies, his or her persistent spells stay in the arena, as
the rulebook says of Guardian Hydra and Power Circle; a dead caster's Blaze can no longer
be rolled and a dead caster's hydra no longer casts.
"""
from __future__ import annotations

from shared.engine import MalformedAction
from shared.hexgrid import Hex, neighbours
from shared.incantris import attack, dice, flow, match
from shared.incantris.arena import as_hex
from shared.incantris.state import Effect, IncantrisState, Placement, Roll, Task, Wizard
from shared.incantris.tasks import Clause
from shared.incantris.tasks import Task as Step


def place(state: IncantrisState, caster: Wizard, spell: str, where: Placement, ev: list, bonus: int = 0) -> Effect:
    key = f"{caster['id']}:{spell}"
    moved = key in state.effects
    e: Effect = {"id": key, "spell": spell, "caster": caster["id"], "side": caster["side"], "since": state.serial}
    e.update(where)
    if bonus:
        e["bonus"] = bonus
    state.edit("effects")[key] = e
    match.event(ev, "effect-moved" if moved else "effect-placed", effect=key, **where)
    return e


def remove(state: IncantrisState, key: str, reason: str, ev: list) -> None:
    if key in state.effects:
        del state.edit("effects")[key]
        match.event(ev, "effect-ended", effect=key, reason=reason)


def cancel_options(state: IncantrisState, w: Wizard) -> list[dict]:
    """A wizard may cancel one of his or her own persistent spells on his or her turn."""
    return [{"kind": "cancel", "effect": e["id"]} for e in match.effects(state) if e["caster"] == w["id"]]


def cleanse_targets(state: IncantrisState, w: Wizard, here: Hex) -> list[str]:
    """Cleansing Fire: effects affecting the Sorcerer/Sorceress, in the hex he/she occupies
    (or the totem's, when used from it), in an adjacent hex, or on an adjacent wizard.
    FAQ 2: touching any part of a Blaze or Power Circle is enough to cancel all of it."""
    near = {here, *neighbours(here)}
    adjacent_wizards = {x["id"] for x in match.on_board(state) if as_hex(x["hex"]) in near and x["id"] != w["id"]}
    out = []
    for e in match.effects(state):
        if e.get("wizard") == w["id"] or e.get("wizard") in adjacent_wizards:
            out.append(e["id"])
        elif any(h in near for h in match.effect_hexes(e)):
            out.append(e["id"])
    return out


def blaze_at(state: IncantrisState, h: Hex) -> list[Effect]:
    """Blazes covering h that may bite now: "on future turns" after the one it was cast."""
    return [e for e in match.effects(state) if e["spell"] == "blaze" and e["since"] < state.serial
            and h in match.effect_hexes(e)]


def _blaze_tasks(state: IncantrisState, w: Wizard, h: Hex) -> list[Task]:
    """FAQ 3: once per hex per turn; the caster may roll 1D+2 elemental against the wizard."""
    t = state.turn
    key = f"{w['id']}@{h[0]},{h[1]}"
    if t is None or key in t["burned"]:
        return []
    tasks: list[Task] = []
    for e in blaze_at(state, h):
        caster = match.wizard(state, e["caster"])
        if not caster["alive"]:
            continue
        if key not in t["burned"]:
            t["burned"].append(key)
        tasks.append({"t": "blaze", "effect": e["id"], "target": w["id"]})
    return tasks


def blaze_on_enter(state: IncantrisState, w: Wizard, h: Hex) -> list[Task]:
    """A wizard "enters a hex occupied by the blaze" (by moving, Primal Reach or Teleport, FAQ 7)."""
    return _blaze_tasks(state, w, h)


def blaze_on_stay(state: IncantrisState, w: Wizard, ev: list) -> None:
    """A wizard "ends his or her turn in a hex occupied by the blaze" (not if it was burned
    entering that hex this turn, FAQ 3)."""
    tasks = _blaze_tasks(state, w, as_hex(w["hex"]))
    for task in tasks:
        flow.push_back(state, task)


class BlazeBite(Step):
    """The Blaze's caster decides whether to roll against the wizard (the rulebook: "may")."""

    kind = "blaze"
    rule = Clause("Blaze", "on future turns the caster may roll 1D+2 with an elemental power source against any "
                           "wizard that enters a hex occupied by the blaze")

    def waits(self, state, task):
        e = state.effects.get(task["effect"])
        target = match.wizard(state, task["target"])
        if e is None or not match.in_arena(target):
            return None
        seat = state.sides[e["side"]]["seat"]
        return None if seat is None else ("seat", seat)

    def options(self, state, task):
        return [{"kind": "blaze", "burn": False}, {"kind": "blaze", "burn": True}]

    def choose(self, state, task, action, ev):
        flow.pop(state)
        if action["burn"]:
            self._burn(state, task, ev)
        else:
            match.event(ev, "blaze-spared", wizard=task["target"], effect=task["effect"])

    def run(self, state, task, ev):
        flow.pop(state)
        e = state.effects.get(task["effect"])
        target = match.wizard(state, task["target"])
        if e is None or not match.in_arena(target):
            return
        if target["side"] != e["side"]:  # an engine-played caster burns foes only
            self._burn(state, task, ev)

    def _burn(self, state: IncantrisState, task: Task, ev: list) -> None:
        e = state.effects[task["effect"]]
        target = match.wizard(state, task["target"])
        bonus = e.get("bonus", 0)  # FAQ 5: +1 only if cast from inside a Power Circle
        caster = match.wizard(state, e["caster"])
        cast: Roll = {"dice": 1, "plus": 2 + bonus}  # Blaze: "roll 1D+2 with an elemental power source"
        flow.push_front(state, attack.new(state, "blaze", caster["id"], e["side"], "elemental", target["id"], cast,
                                          dice.ward_roll(state, target, "elemental")))


CANCEL = Clause("Casting Spells", "A wizard may cancel one of his or her own persistent spells on his or her turn in "
                                  "addition to moving and casting a spell.")


def refuse_cancel(state: IncantrisState, w: Wizard, action: dict, cancelled: bool):
    e = state.effects.get(action["effect"])
    if e is None:
        raise MalformedAction(f"no persistent spell {action['effect']!r} in the arena")
    if e["caster"] != w["id"]:
        return CANCEL.violated(f"{action['effect']} is not {w['id']}'s own")
    return CANCEL.violated(f"{w['id']} cancelled one of its persistent spells this turn")
