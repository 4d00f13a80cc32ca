"""Wizard Cards, High Wizard and Secret Wizard markers, and the Sacred Gems of the High
Wizards (8.7-8.74, 7.32, 7.326-7.3263, 7.302 Rank 4 result 6, 14.25-14.3).

Items:
    {"do": "wizard_card", "seat", "rule", "mode": "one" | "until_high_wizard",
     "place": bool, "times": n, "exclude": [names]}
        8.7 "one": one card; a High Wizard is met at once in the player's space (8.71), a
        Phantasm is no encounter (8.72), a Trap transports him to its destination (8.73).
        "until_high_wizard": draw until a High Wizard, ignoring Traps and Phantasms.
        "place": his marker goes to a RANDOM space and the cards wait aside (7.353 5-6).
        "times": that many High Wizards met one after the other (7.371 3-4, two),
        "exclude": High Wizards that do not count when drawn (AMB21 below).
    {"do": "place_wizard", "wizard": name | "secret:L", "seat", "rule"}   a marker to a RANDOM space
    {"do": "secret_wizard", "seats": [...], "rule"}   7.302 Rank 4 result 6, 11.223
    {"do": "gem_attempt", "seat", "wizard", "rule"}   7.326: ONE die, 1-5 a Gem (or the False Wizard)

Every card drawn lies in `state.wizard_aside` until it goes back (invariants); cards
kept for a marker are listed under the marker in `state.aside_for`. 8.74: the cards
drawn go back to the deck and the whole deck is shuffled after the encounter, or, for a
marker placed, when the marker is met or leaves the board.

Readings:
* If no High Wizard card is left to draw (every one is kept aside for a marker), drawing
  "until a High Wizard is drawn" ends without one; the cards drawn go back.
* AMB21 (7.371 3-4, "TWO High Wizards"): the second draw ignores the High Wizard met
  first, so two different High Wizards are met: the table names two beings.
* AMB25 (7.32, forbidden in the Center): a High Wizard card drawn in the Center of the
  Sacred Circle is not met and goes back at once, reshuffled: no marker was placed, so he
  has no location for the player to reach (8.74 keeps cards aside only for that).
* AMB20 (7.326): a player may ask a High Wizard for his Gem again only while that High
  Wizard's Gem is not on his Gem Record (never given, or stolen since: 14.25 erases it);
  while he holds it, there is nothing to ask for.
* Secret Wizard markers: the 14 markers are seven pairs, letters A-G (1, 7.302: "TWO
  Secret Wizard Markers bearing the same letter"); with all seven pairs in play no new
  Secret Wizard is revealed.
"""
from __future__ import annotations

import importlib
from typing import Any

from shared.engine import d6
from shared.wizards import decks, randomspace
from shared.wizards.pack import pack
from shared.wizards.resolution import Handler, Item, done, handler, push, roll
from shared.wizards.setup import unavailable
from shared.wizards.state import WizardsState, hx, ls, player
from shared.wizards.world import world_for

SECRET_LETTERS = "ABCDEFG"  # 14 Secret Wizard Markers (1): seven pairs
WAIT = "wait"  # a reshuffle was pushed; run again


def card(cid: str) -> dict:
    return next(dict(c) for c in pack().wizard_cards if c["id"] == cid)


def gem_card(gid: str) -> dict:
    return next(dict(c) for c in pack().gem_cards if c["id"] == gid)


def markers_on_board(state: WizardsState) -> list[str]:
    """Every High Wizard and Secret Wizard marker on the board, by key."""
    keys = [n for n in pack().high_wizards if state.wizard_markers.get(n) is not None]
    return keys + [f"secret:{s['letter']}" for s in state.secret_wizards if s.get("at") is not None]


def tasks_module() -> Any:
    """The Task rules (section 9) when present."""
    try:
        return importlib.import_module("shared.wizards.tasks")
    except ImportError:
        return None


def mandatory_done(state: WizardsState, seat: int) -> bool:
    """9.41: every Mandatory Task that has not become impossible is completed."""
    tasks = tasks_module()
    if tasks is not None and hasattr(tasks, "mandatory_done"):
        return bool(tasks.mandatory_done(state, seat))
    return not any(t.get("mandatory") for t in player(state, seat)["tasks"])


