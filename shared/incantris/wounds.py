"""Damage, healing and death (Damage and Death).

"Whenever a wizard suffers points of damage, he or she loses the same number of life
points ... When a wizard reaches zero life points, he or she is dead and is removed from
the arena. The wizard's corresponding turn token is also removed from play."
"""
from __future__ import annotations

from shared.incantris import match, scenarios, turns
from shared.incantris.state import IncantrisState, Task, Wizard


def heal(state: IncantrisState, w: Wizard, points: int, ev: list) -> int:
    """Regain life; "Life points cannot exceed the wizard's starting number"."""
    before = w["life"]
    w["life"] = min(w["max"], w["life"] + max(0, points))
    match.event(ev, "heal", wizard=w["id"], points=w["life"] - before, life=w["life"])
    return w["life"] - before


def damage(state: IncantrisState, w: Wizard, points: int, by_side: int | None, ev: list) -> int:
    """Take `points` damage; returns the life actually lost."""
    if points <= 0 or not w["alive"]:
        return 0
    lost = min(points, w["life"])
    w["life"] -= lost
    state.stirred = True  # the match is not at a stalemate (scenarios.py)
    match.event(ev, "damage", wizard=w["id"], points=lost, life=w["life"])
    if w["life"] <= 0:
        kill(state, w, by_side, ev)
    return lost


def kill(state: IncantrisState, w: Wizard, by_side: int | None, ev: list) -> None:
    where = w["hex"]
    w["alive"] = False
    w["life"] = 0
    w["hex"] = None
    w["done"] = True
    match.event(ev, "death", wizard=w["id"], side=w["side"], hex=where)
    # persistent spells placed on the dead wizard go with it
    for key in [k for k, e in state.effects.items() if e.get("wizard") == w["id"]]:
        del state.edit("effects")[key]
        match.event(ev, "effect-ended", effect=key, reason="target died")
    # Experience: "every time one of the player's wizards kills a wizard on another team"
    if by_side is not None and by_side != w["side"]:
        state.edit("sides", by_side)["kills"] += 1
    scenarios.on_death(state, w, where, ev)
    side = state.sides[w["side"]]
    if side["out"] is None and not any(x["side"] == w["side"] for x in match.living(state)):
        state.edit("sides", w["side"])["out"] = state.serial
        match.event(ev, "eliminated", side=w["side"], seat=side["seat"])
    t = state.turn
    if t is not None and t.get("wizard") == w["id"] and not t.get("ending"):
        turns.end_turn(state, ev)
    # drop pending steps that can no longer happen to or by the dead wizard
    state.queue = [task for task in state.queue if not _moot(task, w["id"])]


def _moot(task: Task, wid: str) -> bool:
    if task["t"] in ("blaze", "shove", "teleport") and task.get("target") == wid:
        return True
    return task["t"] == "auto" and task.get("wizard") == wid
