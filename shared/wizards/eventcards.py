"""The Event deck (8.5, 8.51): drawing an Event Card and every effect of the card
language (content/events.json), by the four types of 8.51.

    {"do": "event_card", "seat", "rule"}        8.5: draw one Event Card and do what it says
    {"do": "kept_cards", "seat"}                 at the start of his turn: use a kept card now?
    {"do": "escape", "seat", "rule", "against": "trap"}
        pushed before a Trap Event takes effect: the Escaping Spell's hook (11.224, 11.2241).
        Its handler (the Encounter Spells) sets "escaped": True on the item beneath it
        (`state.pending[-2]`) when the player escapes; unregistered, nothing happens.

Types and durations (8.51):
* IMMEDIATE: everything at once, then the card is discarded.
* EXTENDED: kept (`keep`: until used), delayed (`delayed`: the effects happen when its days
  have passed, then the card is discarded) or lasting (`no_random_encounters`).
* MOVEMENT: lasts its days; a second Movement card makes the first one lost (discarded);
  becoming trapped, Demon Dazed or Dragonbound discards it (afflictions.py).
* TRAP: avoidable by the Escaping Spell (hook above) or a kept Event card that escapes
  Traps; its effect goes on the player's `trap` (lost turns or a roll to move on) or
  transports him; the card is then discarded (its effect is recorded on the player).

Readings (also in README.md):
* "For N days" counts Day Marker advances, Day 14 included (12.1: Day 14 "does count as a
  turn for Animals and Events", whether or not players move on it): a card drawn on Day d
  lasts the N days after it (its holder's next N turns), so it is held with `days` = N + 1,
  the advances left before it is discarded (the 14.23 "ending turn").
* "In N days" (delayed) happens at the Nth Day Marker advance after the draw, before the
  dealer's turn; the holder resolves it even if it is not his turn.
* A Trap Event that loses "ALL turns until the end of the present Fortnight" loses the turns
  of the days left in the Fortnight (14 - today); a lost-turns Trap ends with the last turn
  lost (turns.py), so a rescuer can free him before then (7.3032).
* A card that names a type of points ("Receive 5 Knowledge points") gives that type; "any
  type" is the player's choice (record.Points).
* Kept cards: curing Demon Daze and the extra turn are offered at the start of each of his
  turns while they would do something; escaping a Trap when a Trap Event comes. Dispelling
  a Demon, Boat Summoning and the High Wizard bonus are for those rules to spend
  (`kept`, `spend`).
"""
from __future__ import annotations

from typing import Mapping

from shared.engine import d6
from shared.wizards import afflictions, decks, fate, record, resolution
from shared.wizards.pack import pack
from shared.wizards.resolution import Handler, Item, done, handler, push
from shared.wizards.state import Player, WizardsState, player, position
from shared.wizards.tasks import place_demon

LASTING = ("movement", "no_random_encounters")


def held_days(effect: Mapping) -> int:
    """Day Marker advances a lasting card is held for (reading in the docstring)."""
    return int(effect["days"]) + 1


def effect_items(state: WizardsState, seat: int, effects, rule: str, events: list) -> list[dict]:
    """The items for an Event's effects that need dice or choices; the rest happen now."""
    p = player(state, seat)
    items: list[dict] = []
    for e in effects:
        op = e["op"]
        if op in ("gain_points", "lose_points"):
            sign = 1 if op == "gain_points" else -1
            amount = e["amount"]
            if e["type"] != "any":  # the loader allows only fixed amounts of a named type
                pts = {e["type"]: amount["fixed"]}
                if sign > 0:
                    record.gain(state, seat, pts, rule, events)
                else:
                    record.lose(state, seat, pts, rule, events)
                continue
            item = {"do": "points", "seat": seat, "rule": rule, "sign": sign}
            if "fixed" in amount:
                item["amount"] = amount["fixed"]
            else:
                item["dice"], item["times"] = amount["dice"], amount.get("times", 1)
            items.append(item)
        elif op == "extra_turns":
            fate.extra_turns(state, seat, e["count"], rule, events)
        elif op == "lose_turns":
            items.append({"do": "lose_turns", "seat": seat, "rule": rule, "amount": e["count"]})
        elif op == "transport":
            items.append({"do": "transport", "seat": seat, "where": dict(e["where"]), "rule": rule})
        elif op == "animal":
            items.append({"do": "animal", "seat": seat, "rule": rule, "animal": e["animal"]})
        elif op == "draw_task":
            items.append({"do": "draw_task", "seat": seat, "rule": rule, "mandatory": False})  # 9.42
        elif op == "demon":  # "Place a Demon Marker in your space": he meets it at once (7.5)
            place_demon(state, position(p), rule, events)
        elif op == "reveal_high_wizard":
            items.append({"do": "wizard_card", "seat": seat, "rule": rule, "mode": "until_high_wizard",
                          "place": True})
        elif op == "complete_tasks":
            items.append({"do": "complete_tasks", "seat": seat, "rule": "9.3", "count": e["count"]})
        elif op == "star_crest_directed":  # 6, 7.37: directed there by an Event Card
            p["star_crest_directed"] = True
            events.append({"type": "star_crest_directed", "seat": seat, "rule": rule})
        else:
            raise AssertionError(f"effect {op} is not immediate")
    return items


