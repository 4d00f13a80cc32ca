"""The card language: what the engine reads from Task, Event and Wizard cards.

Task steps (content/tasks.json):   go / return / take (each marked by a Task Marker
in the space its "where" names, 9.1), meet (a High Wizard, Master Sorcerer,
Hamdrel, Rüktal or the Mentor: no marker, recorded "W", 14.24) and visit_every.
Event effects (content/events.json): ops such as gain_points, transport, movement;
Movement cards last a number of days (8.51).
"""
from __future__ import annotations

from typing import Mapping

from shared.wizards.pack import pack
from shared.wizards.state import Player

MARKED_STEPS = ("go", "return", "take")


def task_marker_wheres(card: Mapping) -> list[tuple[int, Mapping]]:
    """(step index, where) for each step of a Task Card marked with a Task Marker (9.1)."""
    return [(i, step["where"]) for i, step in enumerate(card["steps"]) if step["do"] in MARKED_STEPS]


def held_effects(p: Player, op: str) -> list[Mapping]:
    """Effects `op` of the Event Cards a player holds that are still running."""
    out = []
    for held in p["events"]:
        days = held.get("days")
        if days is not None and days <= 0:
            continue
        for effect in pack().event(held["card"])["effects"]:
            if effect["op"] == op:
                out.append(effect)
    return out


def movement_modifiers(p: Player) -> tuple[int, frozenset[str]]:
    """The running Movement Event Cards: points added to the Movement Roll and the
    terrains crossed as if Plains (8.51 MOVEMENT)."""
    add, plains = 0, set()
    for effect in held_effects(p, "movement"):
        add += effect.get("add", 0)
        plains.update(effect.get("as_plains", ()))
    return add, frozenset(plains)
