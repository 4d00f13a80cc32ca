"""Tasks (section 9), Task Markers met on the board (7.31-7.312) and the Completion
Track (9.01, 12.21-12.22).

Items (resolution.py):

    {"do": "draw_task", "seat", "rule", "mandatory": bool, "from": giver}    9.1, 9.41-9.42
        giver (optional, for 9.7): a High Wizard's name, "ruktal", "hamdrel",
        "megmoran" | "meligar" | "melekok", or "mentor"
    {"do": "task_marker", "seat", "at", "tasks", "red"}      the 7.31 encounter (7.4 a)
    {"do": "theft", "seat", "rule"}                          9.8 / 14.25: Magical Objects and Gems stolen
    {"do": "complete_tasks", "seat", "rule", "count"}        9.3: an Event completes Tasks he selects

Functions for the other encounters: `fulfil_meeting` (7.323, 7.333, 7.343, 7.352: a
meeting that fulfils a "meet" requirement), `mandatory_done` (7.326, 9.41, 13),
`make_impossible` (9.8, 9.9), `territory_lost` (12.43), `transfer` (9.2).

Readings (also in README.md):
* 9.1 / 4: a marker's space is rolled as section 4 says (random listings and Territories are
  chance steps, re-rolled when they fall on a lost Territory, 12.45); ANY is the player's
  choice among every space of that kind; a named place or exact space takes no roll.
* 12.44: a card is out of play when it names a Territory that is lost (or not on the board,
  as 12.45 reads it), a listing of which no Territory is left, a place or a Master Sorcerer or
  Hamdrel or Rüktal whose Territory is lost, or "EVERY" location of a kind none of which is
  left; another card is drawn. Cards out of play lie in `state.out_of_play["task"]`.
* Printed limit: twenty Task Markers a colour (taskmarkers.py). A Task that needs more
  markers than its holder has free cannot be marked (9.42 "he must mark it"), so it is not
  received: the card is discarded.
* 9.7: the first requirement is fulfilled at once when it is a marker placed in the space
  where he receives the Task, a meeting with the one who gives it (a Mandatory Task comes
  from his Mentor, so "meet your Mentor" is met by the giver), or an EVERY-visit whose kind
  this space is (it counts as visited). Only the first requirement.
* 9.6: one encounter picks up every marker of his in the space whose prerequisites are done,
  including those whose prerequisites the same encounter completes.
* 7.312: the choice to ignore is made per Task (all of a Task's markers here, or none). An
  ignored marker's space is treated as empty for the rest of that encounter: the place tables
  roll (7.3011 etc.) and, if his red die allowed one and nothing else is due, a Random
  Encounter happens.
* 9.3: a Task an Event completes is completed in full: its points and one box of the
  Completion Track.
* 12.21-12.22: `state.completion` counts every Task completed in the game; each time it
  reaches a multiple of TEN a thwart is banked in `state.thwarts` and the Thwart Marker
  stands in the Evil Thwarted box (`state.thwart == "thwarted"`) while any is banked.
* Visiting EVERY location: a location counts when he arrives in it by any means (these
  spaces end movement, 6); the Task is complete once every such location still on the board
  has been visited (12.43: lost ones no longer count).
"""
from __future__ import annotations

from itertools import combinations
from typing import Mapping

from shared.hexgrid import Hex
from shared.wizards import decks, randomspace, record, resolution
from shared.wizards.cards import MARKED_STEPS
from shared.wizards.encounters import Encounter, random_possible, specific_due
from shared.wizards.pack import CIRCLE_TILE, COTTAGE_TILE, pack
from shared.wizards.resolution import Handler, Item, done, handler, push
from shared.wizards.setup import unavailable
from shared.wizards.state import Player, WizardsState, hx, ls, player
from shared.wizards.taskmarkers import DEMON_MARKERS, encounterable, markers_free, prerequisites_done, task_of
from shared.wizards.world import World, world_for

MASTERS = {"megmoran": "M2", "meligar": "M3", "melekok": "M4"}
PLACE_OF_WHOM = {**MASTERS, "hamdrel": COTTAGE_TILE, "ruktal": CIRCLE_TILE}
THWART_EVERY = 10  # 12.2: "The number of Tasks ... to forestall the Evil is TEN"