def kept(p: Player, use: str) -> list[int]:
    """Kept Event Cards of his that can be used for `use` (heal, escape_trap, extra_turn,
    dispel_demon, summon_boat, wizard_bonus)."""
    out = []
    for held in p["events"]:
        for e in pack().event(held["card"])["effects"]:
            if e["op"] == "keep" and e["use"] == use:
                out.append(held["card"])
    return out


def spend(state: WizardsState, seat: int, card: int, events: list) -> None:
    """A kept card is used: discarded (8.5: its effect has expired)."""
    p = player(state, seat)
    p["events"] = [h for h in p["events"] if h["card"] != card]
    state.discards["event"].append(card)
    events.append({"type": "event_used", "seat": seat, "card": card, "rule": "8.51"})


def hold(state: WizardsState, seat: int, card: int, days: int | None) -> None:
    player(state, seat)["events"].append({"card": card, "days": days})


def discard(state: WizardsState, card: int) -> None:
    state.discards["event"].append(card)


def day_passed(state: WizardsState, events: list, due: list) -> None:
    """The Day Marker advances (Day 14 counts, 12.1): every held card with days counts one
    off; those at zero are discarded, and a delayed card's effects are put in `due`."""
    for p in state.players:
        for held in p["events"]:
            days = held.get("days")
            if days is not None:
                held["days"] = days - 1
        expired = [h for h in p["events"] if (d := h.get("days")) is not None and d <= 0]
        for h in expired:
            p["events"].remove(h)
            discard(state, h["card"])
            events.append({"type": "event_expires", "seat": p["seat"], "card": h["card"]})
            for e in pack().event(h["card"])["effects"]:
                if e["op"] == "delayed":
                    due += effect_items(state, p["seat"], e["then"], "8.51", events)


USE_KINDS = ("use_event_card", "keep_event_card")


def use_label(action: dict) -> str:
    if action["kind"] == "keep_event_card":
        return "keep the Event Card for later"
    card = pack().event(action["card"])
    return f"use Event Card {action['card']} ({card['name']})"


