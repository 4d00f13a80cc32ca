"""The Set-Up (section 3) and the solitaire tile set-up (Appendix A), as steps.

    shuffle_decks    3.1-3.12  decks shuffled (secret), one Gem Card face down per
                               High Wizard box, Wizard Markers in their boxes
    dealer_roll      3.2       everyone rolls two dice; tied high rollers roll again
    deal_tiles       3.2       the dealer shuffles the tiles and deals them from his left
      (solitaire: solitaire_tower -> solitaire_remove -> solitaire_shuffle, Appendix A 1-4)
    place_tiles      3.21-3.23 from the dealer's left, one tile at a time, clockwise
    tiles_placed     Appendix A 5: face-down tiles are turned up
    place_boats      3.3-3.32
    place_dragon     3.4       a random space of the Dragon's Lair
    mark_calendar    3.5-3.6   Day ONE; Completion at ZERO; Thwart in Takeover
    choose_colours   3.7       from the dealer, clockwise
    start_spaces     3.71-3.72 a random COMMON space each, re-rolled if occupied
    begin_play       3.74      the dealer moves first
"""
from __future__ import annotations

from shared.engine import MalformedAction, RuleViolation, apply_shuffle, d6, shuffle_request
from shared.wizards import boats, randomspace
from shared.wizards.arrival import arrive
from shared.wizards.dice import ask, split
from shared.wizards.pack import CIRCLE_TILE, COTTAGE_TILE, LAIR_TILE, TOWER_TILES, pack
from shared.wizards.placement import (
    act_choose_spot,
    act_choose_tile,
    check_placement,
    read_placement,
    tiles_to_place,
)
from shared.wizards.state import WizardsState, hx, ls, next_seat
from shared.wizards.world import world_for

DECKS = (("task", "Task deck"), ("event", "Event deck"), ("wizard", "Wizard deck"))
SOLITAIRE_ASIDE = (CIRCLE_TILE, COTTAGE_TILE, LAIR_TILE)  # Appendix A 1 (plus one Tower)


def unavailable(state: WizardsState) -> list[str]:
    """Territories a random space may not fall in: lost to Evil (12.45) or not on the
    board (the solitaire game removes some; read like 12.45, roll over)."""
    placed = {t["tile"] for t in state.tiles["placed"]}
    return sorted(set(state.taken) | (set(pack().tile_ids) - placed))


# --- 3.1-3.12 ------------------------------------------------------------------------
def step_shuffle_decks(state: WizardsState, events: list) -> None:
    p = pack()
    pools = (shuffle_request("Task deck", len(p.task_cards)) + shuffle_request("Event deck", len(p.event_cards))
             + shuffle_request("Wizard deck", len(p.wizard_cards)) + shuffle_request("Gem cards", len(p.gem_cards)))
    ask(state, pools, {"do": "decks_shuffled"}, secret=True)


def on_decks_shuffled(state: WizardsState, then: dict, faces: list, events: list) -> None:
    p = pack()
    cards = {"task": [c["number"] for c in p.task_cards], "event": [c["number"] for c in p.event_cards],
             "wizard": [c["id"] for c in p.wizard_cards]}
    gems = [c["id"] for c in p.gem_cards]
    groups = split(faces, [len(cards["task"]) - 1, len(cards["event"]) - 1, len(cards["wizard"]) - 1, len(gems) - 1])
    decks = state.edit("decks")
    for (deck, _), draws in zip(DECKS, groups):
        decks[deck] = apply_shuffle(cards[deck], draws)
    # 3.11: ONE Gem Card, face down, in each box marked with the name of a High Wizard.
    state.replace("gem_boxes", dict(zip(p.high_wizards, apply_shuffle(gems, groups[3]))))
    # 3.12: each white Wizard Marker in the box of its name (None: in its box).
    state.replace("wizard_markers", {name: None for name in p.high_wizards})
    events.append({"type": "decks_shuffled", "task": len(cards["task"]), "event": len(cards["event"]),
                   "wizard": len(cards["wizard"])})
    events.append({"type": "gem_cards_dealt", "boxes": list(p.high_wizards)})
    state.step = "solitaire_tower" if state.solitaire else "dealer_roll"


