"""Specific Encounters with places (7.301, 7.32-7.39): the tables of the Towns, the Elven
Dwellings, Shrineheart Abbey, High Hollow and the Star Crest, and the Mentors who live
in places (Rüktal, the Master Sorcerers, Hamdrel).

Each table is "roll TWO dice, reading only the higher die"; the roll is not taken when
the player came to fulfil a Task there or a High Wizard is present (7.3011, 7.361,
7.3712, 7.382, 7.391): `item["fulfils"]`, `item["wizard_present"]`.
"""
from __future__ import annotations

from shared.wizards import resolution
from shared.wizards.encounters import Encounter
from shared.wizards.resolution import handler, higher, push, two_dice


def skips_table(item: dict) -> bool:
    return bool(item.get("fulfils") or item.get("wizard_present"))


@handler("elves")
class ElvenDwelling(Encounter):
    """7.39: 1-2 one die doubled in points of any type, 3-4 one die of points, 5-6 the
    Elves elude him."""

    rule = "7.39"

    def start(self, state: dict, item: dict, events: list) -> None:
        if skips_table(item):  # 7.391
            resolution.done(state, item)
            return
        two_dice(state, item, "Elven Dwelling (7.39)")

    def rolled(self, state: dict, item: dict, faces: list, events: list) -> None:
        r = higher(faces)
        events.append({"type": "elves", "seat": item["seat"], "roll": r, "rule": "7.39"})
        item["stage"] = "after"
        if r <= 4:
            push(state, {"do": "points", "seat": item["seat"], "dice": 1, "times": 2 if r <= 2 else 1,
                         "rule": "7.39"})
