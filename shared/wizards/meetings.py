"""Other players: Player Encounters (7.302-7.3021), Rescue of stranded and trapped players
(7.303-7.3033), and meeting a Dragonbound player (7.3051 i).

    {"do": "player", "seat": mover, "at", "others": [seats met there]}   (7.4 d)
    {"do": "rescue", "seat": rescuer, "at", "other": seat}
    {"do": "ask_for_help", "seat"}   offered at the start of a stranded player's own turn

One "player" item meets everyone there: first each Rescue (7.303: no Player Encounter with
the rescued), then the Demon encounters of a Dragonbound meeting (7.3051 i), then one
Player Encounter of the mover with the ranked players left, on the Level 1-3 table if any
of them is Rank 1-3, else the Level 4 table. Every result affects the mover first, then the
others clockwise (7.3021).

Readings:
* AMB11: a Rank 0 player is left out of a Player Encounter; the mover meets the ranked
  players (a Rank 0 mover meets nobody, except in a Rescue or a Dragonbound meeting).
* 7.3051 i: a Dragonbound mover gives every other player he meets (not Dragonbound, not
  being rescued) a Demon encounter; a mover meeting Dragonbound players has one for each
  of them. Two Dragonbound players give each other nothing.
* AMB2 (7.302 1-3 result 5): "Level" is the Rank number, whatever the Order. The giver is
  the player of the highest Rank holding the most Task Cards; a tie goes to the first in
  the order of 7.3021. He gives TWO Optional Tasks to each player of lower Rank and ONE to
  each of his Rank, the recipients taken in the order of 7.3021, and chooses each card; when
  his Optional Tasks run out the rest is forgiven, and so is a gift to a player without the Task
  Markers free for any of them (1). A Rank FOUR recipient is given none (13).
  The card moves with its markers (9.2); it is Optional for the new holder (9.42).
* 7.302 1: one Demon Marker on the space; each player meets the Demons (7.304); the marker
  goes only if every one of them dispelled it (11.222) or rolled 6.
* 7.302 Rank 4 result 5: from each other player the mover learns the identity of one Secret
  Wizard that player knows and he does not (the first by letter), told only to the two.
* 7.3031 (how the engine knows): a player is stranded when nothing he has can take him off
  his island (or out of the Water): no free Boat touching his island's Water, no Water
  space beside it from which other land can be reached by swimming (two with a Horse),
  no Boat Summoning that can bring a free Boat, no Transporting, no Winged Horse or Unicorn.
  At the start of each of his turns while so stranded he may ask for help (an action); the
  request stands until he is rescued, transported, or is no longer stranded at a turn start.
* 7.3033: rescue points may be divided among the types ("split": true); the place is judged
  where he is rescued: a space of Dragon's Lair 25, of Hamdrel's Cottage 20, Water 20, any
  other island 15. 7.30311: the rescued player is transported to a RANDOM space on another
  island (a space of his island is rolled over); he asked for it, so no Escaping (AMB16).
  His island is the land he can walk to, never through a Territory taken by Evil (12.41); when
  no land off it is left (12.45: every other Territory lost), any RANDOM space will do.
* AMB17: a rescuer of Rank 0 or Rank 4 still rescues; he gains no points (3.73, 13).
* Appendix A: in the solitaire game nobody can rescue him, so he is never asked to ask for help
  (the effects of being stranded there: solitaire.py).
* Appendix B: Telepathic Partners who meet have no normal Player Encounter (a partner is left out
  of the table's group) and gain no points for rescuing each other (the rescue happens); instead
  they may exchange (item "partners", partnership.py). A Dragonbound partner's Demon encounter
  (7.3051 i) still happens: it is the affliction, not a normal Player Encounter.
"""
from __future__ import annotations

from collections.abc import Collection

from shared.hexgrid import Hex
from shared.wizards import resolution, spells, tasks, turns
from shared.wizards.adversaries import clockwise, demon_at, here, remove_demon
from shared.wizards.boats import water_distances
from shared.wizards.encounters import Encounter
from shared.wizards.pack import COTTAGE_TILE, LAIR_TILE, pack
from shared.wizards.record import days_played
from shared.wizards.resolution import Handler, Item, done, handler, higher, push, two_dice
from shared.wizards.setup import unavailable
from shared.wizards.state import Player, WizardsState, free_boat_at, hx, partner_of, player
from shared.wizards.taskmarkers import markers_free
from shared.wizards.world import World, world_for