# --- 3.2 ------------------------------------------------------------------------------
def step_dealer_roll(state: WizardsState, events: list) -> None:
    seats = state.dealer_contenders or list(range(state.seats))
    ask(state, [d6(f"seat {s}: two dice for dealer", 2) for s in seats], {"do": "dealer_rolled", "seats": seats})


def on_dealer_rolled(state: WizardsState, then: dict, faces: list, events: list) -> None:
    totals = {s: sum(f) for s, f in zip(then["seats"], faces)}
    best = max(totals.values())
    top = [s for s in then["seats"] if totals[s] == best]
    events.append({"type": "dealer_roll", "rolls": [{"seat": s, "dice": list(f)} for s, f in zip(then["seats"], faces)],
                   "tied": top if len(top) > 1 else []})
    if len(top) > 1:
        state.replace("dealer_contenders", top)  # authored: the tied high rollers roll again
        return
    state.dealer_contenders = None
    state.dealer = top[0]
    events.append({"type": "dealer", "seat": top[0]})
    state.step = "deal_tiles"


def step_deal_tiles(state: WizardsState, events: list) -> None:
    ask(state, shuffle_request("Territory tiles", len(pack().tile_ids)), {"do": "tiles_dealt"})


def on_tiles_dealt(state: WizardsState, then: dict, faces: list, events: list) -> None:
    order = apply_shuffle(list(pack().tile_ids), faces)
    t = state.edit("tiles")
    dealer = state.dealer
    assert dealer is not None
    seat = next_seat(state, dealer)  # dealt clockwise from the dealer's left
    for tile in order:
        t["hands"][seat].append(tile)
        seat = next_seat(state, seat)
    rank = {t: i for i, t in enumerate(pack().tile_ids)}
    for hand in t["hands"]:
        hand.sort(key=rank.__getitem__)
    events.append({"type": "tiles_dealt", "hands": [list(h) for h in t["hands"]]})
    t["placer"] = next_seat(state, dealer)  # 3.21
    state.step = "place_tiles"


# --- Appendix A: the solitaire tile set-up -----------------------------------------------
def step_solitaire_tower(state: WizardsState, events: list) -> None:
    state.dealer = 0
    state.await_ = {"seat": 0, "for": "set_aside_tower"}


def legal_towers(state: WizardsState, seat: int) -> list[dict]:
    return [{"kind": "set_aside_tower", "tile": t} for t in TOWER_TILES]


def act_set_aside_tower(state: WizardsState, seat: int, action: dict, events: list) -> None:
    tile = action.get("tile")
    if not isinstance(tile, str):
        raise MalformedAction("set_aside_tower needs 'tile'")
    if tile not in TOWER_TILES:
        raise RuleViolation("Appendix A 1", "set aside ONE of the Sorcerer's Towers (M2, M3 or M4)")
    state.edit("tiles")["aside"] = list(SOLITAIRE_ASIDE) + [tile]
    events.append({"type": "tiles_set_aside", "tiles": list(state.tiles["aside"])})
    state.step = "solitaire_remove"


def step_solitaire_remove(state: WizardsState, events: list) -> None:
    chosen = state.config["options"].get("removed_tiles")
    if chosen is not None:  # Appendix A 3: the player may choose to remove up to SIX
        state.edit("tiles")["remove_count"] = chosen
        state.step = "solitaire_shuffle"
        return
    ask(state, [d6("die: tiles removed (Appendix A 3)")], {"do": "removal_rolled"})


def on_removal_rolled(state: WizardsState, then: dict, faces: list, events: list) -> None:
    state.edit("tiles")["remove_count"] = faces[0][0]
    events.append({"type": "tiles_to_remove", "count": faces[0][0], "die": faces[0][0]})
    state.step = "solitaire_shuffle"


def step_solitaire_shuffle(state: WizardsState, events: list) -> None:
    k = state.tiles["remove_count"]
    rest = [t for t in pack().tile_ids if t not in state.tiles["aside"]]
    pools = (shuffle_request("tiles shuffled face down", len(rest))
             + shuffle_request("face-down tiles to place", len(rest) - k + 4))
    ask(state, pools, {"do": "solitaire_shuffled", "tiles": rest}, secret=True)


