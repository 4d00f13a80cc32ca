"""The Special Spells (11.23-11.2331) and telepathic contact at Shrineheart Abbey (7.381).

    11.231   Telepathy: a Wizard in an Elven Dwelling, in place of the Elves' roll (7.391),
             with no Wizard or Secret Wizard marker on the board; 1-2 succeeds; draw until
             a High Wizard. Below Rank FOUR only to advance (11.2311: without the points
             it fails); at Rank FOUR for a Gem (11.2312: Mandatory Tasks done, 7.326 roll)
    11.232   Gem Summoning: a Sorcerer at Rank FOUR in a Master Sorcerer's Tower (7.346):
             11.2321 with markers on the board, contact one: the 7.326 die, the marker
             removed and its cards reshuffled whatever the roll; 11.2322 with none, at
             random: 1-2 succeeds, draw until a High Wizard, then the 7.326 die
    11.233   Perception: mentors.perception, on a Druid's promotion to Rank FOUR
    7.381    the Abbey's contact always succeeds: fulfil and receive Tasks, advance.
             Wizards draw until a High Wizard; Sorcerers roll ONE die (1-2 Megmoran,
             3-4 Meligar, 5-6 Melekok); Druids contact Rüktal
    11.24    one Special Spell a turn (`turn["cast"]`)

Items: {"do": "telepathy", "seat"}, {"do": "gem_summoning", "seat", "target"},
{"do": "mentor_contact", "seat", "rule"}.

Readings (README):
* AMB5 (11.2321): the ONE die of 7.326 is the whole cast (no 11.1 casting roll first):
  the Spell's text names its own roll, as 11.2322 and 11.231 name theirs (11.1 "unless
  specified otherwise"), and "regardless of the result of the roll" speaks of one roll.
* 11.2311 "failure is automatic": the spell is still cast (the die is rolled, and it
  counts as the turn's Special Spell); on a success without the points to advance, the
  contact gives nothing.
* AMB14 (7.38 3-4, a player in no Order): nothing happens. He has no Mentor to contact,
  and 7.381 lists what contact does (Tasks, advancing), not joining: an Order is joined
  by meeting a Mentor (10).
* 7.381 contact fulfils Task requirements to meet the Mentor contacted, assigns a
  (Mandatory) Task and promotes, as many as apply, like a member's meeting.
* A Secret Wizard contacted by Gem Summoning is named to the Sorcerer only.
"""
from __future__ import annotations

from shared.engine import d6
from shared.wizards import mentors, record, spells, wizardcards
from shared.wizards.resolution import Handler, Item, done, handler, push, roll
from shared.wizards.state import WizardsState, player

SORCERER_BY_DIE = {1: "Megmoran", 2: "Megmoran", 3: "Meligar", 4: "Meligar", 5: "Melekok", 6: "Melekok"}


def cast_this_turn(state: WizardsState, seat: int) -> list:
    t = state.turn
    return t["cast"] if t and t.get("seat") == seat and "cast" in t else []


def note_cast(state: WizardsState, seat: int, spell: str) -> None:
    t = state.turn
    if t and t.get("seat") == seat and "cast" in t:
        t["cast"].append(spell)


def special_done(state: WizardsState, seat: int) -> bool:
    """11.24: no Special Spell more than once in a turn."""
    return bool({"telepathy", "gem_summoning"} & set(cast_this_turn(state, seat)))


def telepathy_open(state: WizardsState, seat: int) -> bool:
    """11.231: may the player cast Telepathy now (he is in a Dwelling: the caller's part)?"""
    p = player(state, seat)
    return (p["order"] == "wizards" and spells.may_cast(p, "telepathy") and not special_done(state, seat)
            and not wizardcards.markers_on_board(state))


def gem_summoning_open(state: WizardsState, seat: int) -> bool:
    p = player(state, seat)
    return (p["order"] == "sorcerers" and spells.may_cast(p, "gem_summoning") and not special_done(state, seat)
            and wizardcards.mandatory_done(state, seat))


def gem_summoning_choices(state: WizardsState, seat: int) -> list[dict]:
    markers = wizardcards.markers_on_board(state)
    targets: list = markers if markers else ["random"]  # 11.2321 / 11.2322
    return [{"kind": "gem_summoning", "target": t} for t in targets] + [{"kind": "gem_summoning", "target": None}]


def start_gem_summoning(state: WizardsState, seat: int, target: str, events: list) -> None:
    note_cast(state, seat, "gem_summoning")
    push(state, {"do": "gem_summoning", "seat": seat, "target": target, "rule": "11.232"})