@handler("event_card")
class EventCard(Handler):
    """8.5: draw an Event Card; 8.51: its type says how long it lasts."""

    rule = "8.51"
    kinds = USE_KINDS
    label = staticmethod(use_label)

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        stage = item.get("stage")
        if stage is None:
            if not decks.ready(state, "event"):
                if decks.empty(state, "event"):
                    events.append({"type": "no_event", "seat": seat, "rule": "8.5", "why": "the Event deck is empty"})
                    done(state, item)
                return
            n = decks.draw(state, "event")
            card = pack().event(n)
            item["card"] = n
            events.append({"type": "event_drawn", "seat": seat, "card": n, "event_type": card["type"],
                           "name": card["name"], "text": card["text"], "rule": "8.5"})
            getattr(self, card["type"])(state, item, card, events)
            return
        if stage == "immediate":
            discard(state, item["card"])
            done(state, item)
            return
        if stage == "trap":
            self.spring(state, item, events)
            return
        done(state, item)

    def immediate(self, state: WizardsState, item: Item, card: Mapping, events: list) -> None:
        item["stage"] = "immediate"
        push(state, *effect_items(state, item["seat"], card["effects"], "8.5", events))

    def extended(self, state: WizardsState, item: Item, card: Mapping, events: list) -> None:
        seat, n = item["seat"], item["card"]
        done(state, item)
        e = card["effects"][0]
        if e["op"] == "keep":
            hold(state, seat, n, None)
        elif e["op"] == "delayed":
            hold(state, seat, n, int(e["days"]))
        else:
            hold(state, seat, n, held_days(e))
        events.append({"type": "event_held", "seat": seat, "card": n, "days": player(state, seat)["events"][-1]["days"],
                       "rule": "8.51"})

    def movement(self, state: WizardsState, item: Item, card: Mapping, events: list) -> None:
        seat, n = item["seat"], item["card"]
        done(state, item)
        afflictions.discard_events(state, seat, ("movement",), "8.51", events)  # the first card is lost
        hold(state, seat, n, held_days(card["effects"][0]))
        events.append({"type": "event_held", "seat": seat, "card": n, "days": player(state, seat)["events"][-1]["days"],
                       "rule": "8.51"})

    def trap(self, state: WizardsState, item: Item, card: Mapping, events: list) -> None:
        item["stage"] = "trap_card"
        if kept(player(state, item["seat"]), "escape_trap"):
            resolution.ask(state, item["seat"])
            return
        self.offer_escape(state, item)

    def offer_escape(self, state: WizardsState, item: Item) -> None:
        item["stage"] = "trap"
        push(state, {"do": "escape", "seat": item["seat"], "rule": "8.51", "against": "trap"})

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        return [{"kind": "keep_event_card"}] + [{"kind": "use_event_card", "card": c}
                                                for c in kept(player(state, seat), "escape_trap")]

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        if action["kind"] == "use_event_card":
            spend(state, seat, action["card"], events)
            item["escaped"] = True
            item["stage"] = "trap"
            return
        self.offer_escape(state, item)

    def spring(self, state: WizardsState, item: Item, events: list) -> None:
        seat, n = item["seat"], item["card"]
        if item.get("escaped"):
            events.append({"type": "trap_escaped", "seat": seat, "card": n, "rule": "8.51"})
            discard(state, n)
            done(state, item)
            return
        e = pack().event(n)["effects"][0]
        if "transport" in e:
            discard(state, n)
            done(state, item)
            push(state, {"do": "transport", "seat": seat, "where": dict(e["transport"]), "rule": "8.51"})
            return
        if "roll_to_leave" in e:
            afflictions.become_trapped(state, seat, {"event": n, "roll_to_leave": list(e["roll_to_leave"])}, events)
            discard(state, n)
            done(state, item)
            return
        turns = e["lose_turns"]
        if isinstance(turns, Mapping) and "amount" not in item:
            resolution.roll(state, item, [d6("turns lost (Trap Event)") for _ in range(turns["dice"])])
            return
        if turns == "fortnight":
            turns = 14 - state.calendar["day"]
        elif isinstance(turns, Mapping):
            turns = item["amount"]
        discard(state, n)
        done(state, item)
        if turns <= 0:
            return
        afflictions.become_trapped(state, seat, {"event": n, "lose_turns": turns}, events)
        player(state, seat)["lost_turns"] += turns
        events.append({"type": "turns_lost", "seat": seat, "turns": turns, "rule": "8.51",
                       "left": player(state, seat)["lost_turns"]})

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        item["amount"] = sum(f[0] for f in faces)


def kept_uses(state: WizardsState, seat: int) -> list[dict]:
    """Kept cards he may use at the start of his turn: the cure while Demon Dazed, the extra turn."""
    p = player(state, seat)
    cards = kept(p, "extra_turn")
    if "demon_dazed" in p["afflictions"]:
        cards += kept(p, "heal")
    return [{"kind": "use_event_card", "card": c} for c in sorted(set(cards))]


@handler("kept_cards")
class KeptCards(Handler):
    """A kept Event Card used at the start of his turn (or kept for later)."""

    rule = "8.51"
    kinds = USE_KINDS
    label = staticmethod(use_label)

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        if not kept_uses(state, item["seat"]):
            done(state, item)
            return
        resolution.ask(state, item["seat"])

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        return [{"kind": "keep_event_card"}] + kept_uses(state, seat)

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        done(state, item)
        if action["kind"] == "keep_event_card":
            return
        card = action["card"]
        use = pack().event(card)["effects"][0]["use"]
        spend(state, seat, card, events)
        if use == "heal":
            p = player(state, seat)
            p["afflictions"] = [a for a in p["afflictions"] if a != "demon_dazed"]
            events.append({"type": "healed", "seat": seat, "affliction": "demon_dazed", "rule": "8.51"})
        else:
            fate.extra_turns(state, seat, 1, "8.51", events)
