"""The Movement Segment (section 6): where a player may go this turn and at what cost.

A move names a destination and how it is reached:
    walk    over land at the terrain costs of section 6, across Boats used as bridges,
            out of the Water when swimming; ending on a Boat boards it
    swim    into an adjacent Water space: it takes ALL the turn's Movement Points, so
            only as the turn's whole move (authored reading of "requires ALL Movement
            Points for that turn"); never Water to Water, except once more with a
            Horse (8.451)
    sail    move the Boat one is in through Water (not on the turn it was boarded)
    stone   onto an adjacent Sacred Circle Stone whose dots equal the Movement Roll
    circle  from a Stone into the Center when the roll is 1-3 (Rüktal present)
    fly     with a Winged Horse, up to ten spaces over anything (8.44)
    ride    with a Unicorn, to any space (8.43)
The player may move several times while points remain and end his movement when he
likes. Entering a Specific Encounter space ends it (7.2).

Animals: a Horse adds 4, a Hound 1 (8.45, 8.46). They will not enter any part of
the Sacred Circle, the Star Crest or the Dragon's Lair, and the Horse will not
board a Boat; entering such a space sends the animal away, and (authored) the
points it added count only while it stays, so such a path is costed as if the
animal's points had never been there. A Hound's point never moves a Boat (8.46).
Afflictions: a Demon Dazed or Dragonbound player treats every space, Water too, as
Mountains, except the Sacred Circle (7.3043 e, 7.3051 f).
12.41: no move of any kind enters a Territory taken over by Evil (`state.taken`); its tile
still lies on the board, so Water does not run through it.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass

from shared.engine import RuleViolation
from shared.hexgrid import Hex, distance, iter_within
from shared.wizards.cards import movement_modifiers
from shared.wizards.encounters import stops_for
from shared.wizards.pack import pack
from shared.wizards.state import Board, WizardsState, afflicted, current_turn, free_boat_at, hx, player, position
from shared.wizards.world import World, world_for

MODES = ("walk", "swim", "sail", "stone", "circle", "fly", "ride")
ANIMAL_BONUS = {"horse": 4, "hound": 1}  # 8.45, 8.46
SHY_ANIMALS = ("horse", "hound")
FLIGHT = 10  # 8.44: TEN spaces per turn


@dataclass(frozen=True)
class Mover:
    """What decides a player's movement now."""

    seat: int
    at: Hex
    boat: int | None
    mp: int
    bonus: int
    unmoved: bool
    white: int | None
    afflicted: bool
    dragonbound: bool
    as_plains: frozenset
    animal: str | None
    boarded: bool
    star_crest_ok: bool
    swum: int
    lost: frozenset = frozenset()  # Territories taken by Evil: never entered (12.41)


@dataclass(frozen=True)
class Move:
    by: str
    to: Hex
    cost: int
    animal_leaves: bool = False
    boards: int | None = None
    ends: bool = False

    def action(self) -> dict:
        return {"kind": "move", "by": self.by, "to": [self.to[0], self.to[1]], "cost": self.cost}


def star_crest_permitted(state: Board, w: World, seat: int) -> bool:
    """7.37: only when directed there by a Task or Event Card, or on the very next turn
    after leaving it (7.372), and no more than one re-entry per visit (7.3721).
    (Being transported there is allowed by the transport itself.)"""
    p = player(state, seat)
    if "dragonbound" in p["afflictions"]:  # 7.3051 g
        return False
    if p["star_crest_directed"]:
        return True
    crest = w.find("star_crest")
    if crest and any(m["seat"] == seat and hx(m["at"]) == crest[0] for m in state.task_markers):
        return True
    sc = p["star_crest"]
    return sc["visit"] == "initial" and sc["left_turn"] is not None and sc["left_turn"] == p["turns_taken"] - 1


