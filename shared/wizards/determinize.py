"""A whole Wizards state from what one seat sees (views.py, 14.3), for the AI's search
(shared/engine/search.py): what the view shows is kept exactly; what it hides is filled in at
random, consistent with the pack and with what the seat itself knows.

What a view hides, and how it is filled in:

* **The decks' order** (Task, Event, Wizard): the Task and Event decks are the cards seen
  nowhere else (discards, Record Sheets, out of play), in random order. An Event Card being
  resolved (an `event_card` item, whose card the view leaves out) is one of them too.
* **The Wizard Cards drawn and kept aside** (8.74, counted only) and the Wizard discards
  (counted only): every Wizard Card is unseen, so they are dealt at random by the counts,
  each marker on the board being given its own High Wizard's card aside first (the card drawn
  for it), as far as the count of cards aside allows.
* **The Gem Cards in the High Wizards' boxes** (3.11): those the seat knows (its own Gem
  Record, the False Wizard it knows) are put back where it learnt them; the others are dealt
  at random to the other boxes.
* **The Secret Wizards' identities** (7.302 6): those on the seat's own Secret Wizard Record
  are kept; the others are High Wizards at random among those not otherwise in play as a marker.
* **Other players' secret records** (14.3): Gems are gathered at Rank FOUR only (13), so a
  player below it has an empty Gem Record; a player at Rank FOUR gets a random part of the
  High Wizards' Gems, read from the boxes as sampled. Their Secret Wizard Records and
  knowledge of the False Wizard are left empty (nothing the seat sees says otherwise).
* **Solitaire's face-down tiles, stack and removed tiles** (Appendix A): the tiles not seen
  (face up on the board, in a hand, set aside), dealt at random by the counts.
* **What the view keeps out of the resolution stack** (stages, cards drawn, dice kept) cannot
  be rebuilt: the items keep their public fields. A search samples only from a view with no
  resolution in progress (levels.py plays the normal policy otherwise); such a state is still
  valid (invariants) and looks the same to the seat.

One offer mid-resolution can be placed from the choice itself (`summoning_offer`): the Master Sorcerer's
offer of Gem Summoning (7.346, 11.232), with the turn's end below it; the stages it puts back are the
seat's own (its view stays the same).

A state waiting for dice (`chance`) is not sampled: the search asks only at a seat's decision.
Reads only the view, the seat and the pack: two states that look alike to the seat give the same
determinizations for the same random draws.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from shared.engine.state import tree_copy
from shared.wizards.gem_aims import summoning_offered
from shared.wizards.pack import pack
from shared.wizards.state import WizardsState

HIDDEN = "hidden"


def _less(pool: list, seen: list) -> list:
    left = Counter(pool)
    left.subtract(Counter(seen))
    return sorted(left.elements(), key=str)


def determinize(view: dict[str, Any], seat: int | None, rng: random.Random) -> WizardsState:
    p = pack()
    v = tree_copy(view)
    if v.get("chance"):
        raise ValueError("a state waiting for dice is not sampled (the search asks at a seat's decision)")
    me = v["players"][seat] if seat is not None and 0 <= seat < len(v["players"]) else None
    data: dict[str, Any] = {k: v[k] for k in (
        "game", "seats", "solitaire", "days_limit", "phase", "step", "dealer", "calendar", "completion", "thwart",
        "thwarts", "out_of_play", "taken", "wizard_markers", "boats", "dragon", "demons", "task_markers", "players",
        "turn", "await", "result", "resigned")}
    options: dict[str, Any] = {}
    if v["days_limit"] is not None:
        options["days"] = v["days_limit"]
    data["config"] = {"seats": v["seats"], "variant": v["variant"], "options": options}
    data["chance"] = None
    data["interrupts"] = []
    data["pending"] = v["pending"]

    # --- the Task and Event decks ---------------------------------------------------------
    players = v["players"]
    discards = v["discards"]
    held_tasks = [t["card"] for q in players for t in q["tasks"]]
    task_pool = _less(list(range(1, len(p.task_cards) + 1)),
                      discards["task"] + held_tasks + list(v["out_of_play"].get("task", [])))
    held_events = [h["card"] for q in players for h in q["events"]]
    event_pool = _less(list(range(1, len(p.event_cards) + 1)), discards["event"] + held_events)
    rng.shuffle(task_pool)
    rng.shuffle(event_pool)
    decks = {"task": task_pool[:v["decks"]["task"]], "event": event_pool[:v["decks"]["event"]]}
    spare_events = event_pool[v["decks"]["event"]:]
    for item in data["pending"]:
        if item.get("do") == "event_card" and spare_events:
            item["card"] = spare_events.pop()  # the card being resolved (8.5)

    # --- the Secret Wizards and the Wizard Cards -------------------------------------------
    names = list(p.high_wizards)
    own_secrets = me["secret_record"] if me is not None else {}
    markers = [n for n in names if v["wizard_markers"].get(n) is not None]
    taken_names = set(markers) | {own_secrets[s["letter"]] for s in v["secret_wizards"] if s["letter"] in own_secrets}
    free_names = [n for n in names if n not in taken_names]
    rng.shuffle(free_names)
    secret_wizards = []
    for s in v["secret_wizards"]:
        entry = {"letter": s["letter"], "at": s.get("at")}
        if s["letter"] in own_secrets:
            entry["wizard"] = own_secrets[s["letter"]]
        elif free_names:
            entry["wizard"] = free_names.pop()
        else:
            entry["wizard"] = rng.choice(names)
        secret_wizards.append(entry)
    data["secret_wizards"] = secret_wizards

    card_of = {c["wizard"]: c["id"] for c in p.wizard_cards if c.get("type") == "high_wizard"}
    wizard_pool = sorted(c["id"] for c in p.wizard_cards)
    aside_count = v["wizard_aside"]
    aside: list[str] = []
    aside_for: dict[str, list[str]] = {}
    keyed = [(n, n) for n in markers] + [(f"secret:{s['letter']}", s["wizard"]) for s in secret_wizards
                                         if s.get("at") is not None]
    for key, name in keyed:
        cid = card_of.get(name)
        if cid is not None and len(aside) < aside_count and cid in wizard_pool and cid not in aside:
            aside.append(cid)
            aside_for[key] = [cid]
    rest = _less(wizard_pool, aside)
    rng.shuffle(rest)
    extra = rest[:aside_count - len(aside)]
    rest = rest[len(extra):]
    aside += extra
    if extra and aside_for:
        first = next(iter(aside_for))
        aside_for[first] = extra + aside_for[first]  # cards drawn before his (8.74)
    decks["wizard"] = rest[:v["decks"]["wizard"]]
    data["discards"] = {"task": discards["task"], "event": discards["event"], "wizard": rest[v["decks"]["wizard"]:]}
    data["decks"] = decks
    data["wizard_aside"] = aside
    data["aside_for"] = aside_for

    # --- the Gem Cards in the boxes, and the other players' records -------------------------
    gem_of = {c["id"]: c for c in p.gem_cards}
    by_gem = {c["gem"]: c["id"] for c in p.gem_cards if not c.get("false_wizard")}
    false_card = next(c["id"] for c in p.gem_cards if c.get("false_wizard"))
    boxes: dict[str, str] = {}
    if me is not None:
        for name, gem in me["gems"].items():
            if name in names and gem in by_gem and by_gem[gem] not in boxes.values():
                boxes[name] = by_gem[gem]
        known_false = me["false_wizard"]
        if known_false in names and known_false not in boxes and false_card not in boxes.values():
            boxes[known_false] = false_card
    left_cards = [c for c in sorted(gem_of) if c not in boxes.values()]
    rng.shuffle(left_cards)
    for name in names:
        if name not in boxes:
            boxes[name] = left_cards.pop()
    data["gem_boxes"] = boxes
    for q in data["players"]:
        if q["gems"] == HIDDEN:
            q["gems"] = {}
            if q["rank"] == 4:
                real = [n for n in names if not gem_of[boxes[n]].get("false_wizard")]
                for n in sorted(rng.sample(real, rng.randint(0, len(real) - 1))):
                    q["gems"][n] = gem_of[boxes[n]]["gem"]
        if q["secret_record"] == HIDDEN:
            q["secret_record"] = {}
        if q["false_wizard"] == HIDDEN:
            q["false_wizard"] = None

    # --- the tiles (solitaire: face-down, stacked, removed) ---------------------------------
    t = v["tiles"]
    seen = [x["tile"] for x in t["placed"] if x["tile"] is not None] + [x for h in t["hands"] for x in h] + t["aside"]
    hidden_tiles = _less(list(p.tile_ids), seen)
    rng.shuffle(hidden_tiles)
    placed = []
    for x in t["placed"]:
        down = x["tile"] is None
        placed.append({"tile": hidden_tiles.pop() if down and hidden_tiles else x["tile"], "at": x["at"],
                       "rotation": x["rotation"], "by": x["by"], "face_down": down})
    stack = [hidden_tiles.pop() for _ in range(min(t["stack"], len(hidden_tiles)))]
    tiles = {"hands": t["hands"], "placed": placed, "stack": stack, "removed": hidden_tiles[:t["removed"]],
             "aside": t["aside"], "face_down": t["face_down"], "placer": t["placer"]}
    if t.get("selected") is not None:
        tiles["selected"] = t["selected"]
    if v["solitaire"] and t["removed"]:
        tiles["remove_count"] = t["removed"]
    data["tiles"] = tiles
    return WizardsState.from_json(data)


def summoning_offer(view: dict[str, Any], seat: int, legal: list[dict]) -> dict[str, Any] | None:
    """The view with the stages of the Gem Summoning offer put back, for `determinize`, or None where it is not
    that offer alone (the Master Sorcerer's encounter of `seat` on top, the turn's end below it): a seat offered
    the spell knows the encounter is at its offer (mentors.MasterSorcerer) and that its turn had ended."""
    pending, turn = view["pending"], view["turn"]
    if not summoning_offered(legal):
        return None
    if [i["do"] for i in pending] != ["goto", "master_sorcerer"] or pending[1]["seat"] != seat:
        return None
    if not turn or turn["seat"] != seat or not turn["ended"]:
        return None
    v = tree_copy(view)
    v["pending"][0]["step"] = "turn_end"
    # the encounter's flags are read before its offer only (places.py); its next stage is its end
    v["pending"][1].update(stage="summon_offered", fulfils=False, wizard_present=False)
    return v
