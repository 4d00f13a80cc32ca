"""Section 12: the Evil attack of Day 14 and what a takeover does (12.1-12.46, 12.5,
Appendix B), and the end of a match by its time limit.

When the Day Marker reaches Day 14 (turns.advance_day calls `on_day`, after Event Cards and
Lair Time have counted the day):

    thwarted   a thwart banked on the Completion Track (12.2-12.22) is spent: Day 14 is an
               ordinary day of turns, no tile is lost and no Demon appears; the Thwart Marker
               goes back to the Successful Attack box at the move to Day 1 (12.3) unless
               another thwart is still banked
    attacked   no player moves (12.1); the day counts as a turn for Animals and Events
               (`count_the_day`); the attack is resolved on the resolution stack, then the
               Day Marker moves to Day 1 and the dealer plays (12.3, step `attack_over`)

Items (resolution.py):

    {"do": "evil_attack", "seat": dealer, "fortnight"}   12.1: puts what follows on the stack
    {"do": "evil_transport", "seat"}     12.11 A-B: to a RANDOM space, then a Demon in his Territory
    {"do": "takeover", "left": n}        12.12-12.132: the Territory most lacking in Good Magic
                                         falls (n = 2 in the partnership game, Appendix B), with
                                         12.41-12.46 (`lose_tile`)
    {"do": "evil_demon", "seat"}         12.14-12.141: a Demon in a random space of his Territory,
                                         or on him in a Boat or in the Water

Readings (also in README.md):
* 12.1 / 12.2: whether Day 14 is thwarted is decided when the Day Marker reaches it, after the
  Event Cards count the day (8.51) and Lair Time is checked (12.511); a Task completed during
  Day 14 banks a thwart for the next one.
* 12.1 "it does count as a turn for Animals and Events": on an attacked Day 14, before the
  attack, every Animal counts one of its turns (8.43-8.46) and every player losing turns loses
  one (lost turns come from Trap Events and the tables alike, and 8.51's "ALL turns until the
  end of the present Fortnight" counts Day 14 as its last); Event Cards count it with the
  Day Marker's advance (8.51). Nothing else counts it: a detention (7.301 3) or "meet the
  Dragon again" (7.305 5) waits for his next real turn.
* AMB22 (12.11) and 12.14 "each player in turn": the dealer first, then clockwise, the order
  of a Day's turns (3.74); the two readings of AMB22 give the same order.
* 12.11 A is a transport to a RANDOM space (section 4, 12.45) like any other: it frees a
  trapped player (8.31), takes him out of a Boat or the Water, loses his Animal (8.41), and
  the Specific Encounters of the space he lands in follow (7.5). It is no encounter, so no
  Escaping (AMB16, "escapable": false). 12.11 B: the Demon goes to a random space of the
  Territory he stands in once that transport (and what it set off) is over, before the next
  player is transported; if it lands on a player, it attacks him at once (7.5).
* 12.141 with 12.11: a RANDOM space is always a land space, so 12.11 A takes everyone out of
  the Water first and 12.141 comes into play with 12.14; a player still in the Water then (a
  Boat, or swimming) has his Demon placed directly on him. A Demon placed in a Boat stays in
  it and moves with it (boats.move_boat) until it is dispelled (7.304 6, 11.222); whoever is
  in that Boat meets it (7.4 e) as in any space holding a Demon.
* 12.131 / 12.5: the candidates are the Territories on the board not yet taken: every Common
  one falls before any Elven one, every Elven one before any Magic one; the Dragon's Lair never
  falls. 12.132: the highest total of Demon Markers and Task Markers (of every player) on the
  tile; AMB18: between tied tiles, in tile order (C1..C6, E1..E6, M1..M5), ONE die: two tied
  split it 1-3 / 4-6, three 1-2 / 3-4 / 5-6 (as 4.1 splits the white die), six by its face;
  four or five by its face, a higher face rolled again.
* 12.12 "placed terrain side down": the tile stays in its place on the board (Water does not
  run through it; Boats sail round it), its name in `state.taken`; what stood on its face
  leaves the board: Demon Markers go back to the supply, High Wizard markers go to their boxes
  with their cards reshuffled into the Wizard deck (12.42), and so do Secret Wizard markers (a
  High Wizard whose name is secret; the letter is erased from every record, 14.26); Task
  Markers are removed and their Tasks become impossible (12.43, tasks.territory_lost: the
  Task's other markers become Demons, 9.9). The Dragon, if called onto it (8.42), stays
  until he is called home (8.421).
* 12.41: every player on the tile is transported to a random Dragon's Lair space (dealer first,
  clockwise; no Escaping: staying is impossible), with Lair Time (AMB19) and the encounters
  of the space (7.5). A player in a Boat or swimming beside the tile is not in it and stays.
  A transport to a named place or a Territory that is lost goes to a random Lair space
  (randomspace.effective). Movement never enters a lost tile (movement.py).
* AMB23 (12.14 with 12.41): the players on the fallen tile are moved to the Lair first (the
  takeover's results take effect when it falls), so their Demons are placed in the Lair.
* Appendix B: in the partnership game (`config.variant == "partnership"`) two Territories fall
  one after the other, each chosen by 12.13 among those left and each with 12.41-12.46; the
  Demons of 12.14 are placed once, after both (12.14 follows "the" takeover of that Day 14).
* 12.46: the Sacred Circle taken ends the match at once: every player has lost (no winner,
  every score 0: Wizards keeps no score). The Gems delivered end the match first (13), so
  while a match goes on they have not been delivered.
* The time limit (options["days"], off by default): the rulebook has none. When it is up the
  match ends as the Enchanted Islands stand: nobody has delivered the Sacred Gems to Rüktal, so
  nobody has saved them and nobody wins (13); every player has lost (as in 12.46), every score 0.
"""
from __future__ import annotations