def mover(state: Board, seat: int) -> Mover:
    p, t = player(state, seat), current_turn(state)
    w = world_for(state)
    _, plains = movement_modifiers(p)
    animal = p["animal"]["kind"] if p["animal"] else None
    return Mover(
        seat=seat, at=position(p), boat=p["boat"], mp=t["mp"], bonus=t["bonus"], unmoved=not t["moved"],
        white=t["roll"]["white"] if t["roll"] else None, afflicted=afflicted(p),
        dragonbound="dragonbound" in p["afflictions"], as_plains=plains | frozenset(t["swiftness"]),
        animal=animal, boarded=t["boarded"] is not None, star_crest_ok=star_crest_permitted(state, w, seat),
        swum=p["swum"], lost=frozenset(state.taken))


def land_cost(m: Mover, kind: str) -> int:
    terrain = pack().terrain
    if m.afflicted:
        return terrain["afflicted_cost"]["cost"]
    if kind in m.as_plains:
        return terrain["kinds"]["plains"]["cost"]
    return terrain["kinds"][kind]["cost"]


def water_cost(m: Mover, what: str) -> int:
    terrain = pack().terrain
    return terrain["afflicted_cost"]["cost"] if m.afflicted else terrain[what]["cost"]


def shy_of(w: World, h: Hex) -> bool:
    """Spaces a Horse or Hound will not enter (8.45, 8.46)."""
    return w.in_circle(h) or w.kind(h) == "star_crest" or w.in_lair(h)


def may_walk_into(w: World, m: Mover, h: Hex) -> bool:
    if w.tile_of(h) in m.lost:
        return False  # 12.41: never onto a tile after it has been taken over
    kind = w.kind(h)
    if kind in ("stone", "circle"):
        return False  # only by the Movement Roll (6: Sacred Circle)
    if kind == "star_crest" and not m.star_crest_ok:
        return False
    if m.dragonbound and kind in ("star_crest", "high_hollow"):
        return False
    return True


def walk_search(state: Board, w: World, m: Mover, stops=None) -> dict:
    """Every way the player can walk within his points (section 6): a cheapest-first (Dijkstra)
    search from his space over nodes (space, how, animal gone). `how` is "land", or "bridge" on a Boat
    used as a bridge; the start is "boat" in a Boat, "swim" in the Water, else "land". `animal gone`
    is 1 once a Horse or Hound has been sent away on the way (8.45, 8.46, 8.452), else 0.

    One search serves the moves listed (_walks) and the paths the board queries draw, and guarantees:
    - each node reachable within m.mp maps to (cost, the node it was entered from), None for the start;
    - nodes come in the order settled, by rising (cost, animal gone), so the first node of a space is
      the cheapest way into it, keeping the animal where that costs no more;
    - following the links back from any node (route) gives a cheapest walk to it, one neighbouring
      space a step;
    - no step crosses a Wall, enters a space may_walk_into refuses, steps from swimming onto a Boat,
      or leaves a space (other than the start) where movement ends (7.2).
    """
    start = "boat" if m.boat is not None else ("swim" if w.is_water(m.at) else "land")
    stops = stops or stops_for(state, w, m.seat)  # the caller's, when it asks the same of the spaces found
    boats = {hx(b["at"]) for b in state.boats if b["rider"] is None}  # free_boat_at's, for this state
    entering: dict[Hex, tuple[int, bool] | None] = {}  # land space -> (its cost, shy of it), None: barred
    heap: list[tuple[int, int, Hex, str, tuple | None]] = [(0, 0, m.at, start, None)]
    reached: dict = {}
    while heap:
        cost, gone, h, how, came_from = heapq.heappop(heap)
        node = (h, how, gone)
        if node in reached:
            continue
        reached[node] = (cost, came_from)
        if h != m.at and stops(h):
            continue  # 7.2: movement ends here
        for n, land in w.open_steps(h):  # 6: Walls are impassable on foot
            if land:
                if n not in entering:  # what entering n costs does not depend on the way there
                    entering[n] = (land_cost(m, w.kind(n)), m.animal in SHY_ANIMALS and shy_of(w, n)) \
                        if may_walk_into(w, m, n) else None
                enter = entering[n]
                if enter is None:
                    continue
                step, leaves = enter[0], gone
                if not gone and enter[1]:
                    step, leaves = step + m.bonus, 1
                if cost + step <= m.mp:
                    heapq.heappush(heap, (cost + step, leaves, n, "land", node))
            elif how != "swim" and n in boats:
                # 6: a Boat between land spaces (or other Boats) is a bridge, as Plains.
                step, leaves = water_cost(m, "boat"), gone
                if not gone and m.animal == "horse":  # 8.452: the Horse leaves one who boards
                    step, leaves = step + m.bonus, 1
                if cost + step <= m.mp:
                    heapq.heappush(heap, (cost + step, leaves, n, "bridge", node))
    return reached