def on_solitaire_shuffled(state: WizardsState, then: dict, faces: list, events: list) -> None:
    t = state.edit("tiles")
    k = t["remove_count"]
    rest = then["tiles"]
    first, second = split(faces, [len(rest) - 1, len(rest) - k + 3])
    shuffled = apply_shuffle(rest, first)
    t["removed"] = shuffled[:k]  # removed unseen (Appendix A 3)
    t["stack"] = apply_shuffle(shuffled[k:] + t["aside"], second)  # Appendix A 4
    t["face_down"] = True
    t["placer"] = 0
    events.append({"type": "tiles_removed", "count": k})
    events.append({"type": "tiles_face_down", "count": len(t["stack"])})
    state.step = "place_tiles"


# --- 3.21-3.23 ------------------------------------------------------------------------
def step_place_tiles(state: WizardsState, events: list) -> None:
    if tiles_to_place(state) == 0:
        state.step = "tiles_placed"
        return
    placer = state.tiles["placer"]
    assert placer is not None
    state.await_ = {"seat": placer, "for": "place_tile"}


def act_place_tile(state: WizardsState, seat: int, action: dict, events: list) -> None:
    tile, at, rotation = read_placement(action, state.tiles["face_down"])
    check_placement(state, seat, tile, at, rotation)
    t = state.edit("tiles")
    t.pop("selected", None)  # the choice made step by step, if it was (placement.py)
    if t["face_down"]:
        tile = t["stack"].pop(0)
    else:
        assert tile is not None  # read_placement: a face-up placement names its tile
        t["hands"][seat].remove(tile)
    t["placed"].append({"tile": tile, "at": ls(at), "rotation": rotation, "by": seat, "face_down": t["face_down"]})
    events.append({"type": "tile_placed", "seat": seat, "tile": None if t["face_down"] else tile,
                   "name": None if t["face_down"] else pack().tiles[tile]["name"], "at": ls(at), "rotation": rotation})
    if tiles_to_place(state):
        nxt = next_seat(state, seat)
        while not t["face_down"] and not t["hands"][nxt]:
            nxt = next_seat(state, nxt)
        t["placer"] = nxt


def step_tiles_placed(state: WizardsState, events: list) -> None:
    t = state.edit("tiles")
    if t["face_down"]:  # Appendix A 5: turn the tiles face up
        t["face_down"] = False
        for placed in t["placed"]:
            placed["face_down"] = False
        turned = [{"tile": p["tile"], "at": p["at"], "rotation": p["rotation"]} for p in t["placed"]]
        events.append({"type": "tiles_turned_up", "tiles": turned})
    t["placer"] = None
    state.step = "place_boats"


# --- 3.3-3.6 ---------------------------------------------------------------------------
def step_place_boats(state: WizardsState, events: list) -> None:
    w = world_for(state)
    state.replace("boats", [{"id": i, "at": ls(m), "rider": None} for i, (_, m) in enumerate(boats.starting_boats(w))])
    events.append({"type": "boats_placed", "boats": [{"id": b["id"], "at": b["at"]} for b in state.boats],
                   "unused": boats.BOAT_MARKERS - len(state.boats)})
    state.step = "place_dragon"


def step_place_dragon(state: WizardsState, events: list) -> None:
    ask(state, randomspace.space_pools(), {"do": "dragon_placed"})


def on_dragon_placed(state: WizardsState, then: dict, faces: list, events: list) -> None:
    w = world_for(state)
    got = randomspace.read({"territory": LAIR_TILE}, faces, [])
    assert got is not None, "a SPECIFIC Territory is never rolled over"
    tile, label = got
    state.replace("dragon", ls(w.hex_of[got]))
    events.append({"type": "dragon_placed", "space": f"{pack().tiles[tile]['name']} {label}", "at": state.dragon,
                   "dice": [f[0] for f in faces]})
    state.step = "mark_calendar"


def step_mark_calendar(state: WizardsState, events: list) -> None:
    state.calendar = {"day": 1, "fortnight": 1, "days_played": 0}  # 3.5
    state.completion, state.thwart = 0, "takeover"  # 3.6
    events.append({"type": "calendar_set", "day": 1, "completion": 0, "thwart": "takeover"})
    state.chooser = state.dealer
    state.step = "choose_colours"