from shared.engine import d6
from shared.hexgrid import Hex
from shared.wizards import resolution, tasks, turns
from shared.wizards.adversaries import clockwise
from shared.wizards.gems import end_match
from shared.wizards.pack import CIRCLE_TILE, LAIR_TILE, TILE_TYPES, pack
from shared.wizards.resolution import Handler, Item, done, handler, push
from shared.wizards.setup import unavailable
from shared.wizards.state import WizardsState, hx, ls, player, position
from shared.wizards.wizardcards import release_marker
from shared.wizards.world import world_for

ATTACK_DAY = 14  # 12.1
BUILDING = 2  # 12.11: the first two Fortnights take no Territory
PARTNERSHIP_TAKES = 2  # Appendix B: TWO Territories at a time


def territories_per_attack(state: WizardsState) -> int:
    """12.12: one Territory a Fortnight; Appendix B: two in the partnership game."""
    return PARTNERSHIP_TAKES if state.config["variant"] == "partnership" else 1


def in_turn_order(state: WizardsState) -> list[int]:
    """AMB22 / 12.14: the dealer first, then clockwise (3.74)."""
    assert state.dealer is not None
    return clockwise(state, state.dealer, range(state.seats))


# --- the Day Marker -----------------------------------------------------------------------
def on_day(state: WizardsState, events: list, due: list) -> bool:
    """turns.DAY_HOOKS: the Day Marker has moved on (3.74). Day 1 of a new Fortnight: 12.3.
    Day 14: thwarted, or the attack (12.1). True when the attack takes the flow."""
    cal = state.calendar
    if cal["day"] == 1 and cal["fortnight"] > 1:
        fortnight_begins(state, events)
        return False
    if cal["day"] != ATTACK_DAY:
        return False
    if state.thwarts > 0:  # 12.21-12.22: normal turns, no tile lost, no Demons
        state.thwarts -= 1
        events.append({"type": "attack_thwarted", "fortnight": cal["fortnight"], "banked": state.thwarts,
                       "rule": "12.21"})
        return False
    events.append({"type": "evil_attacks", "fortnight": cal["fortnight"],
                   "takeover": cal["fortnight"] > BUILDING, "rule": "12.1"})
    count_the_day(state, events)
    state.turn = {"seat": state.dealer if state.dealer is not None else 0, "extra": False}
    items = list(due) + [{"do": "evil_attack", "seat": state.turn["seat"], "fortnight": cal["fortnight"],
                          "rule": "12.1"}]
    due.clear()
    resolution.begin(state, items, "attack_over")
    return True


def count_the_day(state: WizardsState, events: list) -> None:
    """12.1: no one moves on an attacked Day 14, but it counts as a turn for Animals and Events
    (reading in the docstring): an Animal's turns count down (8.43-8.46), a lost turn is spent."""
    for p in state.players:
        seat = p["seat"]
        a = p["animal"]
        if a is not None:
            a["turns"] -= 1
            if a["turns"] <= 0:
                events.append({"type": "animal_departs", "seat": seat, "animal": a["kind"], "rule": "12.1"})
                p["animal"] = None
        if p["lost_turns"] > 0:
            p["lost_turns"] -= 1
            events.append({"type": "turn_lost", "seat": seat, "left": p["lost_turns"], "rule": "12.1"})
            if p["lost_turns"] == 0 and p["trap"] is not None and p["trap"].get("lose_turns") is not None:
                p["trap"] = None  # as at the start of a turn (turns.step_turn_start, 8.51)
                events.append({"type": "trap_ends", "seat": seat, "rule": "8.51"})