def sail_search(state: Board, w: World, m: Mover, stops=None) -> dict:
    """Where the player's Boat can sail within his points (6 BOARDING A BOAT; a Hound's point never
    moves a Boat, 8.46): a cheapest-first search through Water from his space.

    It guarantees: each Water space reachable maps to (cost, the space it was entered from), None for
    the start, in the order settled (rising cost); following the links back from a space gives a
    cheapest sail to it (route); the Boat goes on from no space where movement ends (7.2). Whether
    the Boat may sail at all this turn is the caller's question (_sails).
    """
    budget = m.mp - (m.bonus if m.animal == "hound" else 0)  # 8.46
    step = water_cost(m, "sailing")
    heap = [(0, m.at)]
    best = {m.at: 0}
    came_from: dict = {m.at: None}
    reached: dict = {}
    stops = stops or stops_for(state, w, m.seat)
    while heap:
        cost, h = heapq.heappop(heap)
        if cost > best.get(h, cost):
            continue
        reached[h] = (cost, came_from[h])
        if h != m.at and stops(h):
            continue
        for n in w.neighbours(h):
            if w.is_water(n) and cost + step <= budget and cost + step < best.get(n, 1 << 30):
                best[n], came_from[n] = cost + step, h
                heapq.heappush(heap, (cost + step, n))
    return reached


def route(reached: dict, last) -> list:
    """The nodes entered on the way to `last`, in order, by the links of walk_search or sail_search
    (the start itself left out)."""
    nodes = []
    while reached[last][1] is not None:
        nodes.append(last)
        last = reached[last][1]
    return nodes[::-1]


def _walks(state: Board, w: World, m: Mover, out: dict) -> None:
    stops = stops_for(state, w, m.seat)
    for (h, how, gone), (cost, _) in walk_search(state, w, m, stops).items():
        if h == m.at or ("walk", h) in out:
            continue  # the first way into a space is the cheapest (walk_search); his own space is below
        bridge = free_boat_at(state, h) if how == "bridge" else None  # the Boat he walks onto
        boards = bridge["id"] if bridge is not None else None
        out[("walk", h)] = Move("walk", h, cost, bool(gone), boards, stops(h))
    if m.boat is None and w.is_water(m.at):  # a swimmer may climb into a free Boat in his own space
        boat = free_boat_at(state, m.at)
        if boat is not None:
            step, leaves = water_cost(m, "boat"), m.animal == "horse"
            step += m.bonus if leaves else 0
            if step <= m.mp:
                out[("walk", m.at)] = Move("walk", m.at, step, leaves, boat["id"], True)


def _swims(state: Board, w: World, m: Mover, out: dict) -> None:
    if not m.unmoved or m.mp < 1 or m.boat is not None:
        return
    in_water = w.is_water(m.at)
    if in_water and not (m.animal == "horse" and m.swum < 2):
        return  # 6: he may not swim from one Water space into another (8.451: a Horse allows two)
    for n in w.neighbours(m.at):
        if w.is_water(n) and not w.wall_between(m.at, n):
            out[("swim", n)] = Move("swim", n, m.mp, False, None, True)


