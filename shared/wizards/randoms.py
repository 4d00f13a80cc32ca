"""Random Encounters (section 8): the table, and the Animals (8.4-8.47).

    8     two dice, the higher: 1 Demons, 2 Trap, 3 Animal, 4 Event, 5 Common Folk, 6 High Wizard
    8.2   a Demon Marker in his space, then 7.304            -> "place_demon" (adversaries.py)
    8.3   the Trap table                                     -> "trap" (adversaries.py)
    8.4   the Animal table                                   -> "animal" (below)
    8.5   an Event Card drawn                                -> "event_card" (Tasks and Events)
    8.6   Common Folk, rolled as for a Common Town (7.301)   -> "common_folk" (places)
    8.7   ONE Wizard Card drawn                              -> "wizard_card" {"mode": "one"} (places)

    {"do": "animal", "seat", "rule", "kind"?}   an Animal met: rolled on 8.4 unless "kind"
        (or "animal", as Event Cards name it) is given (7.302 3 a Winged Horse, Rank 4 3 a Unicorn).

Animals (movement.py moves with them; turns.py counts their uses down after every turn
they could be used, so one met now serves from his NEXT turn):
    1 Dragon         8.42: the Dragon Marker comes into his space (lair.dragon_goes_to), 7.305
    2 Unicorn        one turn (8.43)        3 Winged Horse  two turns (8.44)
    4 Horse          three turns (8.45)     5 Hound         four turns (8.46)
    6 Dove           8.47: a Task Card drawn -> "draw_task"; it stays with nobody
8.41: one Animal at a time, a second sends the first away. 7.3043 d / 7.3051 h: an afflicted
player meets no Animal but the Dragon.
"""
from __future__ import annotations

from shared.wizards import lair, resolution
from shared.wizards.adversaries import here
from shared.wizards.afflictions import CALM_ANIMALS
from shared.wizards.encounters import Encounter
from shared.wizards.resolution import Item, done, handler, higher, push, two_dice
from shared.wizards.state import WizardsState, player

RANDOM_TABLE = {1: "demons", 2: "trap", 3: "animal", 4: "event", 5: "common_folk", 6: "high_wizard"}
ANIMAL_TABLE = {1: "dragon", 2: "unicorn", 3: "winged_horse", 4: "horse", 5: "hound", 6: "dove"}
USES = {"unicorn": 1, "winged_horse": 2, "horse": 3, "hound": 4}  # 8.43-8.46


@handler("random_encounter")
class RandomEncounter(Encounter):
    """Section 8: the table, then the item for what was met."""

    rule = "8"

    def start(self, state: WizardsState, item: Item, events: list) -> None:
        two_dice(state, item, "Random Encounter (8)")

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        r = higher(faces)
        kind = RANDOM_TABLE[r]
        seat, at = item["seat"], item["at"]
        events.append({"type": "random_encounter", "seat": seat, "roll": r, "encounter": kind, "rule": "8"})
        done(state, item)
        if kind == "demons":  # 8.2
            push(state, {"do": "place_demon", "at": at, "seat": seat, "rule": "8.2"})
        elif kind == "trap":
            push(state, {"do": "trap", "seat": seat, "at": at, "rule": "8.3"})
        elif kind == "animal":
            push(state, {"do": "animal", "seat": seat, "at": at, "rule": "8.4"})
        elif kind == "event":
            push(state, {"do": "event_card", "seat": seat, "rule": "8.5"})
        elif kind == "common_folk":  # 8.6: rolled as for a Common Town
            push(state, {"do": "common_folk", "seat": seat, "at": at, "rule": "8.6", "fulfils": False,
                         "wizard_present": False})
        else:
            push(state, {"do": "wizard_card", "seat": seat, "rule": "8.7", "mode": "one"})


def give_animal(state: WizardsState, seat: int, kind: str, rule: str, events: list) -> None:
    """The Animal joins him (8.41: any other one leaves), usable from his next turn."""
    p = player(state, seat)
    if p["animal"] is not None:
        events.append({"type": "animal_departs", "seat": seat, "animal": p["animal"]["kind"], "rule": "8.41"})
    p["animal"] = {"kind": kind, "turns": USES[kind], "since": p["turns_taken"]}
    events.append({"type": "animal_joins", "seat": seat, "animal": kind, "turns": USES[kind], "rule": rule})


@handler("animal")
class Animal(resolution.Handler):
    """8.4: roll the Animal (unless given), then what it does."""

    rule = "8.4"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        kind = item.get("kind", item.get("animal"))
        if kind is not None:
            self.meet(state, item, kind, events)
            return
        two_dice(state, item, "Animal (8.4)")

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        r = higher(faces)
        events.append({"type": "animal_roll", "seat": item["seat"], "roll": r, "animal": ANIMAL_TABLE[r],
                       "rule": "8.4"})
        self.meet(state, item, ANIMAL_TABLE[r], events)

    def meet(self, state: WizardsState, item: Item, kind: str, events: list) -> None:
        done(state, item)
        seat = item["seat"]
        p = player(state, seat)
        if p["afflictions"] and kind not in CALM_ANIMALS:  # 7.3043 d, 7.3051 h
            rule = "7.3051 h" if "dragonbound" in p["afflictions"] else "7.3043 d"
            events.append({"type": "animal_shuns", "seat": seat, "animal": kind, "rule": rule})
            return
        if kind == "dragon":  # 8.42
            at = here(p["at"])
            lair.dragon_goes_to(state, at, item["rule"], events)
            push(state, {"do": "dragon", "seat": seat, "at": p["at"], "rule": "8.42"})
        elif kind == "dove":  # 8.47
            events.append({"type": "dove", "seat": seat, "rule": "8.47"})
            push(state, {"do": "draw_task", "seat": seat, "rule": "8.47", "mandatory": False})
        else:
            give_animal(state, seat, kind, item["rule"], events)