def fortnight_begins(state: WizardsState, events: list) -> None:
    """12.3: after Day 14 the Day Marker is on Day 1; if the Evil was thwarted, the Thwart Marker
    goes back to the Successful Attack box, unless another thwart is banked (12.22)."""
    box = "thwarted" if state.thwarts > 0 else "takeover"
    if state.thwart != box:
        state.thwart = box
        events.append({"type": "thwart_marker_returned", "rule": "12.3"})


def step_attack_over(state: WizardsState, events: list) -> None:
    """12.3: the attack is resolved: the Day Marker moves to Day 1 and the players resume their
    turns, the dealer first."""
    due: list[dict] = []
    if turns.advance_day(state, events, due):
        return
    assert state.dealer is not None
    state.turn = {"seat": state.dealer, "extra": False}
    state.step = "turn_start"
    if due:  # delayed Event Cards whose days have passed (8.51)
        resolution.begin(state, due, "turn_start")


def time_is_up(state: WizardsState, events: list) -> None:
    """options["days"] (reading in the docstring): no one delivered the Sacred Gems: no winner."""
    days = state.calendar["days_played"]
    end_match(state, [], f"the time limit of {days} days is up: the Sacred Gems were not delivered to Rüktal, "
                         "so no one has saved the Enchanted Islands and every player has lost",
              "time limit (options.days)", events)


turns.DAY_HOOKS.append(on_day)
turns.TIME_UP.append(time_is_up)


# --- the attack ------------------------------------------------------------------------------
def demon_item(state: WizardsState, seat: int, rule: str) -> Item:
    """A Demon for a player: in a random space of the Territory he is in (12.11 B, 12.14), or,
    in a Boat or swimming, directly on him (12.141)."""
    p = player(state, seat)
    h = position(p)
    tile = world_for(state).tile_of(h)
    if tile is None:
        return {"do": "place_demon", "at": ls(h), "rule": "12.141", "seat": seat, "boat": p["boat"]}
    return {"do": "place_demon", "where": {"territory": tile}, "rule": rule, "seat": seat}


@handler("evil_attack")
class EvilAttack(Handler):
    """12.1: the first two Fortnights every player is transported (12.11); later ones a
    Territory falls (12.12) and every player places a Demon (12.14)."""

    rule = "12.1"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        done(state, item)
        order = in_turn_order(state)
        if item["fortnight"] <= BUILDING:
            push(state, *[{"do": "evil_transport", "seat": s, "rule": "12.11"} for s in order])
            return
        push(state, {"do": "takeover", "left": territories_per_attack(state), "rule": "12.12"},
             *[{"do": "evil_demon", "seat": s, "rule": "12.14"} for s in order])


@handler("evil_transport")
class EvilTransport(Handler):
    """12.11 A: transported to a RANDOM space; B: then a Demon in a random space of the
    Territory he is in, before the next player is transported."""

    rule = "12.11"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        if item.get("stage") is None:
            item["stage"] = "transported"
            push(state, {"do": "transport", "seat": seat, "where": {"random": "RANDOM"}, "rule": "12.11 A",
                         "escapable": False})
            return
        done(state, item)
        push(state, demon_item(state, seat, "12.11 B"))


@handler("evil_demon")
class EvilDemon(Handler):
    """12.14: after the takeover each player in turn places a Demon in a random space of the
    Territory containing him (12.141: on him, in a Boat or in the Water)."""

    rule = "12.14"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        done(state, item)
        push(state, demon_item(state, item["seat"], "12.14"))


# --- the takeover ----------------------------------------------------------------------------
def markers_on(state: WizardsState, tile: str) -> int:
    """12.132: the Demon Markers on the tile plus the Task Markers on it."""
    w = world_for(state)
    demons = sum(1 for d in state.demons if w.tile_of(hx(d)) == tile)
    tasks = sum(1 for m in state.task_markers if w.tile_of(hx(m["at"])) == tile)
    return demons + tasks