@handler("gem_summoning")
class GemSummoning(Handler):
    rule = "11.232"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        seat, target = item["seat"], item["target"]
        stage = item.get("stage")
        if stage is None and target != "random":  # 11.2321, AMB5
            events.append({"type": "spell_cast", "seat": seat, "spell": "gem_summoning", "target": target,
                           "rule": "11.2321"})
            done(state, item)
            name = wizardcards.release_marker(state, target, events)
            if target.startswith("secret:"):
                events.append({"type": "secret_wizard_known", "letter": target.split(":", 1)[1], "wizard": name,
                               "rule": "11.2321", "visible_to": [seat]})
            push(state, {"do": "gem_attempt", "seat": seat, "wizard": name, "rule": "11.2321"})
            return
        if stage is None:
            item["stage"] = "cast"
            roll(state, item, [d6("die: casting Gem Summoning (1-2 succeeds)")])
            return
        if stage == "draw":
            name = wizardcards.draw_until(state, item, events)
            if name == wizardcards.WAIT:
                return
            item["stage"] = "return"
            if name is not None:
                push(state, {"do": "gem_attempt", "seat": seat, "wizard": name, "rule": "11.2322"})
            return
        done(state, item)
        wizardcards.return_cards(state, item.pop("drawn", []))

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        ok = faces[0][0] <= 2
        events.append({"type": "spell_cast", "seat": item["seat"], "spell": "gem_summoning", "die": faces[0][0],
                       "success": ok, "rule": "11.2322"})
        item["stage"] = "draw" if ok else "return"


@handler("telepathy")
class Telepathy(Handler):
    """11.231-11.2312 (module docstring)."""

    rule = "11.231"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        stage = item.get("stage")
        if stage is None:
            note_cast(state, seat, "telepathy")
            item["stage"] = "cast"
            roll(state, item, [d6("die: casting Telepathy (1-2 succeeds)")])
            return
        if stage == "draw":
            name = wizardcards.draw_until(state, item, events)
            if name == wizardcards.WAIT:
                return
            item["stage"] = "return"
            if name is None:
                return
            events.append({"type": "telepathic_contact", "seat": seat, "wizard": name, "rule": "11.231"})
            if player(state, seat)["rank"] >= 4:
                if name in player(state, seat)["gems"]:  # AMB20: nothing to ask him for
                    events.append({"type": "no_gem", "seat": seat, "wizard": name, "rule": "7.326",
                                   "visible_to": [seat]})  # 14.3: it tells what his Gem Record holds
                else:
                    push(state, {"do": "gem_attempt", "seat": seat, "wizard": name, "rule": "11.2312"})
            else:
                mentors.advance(state, seat, name, events)
            return
        done(state, item)
        wizardcards.return_cards(state, item.pop("drawn", []))

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        seat = item["seat"]
        ok = faces[0][0] <= 2
        p = player(state, seat)
        why = None
        if ok and p["rank"] < 4 and record.promotion_due(state, seat) is not None:
            why = "11.2311"  # not enough points (or days) to advance: failure is automatic
        elif ok and p["rank"] >= 4 and not wizardcards.mandatory_done(state, seat):
            why = "11.2312"
        events.append({"type": "spell_cast", "seat": seat, "spell": "telepathy", "die": faces[0][0],
                       "success": ok and why is None, "rule": why or "11.231"})
        item["stage"] = "draw" if ok and why is None else "return"


@handler("mentor_contact")
class MentorContact(Handler):
    """7.381: the Abbey's telepathic contact with the player's Mentor (always succeeds)."""

    rule = "7.381"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        p = player(state, seat)
        stage = item.get("stage")
        if stage is None:
            if p["order"] is None:  # AMB14
                events.append({"type": "no_mentor", "seat": seat, "rule": "7.381"})
                done(state, item)
                return
            if p["order"] == "sorcerers":
                item["stage"] = "rolling"
                roll(state, item, [d6("die: the Master Sorcerer contacted (1-2 Megmoran, 3-4 Meligar, 5-6 Melekok)")])
                return
            if p["order"] == "druids":
                item["mentor"], item["who"] = "Rüktal", "ruktal"
                item["stage"] = "contact"
            else:
                item["stage"] = "draw"
        if item["stage"] == "draw":
            name = wizardcards.draw_until(state, item, events)
            if name == wizardcards.WAIT:
                return
            if name is None:
                item["stage"] = "return"
            else:
                item["mentor"] = item["who"] = name
                item["stage"] = "contact"
        if item["stage"] == "contact":
            events.append({"type": "telepathic_contact", "seat": seat, "mentor": item["mentor"], "rule": "7.381"})
            mentors.fulfil(state, seat, item["who"], events)
            item["stage"] = "promote"
            if mentors.may_get_task(state, seat) is None:
                mentors.assign_task(state, seat, "7.381", True, events)
            return
        if item["stage"] == "promote":
            mentors.advance(state, seat, item["mentor"], events)
            item["stage"] = "return"
            return
        done(state, item)
        wizardcards.return_cards(state, item.pop("drawn", []))

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        name = SORCERER_BY_DIE[faces[0][0]]
        item["mentor"], item["who"] = name, name.lower()
        item["stage"] = "contact"
