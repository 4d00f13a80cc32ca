"""The solitaire game's own winning and losing (Appendix A).

    wins     by delivering the Sacred Gems to Rüktal, as in the multi-player game (gems.py)
    loses    if the Sacred Circle falls first (12.46, with the Evil attack), or stranded:
    EFFECTS OF BEING STRANDED (how the engine knows he is stranded: meetings.stranded_place,
    7.3031), judged at the start of each of his turns; nobody can rescue him, so he never
    asks for help (meetings.py offers `ask_for_help` only in the other games):
      Dragon's Lair  "no hope of rescue": permanently Dragonbound, he loses
      Water          the Day Marker is advanced to Day 14: the Calendar is set to Day 13 and his
                     turn ends, so the Day Marker's next advance (turns.advance_day) is Day 14
                     and its Evil attack follows at once. A Demon encounter that leaves him in
                     that Water space, still stranded, drowns him: he "may not encounter the
                     Demons again in the same space" (item "drowning", watched from every
                     Demon encounter of a solitaire player stranded in Water)
      elsewhere      he waits until Demons or a Random Encounter transport him (nothing to do)

Items: {"do": "stranded_alone", "seat", "place"}, {"do": "drowning", "seat", "at"}.
`player["stranded"]` holds {"alone": place, "at": [q, r]} while he is so stranded.

Readings (README):
* AMB9 (reading 1): "all other rules remain the same": the Day 14 attack of the first two
  Fortnights transports him to a RANDOM space (12.11 A), which ends his stranding; a thwarted
  Day 14 leaves him stranded, waiting for the next attack. The Day Marker is advanced once
  for each stranding in Water: if it is already on Day 13 or 14 it stays.
* Moving the Day Marker on is not a day played: Event Cards' days, Lair Time, the 10.21 gap
  and the days of a match count the Day Marker's advances, one day at a time (12.1).
* Any Demon encounter (the Day 14 Demon placed on him, 12.141, or another) that does not take
  him out of the Water space he is stranded in drowns him, whatever its result: dispelled or
  departed Demons (7.304 6) drown him too, having not transported him.
"""
from __future__ import annotations

from shared.wizards import gems, meetings
from shared.wizards.resolution import Handler, Item, done, handler
from shared.wizards.state import WizardsState, hx, ls, player
from shared.wizards.turns import TURN_START_HOOKS

DAY_BEFORE_ATTACK = 13  # the Day Marker's next advance is Day 14 (12.1)


def stranded_alone(state: WizardsState, seat: int) -> dict | None:
    """At the start of his turn: the item for a solitaire player stranded now (a new stranding,
    or one in the Lair), None otherwise; a stranding that has ended is forgotten."""
    if not state.solitaire:
        return None
    p = player(state, seat)
    place = meetings.stranded_place(state, seat)
    known = p["stranded"]
    if place is None:
        p["stranded"] = None  # transported, or a way off has come
        return None
    if known is not None and known.get("alone") == place and (place != "water" or known.get("at") == p["at"]):
        return None  # waiting, stranded as before
    return {"do": "stranded_alone", "seat": seat, "place": place, "rule": "Appendix A"}


TURN_START_HOOKS.append(stranded_alone)


@handler("stranded_alone")
class StrandedAlone(Handler):
    """Appendix A, EFFECTS OF BEING STRANDED (module docstring)."""

    rule = "Appendix A"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        seat, place = item["seat"], item["place"]
        p = player(state, seat)
        done(state, item)
        p["stranded"] = {"alone": place, "at": list(p["at"] or [])}
        events.append({"type": "stranded", "seat": seat, "place": place, "rule": "Appendix A"})
        if place == "lair":
            if "dragonbound" not in p["afflictions"]:
                p["afflictions"].append("dragonbound")
            events.append({"type": "dragonbound_for_ever", "seat": seat, "rule": "Appendix A"})
            gems.end_match(state, [], "stranded in the Dragon's Lair with no hope of rescue: permanently Dragonbound, "
                           "the player loses (Appendix A)", "stranded in the Dragon's Lair (Appendix A)", events)
            return
        if place != "water":
            return  # he waits until he is transported by Demons or by a Random Encounter
        cal = state.calendar
        if cal["day"] < DAY_BEFORE_ATTACK:
            events.append({"type": "day_marker_moved", "from": cal["day"], "to": DAY_BEFORE_ATTACK,
                           "next": 14, "rule": "Appendix A"})
            cal["day"] = DAY_BEFORE_ATTACK
        turn = state.turn
        if turn is not None:
            turn["ended"] = True
        for below in reversed(state.pending):  # his turn ends: the Day Marker goes on to Day 14
            if below["do"] == "goto":
                below["step"] = "turn_end"
                break


def watch(state: WizardsState, item: Item) -> None:
    """A Demon encounter begins (adversaries.Demons): for a solitaire player stranded in Water,
    the drowning test waits beneath it, to run once the encounter and all it brings are done."""
    seat = item["seat"]
    if not state.solitaire or item.get("optional") or "bound" in item:
        return
    if meetings.stranded_place(state, seat) != "water":
        return
    state.pending.insert(len(state.pending) - 1, {"do": "drowning", "seat": seat, "at": list(item["at"]),
                                                  "rule": "Appendix A"})


@handler("drowning")
class Drowning(Handler):
    """Appendix A: the Demons did not transport him out of the Water: he drowns and loses."""

    rule = "Appendix A"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        done(state, item)
        p = player(state, seat)
        if hx(p["at"]) != hx(item["at"]) or meetings.stranded_place(state, seat) != "water":
            return  # carried off (to the Lair, or anywhere): he lives
        events.append({"type": "drowned", "seat": seat, "at": ls(hx(item["at"])), "rule": "Appendix A"})
        gems.end_match(state, [], "stranded in the Water, the Demons did not carry him off: he drowns and loses "
                       "(Appendix A)", "drowned (Appendix A)", events)