# --- the card ---------------------------------------------------------------------------
def card_tiles(card: Mapping) -> list[str]:
    """Territories a card names outright (12.44)."""
    out = []
    for step in card["steps"]:
        where = step.get("where") or {}
        if "territory" in where:
            out.append(where["territory"])
        fixed = randomspace.fixed_place(where) if "place" in where else None
        if fixed:
            out.append(fixed[0])
        if step["do"] == "meet" and step["whom"] in PLACE_OF_WHOM:
            out.append(PLACE_OF_WHOM[step["whom"]])
    return out


def locations(state: WizardsState, w: World, kind: str) -> list[tuple[str, str]]:
    """Every location of a kind still on the board (12.43)."""
    lost = set(unavailable(state))
    return sorted(k for k, h in w.hex_of.items() if w.kind(h) == kind and k[0] not in lost)


def out_of_play(state: WizardsState, card: Mapping) -> bool:
    """12.44: the card names a lost Territory or type of Territory (reading in the docstring)."""
    lost = unavailable(state)
    if any(t in lost for t in card_tiles(card)):
        return True
    w = world_for(state)
    for step in card["steps"]:
        where = step.get("where") or {}
        if "random" in where and not randomspace.available_tiles(where["random"], lost):
            return True
        if "any" in where and not randomspace.any_spaces(where, lost):
            return True
        if step["do"] == "visit_every" and not locations(state, w, step["kind"]):
            return True
    return False


def new_record(card: Mapping, mandatory: bool, giver: str | None, day: int) -> dict:
    steps = []
    for s in card["steps"]:
        entry = {"do": s["do"], "done": False}
        if s["do"] == "meet":
            entry["whom"] = s["whom"]
        elif s["do"] == "visit_every":
            entry["kind"], entry["visited"] = s["kind"], []
        elif s["do"] == "take":
            entry["object"], entry["stealable"] = s["object"], s["stealable"]
        steps.append(entry)
    return {"card": card["number"], "mandatory": mandatory, "from": giver, "day": day, "steps": steps}


def marked_count(card: Mapping) -> int:
    return sum(1 for s in card["steps"] if s["do"] in MARKED_STEPS)


# --- meetings ---------------------------------------------------------------------------
def meets(p: Player, whom: str, met: str, mandatory: bool = False) -> bool:
    """Does meeting `met` (a High Wizard's name, "ruktal", "hamdrel", a Master Sorcerer's
    name, "master_sorcerer" or "mentor") fulfil a requirement to meet `whom` (card language)?"""
    met = met.lower() if met.lower() in (*MASTERS, "ruktal", "hamdrel", "master_sorcerer", "mentor") else met
    is_wizard = met in pack().high_wizards
    is_master = met in MASTERS or met == "master_sorcerer"
    if whom == met:
        return True
    if whom == "high_wizard":
        return is_wizard
    if whom == "master_sorcerer":
        return is_master
    if whom == "mentor":
        if met == "mentor":
            return True
        kind = "high_wizard" if is_wizard else "master_sorcerer" if is_master else met
        return record.is_mentor(p, kind) if kind in record.ORDER_OF_MENTOR else False
    return False


def fulfil_meeting(state: WizardsState, seat: int, whom: str, events: list) -> bool:
    """7.323 / 7.333 / 7.343 / 7.352: the player meets `whom`; every Task whose next
    requirement is to meet him (its prerequisites done) has it fulfilled. True if any was."""
    p = player(state, seat)
    any_done = False
    for task in list(p["tasks"]):
        i = next_step(task)
        if i is None:
            continue
        step = task["steps"][i]
        if step["do"] == "meet" and meets(p, step["whom"], whom):
            step["done"] = True
            any_done = True
            events.append({"type": "task_requirement_met", "seat": seat, "card": task["card"], "step": i,
                           "met": whom, "rule": "7.323"})
            finish_if_complete(state, seat, task["card"], events)
    return any_done


def next_step(task: dict) -> int | None:
    for i, s in enumerate(task["steps"]):
        if not s["done"]:
            return i
    return None


def mandatory_done(state: WizardsState, seat: int) -> bool:
    """9.41 / 13 / 7.326: every Mandatory Task he holds is completed (impossible ones are
    discarded, 9.9, so they no longer count)."""
    return not any(t["mandatory"] for t in player(state, seat)["tasks"])