# --- drawing -----------------------------------------------------------------------------
def _event(state: WizardsState, item: Item, cid: str, events: list, ignored: bool = False) -> None:
    c = card(cid)
    ev = {"type": "wizard_card", "seat": item.get("seat"), "card": cid, "card_type": c["type"], "wizard": c["wizard"],
          "rule": item.get("rule", "8.7")}
    if ignored:
        ev["ignored"] = True
    if item.get("visible_to") is not None:
        ev["visible_to"] = list(item["visible_to"])
    events.append(ev)


def draw_one(state: WizardsState, item: Item, events: list) -> str | None:
    """Draw one Wizard Card into `item["drawn"]` (kept in wizard_aside); WAIT when the deck
    must be made again first, None when there is nothing to draw."""
    if not decks.ready(state, "wizard"):
        return None if decks.empty(state, "wizard") else WAIT
    cid = decks.draw(state, "wizard")
    state.wizard_aside.append(cid)
    item.setdefault("drawn", []).append(cid)
    return cid


def high_wizard_left(state: WizardsState, exclude: list) -> bool:
    cards = state.decks["wizard"] + state.discards["wizard"]
    return any(card(c)["type"] == "high_wizard" and card(c)["wizard"] not in exclude for c in cards)


def draw_until(state: WizardsState, item: Item, events: list) -> str | None:
    """Draw until a High Wizard not in item["exclude"] comes up, ignoring Traps,
    Phantasms (and excluded High Wizards): his name, WAIT, or None (none left)."""
    exclude = item.get("exclude", [])
    while True:
        if not high_wizard_left(state, exclude):
            return None
        cid = draw_one(state, item, events)
        if cid is None or cid == WAIT:
            return cid
        c = card(cid)
        if c["type"] == "high_wizard" and c["wizard"] not in exclude:
            _event(state, item, cid, events)
            return c["wizard"]
        _event(state, item, cid, events, ignored=True)


def return_cards(state: WizardsState, cards: list) -> None:
    """8.74: the cards go back into the Wizard deck and it is shuffled."""
    if not cards:
        return
    for c in cards:
        state.wizard_aside.remove(c)
    decks.shuffle_back(state, "wizard", list(cards))


def release_marker(state: WizardsState, key: str, events: list) -> str | None:
    """A marker leaves the board (met, 7.32; contacted by Gem Summoning, 11.2321): it goes
    back to its box, a Secret Wizard's identity is erased from every record (14.26), and
    the cards kept for it are reshuffled (8.74). The High Wizard's name."""
    if key.startswith("secret:"):
        letter = key.split(":", 1)[1]
        entry = next(s for s in state.secret_wizards if s["letter"] == letter)
        state.secret_wizards.remove(entry)
        for q in state.players:
            q["secret_record"].pop(letter, None)
        name = entry["wizard"]
    else:
        name = key
        state.wizard_markers[name] = None
    events.append({"type": "wizard_marker_returned", "marker": key, "rule": "7.32"})
    return_cards(state, state.aside_for.pop(key, []))
    return name


def in_center(state: WizardsState, seat: int) -> bool:
    """7.32: encounters with High Wizards are forbidden in the Center of the Sacred Circle."""
    at = hx(player(state, seat)["at"])
    return at is not None and world_for(state).kind(at) == "circle"