def _sails(state: Board, w: World, m: Mover, out: dict) -> None:
    if m.boat is None or m.boarded:
        return  # 6: a Boat is not moved on the turn it is boarded
    stops = stops_for(state, w, m.seat)
    for h, (cost, _) in sail_search(state, w, m, stops).items():
        if h != m.at:
            out[("sail", h)] = Move("sail", h, cost, False, None, stops(h))


def _circle(state: Board, w: World, m: Mover, out: dict) -> None:
    if not m.unmoved or m.white is None:
        return
    leaves = m.animal in SHY_ANIMALS
    for n in w.neighbours(m.at):
        if w.wall_between(m.at, n):
            continue
        s = w.spaces.get(n)
        if s and s.tile in m.lost:
            continue  # 12.41
        if s and s.kind == "stone" and s.dots == m.white:  # 6: dots equal the Movement Roll
            out[("stone", n)] = Move("stone", n, m.mp, leaves, None, True)
        if s and s.kind == "circle" and w.kind(m.at) == "stone" and m.white <= 3:  # Rüktal present on 1-3
            out[("circle", n)] = Move("circle", n, m.mp, leaves, None, True)


def _flights(state: Board, w: World, m: Mover, out: dict) -> None:
    if not m.unmoved:
        return
    if m.animal == "winged_horse":
        for h in iter_within(m.at, FLIGHT):
            s = w.spaces.get(h)
            # 8.44: not the Center of the Sacred Circle nor any space of Dragon's Lair; 8.441: no Water.
            if s and h != m.at and s.kind != "circle" and not w.in_lair(h) and s.tile not in m.lost:
                out[("fly", h)] = Move("fly", h, m.mp, False, None, True)
    if m.animal == "unicorn":
        for h, s in w.spaces.items():
            if h != m.at and s.kind != "circle" and s.tile not in m.lost:  # 8.43, 8.431, 12.41
                out[("ride", h)] = Move("ride", h, m.mp, False, None, True)


def moves_of(state: Board, m: Mover) -> dict[tuple[str, Hex], Move]:
    """Every move a Mover could make from `state`, keyed by (by, destination): none without points.
    The board queries ask this for a player as he would move (queries.mover)."""
    out: dict = {}
    if m.mp <= 0:
        return out
    w = world_for(state)
    _walks(state, w, m, out)
    _swims(state, w, m, out)
    _sails(state, w, m, out)
    _circle(state, w, m, out)
    _flights(state, w, m, out)
    return out


def options(state: WizardsState, seat: int) -> dict[tuple[str, Hex], Move]:
    """Every move the player may make now, keyed by (by, destination)."""
    t = state.turn
    if t is None or t["seat"] != seat or state.step != "movement" or t["ended"] or t["mp"] <= 0:
        return {}
    return moves_of(state, mover(state, seat))


def legal_moves(state: WizardsState, seat: int) -> list[dict]:
    moves = options(state, seat)
    return [moves[k].action() for k in sorted(moves, key=lambda k: (MODES.index(k[0]), k[1][1], k[1][0]))]