TRAPPED_POINTS = 10  # 7.3032
STRANDED_POINTS = {"lair": 25, "cottage": 20, "water": 20, "island": 15}  # 7.3031


# --- stranded (7.3031) ---------------------------------------------------------------------
def island_of(w: World, h: Hex, lost: frozenset = frozenset()) -> frozenset:
    """The land spaces a player can walk to from `h` (walls respected; never into a Territory
    taken by Evil, 12.41). Searched once per world, island and lost Territories (World.memo): from
    a space whose Territory stands, the spaces walked to are the ones that walk back, so every
    space of an island found before has that island (from a lost one, only its own walk holds)."""
    key = ("island", h, lost)
    found = w.memo.get(key)
    if found is None:
        standing = w.is_land(h) and w.tile_of(h) not in lost
        known = w.memo.setdefault(("islands", lost), [])
        found = next((island for island in known if h in island), None) if standing else None
        if found is None:
            found = _walk_island(w, h, lost)
            if standing:
                known.append(found)
        w.memo[key] = found
    return found


def coast_water(w: World, island: frozenset) -> frozenset:
    """The Water spaces a player on `island` (island_of) can step into (no Wall between): found once
    per island (World.memo)."""
    key = ("coast", island)
    if key not in w.memo:
        w.memo[key] = frozenset(n for x in island for n in w.neighbours(x)
                                if w.is_water(n) and not w.wall_between(x, n))
    return w.memo[key]


def swims_off(w: World, island: frozenset, reach: int, lost: frozenset) -> bool:
    """Whether a player on `island` can swim off it within `reach` Water spaces (_swim_off): the
    island's own answer, found once (World.memo) as coast_water."""
    key = ("swim off", island, lost, reach)
    if key not in w.memo:
        w.memo[key] = _swim_off(w, coast_water(w, island), island, reach, lost)
    return w.memo[key]


def _walk_island(w: World, h: Hex, lost: frozenset) -> frozenset:
    seen, todo = {h}, [h]
    while todo:
        x = todo.pop()
        for n in w.neighbours(x):
            if n not in seen and w.is_land(n) and w.tile_of(n) not in lost and not w.wall_between(x, n):
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


def _swim_off(w: World, water: Collection, island: Collection, reach: int, lost: frozenset = frozenset()) -> bool:
    """From these Water spaces, can he reach land off `island` swimming `reach` spaces (not in a
    Territory taken by Evil, 12.41)?"""
    frontier = set(water)
    for _ in range(reach):
        for x in frontier:
            if any(w.is_land(n) and n not in island and w.tile_of(n) not in lost and not w.wall_between(x, n)
                   for n in w.neighbours(x)):
                return True
        frontier = {n for x in frontier for n in w.neighbours(x) if w.is_water(n) and not w.wall_between(x, n)}
    return False


def _summonable(state: WizardsState, w: World, p: Player, water: Collection) -> bool:
    if not spells.may_cast(p, "boat_summoning"):
        return False
    reach = spells.boat_range(p)
    for b in state.boats:
        if b["rider"] is None:
            dist = water_distances(w, here(b["at"]))
            near = [dist[n] for n in water if n in dist]
            if near and (reach is None or 1 + min(near) <= reach):
                return True
    return False