# --- markers ----------------------------------------------------------------------------
def place_marker(state: WizardsState, seat: int, card: int, step: int, h: Hex, events: list) -> None:
    task = task_of(player(state, seat), card)
    assert task is not None
    task["steps"][step]["at"] = ls(h)
    state.task_markers.append({"seat": seat, "task": card, "step": step, "at": ls(h)})
    events.append({"type": "task_marker_placed", "seat": seat, "card": card, "step": step, "at": ls(h),
                   "space": world_for(state).space_name(h), "rule": "9.1"})


def remove_markers(state: WizardsState, seat: int, card: int) -> list[list]:
    gone = [m["at"] for m in state.task_markers if m["seat"] == seat and m["task"] == card]
    state.task_markers = [m for m in state.task_markers if not (m["seat"] == seat and m["task"] == card)]
    return gone


def pick_up(state: WizardsState, seat: int, card: int, step: int, rule: str, events: list) -> None:
    """7.31: the marker comes off the board onto its card; that requirement is fulfilled."""
    task = task_of(player(state, seat), card)
    assert task is not None
    task["steps"][step]["done"] = True
    state.task_markers = [m for m in state.task_markers
                             if not (m["seat"] == seat and m["task"] == card and m["step"] == step)]
    events.append({"type": "task_marker_picked_up", "seat": seat, "card": card, "step": step,
                   "at": task["steps"][step]["at"], "rule": rule})


def pick_up_here(state: WizardsState, seat: int, cards: list[int], h: Hex, events: list) -> None:
    """9.6: one encounter picks up every marker of these Tasks here whose prerequisites are
    done, those included whose prerequisites it completes."""
    progress = True
    while progress:
        progress = False
        for m in encounterable(state, seat, h):
            if m["task"] in cards:
                pick_up(state, seat, m["task"], m["step"], "7.31" if not progress else "9.6", events)
                progress = True
                break
    for card in cards:
        finish_if_complete(state, seat, card, events)


def note_visit(state: WizardsState, seat: int, h: Hex, events: list) -> None:
    """EVERY-location Tasks: arriving in such a location counts it (called on arrival)."""
    p = player(state, seat)
    w = world_for(state)
    space = w.spaces.get(h)
    if space is None or "dragonbound" in p["afflictions"]:
        return
    for task in list(p["tasks"]):
        for i, step in enumerate(task["steps"]):
            if step["do"] != "visit_every" or step["done"] or step["kind"] != space.kind:
                continue
            if not prerequisites_done(task, i):
                continue
            here = [space.tile, space.label]
            if here not in step["visited"]:
                step["visited"].append(here)
                events.append({"type": "task_location_visited", "seat": seat, "card": task["card"],
                               "space": w.space_name(h), "rule": "9"})
            settle_visits(state, seat, task, events)


def settle_visits(state: WizardsState, seat: int, task: dict, events: list) -> None:
    w = world_for(state)
    for step in task["steps"]:
        if step["do"] == "visit_every" and not step["done"]:
            left = [k for k in locations(state, w, step["kind"]) if list(k) not in step["visited"]]
            if not left:
                step["done"] = True
    finish_if_complete(state, seat, task["card"], events)


# --- completion, impossibility ----------------------------------------------------------
def bank_completion(state: WizardsState, events: list) -> None:
    """9.01 / 12.21-12.22: one box on the Completion Track; every TEN banks a thwart."""
    state.completion += 1
    if state.completion % THWART_EVERY == 0:
        state.thwarts += 1
        state.thwart = "thwarted"
        events.append({"type": "evil_thwarted", "completion": state.completion, "banked": state.thwarts,
                       "rule": "12.21"})


def finish_if_complete(state: WizardsState, seat: int, card: int, events: list) -> bool:
    p = player(state, seat)
    task = task_of(p, card)
    if task is None or not all(s["done"] for s in task["steps"]):
        return False
    complete(state, seat, card, "9.01", events)
    return True


def close(state: WizardsState, seat: int, card: int, status: str) -> dict:
    p = player(state, seat)
    task = task_of(p, card)
    assert task is not None
    p["tasks"].remove(task)
    p["task_history"].append({"card": card, "mandatory": task["mandatory"], "status": status,
                              "day": record.days_played(state)})
    state.discards["task"].append(card)
    return task