def refusal(state: WizardsState, seat: int, by: str, to: Hex) -> RuleViolation:
    """The rule that forbids a move that is not among the options."""
    w = world_for(state)
    m = mover(state, seat)
    if not w.on_board(to):
        return RuleViolation("6", f"{list(to)} is not a space of the Game Board")
    kind = w.kind(to)
    if w.tile_of(to) in m.lost:
        return RuleViolation("12.41", f"{w.space_name(to)} lies in a Territory taken over by Evil: players may "
                                      "never enter a tile after it has been taken over")
    if by == "fly":
        if m.animal != "winged_horse":
            return RuleViolation("8.44", "only a player with a Winged Horse may fly")
        if w.is_water(to):
            return RuleViolation("8.441", "the Winged Horse will not alight in a WATER space")
        if kind == "circle" or w.in_lair(to):
            return RuleViolation("8.44", "the Winged Horse can NOT land in the Center of the Sacred Circle "
                                         "or any space of Dragon's Lair")
        if distance(m.at, to) > FLIGHT:
            return RuleViolation("8.44", "the Winged Horse flies TEN spaces per turn")
        return RuleViolation("8.44", "the flight is the whole of a turn's movement")
    if by == "ride":
        if m.animal != "unicorn":
            return RuleViolation("8.43", "only a player with a Unicorn may ride it")
        if w.is_water(to):
            return RuleViolation("8.431", "a Unicorn will not transport a player into a WATER space")
        if kind == "circle":
            return RuleViolation("8.43", "the Unicorn goes anywhere except the CENTER of the Sacred Circle")
        return RuleViolation("8.43", "the Unicorn ride is the whole of a turn's movement")
    if by == "stone":
        return RuleViolation("6 Sacred Circle Stones", "the Movement Roll must equal the dots of a stone ADJACENT to "
                                                       "the player's space, and entering it takes the whole roll")
    if by == "circle":
        return RuleViolation("6 Sacred Circle Center", "the Center may be entered only from a Sacred Circle Stone, "
                                                       "with the whole Movement Roll, when it is 1-3 (Rüktal present)")
    if by == "sail":
        if m.boat is None:
            return RuleViolation("6 Boarding a Boat", "only a player in a Boat may move it")
        if m.boarded:
            return RuleViolation("6 Boarding a Boat", "a player may not MOVE a Boat on the same turn that he boards it")
        if not w.is_water(to):
            return RuleViolation("11.2111", "no Boat may ever cross over land")
        return RuleViolation("6", f"the Boat cannot reach {list(to)} with the Movement Points left")
    if by == "swim":
        if not w.is_water(to):
            return RuleViolation("6 Water-Swimming", f"{w.space_name(to)} is not a Water space")
        if w.is_water(m.at) and m.boat is None:
            return RuleViolation("6 Water-Swimming", "he may not swim from one Water space into another")
        if not m.unmoved:
            return RuleViolation("6 Water-Swimming", "entering the Water requires ALL Movement Points for that turn")
        if distance(m.at, to) != 1:
            return RuleViolation("6 Water-Swimming", "a player may move ONE space by swimming")
        if w.wall_between(m.at, to):
            return RuleViolation("6 Walls", "walls are impassable for players that aren't flying or transporting")
        return RuleViolation("6 Water-Swimming", "a player in a Boat does not swim")
    if kind in ("stone", "circle"):
        return RuleViolation("6 Sacred Circle", "the Sacred Circle is entered only by the Movement Roll "
                                                "(by 'stone' or 'circle')")
    if kind == "star_crest" and not m.star_crest_ok:
        if m.dragonbound:
            return RuleViolation("7.3051 g", "a Dragonbound player may not enter the Star Crest")
        return RuleViolation("7.37", "the Star Crest may be entered only as part of a Task or Event Card, when "
                                     "transported to it, or on the very next turn after visiting and leaving it")
    if m.dragonbound and kind == "high_hollow":
        return RuleViolation("7.3051 g", "a Dragonbound player may not enter High Hollow")
    if w.is_water(to) and free_boat_at(state, to) is None:
        return RuleViolation("6 Water-Swimming", "there is no free Boat to walk onto: enter the Water by swimming")
    if distance(m.at, to) == 1 and w.wall_between(m.at, to):
        return RuleViolation("6 Walls", "walls are impassable for players that aren't flying or transporting")
    return RuleViolation("6", f"{w.space_name(to)} cannot be reached with {m.mp} Movement Points "
                              "(terrain costs, walls, Water and Specific Encounter spaces on the way)")