def stranded_place(state: WizardsState, seat: int) -> str | None:
    """Where the player is stranded ("lair", "cottage", "water", "island"), or None (7.3031)."""
    p = player(state, seat)
    h = hx(p["at"])
    if h is None or p["boat"] is not None:
        return None
    if p["animal"] is not None and p["animal"]["kind"] in ("winged_horse", "unicorn"):
        return None
    if spells.may_cast(p, "transporting"):
        return None
    w = world_for(state)
    lost = frozenset(state.taken)  # 12.41: land taken by Evil is no way off
    horse = p["animal"] is not None and p["animal"]["kind"] == "horse"
    if w.is_water(h):  # b: beyond swimming range without a Boat
        if free_boat_at(state, h) is not None:
            return None
        if any(w.is_land(n) and w.tile_of(n) not in lost and not w.wall_between(h, n) for n in w.neighbours(h)):
            return None
        if horse and p["swum"] < 2 and _swim_off(w, {n for n in w.neighbours(h) if w.is_water(n)}, set(), 1, lost):
            return None
        return "water"
    island = island_of(w, h, lost)  # a: on an island with no means of getting off
    water = coast_water(w, island)
    if not water.isdisjoint(hx(b["at"]) for b in state.boats if b["rider"] is None):  # a free Boat (6)
        return None
    if swims_off(w, island, 2 if horse else 1, lost):
        return None
    if _summonable(state, w, p, water):
        return None
    tile = w.tile_of(h)
    return "lair" if tile == LAIR_TILE else "cottage" if tile == COTTAGE_TILE else "island"


def _stranded_offer(state: WizardsState, seat: int) -> dict | None:
    if state.solitaire:
        return None  # Appendix A: nobody can rescue him (solitaire.py)
    p = player(state, seat)
    if p["stranded"] is not None:
        if stranded_place(state, seat) is None:
            p["stranded"] = None  # a way off has come: his request lapses
        return None
    if p["trap"] is None and stranded_place(state, seat) is not None:
        return {"do": "ask_for_help", "seat": seat, "rule": "7.3031"}
    return None


turns.TURN_START_HOOKS.append(_stranded_offer)


@handler("ask_for_help")
class AskForHelp(Handler):
    """7.3031: a stranded player must ask for help before he can be rescued."""

    rule = "7.3031"
    kinds = ("ask_for_help",)

    @staticmethod
    def label(action: dict) -> str:
        return "ask for help (stranded, 7.3031)" if action.get("ask") else "do not ask for help"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        resolution.ask(state, item["seat"])

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        return [{"kind": "ask_for_help", "ask": True}, {"kind": "ask_for_help", "ask": False}]

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        done(state, item)
        if action["ask"]:
            player(state, seat)["stranded"] = {"asked": days_played(state)}
            events.append({"type": "asks_for_help", "seat": seat, "place": stranded_place(state, seat),
                           "rule": "7.3031"})


# --- rescue (7.303-7.3033) -----------------------------------------------------------------
def in_rescue(p: Player) -> bool:
    return p["trap"] is not None or p["stranded"] is not None


@handler("rescue")
class Rescue(Handler):
    """7.3032 / 7.30311: the rescuer takes his points (divided as he wishes, 7.3033)."""

    rule = "7.303"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        done(state, item)
        rescuer, other = item["seat"], item["other"]
        o = player(state, other)
        partners = partner_of(state, rescuer) == other  # Appendix B: no points for rescuing each other
        if o["trap"] is not None:
            o["trap"], o["lost_turns"] = None, 0  # 7.30321: free to move on his next turn
            events.append({"type": "rescued", "seat": other, "by": rescuer, "from": "trap", "rule": "7.3032"})
            if partners:
                events.append({"type": "no_points", "seat": rescuer, "rule": "Appendix B", "for": "7.3033"})
                return
            push(state, {"do": "points", "seat": rescuer, "amount": TRAPPED_POINTS, "split": True, "rule": "7.3033"})
            return
        place = stranded_place(state, other) or ("water" if world_for(state).is_water(here(o["at"])) else "island")
        o["stranded"] = None
        events.append({"type": "rescued", "seat": other, "by": rescuer, "from": place, "rule": "7.30311"})
        w = world_for(state)
        at = here(o["at"])
        lost = frozenset(state.taken)
        island = set() if w.is_water(at) else island_of(w, at, lost)
        left = [h for h, sp in w.spaces.items() if sp.tile not in unavailable(state)]
        if all(h in island for h in left):  # 12.45: no land off his island is left to be sent to
            island = set()
        avoid = sorted([h[0], h[1]] for h in island)
        move = {"do": "transport", "seat": other, "where": {"random": "RANDOM"}, "rule": "7.30311",
                "escapable": False, "avoid": avoid}
        if partners:
            events.append({"type": "no_points", "seat": rescuer, "rule": "Appendix B", "for": "7.3033"})
            push(state, move)
            return
        push(state, {"do": "points", "seat": rescuer, "amount": STRANDED_POINTS[place], "split": True,
                     "rule": "7.3033"}, move)


