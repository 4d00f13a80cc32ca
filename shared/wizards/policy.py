"""A simple AI seat for Wizards, reading only the seat's view (no hidden state).

Its aims, in order: with all six Gems, Rüktal in the Center of the Sacred Circle by its Stones
(7.336, 13); gathering Gems at Rank FOUR (gem_aims: a Sorcerer summons them in the Towers,
the False Wizard it knows is never asked while it holds Gems; partner_aims: partners pool
them), with its Optional Tasks too while the Sacred Circle is at risk (evil_aims, 12.2);
wherever a Task it holds takes its next step (its own Task Markers whose earlier requirements
are done, the one it must meet next, an EVERY-location not yet visited: section 9, 7.311;
its Mandatory Tasks first at Rank FOUR); a Master Sorcerer's Tower (the Mentors who always
stay where they are, 7.34) to join the Sorcerers, to advance (10.2) or to be given another
Task (7.347); otherwise Territories not yet visited, nearest first. It keeps out of the
Dragon's Lair unless it can tame the Dragon (and out of it by the shortest way once inside),
walks round the Demons and never into a Territory taken over by Evil (12.41). The way is
measured in the Movement Points it still takes, walls, gorges and mazes walked round and a
swim costing a turn (6), a Demon's space and the Lair dearer; where no walk reaches the goal, or
it is afloat, the way takes the free Boats too (boarded, sailed, left beside land), and Boat
Summoning brings one where none is near; the hard seat's own play (`advancing`) transports at Rank FOUR
where walking would take longer (11.213). It ends its
movement on the space it came for (the encounter comes there, 5.2). In an encounter it accepts
the Sorcerers only, takes the points its next Rank needs most, picks up its markers, tries
for Gems and casts what helps.
"""
from __future__ import annotations

import heapq
import random

from shared.hexgrid import distance
from shared.wizards import gem_aims, partner_aims, record, spells
from shared.wizards.evil_aims import circle_at_risk
from shared.wizards.gems import six_gems
from shared.wizards.geometry import board
from shared.wizards.pack import CIRCLE_TILE, COTTAGE_TILE, LAIR_TILE, TOWER_TILES, pack
from shared.wizards.world import placements_in, world_of

# which play this is, in the key of bench.strength's records, so a match played before the policy changed is not
# counted after: 2 since its way to a goal over the Water takes the Boats, and the Dragon's Lair is in its cost
REVISION = 2
SIX_GEMS = frozenset(six_gems())
TOUCHING = 5  # Centres five apart: the tiles share a coast
ENTRY_COST = {"woods": 2, "mountains": 2}  # section 6; everything else the policy walks into costs 1
AVOID = 6  # Movement Points a Demon's space is worth walking round
AVOID_WITH_GEMS = 18  # with Gems: at Rank FOUR 2-3 on the higher of two dice is a theft (7.304)
SWIM_COST = 8  # entering the Water takes all of a turn's Movement Points (6), and a turn more to get out
BOARDING = 4  # boarding a free Boat: its point, and the rest of the turn, since it sails on the next one (6)
# Movement Points to a goal beyond which a Transport (a turn) and the walk on from its random space (mostly one more)
# come sooner than walking: over 100 two-seat games (seeds 9000 on) 5 and 7 did best of 1, 5, 7, 9 and 13
TRANSPORT_FROM = 5
UNREACHED = 1 << 20  # the cost of a space from which no way leads to the goal


def choose(view: dict, seat: int, legal: list[dict], rng: random.Random, advancing: bool = False) -> dict:
    """The normal level's play; `advancing`, as the hard level plays its own seat: where meeting its Mentor would
    advance it now, to him before its Tasks (`_goals`), and at Rank FOUR Transporting in place of the Movement
    Roll where walking would take longer (`_transport`)."""
    if not legal:
        raise ValueError("no legal action to choose from")
    kinds = {a["kind"] for a in legal}
    if kinds & {"place_tile", "choose_spot"}:  # where (then which turn) for the tile chosen
        return _place(view, [a for a in legal if a["kind"] != "choose_tile"], rng)
    if "choose_tile" in kinds:
        return rng.choice(legal)
    if "move" in kinds or "end_move" in kinds:
        return _move(view, seat, legal, rng, advancing)
    if "roll" in kinds:
        return (advancing and _transport(view, seat, legal)) or {"kind": "roll"}
    if "summon_boat" in kinds:
        return legal[0]
    if view.get("await") and view["await"].get("for") == "choice":
        return _choice(view, seat, legal, rng)
    return rng.choice(legal)