@handler("wizard_card")
class WizardCard(Handler):
    """8.7-8.74 (see the module docstring)."""

    rule = "8.7"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        stage = item.get("stage")
        if stage == "return":
            item["times"] = item.get("times", 1) - 1
            if item["times"] > 0 and item.get("met"):
                item["exclude"] = item.get("exclude", []) + [item.pop("met")]  # AMB21
                item["stage"] = None
                return_cards(state, item.pop("drawn", []))  # reshuffled before the next draw
                return
            done(state, item)
            return_cards(state, item.pop("drawn", []))
            return
        seat = item["seat"]
        if item.get("mode", "one") == "one":
            cid = draw_one(state, item, events)
            if cid == WAIT:
                return
            if cid is None:
                done(state, item)
                return
            _event(state, item, cid, events)
            c = card(cid)
        else:
            name = draw_until(state, item, events)
            if name == WAIT:
                return
            if name is None:
                events.append({"type": "no_high_wizard", "seat": seat, "rule": item["rule"]})
                item["stage"] = "return"
                return
            c = {"type": "high_wizard", "wizard": name}
        item["stage"] = "return"
        # 7.302 results 4: "Each player in the encounter encounters the High Wizard, Trap, or
        # Phantasm drawn", in the order of 7.3021; elsewhere the one player who drew it
        seats = item.get("seats") or [seat]
        if c["type"] == "high_wizard":
            name = c["wizard"]
            item["met"] = name
            if item.get("place"):
                state.aside_for[name] = item.pop("drawn")  # kept aside until he is met (8.74)
                push(state, {"do": "place_wizard", "wizard": name, "seat": seat, "rule": item["rule"]})
                return
            meeting = []
            for s in seats:
                if in_center(state, s):  # 7.32, AMB25: not met there; the card goes back now
                    events.append({"type": "high_wizard_forbidden", "seat": s, "wizard": name, "rule": "7.32"})
                else:
                    meeting.append({"do": "meet_high_wizard", "seat": s, "wizard": name, "rule": item["rule"]})
            push(state, *meeting)
        elif c["type"] == "phantasm":  # 8.72
            for s in seats:
                events.append({"type": "phantasm", "seat": s, "wizard": c["wizard"], "rule": "8.72"})
        else:  # 8.73: a Trap; Escaping may avoid it (11.2241: "escapable")
            push(state, *[{"do": "transport", "seat": s, "where": dict(c["destination"]), "rule": "8.73",
                           "escapable": "trap"} for s in seats])


def random_space_pools() -> list:
    return randomspace.pools_for({"random": "RANDOM"})


@handler("place_wizard")
class PlaceWizard(Handler):
    """A High Wizard or Secret Wizard marker placed in a RANDOM space (section 4, 12.45);
    7.5: a player in that space meets him at once, even off his turn."""

    rule = "7.5"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        if item.get("stage") is None:
            item["stage"] = "rolling"
            roll(state, item, random_space_pools())
            return
        done(state, item)

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        got = randomspace.read({"random": "RANDOM"}, faces, unavailable(state))
        w = world_for(state)
        h = w.hex_of.get(got) if got else None
        if h is None:  # 12.45: roll over
            events.append({"type": "reroll", "dice": [f[0] for f in faces], "rule": "12.45"})
            item["stage"] = None
            return
        key = item["wizard"]
        if key.startswith("secret:"):
            entry = next(s for s in state.secret_wizards if s["letter"] == key.split(":", 1)[1])
            entry["at"] = ls(h)
        else:
            state.wizard_markers[key] = ls(h)
        events.append({"type": "wizard_marker_placed", "marker": key, "at": ls(h), "space": w.space_name(h),
                       "rule": item["rule"]})
        item["stage"] = "placed"
        first = state.turn["seat"] if state.turn else 0
        order = [(first + i) % state.seats for i in range(state.seats)]
        met = [s for s in order if hx(player(state, s)["at"]) == h]
        push(state, *({"do": "high_wizard", "seat": s, "at": ls(h), "wizard": key, "fulfils": False,
                       "wizard_present": True} for s in met[:1]))


@handler("secret_wizard")
class SecretWizard(Handler):
    """7.302 Rank 4 result 6: draw until a High Wizard (Traps and Phantasms ignored); the
    card is shown only to the players in the encounter (14.3, events "visible_to"); two
    Secret Wizard markers of one letter: one in a RANDOM space, one on the cards kept
    face down. Each of those players writes the letter by the name (14.26)."""

    rule = "7.302"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        if item.get("stage") == "placed":
            done(state, item)
            return
        used = {s["letter"] for s in state.secret_wizards}
        free = [c for c in SECRET_LETTERS if c not in used]
        if not free:
            events.append({"type": "no_secret_wizard_markers", "rule": "1"})
            done(state, item)
            return_cards(state, item.pop("drawn", []))
            return
        item["visible_to"] = list(item["seats"])
        name = draw_until(state, item, events)
        if name == WAIT:
            return
        if name is None:
            events.append({"type": "no_high_wizard", "rule": item["rule"]})
            done(state, item)
            return_cards(state, item.pop("drawn", []))
            return
        letter = free[0]
        state.secret_wizards.append({"letter": letter, "wizard": name, "at": None})
        state.aside_for[f"secret:{letter}"] = item.pop("drawn")
        for s in item["seats"]:
            player(state, s)["secret_record"][letter] = name
        events.append({"type": "secret_wizard", "letter": letter, "seats": list(item["seats"]), "rule": item["rule"]})
        events.append({"type": "secret_wizard_known", "letter": letter, "wizard": name, "rule": item["rule"],
                       "visible_to": list(item["seats"])})
        item["stage"] = "placed"
        push(state, {"do": "place_wizard", "wizard": f"secret:{letter}", "seat": item["seats"][0],
                     "rule": item["rule"]})


