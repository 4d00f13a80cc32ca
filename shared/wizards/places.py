"""Specific Encounters with places (7.301, 7.32-7.39): the tables of the Towns, the Elven
Dwellings, Shrineheart Abbey, High Hollow and the Star Crest, and the Mentors who live
in places (Rüktal, the Master Sorcerers, Hamdrel).

Each table is "roll TWO dice, reading only the higher die"; the roll is not taken when
the player came to fulfil a Task there or a High Wizard is present (7.3011, 7.361,
7.3712, 7.382, 7.391): `item["fulfils"]`, `item["wizard_present"]`.
"""
from __future__ import annotations

from shared.engine import d6
from shared.wizards import remaining, resolution
from shared.wizards.encounters import Encounter
from shared.wizards.fate import extra_turns
from shared.wizards.mentors import assign_task, heal
from shared.wizards.record import gain
from shared.wizards.resolution import ask, handler, higher, push, two_dice
from shared.wizards.special_spells import telepathy_open
from shared.wizards.state import WizardsState, player


def skips_table(item: dict) -> bool:
    return bool(item.get("fulfils") or item.get("wizard_present"))


@handler("elves")
class ElvenDwelling(Encounter):
    """7.39: 1-2 one die doubled in points of any type, 3-4 one die of points, 5-6 the
    Elves elude him."""

    rule = "7.39"
    kinds = ("telepathy",)

    @staticmethod
    def label(action: dict) -> str:
        return "cast Telepathy (1-2 succeeds)" if action.get("cast") else "roll for the Elves"

    def start(self, state: WizardsState, item: dict, events: list) -> None:
        if skips_table(item):  # 7.391
            resolution.done(state, item)
            return
        if telepathy_open(state, item["seat"]):  # 7.391, 11.231: Telepathy in place of the Elves' roll
            item["stage"] = "offered"
            ask(state, item["seat"])
            return
        two_dice(state, item, "Elven Dwelling (7.39)")

    def legal(self, state: WizardsState, item: dict, seat: int) -> list[dict]:
        if item.get("stage") != "offered" or seat != item["seat"]:
            return []
        return [{"kind": "telepathy", "cast": True}, {"kind": "telepathy", "cast": False}]

    def choose(self, state: WizardsState, item: dict, seat: int, action: dict, events: list) -> None:
        if action["cast"]:
            item["stage"] = "after"
            push(state, {"do": "telepathy", "seat": seat, "rule": "11.231"})
        else:
            item["stage"] = "rolling"
            two_dice(state, item, "Elven Dwelling (7.39)")

    def rolled(self, state: WizardsState, item: dict, faces: list, events: list) -> None:
        r = higher(faces)
        events.append({"type": "elves", "seat": item["seat"], "roll": r, "rule": "7.39"})
        item["stage"] = "after"
        if r <= 4:
            push(state, {"do": "points", "seat": item["seat"], "dice": 1, "times": 2 if r <= 2 else 1,
                         "rule": "7.39"})


def place_at(state: WizardsState, item: dict) -> None:
    """Items pushed by other rules (8.6 Common Folk) may come without the space."""
    item.setdefault("at", player(state, item["seat"])["at"])


@handler("common_folk")
class CommonFolk(Encounter):
    """7.301 (and 8.6): 1 thieves steal Magical Objects and Sacred Gems, 2 lose one die of
    points of any type, 3 detained (remaining.py), 4 a Task (Optional), 5 an extra turn at
    once, 6 lodging: no effect."""

    rule = "7.301"

    def run(self, state: WizardsState, item: dict, events: list) -> None:
        place_at(state, item)
        super().run(state, item, events)

    def start(self, state: WizardsState, item: dict, events: list) -> None:
        if skips_table(item):  # 7.3011
            resolution.done(state, item)
            return
        two_dice(state, item, "Common Folk (7.301)")

    def rolled(self, state: WizardsState, item: dict, faces: list, events: list) -> None:
        seat, r = item["seat"], higher(faces)
        effect = {1: "thieves", 2: "lose points", 3: "detained", 4: "a Task", 5: "an extra turn", 6: "lodging"}[r]
        events.append({"type": "common_folk", "seat": seat, "roll": r, "effect": effect, "rule": "7.301"})
        item["stage"] = "after"
        if r == 1:
            push(state, {"do": "theft", "seat": seat, "rule": "7.301"})
        elif r == 2:
            push(state, {"do": "points", "seat": seat, "dice": 1, "sign": -1, "rule": "7.301"})
        elif r == 3:
            remaining.detain(state, seat, events)
        elif r == 4:
            assign_task(state, seat, "7.301", False, events)
        elif r == 5:
            extra_turns(state, seat, 1, "7.301", events)