def _needs(view: dict, seat: int) -> dict[str, int]:
    """Points by type still missing for the next Rank of its Order (10.11-10.13)."""
    me = view["players"][seat]
    if not me["order"] or me["rank"] >= 4:
        return {}
    nxt = pack().orders[me["order"]]["ranks"][me["rank"]]
    return {t: max(0, nxt[t] - me["points"][t]) for t in ("knowledge", "perception", "power")}


def promotion_ready(view: dict, seat: int) -> bool:
    me = view["players"][seat]
    return bool(me["order"]) and me["rank"] < 4 and not any(_needs(view, seat).values())


def _choice(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    """An encounter's choice: the first rule below that applies."""
    me = view["players"][seat]
    by_kind: dict[str, list[dict]] = {}
    for a in legal:
        by_kind.setdefault(a["kind"], []).append(a)
    if "join_order" in by_kind:  # the Sorcerers when it has no Order: their Mentors stay in their Towers (7.34)
        wanted = me["order"] is None and by_kind["join_order"][0]["order"] == "sorcerers"
        return next(a for a in by_kind["join_order"] if a["accept"] == wanted)
    if "take_points" in by_kind:
        needs = _needs(view, seat)

        def worth(a):
            pts = a["points"]
            if all(v >= 0 for v in pts.values()):  # a gain: most toward what it lacks
                return sum(min(v, needs.get(t, 0)) * 2 + v for t, v in pts.items())
            return sum(v for v in pts.values()) - sum(needs.get(t, 0) for t, v in pts.items() if v)
        return max(by_kind["take_points"], key=lambda a: (worth(a), sorted(a["points"].items())))
    if {"partner_gem", "partner_done"} & set(by_kind):  # Appendix B: the odd seat of a pair gives its Gems over
        gives = by_kind.get("partner_gem", []) if not partner_aims.keeper(view, seat) else []
        return gives[0] if gives else by_kind["partner_done"][0]
    if "pick_up_task_markers" in by_kind:
        return max(by_kind["pick_up_task_markers"], key=lambda a: len(a["tasks"]))
    if "attempt_gem" in by_kind:  # 7.326, but never of the False Wizard it knows while it holds Gems (7.3263)
        wanted = gem_aims.worth_asking(view, seat, by_kind["attempt_gem"][0]["wizard"])
        return next((a for a in by_kind["attempt_gem"] if a["attempt"] == wanted), by_kind["attempt_gem"][-1])
    if "telepathy" in by_kind:
        wanted = promotion_ready(view, seat)
        return next((a for a in by_kind["telepathy"] if a.get("cast") == wanted), by_kind["telepathy"][0])
    if "gem_summoning" in by_kind:
        return gem_aims.summon_target(view, seat, by_kind["gem_summoning"], partner_aims.keeps_pool(view, seat))
    if "complete_task" in by_kind:
        return by_kind["complete_task"][0]
    casts = [a for a in legal if a.get("cast") is True or a.get("ask") is True]
    if casts:  # a spell or a call for help when it is offered
        return casts[0]
    return legal[0]


def _place(view: dict, legal: list[dict], rng: random.Random) -> dict:
    placed = [tuple(t["at"]) for t in view["tiles"]["placed"]]
    centres = {tuple(a["at"]) for a in legal}
    if placed:
        def score(c):
            d = min(distance(c, p) for p in placed)
            return (d != TOUCHING, d)
    else:
        b = board()
        mid = b.order[len(b.order) // 2]

        def score(c):
            return (False, distance(c, mid))
    best = min(score(c) for c in centres)
    pick = rng.choice(sorted(c for c in centres if score(c) == best))
    return rng.choice([a for a in legal if tuple(a["at"]) == pick])


def _layout(view: dict) -> tuple:
    return placements_in(view["tiles"])


def _world(view: dict):
    return world_of(_layout(view))


class Ways:
    """The steps a walker or swimmer may take on the islands as laid, with the free Boats where
    they float (section 6): who may step into each space, what entering it costs, which spaces
    reach each other, and the walking costs already worked out. Built once per layout, Boats and
    Territories taken over by Evil (`_ways`: 12.41, never entered again), since every choice of a
    turn asks the same questions."""

    def __init__(self, w, boats: frozenset, taken: frozenset = frozenset()):
        walkable, allowed = self._set_up(w, boats, taken)
        nodes = sorted(h for h in set(w.spaces) | set(w.water) | boats if walkable(h))
        node_set = set(nodes)
        self.steps = {y: tuple(x for x in w.neighbours(y) if x in node_set and allowed(x, y)) for y in nodes}
        self.entry = {y: SWIM_COST if w.is_water(y) and y not in boats else
                      (self.bridge if y in boats else ENTRY_COST.get(w.kind(y), 1)) for y in nodes}
        self.component: dict = {}
        for start in nodes:
            if start in self.component:
                continue
            self.component[start] = start
            stack = [start]
            while stack:
                x = stack.pop()
                for y in self.steps[x]:
                    if y not in self.component:
                        self.component[y] = start
                        stack.append(y)
        self._members: dict = {}

    @classmethod
    def overlay(cls, base: Ways, boats: frozenset) -> Ways:
        """`base` (the Ways of a layout and the Territories taken, with no Boat afloat) with `boats`, none
        of which touches another (`apart`): such Boats change only what entering their spaces costs (a
        bridge, as Plains, where the Water is a swim), so every step and which spaces reach each other
        are the base's own, shared rather than found again each time a Boat moves."""
        ways = cls.__new__(cls)
        ways._set_up(base.w, boats, base.taken)
        ways.steps, ways.component, ways._members = base.steps, base.component, base._members
        ways.entry = {**base.entry, **dict.fromkeys(boats, ways.bridge)}
        return ways

    def _set_up(self, w, boats: frozenset, taken: frozenset):
        """What a Ways knows before its steps: the board, the Boats, the Territories taken, and who may
        enter a space and step between two; (walkable, allowed)."""
        def walkable(h) -> bool:  # no stone, circle or Star Crest on foot: entered by roll or direction only
            if w.is_land(h) and w.tile_of(h) in taken:
                return False
            return (w.is_land(h) and w.kind(h) not in ("stone", "circle", "star_crest")) or h in boats \
                or w.is_water(h)

        def allowed(x, y) -> bool:  # no wall; never Water to Water; a Boat is a bridge between lands, not a ladder
            water_x, water_y = w.is_water(x) and x not in boats, w.is_water(y) and y not in boats
            return not w.wall_between(x, y) and not (water_x and w.is_water(y)) and not (water_y and w.is_water(x))

        self.w, self.walkable, self.allowed, self.boats, self.taken = w, walkable, allowed, boats, taken
        self.sail = pack().terrain["sailing"]["cost"]  # a Water space a Movement Point (authored)
        self.bridge = pack().terrain["boat"]["cost"]  # a free Boat walked onto, as Plains (6)
        self._costs: dict[tuple, tuple[dict, dict]] = {}
        return walkable, allowed

    def reach(self, at) -> set:
        """Spaces reachable from `at` over any number of turns, walking and swimming (no Boat rides)."""
        if at in self.component:
            return self.members(self.component[at])
        out = {at}  # on a Stone, in the Circle or the Star Crest: where its neighbours lead
        for y in self.w.neighbours(at):
            if y in self.component and self.allowed(at, y):
                out |= self.members(self.component[y])
        return out

    def members(self, label) -> set:
        if label not in self._members:
            self._members[label] = {h for h, c in self.component.items() if c == label}
        return self._members[label]

    def cost_to(self, goals, shun: frozenset = frozenset()) -> dict:
        """Movement Points still to walk from each space to the nearest of `goals` (section 6 costs, walls
        respected, a swim costing a whole turn): the way round walls, gorges and mazes; a space of `shun`'s
        (space, penalty) pairs (Demons, 7.304; the Dragon's Lair, 12.511) costs its penalty more to enter
        unless it is a goal."""
        return self._settle(goals, shun, voyage=False)[0]

    def voyage_to(self, goals, shun: frozenset = frozenset()) -> tuple[dict, dict]:
        """As cost_to, and over Boats too (6 BOARDING A BOAT), for a goal a walk does not reach or a player
        in a Boat: (from each space on foot, from each Water space afloat). A free Boat is boarded where it
        floats (`BOARDING`: it sails on the next turn), sails a Water space a point, and is left for a land
        space beside it. Without it a player whose goal lies over the Water would wait on a coast no step
        brings nearer."""
        return self._settle(goals, shun, voyage=True)

    def _settle(self, goals, shun: frozenset, voyage: bool) -> tuple[dict, dict]:
        """Cheapest-first back from `goals`: (on foot, afloat) each space's cost to the nearest, afloat
        only for a voyage. Found once for the same goals and spaces shunned."""
        key = (voyage, tuple(sorted(set(goals))), shun)
        found = self._costs.get(key)
        if found is not None:
            return found
        w, steps, entry, boats = self.w, self.steps, self.entry, self.boats
        sea, landings = _sea_steps(w) if voyage else ({}, {})
        penalty = dict(shun)
        foot: dict = {g: 0 for g in key[1]}
        afloat: dict = {}
        heap: list = [(0, False, g) for g in key[1]]

        def relax(costs: dict, x, paid: int, on_boat: bool) -> None:  # a cheaper way to x found
            if paid < costs.get(x, UNREACHED):
                costs[x] = paid
                heapq.heappush(heap, (paid, on_boat, x))
        while heap:
            c, on_boat, y = heapq.heappop(heap)
            if on_boat:
                if c > afloat[y]:
                    continue
                for x in sea.get(y, ()):
                    relax(afloat, x, c + self.sail, True)
                if y in boats:
                    relax(foot, y, c + BOARDING, False)
                continue
            if c > foot[y]:
                continue
            step = entry.get(y) or ENTRY_COST.get(w.kind(y), 1)  # entering y
            if c:
                step += penalty.get(y, 0)
            paid = c + step
            into = steps.get(y)
            if into is None:  # a goal no walker stands on (it is entered by roll): from its walkable neighbours
                into = tuple(x for x in w.neighbours(y) if x in steps and self.allowed(x, y))
            elif voyage:  # stepping out of a Boat beside it
                for x in landings.get(y, ()):
                    relax(afloat, x, paid, True)
            for x in into:
                relax(foot, x, paid, False)
        if len(self._costs) > 256:
            self._costs.clear()
        self._costs[key] = (foot, afloat)
        return foot, afloat


def _sea_steps(w) -> tuple[dict, dict]:
    """(each Water space's Water neighbours, each land space's Water neighbours with no Wall between): a
    Boat's steps, and where one is left, found once a layout."""
    found = w.memo.get("sea steps")
    if found is None:
        sea = {h: tuple(n for n in w.neighbours(h) if w.is_water(n)) for h in w.water}
        landings = {h: tuple(n for n, land in w.open_steps(h) if not land and w.is_water(n)) for h in w.spaces}
        found = w.memo["sea steps"] = (sea, landings)
    return found


_WAYS: dict[tuple, Ways] = {}


def _ways(view: dict, w) -> Ways:
    boats = frozenset(tuple(b["at"]) for b in view["boats"] if b["rider"] is None)
    taken = frozenset(view["taken"])
    key = (_layout(view), boats, taken)
    ways = _WAYS.get(key)
    if ways is None:
        if len(_WAYS) > 16:
            _WAYS.clear()
        apart = not any(n in boats for b in boats for n in w.neighbours(b))
        ways = _WAYS[key] = Ways.overlay(_base_ways(w, key[0], taken), boats) if apart else Ways(w, boats, taken)
    return ways


_BASES: dict[tuple, Ways] = {}


def _base_ways(w, layout: tuple, taken: frozenset) -> Ways:
    """The Ways of a layout and the Territories taken with no Boat afloat, which every placing of Boats
    apart from each other shares (Ways.overlay)."""
    base = _BASES.get((layout, taken))
    if base is None:
        if len(_BASES) > 8:
            _BASES.clear()
        base = _BASES[(layout, taken)] = Ways(w, frozenset(), taken)
    return base


def _on_foot(view: dict, w, at) -> set:
    """Spaces the player can reach over any number of turns, walking and swimming (no Boat rides)."""
    return _ways(view, w).reach(at)


def _walking_cost(view: dict, w, goal: list, shun: frozenset) -> dict:
    """Movement Points still to walk from each space to the nearest of `goal` (Ways.cost_to)."""
    return _ways(view, w).cost_to(goal, shun)


def _shun(view: dict, w) -> frozenset:
    """(space, Movement Points more) for the spaces it goes round: the Demons' (_avoid), and the Dragon's
    Lair from outside it (12.511: Lair Time; Taming puts it back three days, 12.512). Counted in the
    way's cost itself, so that a way through them is dearer all along it and never a wait before them."""
    me = _me(view)
    shun = {h: _penalty(view) for h in _avoid(view)}
    if me is not None and w.tile_of(tuple(me["at"])) != LAIR_TILE:
        lair = _lair_penalty(me)
        for h in w.tile_spaces(LAIR_TILE):
            shun[h] = shun.get(h, 0) + lair
    return frozenset(shun.items())


def _lair_penalty(me) -> int:
    return 2 if spells.may_cast(me, "dragon_taming") else 8  # 12.512: Taming puts Lair Time back three days


def _me(view: dict):
    """The viewing seat's player, None for a spectator's view."""
    return view["players"][view["you"]] if view.get("you") is not None else None


def _penalty(view: dict) -> int:
    me = _me(view)
    return AVOID_WITH_GEMS if me is not None and gem_aims.held(view, me["seat"]) else AVOID


def _avoid(view: dict) -> frozenset:
    """Spaces it walks round: the Demons' (7.304: they may steal its Gems and Magical Objects, daze it or carry it
    into the Dragon's Lair), unless it can dispel them and holds no Gem."""
    me = _me(view)
    if me is not None and not gem_aims.held(view, me["seat"]) and spells.may_cast(me, "demon_dispelling"):
        return frozenset()
    return frozenset(tuple(d) for d in view.get("demons", []))


def _centres(w, tiles) -> list:
    return [w.hex_of[(t, "Center")] for t in tiles if (t, "Center") in w.hex_of]


def _meeting_places(view: dict, seat: int, w, whom: str) -> list:
    """Where a Task's "meet" requirement can be met (7.32-7.35): a Master Sorcerer in his
    Tower's Center, Hamdrel in her Cottage's, a High Wizard where his marker lies, the
    Mentor of its Order where he is found, Rüktal in the Center of the Sacred Circle."""
    me = view["players"][seat]
    towers = {"megmoran": ["M2"], "meligar": ["M3"], "melekok": ["M4"]}
    if whom in towers:
        return _centres(w, towers[whom])
    if whom == "master_sorcerer" or (whom == "mentor" and me["order"] == "sorcerers"):
        return _centres(w, TOWER_TILES)
    if whom == "hamdrel":
        return _centres(w, [COTTAGE_TILE])
    if whom == "ruktal":
        return _centres(w, [CIRCLE_TILE])
    if whom == "high_wizard" or (whom == "mentor" and me["order"] == "wizards"):
        return [tuple(h) for h in view["wizard_markers"].values() if h]
    if whom in view["wizard_markers"] and view["wizard_markers"][whom]:
        return [tuple(view["wizard_markers"][whom])]
    return []


def _task_goals(view: dict, seat: int, w, mandatory: bool | None = None) -> list:
    """The spaces where some Task it holds (only its Mandatory or only its Optional ones, when
    `mandatory` says) can take its next step (9): a marker of its own whose earlier requirements
    are done (7.311), the one it must meet next, or a location of an EVERY-visit not yet visited."""
    me = view["players"][seat]
    tasks = {t["card"]: t for t in me.get("tasks", []) if mandatory is None or t["mandatory"] == mandatory}
    out = []
    for m in view.get("task_markers", []):
        task = tasks.get(m["task"])
        if m["seat"] == seat and task is not None and all(s["done"] for s in task["steps"][:m["step"]]):
            out.append(tuple(m["at"]))
    for task in tasks.values():
        step = next((s for s in task["steps"] if not s["done"]), None)
        if step is None:
            continue
        if step["do"] == "meet":
            out += _meeting_places(view, seat, w, step["whom"])
        elif step["do"] == "visit_every":
            seen = {w.hex_of[tuple(v)] for v in step.get("visited", []) if tuple(v) in w.hex_of}  # [tile, label]
            out += [h for h in w.find(step["kind"]) if h not in seen and w.tile_of(h) not in view["taken"]]
    return out


def gathering(view: dict, seat: int) -> bool:
    """13: at Rank FOUR with every Mandatory Task done it collects the Sacred Gems."""
    me = view["players"][seat]
    return me["rank"] >= 4 and not any(t["mandatory"] for t in me["tasks"])


def has_all_gems(view: dict, seat: int) -> bool:
    gems = view["players"][seat]["gems"]
    return isinstance(gems, dict) and len(set(gems.values())) >= len(SIX_GEMS)


def _goals(view: dict, seat: int, w, advancing: bool = False) -> list:
    """Spaces worth going to before exploring: Rüktal with all six Gems (7.336, 13); gathering
    Gems (gem_aims: a Master Sorcerer's aid in summoning them, 7.346, or the High Wizards whose
    markers are out, 7.326), and its Optional Tasks too while the Sacred Circle is at risk
    (evil_aims, 12.2); else where a Task it holds moves on, its Mandatory ones first at Rank
    FOUR (13), then a Master Sorcerer's Tower Center to join an Order, to advance (7.34, 10.2)
    or to be given another Task (7.347: every time). `advancing`: where its Mentor would advance it
    now, its Mentor first (`_mentor_goals`; 10.2 needs no Task done), where the normal level's Tasks keep
    it from him for some twenty days a Rank (the days from having the points to the Rank, over whole games)."""
    me = view["players"][seat]
    if has_all_gems(view, seat):
        return [w.hex_of[(CIRCLE_TILE, "Center")]] if (CIRCLE_TILE, "Center") in w.hex_of else []
    if gathering(view, seat):
        meet = partner_aims.meeting_goal(view, seat)  # Appendix B: the giver takes his Gems to his partner
        if meet:
            return meet
        goals = gem_aims.gem_goals(view, seat, w, _centres(w, TOWER_TILES))
        return goals + (_task_goals(view, seat, w) if circle_at_risk(view, w) or not goals else [])
    mentor = _mentor_goals(view, seat, w) if advancing else []
    if mentor:
        return mentor
    goals = (me["rank"] >= 4 and _task_goals(view, seat, w, mandatory=True)) or _task_goals(view, seat, w)
    if goals:
        return goals
    if me["order"] is None or me["order"] == "sorcerers":
        goals = _centres(w, TOWER_TILES)
    return goals


def _mentor_goals(view: dict, seat: int, w) -> list:
    """Where its Mentor is met, when meeting him would advance it now (record.advance_barred: the points, three
    days since its last Rank, 10.21, not Dragonbound, 7.3051); none where not, or where it has no Mentor to
    walk to (Rüktal, the Druids' Mentor, is left to the normal play)."""
    if record.advance_barred(view["players"][seat], view["calendar"]["days_played"]) is not None:
        return []
    return _meeting_places(view, seat, w, "mentor")


def _approach(w, goals: list) -> list:
    """The Center of the Sacred Circle is entered from a Stone, and a Stone by the Movement
    Roll from a space beside it (6): the policy walks to a space beside a Stone."""
    out = []
    for g in goals:
        if w.kind(g) == "circle":
            out += [n for s in w.find("stone") for n in w.neighbours(s)
                    if w.is_land(n) and w.kind(n) not in ("stone", "circle")]
        else:
            out.append(g)
    return out


class Way:
    """The Movement Points still to go from a space to the target: on foot (Ways.cost_to), and with the
    Boats too (Ways.voyage_to) from a Water space afloat."""

    def __init__(self, foot: dict, afloat: dict | None = None) -> None:
        self.foot, self.afloat = foot, foot if afloat is None else afloat  # on foot only: a Boat as a bridge

    def cost(self, to, afloat: bool = False) -> int:
        return (self.afloat if afloat else self.foot).get(to, UNREACHED)


def afloat_after(w, move: dict) -> bool:
    """Whether a move leaves the player in a Boat: sailing it, or walking onto a free one (6: ending on
    a Boat boards it; the only Water a walk enters)."""
    return move["by"] == "sail" or (move["by"] == "walk" and w.is_water(tuple(move["to"])))


def _target(view: dict, seat: int, w, advancing: bool = False) -> tuple[tuple[int, int] | None, Way | None]:
    """The nearest goal (_goals), or else the Center of the nearest Territory not yet visited (never the
    Dragon's Lair), and the Way to it: on foot where a walk reaches it, else with the Boats too (also
    from a Boat); None where not even that reaches it, and the straight distance is all there is."""
    me = view["players"][seat]
    at = tuple(me["at"])
    afloat = me.get("boat") is not None
    shun = _shun(view, w)  # (once: every way below counts the same spaces dearer)
    goals = [g for g in _approach(w, _goals(view, seat, w, advancing)) if g != at]
    if goals:
        reach = _on_foot(view, w, at)
        near = [g for g in goals if g in reach]
        if near and not afloat:
            return min(near, key=lambda g: (distance(at, g), g)), Way(_walking_cost(view, w, near, shun))
        return min(goals, key=lambda g: (distance(at, g), g)), _voyage(view, w, goals, at, afloat, shun)
    seen = set(me["visited"])
    lost = set(view["taken"]) | {LAIR_TILE}
    fresh = [t for t in w.tiles if t not in seen and t not in lost]
    if not fresh:
        fresh = [t for t in w.tiles if t not in lost and t != w.tile_of(at)]
    if not fresh:
        return None, None
    reach = _on_foot(view, w, at)
    walkable = [t for t in fresh if any(h in reach for h in w.tile_spaces(t))]
    if not walkable or afloat:
        centre, tile = min(((w.hex_of[(t, "Center")], t) for t in fresh), key=lambda c: (distance(at, c[0]), c[1]))
        return centre, _voyage(view, w, w.tile_spaces(tile), at, afloat, shun)
    from_here = _walking_cost(view, w, [at], shun)  # (near enough the cost of walking out from here)
    tile = min(walkable, key=lambda t: (min(from_here.get(h, 1 << 30) for h in w.tile_spaces(t)), t))
    return w.hex_of[(tile, "Center")], Way(_walking_cost(view, w, [h for h in w.tile_spaces(tile) if h in reach], shun))


def _voyage(view: dict, w, goals: list, at, afloat: bool, shun: frozenset) -> Way | None:
    way = Way(*_ways(view, w).voyage_to(goals, shun))
    return way if way.cost(at, afloat) < UNREACHED else None


def _transport(view: dict, seat: int, legal: list[dict]) -> dict | None:
    """Transporting in place of the Movement Roll (11.213; Rank FOUR: a random space in the Territory it names, AMB6
    reading 1), where walking would take longer: a Sorcerer gathering Gems whose Tower is met out (7.6) names
    another Tower, where the next turn's walk to its Center meets a fresh Master Sorcerer, where walking off
    the tile and back takes some four turns; any seat whose goal is more than `TRANSPORT_FROM` Movement
    Points' walk away names the goal's Territory (never the Dragon's Lair)."""
    casts = {a["territory"]: a for a in legal if a.get("spell") == "transporting" and a.get("to") == "ANY"}
    if not casts:
        return None
    w = _world(view)
    at = tuple(view["players"][seat]["at"])
    if gathering(view, seat) and gem_aims.summoner(view, seat) and not has_all_gems(view, seat) \
            and not partner_aims.meeting_goal(view, seat):
        towers = gem_aims.fresh_towers(view, seat, w)
        if w.tile_of(at) in towers:
            return None
        goals = _centres(w, towers)
    else:
        goals = [g for g in _approach(w, _goals(view, seat, w, advancing=True)) if g != at]
    if not goals or _walking_cost(view, w, goals, _shun(view, w)).get(at, UNREACHED) <= TRANSPORT_FROM:
        return None
    tiles = sorted(({w.tile_of(g) for g in goals} - {w.tile_of(at), LAIR_TILE}) & set(casts))
    if not tiles:
        return None
    demons = [w.tile_of(tuple(d)) for d in view.get("demons", [])]
    return casts[min(tiles, key=lambda t: (demons.count(t), t))]


def _move(view: dict, seat: int, legal: list[dict], rng: random.Random, advancing: bool = False) -> dict:
    best, tied = best_moves(view, seat, legal, advancing)
    return rng.choice(best) if tied else best[0]


def best_moves(view: dict, seat: int, legal: list[dict], advancing: bool = False) -> tuple[list[dict], bool]:
    """The moves the policy rates best on a movement decision, and whether it picks among them at random
    (tied: every one as good; else the first is its pick); `advancing` as `choose`. The hard search keeps
    both plays' among its candidates (levels.shortlist), so that its own pick is always the one to beat."""
    w = _world(view)
    me = view["players"][seat]
    at = tuple(me["at"])
    target, way = _target(view, seat, w, advancing)
    casts = [a for a in legal if a["kind"] == "cast"]
    moves = [a for a in legal if a["kind"] == "move"]
    goals = _goals(view, seat, w, advancing)
    circle = any(w.kind(g) == "circle" for g in goals)
    inward = [a for a in moves if tuple(a["to"]) in goals or (circle and a["by"] in ("stone", "circle"))]
    if inward:  # the roll lets it onto a Stone or into the Center it came for (6)
        return [max(inward, key=lambda a: a["by"] == "circle")], False
    arrived = view["turn"]["moved"] and at in _approach(w, goals)  # the encounter comes when movement ends
    if target is None or not moves or arrived:
        return [next((a for a in legal if a["kind"] == "end_move"), legal[0])], False
    swift = [a for a in casts if a.get("spell") == "swiftness"]
    if swift and not view["turn"]["moved"]:
        return [swift[0]], False
    value = _destination_value(view, seat, w, target, way, goals)
    afloat = me.get("boat") is not None
    stay = value(at, afloat) if way is None else -way.cost(at, afloat)
    if w.is_water(at) and not afloat:
        stay = -(1 << 30)  # 6: never Water to Water; a swimmer climbs out rather than wait in the Water
    scored = [(value(tuple(a["to"]), afloat_after(w, a)), a) for a in moves]
    best = max(s for s, _ in scored)
    if best <= stay:
        boat = [a for a in casts if a.get("spell") == "boat_summoning"]
        if boat:
            return [boat[0]], False
        return [next(a for a in legal if a["kind"] == "end_move")], False
    return [a for s, a in scored if s == best], True


def rate_moves(view: dict, seat: int, moves: list[dict], nearest: bool = False,
               advancing: bool = False) -> list[float] | None:
    """The policy's rating of each move's destination (higher is better), as `best_moves` weighs them;
    None when the seat has nowhere to go. The hard search ranks its candidates by it (levels.shortlist).
    `nearest`: the way to the target alone (its own cost of a Demon's or the Lair's space on the way), a
    Territory not yet seen counted up whether exploring or not, no hazard at the destination counted (how the
    search ranked them before its revision 4)."""
    w = _world(view)
    target, way = _target(view, seat, w, advancing)
    if target is None:
        return None
    value = _destination_value(view, seat, w, target, way, _goals(view, seat, w, advancing), nearest)
    return [value(tuple(a["to"]), afloat_after(w, a)) for a in moves]


def _destination_value(view: dict, seat: int, w, target, way: Way | None, goals: list, nearest: bool = False):
    """How good a space is to end a step on, on foot or afloat: the Movement Points still to go to `target`
    (on foot, or with the Boats; where no way is known, the straight distance), a Territory not yet seen
    counted up when exploring, the Lair and the Demons' reach counted down (`rate_moves` for `nearest`)."""
    me = view["players"][seat]
    seen = set(me["visited"])
    here = w.tile_of(tuple(me["at"]))
    lair = _lair_penalty(me)
    avoid = _avoid(view)

    def value(to, afloat: bool) -> float:
        v = -way.cost(to, afloat) if way is not None else -2 * distance(to, target)
        tile = w.tile_of(to)
        if nearest:
            return v + 12 if tile and tile not in seen else v
        if tile and tile not in seen and not goals:  # exploring: a Territory not yet seen
            v += 12
        if tile == LAIR_TILE and here != LAIR_TILE:
            v -= lair  # Lair Time (12.511): not into the Lair; once inside, out by the shortest way
        if to in avoid and to not in goals:
            v -= _penalty(view)
        return v

    return value