@handler("gem_attempt")
class GemAttempt(Handler):
    """7.326-7.3263, 11.2331: ONE die. 1-5: he looks at the High Wizard's Gem Card and
    records the Gem (secret). The FALSE WIZARD card: on 1-4 (a Druid at Rank FOUR: 1-3)
    every Gem he holds is stolen, on 5 (Druid: 4-5) none; either way he writes FALSE by
    the name. 6: nothing, and he may not look."""

    rule = "7.326"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        if item["wizard"] in player(state, item["seat"])["gems"]:  # AMB20: his Gem is on the record already
            events.append({"type": "no_gem", "seat": item["seat"], "wizard": item["wizard"], "rule": "7.326",
                           "why": "his Gem is on the Gem Record already", "visible_to": [item["seat"]]})  # 14.3
            done(state, item)
            return
        roll(state, item, [d6(f"die: a Sacred Gem from {item['wizard']} (1-5 given)")])

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        seat, name, r = item["seat"], item["wizard"], faces[0][0]
        p = player(state, seat)
        events.append({"type": "gem_attempt", "seat": seat, "wizard": name, "roll": r, "rule": item["rule"]})
        if r <= 5:
            g = gem_card(state.gem_boxes[name])
            if g.get("false_wizard"):
                druid = p["order"] == "druids" and p["rank"] >= 4
                stolen = r <= (3 if druid else 4)
                p["false_wizard"] = name
                lost = sorted(p["gems"].values()) if stolen else []
                if stolen:
                    p["gems"] = {}
                events.append({"type": "false_wizard", "seat": seat, "wizard": name, "stolen": lost,
                               "rule": "11.2331" if druid else "7.3263", "visible_to": [seat]})
            else:
                p["gems"][name] = g["gem"]
                events.append({"type": "gem_received", "seat": seat, "wizard": name, "gem": g["gem"],
                               "rule": "7.3261", "visible_to": [seat]})
        else:
            events.append({"type": "no_gem", "seat": seat, "wizard": name, "rule": "7.3262"})
        done(state, item)


def gathering_gems(state: WizardsState, seat: int) -> bool:
    """7.326, 13: Rank FOUR and every Mandatory Task done: what anyone can see of whether he
    may ask for Gems (his Record Sheet's Order and Task Records are public, 14.3)."""
    return player(state, seat)["rank"] >= 4 and mandatory_done(state, seat)


def may_ask_gem(state: WizardsState, seat: int, name: str) -> bool:
    """7.326 with AMB20: gathering Gems, and this High Wizard's Gem not held now."""
    return gathering_gems(state, seat) and name not in player(state, seat)["gems"]


def gem_choice_legal(state: WizardsState, item: Item) -> list[dict]:
    """Asking, when his Gem Record allows it (AMB20), or not asking. He is asked even when
    only "not asking" is open: whether he holds this High Wizard's Gem is his secret (14.3),
    so the play looks the same to everyone else either way."""
    ask = [{"kind": "attempt_gem", "wizard": item["gem_from"], "attempt": True}]
    return (ask if may_ask_gem(state, item["seat"], item["gem_from"]) else []) + [
        {"kind": "attempt_gem", "wizard": item["gem_from"], "attempt": False}]


def gem_label(action: dict) -> str:
    if action.get("attempt"):
        return f"ask {action.get('wizard')} for a Sacred Gem (one die: 1-5)"
    return f"do not ask {action.get('wizard')} for a Gem"

