"""What encounters do to a player that several tables share: being transported (with
the encounters of the new space, 7.5), losing turns and taking extra turns.

    {"do": "transport", "seat", "where", "rule"}   where: a randomspace "where", or
                                                   {"stone": True} (casting.STONE)
        optional "escapable": false (no Escaping offered, 11.2242 / AMB16) and
        "avoid": [[q, r], ...] (spaces rolled over: 7.30311 a different island)
    {"do": "lose_turns", "seat", "rule", "amount" | "dice"}
"""
from __future__ import annotations

from shared.engine import d6
from shared.wizards import casting, remaining, resolution
from shared.wizards.encounter_spells import SpellStages, escape_offer
from shared.wizards.encounters import items_for, specific_due
from shared.wizards.resolution import Handler, Item, done, handler, push
from shared.wizards.state import WizardsState, player, position
from shared.wizards.world import world_for


@handler("transport")
class Transport(SpellStages):
    """Transported by an encounter: at Rank FOUR, except Wizards, Escaping may be cast first
    (11.2242); then the roll for the space (section 4, 12.45), arrival (8.31 a Trap left,
    8.41 the Animal lost) and then, 7.5, the Specific Encounters of the space he lands in,
    even off his turn or after an encounter this turn."""

    rule = "7.5"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        if item.get("stage") is None:
            if escape_offer(state, item):
                self.offer_spell(state, item, "escaping", "escaped")
                return
            item["stage"] = "escaped"
        if item["stage"] == "escaped":
            if item.get("cast"):
                events.append({"type": "transport_escaped", "seat": item["seat"], "rule": "11.2242",
                               "for": item["rule"]})
                done(state, item)
                return
            item["stage"] = "moving"
            casting.ask_transport(state, item["seat"], item["where"], item["rule"], "resolve", events,
                                  avoid=item.get("avoid"))
            return
        done(state, item)
        seat = item["seat"]
        at = position(player(state, seat))
        due = {"specific": remaining.limit(state, seat, at, specific_due(state, world_for(state), seat, at)),
               "random": False}
        if due["specific"]:
            events.append({"type": "encounter_due", "seat": seat, "space": player(state, seat)["at"], **due,
                           "rule": "7.5"})
            push(state, *items_for(state, seat, due))


    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        self.cast_rolled(state, item, faces, events)


@handler("lose_turns")
class LoseTurns(Handler):
    """'Roll ONE die and lose the number of turns rolled' (7.304 1, 7.305 2, 8.3 3)."""

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        if "amount" not in item:
            resolution.roll(state, item, [d6(f"turns lost ({item['rule']})")])
            return
        p = player(state, item["seat"])
        p["lost_turns"] += item["amount"]
        events.append({"type": "turns_lost", "seat": item["seat"], "turns": item["amount"], "rule": item["rule"],
                       "left": p["lost_turns"]})
        done(state, item)

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        item["amount"] = faces[0][0]


def extra_turns(state: WizardsState, seat: int, n: int, rule: str, events: list) -> None:
    """Extra turns taken right after this one (7.301 5, 7.3711, 7.38 1)."""
    player(state, seat)["extra_turns"] += n
    events.append({"type": "extra_turns", "seat": seat, "turns": n, "rule": rule})