# --- Player Encounters (7.302) -------------------------------------------------------------
def give_task(state: WizardsState, giver: int, to: int, card: int, events: list) -> None:
    """9.2: the Task Card moves, its markers become the new holder's; Optional for him (9.42)
    (tasks.transfer)."""
    assert tasks.transfer(state, giver, to, card, events)


def can_take(state: WizardsState, to: int, card: int) -> bool:
    """He has the Task Markers free for the card (1: twenty a colour)."""
    return markers_free(player(state, to)) >= tasks.marked_count(pack().task(card))


def optional_tasks(p: Player) -> list[int]:
    return sorted(t["card"] for t in p["tasks"] if not t.get("mandatory"))


def learn_secret(state: WizardsState, seat: int, other: int, events: list) -> None:
    """Rank 4 result 5: one Secret Wizard known to `other` and not to `seat` (the first by letter)."""
    me, them = player(state, seat)["secret_record"], player(state, other)["secret_record"]
    new = sorted(k for k in them if k not in me)
    if not new:
        events.append({"type": "nothing_learned", "seat": seat, "from": other, "rule": "7.302 5"})
        return
    me[new[0]] = them[new[0]]
    events.append({"type": "secret_learned", "seat": seat, "from": other, "letter": new[0], "wizard": them[new[0]],
                   "rule": "7.302 5", "visible_to": [seat, other]})