def complete(state: WizardsState, seat: int, card: int, rule: str, events: list) -> None:
    """9.01: the points at the bottom of the card, the card discarded, the Completion
    Marker one box on, the markers free again (any still out come off the board, 9.3)."""
    remove_markers(state, seat, card)
    close(state, seat, card, "completed")
    points = dict(pack().task(card)["points"])
    events.append({"type": "task_completed", "seat": seat, "card": card, "points": points, "rule": rule})
    record.gain(state, seat, {t: n for t, n in points.items() if n}, rule, events)
    bank_completion(state, events)


def place_demon(state: WizardsState, h: Hex, rule: str, events: list) -> bool:
    """A Demon Marker put in a space: only one a space (7.3041), never more than the 48
    printed; a player standing there meets it at once (7.5)."""
    if any(hx(d) == h for d in state.demons):
        return False
    if len(state.demons) >= DEMON_MARKERS:
        events.append({"type": "no_demon_marker_left", "at": ls(h), "rule": "1"})
        return False
    state.demons.append(ls(h))
    events.append({"type": "demon_placed", "at": ls(h), "rule": rule})
    for q in state.players:
        if hx(q["at"]) == h:
            push(state, {"do": "demons", "seat": q["seat"], "at": ls(h), "rule": "7.5", "fulfils": False,
                         "wizard_present": False})
    return True


def make_impossible(state: WizardsState, seat: int, card: int, rule: str, events: list) -> None:
    """9.9: the Task becomes impossible: no points (9.011), the card discarded, every
    marker of it still on the board replaced by a Demon Marker."""
    spaces = remove_markers(state, seat, card)
    close(state, seat, card, "impossible")
    events.append({"type": "task_impossible", "seat": seat, "card": card, "rule": rule})
    for at in spaces:
        place_demon(state, hx(at), "9.9", events)


def territory_lost(state: WizardsState, tile: str, events: list) -> None:
    """12.43: every Task Marker on a lost Territory is removed and its Task becomes
    impossible; EVERY-location Tasks only when no location of their kind is left (call
    after the tile is added to `state.taken`)."""
    w = world_for(state)
    for q in state.players:
        for task in list(q["tasks"]):
            on_tile = [m for m in state.task_markers
                       if m["seat"] == q["seat"] and m["task"] == task["card"] and w.tile_of(hx(m["at"])) == tile]
            if on_tile:
                state.task_markers = [m for m in state.task_markers if m not in on_tile]
                make_impossible(state, q["seat"], task["card"], "12.43", events)
                continue
            kinds = [s["kind"] for s in task["steps"] if s["do"] == "visit_every" and not s["done"]]
            if any(not locations(state, w, k) for k in kinds):
                make_impossible(state, q["seat"], task["card"], "12.43", events)
            elif kinds:
                settle_visits(state, q["seat"], task, events)


def transfer(state: WizardsState, giver: int, taker: int, card: int, events: list) -> bool:
    """9.2: a Task given in a Player Encounter: the giver's markers come off and the new
    holder's go in the same spaces. False (nothing changes) if the taker lacks the markers."""
    task = task_of(player(state, giver), card)
    assert task is not None
    if markers_free(player(state, taker)) < marked_count(pack().task(card)):
        return False
    moved = [m for m in state.task_markers if m["seat"] == giver and m["task"] == card]
    remove_markers(state, giver, card)
    player(state, giver)["tasks"].remove(task)
    player(state, taker)["tasks"].append(dict(task, mandatory=False))  # 9.42: not from the taker's Mentor
    state.task_markers.extend({**m, "seat": taker} for m in moved)
    events.append({"type": "task_given", "from": giver, "to": taker, "card": card, "rule": "9.2"})
    return True


# --- drawing a Task ---------------------------------------------------------------------
def receive_refused(state: WizardsState, seat: int) -> str | None:
    p = player(state, seat)
    if p["order"] is None:
        return "3.73"  # 3.73 / 10: no Tasks before joining an Order
    if p["rank"] >= 4:
        return "13"  # 13: at Rank FOUR no longer assigned Tasks; the encounter is ignored
    return None