# --- 3.7-3.74 --------------------------------------------------------------------------
def step_choose_colours(state: WizardsState, events: list) -> None:
    if all(p["colour"] for p in state.players):
        state.chooser = None
        state.starter = state.dealer
        state.step = "start_spaces"
        return
    assert state.chooser is not None
    state.await_ = {"seat": state.chooser, "for": "choose_colour"}


def free_colours(state: WizardsState) -> list[str]:
    taken = {p["colour"] for p in state.players}
    return [c for c in pack().colours if c not in taken]


def legal_colours(state: WizardsState, seat: int) -> list[dict]:
    return [{"kind": "choose_colour", "colour": c} for c in free_colours(state)]


def act_choose_colour(state: WizardsState, seat: int, action: dict, events: list) -> None:
    colour = action.get("colour")
    if not isinstance(colour, str):
        raise MalformedAction("choose_colour needs 'colour'")
    if colour not in free_colours(state):
        raise RuleViolation("3.7", f"{colour} is not a free Playing Piece (free: {', '.join(free_colours(state))})")
    state.players[seat]["colour"] = colour
    events.append({"type": "colour_chosen", "seat": seat, "colour": colour})
    state.chooser = next_seat(state, seat)


def step_start_spaces(state: WizardsState, events: list) -> None:
    seat = state.starter
    assert seat is not None
    if state.players[seat]["at"] is not None:
        state.starter = None
        state.step = "begin_play"
        return
    where = randomspace.effective({"random": "COMMON"}, unavailable(state))
    ask(state, randomspace.pools_for(where), {"do": "start_space", "seat": seat, "where": where})


def on_start_space(state: WizardsState, then: dict, faces: list, events: list) -> None:
    seat = then["seat"]
    w = world_for(state)
    got = randomspace.read(then["where"], faces, unavailable(state))
    dice = [f[0] for f in faces]
    if got is None:  # 12.45 / a removed tile: roll over
        events.append({"type": "start_space_reroll", "seat": seat, "dice": dice, "why": "Territory not in play"})
        return
    h = w.hex_of[got]
    if any(hx(p["at"]) == h for p in state.players):  # 3.72
        events.append({"type": "start_space_reroll", "seat": seat, "dice": dice, "why": "space occupied (3.72)"})
        return
    arrive(state, seat, None, h, "start", events)
    events.append({"type": "start_space", "seat": seat, "at": ls(h), "space": w.space_name(h), "dice": dice})
    state.starter = next_seat(state, seat)


def step_begin_play(state: WizardsState, events: list) -> None:
    state.phase = "play"
    assert state.dealer is not None
    state.turn = {"seat": state.dealer, "extra": False}
    events.append({"type": "play_begins", "dealer": state.dealer, "day": state.calendar["day"]})
    state.step = "turn_start"


STEPS = {
    "shuffle_decks": step_shuffle_decks, "dealer_roll": step_dealer_roll, "deal_tiles": step_deal_tiles,
    "solitaire_tower": step_solitaire_tower, "solitaire_remove": step_solitaire_remove,
    "solitaire_shuffle": step_solitaire_shuffle, "place_tiles": step_place_tiles, "tiles_placed": step_tiles_placed,
    "place_boats": step_place_boats, "place_dragon": step_place_dragon, "mark_calendar": step_mark_calendar,
    "choose_colours": step_choose_colours, "start_spaces": step_start_spaces, "begin_play": step_begin_play,
}
CHANCE = {
    "decks_shuffled": on_decks_shuffled, "dealer_rolled": on_dealer_rolled, "tiles_dealt": on_tiles_dealt,
    "removal_rolled": on_removal_rolled, "solitaire_shuffled": on_solitaire_shuffled, "dragon_placed": on_dragon_placed,
    "start_space": on_start_space,
}
ACTIONS = {"set_aside_tower": act_set_aside_tower, "place_tile": act_place_tile, "choose_colour": act_choose_colour,
           "choose_tile": lambda state, seat, action, events: act_choose_tile(state, seat, action),
           "choose_spot": lambda state, seat, action, events: act_choose_spot(state, seat, action)}
LEGAL = {"set_aside_tower": legal_towers, "choose_colour": legal_colours}