@handler("high_hollow")
class HighHollow(Encounter):
    """7.36: 1-2 transported to the Star Crest, 3-4 to Hamdrel's Cottage, 5-6 to
    Megmoran's Tower (AMB4: its Center, where he meets Megmoran at once, 7.5)."""

    rule = "7.36"
    TOWER = {"territory": "M2", "space": "Center"}
    WHERE = {1: {"place": "star_crest"}, 2: {"place": "star_crest"}, 3: {"place": "hamdrel"},
             4: {"place": "hamdrel"}, 5: TOWER, 6: TOWER}

    def start(self, state: WizardsState, item: dict, events: list) -> None:
        if skips_table(item):  # 7.361
            resolution.done(state, item)
            return
        two_dice(state, item, "High Hollow (7.36)")

    def rolled(self, state: WizardsState, item: dict, faces: list, events: list) -> None:
        r = higher(faces)
        events.append({"type": "high_hollow", "seat": item["seat"], "roll": r, "rule": "7.36"})
        item["stage"] = "after"
        push(state, {"do": "transport", "seat": item["seat"], "where": dict(self.WHERE[r]), "rule": "7.36"})


@handler("star_crest")
class StarCrest(Encounter):
    """7.371: 1-2 ten points of each type, 3-4 TWO High Wizards met (drawn until one comes
    up, Traps and Phantasms ignored; AMB21: two different ones), 5-6 one die of extra turns
    at once (7.3711: with encounters as on any turn). 7.3712: no roll for a Task or with a
    High Wizard present."""

    rule = "7.37"

    def start(self, state: WizardsState, item: dict, events: list) -> None:
        if skips_table(item):  # 7.3712
            resolution.done(state, item)
            return
        two_dice(state, item, "the Star Crest (7.371)")

    def rolled(self, state: WizardsState, item: dict, faces: list, events: list) -> None:
        seat = item["seat"]
        if item["stage"] == "extra":
            extra_turns(state, seat, faces[0][0], "7.371", events)
            item["stage"] = "after"
            return
        r = higher(faces)
        events.append({"type": "star_crest", "seat": seat, "roll": r, "rule": "7.371"})
        item["stage"] = "after"
        if r <= 2:
            gain(state, seat, {"knowledge": 10, "perception": 10, "power": 10}, "7.371", events)
        elif r <= 4:
            push(state, {"do": "wizard_card", "seat": seat, "rule": "7.371", "mode": "until_high_wizard", "times": 2})
        else:
            item["stage"] = "extra"
            resolution.roll(state, item, [d6("die: extra turns (7.371)")])


@handler("shrineheart_abbey")
class ShrineheartAbbey(Encounter):
    """7.38: an afflicted player is healed (7.3044) and the roll is not taken (7.382), nor
    for a Task or with a High Wizard present. 1-2 one extra turn at once, 3-4 telepathic
    contact with his Mentor (7.381, special_spells.MentorContact), 5-6 one die of points of
    any type."""

    rule = "7.38"

    def start(self, state: WizardsState, item: dict, events: list) -> None:
        if heal(state, item["seat"], "Shrineheart Abbey", "7.3044", events) or skips_table(item):  # 7.382
            resolution.done(state, item)
            return
        two_dice(state, item, "Shrineheart Abbey (7.38)")

    def rolled(self, state: WizardsState, item: dict, faces: list, events: list) -> None:
        seat, r = item["seat"], higher(faces)
        events.append({"type": "shrineheart_abbey", "seat": seat, "roll": r, "rule": "7.38"})
        item["stage"] = "after"
        if r <= 2:
            extra_turns(state, seat, 1, "7.38", events)
        elif r <= 4:
            push(state, {"do": "mentor_contact", "seat": seat, "rule": "7.381"})
        else:
            push(state, {"do": "points", "seat": seat, "dice": 1, "rule": "7.38"})