@handler("draw_task")
class DrawTask(Handler):
    """9.1: draw a Task Card and mark every marked requirement at once."""

    rule = "9.1"
    kinds = ("place_task_marker",)

    @staticmethod
    def label(action: dict) -> str:
        return f"place the Task Marker in {action['territory']} {action['space']}"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        if item.get("stage") is None:
            refused = receive_refused(state, seat)
            if refused:
                events.append({"type": "no_task", "seat": seat, "rule": refused, "for": item.get("rule")})
                done(state, item)
                return
            item["stage"] = "drawing"
        if item["stage"] == "drawing":
            self.draw(state, item, events)
            return
        self.place_next(state, item, events)

    def draw(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        if not decks.ready(state, "task"):
            if decks.empty(state, "task"):
                events.append({"type": "no_task", "seat": seat, "rule": "9", "for": item.get("rule"),
                               "why": "the Task deck is empty"})
                done(state, item)
            return
        n = decks.draw(state, "task")
        card = pack().task(n)
        if out_of_play(state, card):  # 12.44: out of play; draw another
            state.out_of_play["task"].append(n)
            events.append({"type": "task_out_of_play", "seat": seat, "card": n, "rule": "12.44"})
            return
        p = player(state, seat)
        if markers_free(p) < marked_count(card):  # the printed limit (reading in the docstring)
            state.discards["task"].append(n)
            events.append({"type": "no_task", "seat": seat, "card": n, "rule": "1",
                           "why": "not enough Task Markers of his colour left to mark it"})
            done(state, item)
            return
        mandatory = bool(item.get("mandatory"))
        p["tasks"].append(new_record(card, mandatory, item.get("from"), record.days_played(state)))
        events.append({"type": "task_drawn", "seat": seat, "card": n, "name": card["name"], "text": card["text"],
                       "mandatory": mandatory, "rule": "9.41" if mandatory else "9.42", "for": item.get("rule")})
        item["card"], item["stage"] = n, "placing"

    def pending_step(self, state: WizardsState, item: Item) -> int | None:
        task = task_of(player(state, item["seat"]), item["card"])
        if task is None:
            return None
        for i, s in enumerate(pack().task(item["card"])["steps"]):
            if s["do"] in MARKED_STEPS and "at" not in task["steps"][i]:
                return i
        return None

    def where(self, item: Item, i: int) -> Mapping:
        return pack().task(item["card"])["steps"][i]["where"]

    def place_next(self, state: WizardsState, item: Item, events: list) -> None:
        i = self.pending_step(state, item)
        if i is None:
            self.received(state, item, events)
            return
        where = self.where(item, i)
        item["step"] = i
        fixed = randomspace.fixed_place(where)
        if fixed:
            place_marker(state, item["seat"], item["card"], i, world_for(state).hex_of[fixed], events)
            return
        if "any" in where:  # 4.1 / 4.22 ANY: the player chooses
            resolution.ask(state, item["seat"])
            return
        resolution.roll(state, item, randomspace.pools_for(where))

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        got = randomspace.read(self.where(item, item["step"]), faces, unavailable(state))
        if got is None:  # 12.45: roll over
            events.append({"type": "reroll", "seat": item["seat"], "dice": [f[0] for f in faces], "rule": "12.45"})
            return
        place_marker(state, item["seat"], item["card"], item["step"], world_for(state).hex_of[got], events)

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        spaces = randomspace.any_spaces(self.where(item, item["step"]), unavailable(state))
        w = world_for(state)
        return [{"kind": "place_task_marker", "territory": t, "space": lab}
                for t, lab in spaces if (t, lab) in w.hex_of]

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        h = world_for(state).hex_of[(action["territory"], action["space"])]
        place_marker(state, seat, item["card"], item["step"], h, events)

    def received(self, state: WizardsState, item: Item, events: list) -> None:
        """Every marker placed: 9.7, the first requirement met where he receives the Task."""
        seat, card = item["seat"], item["card"]
        done(state, item)
        p = player(state, seat)
        task = task_of(p, card)
        assert task is not None
        first = task["steps"][0]
        here = hx(p["at"])
        if first["do"] in MARKED_STEPS and hx(first.get("at")) == here and "dragonbound" not in p["afflictions"]:
            pick_up(state, seat, card, 0, "9.7", events)
            finish_if_complete(state, seat, card, events)
        elif first["do"] == "meet" and (
                (item.get("from") and meets(p, first["whom"], item["from"]))
                or (first["whom"] == "mentor" and task["mandatory"])):
            first["done"] = True
            events.append({"type": "task_requirement_met", "seat": seat, "card": card, "step": 0,
                           "met": item.get("from") or "mentor", "rule": "9.7"})
            finish_if_complete(state, seat, card, events)
        elif first["do"] == "visit_every" and here is not None:
            note_visit(state, seat, here, events)


# --- the Task Marker encounter ------------------------------------------------------------
@handler("task_marker")
class TaskMarker(Encounter):
    """7.31: landing on his own markers; 7.312: he may ignore them (the only encounter a
    player may avoid); 9.6 one encounter picks up them all."""

    rule = "7.312"
    kinds = ("pick_up_task_markers", "ignore_task_markers")

    @staticmethod
    def label(action: dict) -> str:
        if action["kind"] == "ignore_task_markers":
            return "ignore the Task Markers here (save them for later)"
        return "pick up the Task Markers of Task " + ", ".join(str(c) for c in action["tasks"])

    def here(self, state: WizardsState, item: Item) -> list[int]:
        return sorted({m["task"] for m in encounterable(state, item["seat"], hx(item["at"]))})

    def start(self, state: WizardsState, item: Item, events: list) -> None:
        if not self.here(state, item):
            done(state, item)
            return
        resolution.ask(state, item["seat"])

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        cards = self.here(state, item)
        out: list[dict] = [{"kind": "ignore_task_markers"}]
        for k in range(1, len(cards) + 1):
            out += [{"kind": "pick_up_task_markers", "tasks": list(c)} for c in combinations(cards, k)]
        return out

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        h = hx(item["at"])
        done(state, item)
        if action["kind"] == "pick_up_task_markers":
            pick_up_here(state, seat, action["tasks"], h, events)
            left = self.here(state, item)
            if left:
                events.append({"type": "task_markers_ignored", "seat": seat, "tasks": left, "at": item["at"],
                               "rule": "7.312"})
            return
        events.append({"type": "task_markers_ignored", "seat": seat, "tasks": self.here(state, item),
                       "at": item["at"], "rule": "7.312"})
        # 7.312: "the space is treated as though it has no marker in it"
        for other in state.pending:
            if other.get("seat") == seat and other.get("at") == item["at"] and other.get("fulfils"):
                other["fulfils"] = False
        w = world_for(state)
        if item.get("red") and not specific_due(state, w, seat, h, ignore_tasks=True) \
                and random_possible(state, w, seat, h, ignore_tasks=True):
            push(state, {"do": "random_encounter", "seat": seat, "at": item["at"]})


# --- theft and Events that complete Tasks -------------------------------------------------
@handler("theft")
class Theft(Handler):
    """9.8 / 14.25: his Magical Objects (*) and Sacred Gems are stolen. Each Task of which
    he has picked up a Magical Object becomes impossible (9.9); the Gem Record is erased
    (what it held is told to him alone)."""

    rule = "9.8"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        p = player(state, seat)
        done(state, item)
        cards = [t["card"] for t in p["tasks"]
                 if any(s["do"] == "take" and s.get("stealable") and s["done"] for s in t["steps"])]
        events.append({"type": "stolen", "seat": seat, "tasks": cards, "rule": item.get("rule", "9.8")})
        events.append({"type": "gems_stolen", "seat": seat, "gems": dict(p["gems"]), "visible_to": [seat],
                       "rule": "14.25"})
        p["gems"] = {}
        for card in cards:
            make_impossible(state, seat, card, "9.8", events)


@handler("complete_tasks")
class CompleteTasks(Handler):
    """9.3: an Event completes `count` of his Tasks, which he selects."""

    rule = "9.3"
    kinds = ("complete_task",)

    @staticmethod
    def label(action: dict) -> str:
        return f"complete Task {action['card']}"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        if item.get("count", 1) <= 0 or not player(state, item["seat"])["tasks"]:
            done(state, item)
            return
        resolution.ask(state, item["seat"])

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        return [{"kind": "complete_task", "card": t["card"]} for t in player(state, seat)["tasks"]]

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        item["count"] = item.get("count", 1) - 1
        complete(state, seat, action["card"], "9.3", events)