def candidates(state: WizardsState) -> list[str]:
    """12.131 / 12.5: the Territories of the first type (Common, Elven, Magic) that still has one
    on the board, never the Dragon's Lair."""
    lost = set(unavailable(state))
    for kind in TILE_TYPES:
        tiles = [t for t in pack().tile_ids if pack().tiles[t]["type"] == kind and t not in lost and t != LAIR_TILE]
        if tiles:
            return tiles
    return []


def most_lacking(state: WizardsState) -> list[str]:
    """12.13: the candidates with the highest total of markers (12.132), in tile order."""
    tiles = candidates(state)
    if not tiles:
        return []
    totals = {t: markers_on(state, t) for t in tiles}
    best = max(totals.values())
    return [t for t in tiles if totals[t] == best]


def tie_pick(tied: int, face: int) -> int | None:
    """AMB18 (12.132): which of `tied` tiles the die picks (an index), or None: roll again."""
    if 6 % tied == 0:
        return (face - 1) // (6 // tied)
    return face - 1 if face <= tied else None


@handler("takeover")
class Takeover(Handler):
    """12.12-12.132: the Territory most lacking in Good Magic is taken over; a tie is settled by
    ONE die (AMB18); 12.41-12.46 follow (`lose_tile`). `left`: Territories still to fall on this
    Day 14 (two at a time in the partnership game, Appendix B)."""

    rule = "12.13"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        if item.get("stage") == "taken":
            item["left"] -= 1
            item["stage"] = None
        if item["left"] <= 0:
            done(state, item)
            return
        tied = most_lacking(state)
        if not tied:
            events.append({"type": "no_territory_to_take", "rule": "12.5"})
            done(state, item)
            return
        if len(tied) == 1:
            self.take(state, item, tied[0], events)
            return
        item["tied"] = tied
        item["stage"] = "tie"
        events.append({"type": "takeover_tied", "tiles": list(tied), "markers": markers_on(state, tied[0]),
                       "rule": "12.132"})
        resolution.roll(state, item, [d6(f"die: the Territory taken among {', '.join(tied)} (12.132)")])

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        tied = item["tied"]
        pick = tie_pick(len(tied), faces[0][0])
        if pick is None:
            events.append({"type": "reroll", "dice": [faces[0][0]], "rule": "12.132"})
            resolution.roll(state, item, [d6(f"die: the Territory taken among {', '.join(tied)} (12.132)")])
            return
        self.take(state, item, tied[pick], events)

    def take(self, state: WizardsState, item: Item, tile: str, events: list) -> None:
        item.pop("tied", None)
        item["stage"] = "taken"
        state.replace("taken", list(state.taken) + [tile])
        events.append({"type": "territory_taken", "tile": tile, "name": pack().tiles[tile]["name"],
                       "markers": markers_on(state, tile), "rule": "12.12"})
        if tile == CIRCLE_TILE:  # 12.46
            end_match(state, [], "the Sacred Circle has fallen to the Evil Spirit before the Sacred Gems were "
                                 "delivered to Rüktal: every player has lost", "the Sacred Circle taken (12.46)",
                      events)
            return
        lose_tile(state, tile, events)


def lose_tile(state: WizardsState, tile: str, events: list) -> None:
    """12.12 / 12.41-12.45 for a tile just taken (in `state.taken` already): what stood on it
    leaves the board (readings in the docstring) and the players on it go to the Lair."""
    w = world_for(state)
    spaces: set[Hex] = set(w.tile_spaces(tile))
    for name, at in sorted(state.wizard_markers.items()):  # 12.42
        if hx(at) in spaces:
            events.append({"type": "wizard_marker_lost", "marker": name, "tile": tile, "rule": "12.42"})
            release_marker(state, name, events)
    for sw in list(state.secret_wizards):
        if hx(sw.get("at")) in spaces:
            events.append({"type": "wizard_marker_lost", "marker": f"secret:{sw['letter']}", "tile": tile,
                           "rule": "12.42"})
            release_marker(state, f"secret:{sw['letter']}", events)
    gone = [d for d in state.demons if hx(d) in spaces]
    if gone:
        state.demons = [d for d in state.demons if hx(d) not in spaces]
        events.append({"type": "demons_lost_with_tile", "tile": tile, "count": len(gone), "rule": "12.12"})
    tasks.territory_lost(state, tile, events)  # 12.43
    inside = [s for s in in_turn_order(state) if hx(player(state, s)["at"]) in spaces]
    push(state, *[{"do": "transport", "seat": s, "where": {"territory": LAIR_TILE}, "rule": "12.41",
                   "escapable": False} for s in inside])


STEPS = {"attack_over": step_attack_over}