@handler("player")
class PlayerEncounter(Encounter):
    """7.302-7.3021, 7.303, 7.3051 i."""

    rule = "7.302"
    kinds = ("give_task",)

    @staticmethod
    def label(action: dict) -> str:
        return f"give Task {action.get('task')} to seat {action.get('to')} (7.302 5)"

    def start(self, state: WizardsState, item: Item, events: list) -> None:
        seat, at = item["seat"], hx(item["at"])
        me = player(state, seat)
        present = clockwise(state, seat, [o for o in item["others"] if hx(player(state, o)["at"]) == at])
        rescues = [o for o in present if in_rescue(player(state, o))]
        rest = [o for o in present if o not in rescues]
        partner = partner_of(state, seat)  # Appendix B: no normal Player Encounter with him
        bound = "dragonbound" in me["afflictions"]
        first: list[dict] = [{"do": "rescue", "seat": seat, "at": item["at"], "other": o} for o in rescues]
        group: list[int] = []
        if bound:  # 7.3051 i: every other player has the equivalent of a Demon encounter
            first += [{"do": "demons", "seat": o, "at": item["at"], "bound": seat, "rule": "7.3051 i"}
                      for o in rest if "dragonbound" not in player(state, o)["afflictions"]]
        else:
            first += [{"do": "demons", "seat": seat, "at": item["at"], "bound": o, "rule": "7.3051 i"}
                      for o in rest if "dragonbound" in player(state, o)["afflictions"]]
            if me["rank"] >= 1:  # AMB11
                group = [o for o in rest if "dragonbound" not in player(state, o)["afflictions"]
                         and player(state, o)["rank"] >= 1 and o != partner]
        if partner in rest:  # Appendix B: partners who meet may exchange (partnership.py)
            first.append({"do": "partners", "seat": seat, "at": item["at"], "other": partner, "rule": "Appendix B"})
        item["group"] = clockwise(state, seat, [seat] + group) if group else []
        item["stage"] = "table"
        push(state, *first)

    def resume(self, state: WizardsState, item: Item, events: list) -> None:
        stage = item["stage"]
        seat = item["seat"]
        if stage == "table":
            if not item["group"] or hx(player(state, seat)["at"]) != hx(item["at"]):
                done(state, item)  # nobody to meet, or he was transported out (7.4)
                return
            item["group"] = [s for s in item["group"] if hx(player(state, s)["at"]) == hx(item["at"])]
            if len(item["group"]) < 2:
                done(state, item)
                return
            item["table"] = "4" if all(player(state, s)["rank"] >= 4 for s in item["group"]) else "1-3"
            item["stage"] = "rolling"
            two_dice(state, item, f"Player Encounter, Level {item['table']} table (7.302)")
            return
        if stage == "effect":
            self.effect(state, item, events)
            return
        if stage == "tally":
            done(state, item)
            at = here(item["at"])
            if set(item["group"]) <= set(item["dispelled"]) and demon_at(state, at):
                remove_demon(state, at, "7.302 1", events)
            return
        if stage == "giving":
            self.next_gift(state, item, events)
            return
        done(state, item)

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        item["result"] = higher(faces)
        item["stage"] = "effect"
        events.append({"type": "player_encounter", "seat": item["seat"], "players": item["group"],
                       "table": item["table"], "roll": item["result"], "rule": "7.302"})

    def effect(self, state: WizardsState, item: Item, events: list) -> None:
        r, members, rank4 = item["result"], item["group"], item["table"] == "4"
        seat, at = item["seat"], item["at"]
        rule = f"7.302 {'Rank 4' if rank4 else 'Rank 1-3'} {r}"
        if r == 1:  # Demons attack each player; one marker
            item["stage"], item["dispelled"] = "tally", []
            push(state, {"do": "place_demon", "at": at, "rule": rule, "meet": False},
                 *[{"do": "demons", "seat": s, "at": at, "group": True, "rule": rule} for s in members])
            return
        if r == 5 and not rank4:
            self.plan_gifts(state, item, events)
            return
        done(state, item)
        if r == 2:
            where = {"place": "star_crest"} if rank4 else {"random": "RANDOM"}
            push(state, *[{"do": "transport", "seat": s, "where": where, "rule": rule} for s in members])
        elif r == 3:
            kind = "unicorn" if rank4 else "winged_horse"
            push(state, *[{"do": "animal", "seat": s, "kind": kind, "rule": rule} for s in members])
        elif r == 4:
            mode = "until_high_wizard" if rank4 else "one"
            push(state, {"do": "wizard_card", "seat": seat, "seats": members, "mode": mode, "rule": rule})
        elif r == 5 and rank4:
            for o in members[1:]:
                learn_secret(state, seat, o, events)
        elif r == 6 and rank4:
            push(state, {"do": "secret_wizard", "seat": seat, "seats": members, "rule": rule})
        else:
            push(state, *[{"do": "points", "seat": s, "dice": 1, "rule": rule} for s in members])

    def plan_gifts(self, state: WizardsState, item: Item, events: list) -> None:
        """AMB2: who gives, and the recipients' slots in order."""
        members = item["group"]
        top = max(player(state, s)["rank"] for s in members)
        giver = max((s for s in members if player(state, s)["rank"] == top),
                    key=lambda s: (len(player(state, s)["tasks"]), -members.index(s)))
        slots = []
        for s in members:
            if s == giver or player(state, s)["rank"] >= 4:
                continue
            slots += [s] * (2 if player(state, s)["rank"] < top else 1)
        events.append({"type": "tasks_to_give", "seat": giver, "to": slots, "rule": "7.302 5"})
        if not slots:
            done(state, item)
            return
        item.update(stage="giving", giver=giver, slots=slots)

    def next_gift(self, state: WizardsState, item: Item, events: list) -> None:
        giver = item["giver"]
        while item["slots"] and not any(can_take(state, item["slots"][0], c)
                                        for c in optional_tasks(player(state, giver))):
            if not optional_tasks(player(state, giver)):
                break
            events.append({"type": "tasks_forgiven", "seat": giver, "to": [item["slots"].pop(0)],
                           "rule": "7.302 5"})
        if not item["slots"] or not optional_tasks(player(state, giver)):
            if item["slots"]:
                events.append({"type": "tasks_forgiven", "seat": giver, "to": item["slots"], "rule": "7.302 5"})
            done(state, item)
            return
        resolution.ask(state, giver)

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        if item.get("stage") != "giving" or seat != item["giver"]:
            return []
        to = item["slots"][0]
        return [{"kind": "give_task", "task": c, "to": to} for c in optional_tasks(player(state, seat))
                if can_take(state, to, c)]

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        give_task(state, seat, action["to"], action["task"], events)
        item["slots"].pop(0)
