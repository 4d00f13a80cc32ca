"""Setting up a match (Set Up, Arena Set Ups, 1-Player Set Up).

Players choose teams, the arena is laid from its layout (tiles and obstacles may be changed
by agreement through the match options), crystals are placed for the scenario, and the
wizards enter their starting zones one at a time round the table (authored: the rulebook
shows starting zones but not how wizards are placed). In the solo game the player places
his or her wizards anywhere in the arena, one per tile and not on a hex made by two tiles,
and posts each attacking wizard at one of the three entry points.
"""
from __future__ import annotations

from collections import Counter

from shared.engine import InvalidConfig, MalformedAction, MatchConfig
from shared.engine.state import tree_copy
from shared.hexgrid import Hex, distance, neighbours
from shared.incantris import campaign, match, scenarios
from shared.incantris.arena import OCEAN, OPEN, arena_of, as_hex
from shared.incantris.movement import Ground
from shared.incantris.pack import load
from shared.incantris.state import IncantrisState, Side, Tile, Wizard
from shared.incantris.tasks import Clause
from shared.incantris.tasks import Task as Step

COLOURS = ("red", "blue", "purple", "grey")
VARIANTS = ("battle-royale", "crystal-sap", "capture-the-crystal", "shifting-arena", "solo", "campaign")


def scenario_of(variant: str) -> str:
    """The scenario a match variant plays: the standard game is the battle royale (a campaign's
    scenario is its current game's)."""
    return "battle-royale" if variant == "standard" else variant


def seat_counts(variant: str) -> tuple[int, ...]:
    """The seats `variant` is played by (new_state refuses others): one in the solo game, two to
    four in every other; none for a variant Incantris does not have."""
    variant = scenario_of(variant)
    if variant not in VARIANTS:
        return ()
    return (1,) if variant == "solo" else (2, 3, 4)


def new_state(config: MatchConfig) -> IncantrisState:
    pack = load()
    options = dict(config.options or {})
    variant = scenario_of(config.variant)
    if variant not in VARIANTS:
        raise InvalidConfig(f"unknown variant {config.variant!r}")
    seats = config.seats
    solo = variant == "solo"
    if solo and seats != 1:
        raise InvalidConfig("the solo game has exactly one seat")
    if not solo and not 2 <= seats <= 4:
        raise InvalidConfig("Incantris is played by 2 to 4 players (1 in the solo game)")
    record = None
    scenario = variant
    if variant == "campaign":
        record = tree_copy(options.get("campaign")) or campaign.blank_record(seats)
        _check_record(record, seats)
        scenario = campaign.scenario_of(record)
    teams = list(options.get("teams") or COLOURS[:seats])
    if len(teams) != seats or len(set(teams)) != seats or any(t not in COLOURS for t in teams):
        raise InvalidConfig("options.teams must name a different colour for each seat")
    layout_id = options.get("layout") or (f"{scenario}-{seats}" if not solo else "solo-1")
    layout = pack.layouts.get(layout_id)
    if layout is None or layout["scenario"] != scenario or layout["players"] != seats:
        raise InvalidConfig(f"layout {layout_id!r} does not fit {scenario} with {seats} players")
    tiles: list[Tile] = tree_copy(layout["tiles"])
    if "faces" in options:
        tiles = _faces(tiles, options["faces"], scenario)
    try:
        a = arena_of(tiles)
    except (ValueError, KeyError) as exc:
        raise InvalidConfig(f"the tiles do not make an arena: {exc}") from None
    sides: list[Side] = []
    if solo:
        attackers = options.get("attackers") or next(c for c in COLOURS if c != teams[0])
        if attackers not in COLOURS or attackers == teams[0]:
            raise InvalidConfig("options.attackers must be another team's colour")
        sides.append(_side(None, attackers, True, None))
        sides.append(_side(0, teams[0], False, None))
    else:
        for i in range(seats):
            sides.append(_side(i, teams[i], False, layout["zones"][i]))
    if record:
        for i in range(seats):
            sides[i]["stars"] = int(record["stars"][i])
    wizards: dict[str, Wizard] = {}
    for index, side in enumerate(sides):
        for wid in pack.teams[side["team"]]:
            t = pack.types[pack.wizards[wid].type]
            items = list((record or {}).get("items", {}).get(wid, []))
            wizards[wid] = {"id": wid, "side": index, "type": t.key, "life": t.life, "max": t.life, "alive": True,
                            "hex": None, "done": False, "entry": None, "sapped": 0, "carrying": None, "items": items}
    state = IncantrisState(
        variant=variant, seats=seats, scenario=scenario, layout=layout_id,
        tiles=tiles, obstacles=[], sides=sides, wizards=wizards, effects={}, crystals=[],
        entries=tree_copy(layout.get("entries", [])),
        arms=tree_copy(layout.get("arms", [])),
        shift={"next": 0, "per_round": layout["shift_per_round"]} if scenario == "shifting-arena" else None,
        phase="place", setup={"side": 0 if not solo else 1}, round=1, serial=0,
        turn=None, queue=[], result=None, captured=None, campaign=record, used_items=[], quiet=0, stirred=False,
        resigned=[],
    )
    scenarios.set_crystals(state, layout)
    obstacles = options.get("obstacles", layout["obstacles"])
    _check_obstacles(state, a, obstacles, solo)
    state.replace("obstacles", [{"kind": o["kind"], "hexes": [list(h) for h in o["hexes"]]} for o in obstacles])
    if record and any(s["stars"] > 0 for s in sides):
        state.phase = "shop"
    return state


def _side(seat: int | None, team: str, auto: bool, zone: int | None) -> Side:
    return {"seat": seat, "team": team, "auto": auto, "zone": zone, "sapped": 0, "kills": 0, "out": None, "stars": 0}


def _check_record(record, seats) -> None:
    try:
        ok = (1 <= int(record["game"]) <= 4 and len(record["vp"]) == seats and len(record["stars"]) == seats
              and isinstance(record.get("items", {}), dict))
    except (KeyError, TypeError, ValueError):
        ok = False
    if not ok:
        raise InvalidConfig("options.campaign must hold game (1-4), vp and stars per seat, and items")
    for wid, items in record.get("items", {}).items():
        if wid not in load().wizards or any(i not in campaign.ITEMS for i in items):
            raise InvalidConfig(f"campaign items of {wid!r} are not known")


def _faces(tiles: list[Tile], faces, scenario: str) -> list[Tile]:
    """"Players may use any tiles they mutually agree upon": faces like "T3B" per tile slot."""
    pack = load()
    if not isinstance(faces, list) or len(faces) != len(tiles):
        raise InvalidConfig("options.faces must name one tile face per tile of the layout")
    used = Counter(f[:-1] for f in faces if isinstance(f, str))
    if any(n > 1 for n in used.values()):
        raise InvalidConfig("each tile can be laid once")
    out: list[Tile] = []
    for t, f in zip(tiles, faces):
        if not isinstance(f, str) or len(f) < 2:
            raise InvalidConfig(f"bad tile face {f!r}")
        tile, side = f[:-1], f[-1]
        was_half = pack.face(t["tile"], t["side"])[0]
        try:
            half = pack.face(tile, side)[0]
        except KeyError:
            raise InvalidConfig(f"no tile face {f!r}") from None
        if half != was_half:
            raise InvalidConfig(f"{f} does not fit a {'half' if was_half else 'full'} tile slot")
        out.append({**t, "tile": tile, "side": side})
    if scenario == "shifting-arena":
        _, centre = pack.face(out[0]["tile"], out[0]["side"])
        if set(centre.values()) != {"."}:
            raise InvalidConfig("Shifting Arena: the center tile must always be open ground")
    return out


def _check_obstacles(state: IncantrisState, a, obstacles, solo: bool) -> None:
    """Obstacles sit on whole hexes of one tile ("Walls and trees should not cross the edge
    of a tile"), on open ground (Movement & Terrain: "All hexes that are neither stream, ocean,
    nor otherwise impassable are open ground" - an obstacle's hex is taken out of open ground,
    never out of a stream or the ocean; the bridge is open ground), never on a crystal; high
    walls are two hexes, low walls one or two, trees one. Solo: "Up to three trees, two low
    walls, and one high wall ... they may not block the attacking wizards' entry to the arena
    or otherwise pen them in."""
    pack = load()
    rules = pack.obstacle_rules
    if not isinstance(obstacles, list):
        raise InvalidConfig("options.obstacles must be a list")
    counts: Counter = Counter()
    seen: set[Hex] = set()
    crystals = match.crystal_hexes(state)
    entry_hexes = {as_hex(h) for e in state.entries for h in e["hexes"]}
    for o in obstacles:
        try:
            kind_ = o["kind"]
            hexes = [as_hex(h) for h in o["hexes"]]
        except (KeyError, TypeError, ValueError, IndexError):
            raise InvalidConfig(f"bad obstacle {o!r}") from None
        if kind_ not in ("tree", "low-wall", "high-wall") or len(hexes) not in rules[kind_]["length"]:
            raise InvalidConfig(f"bad obstacle {o!r}")
        if len(hexes) == 2 and distance(*hexes) != 1:
            raise InvalidConfig("a wall's two hexes must touch")
        tiles_under = {a.owners.get(h, (None,))[0] for h in hexes}
        for h in hexes:
            if h not in a.single or h in seen or h in crystals or h in entry_hexes:
                raise InvalidConfig(f"an obstacle cannot stand on hex {list(h)}")
            if a.terrain[h] != OPEN:
                raise InvalidConfig(f"an obstacle stands on open ground, not on the {a.terrain[h]} of hex {list(h)}")
            seen.add(h)
        if len(tiles_under) != 1:
            raise InvalidConfig("walls should not cross the edge of a tile")
        counts[kind_] += 1
    limit = {"tree": 3, "low-wall": 2, "high-wall": 1} if solo else rules["supply"]["value"]
    for k, count in counts.items():
        if count > limit[k]:
            raise InvalidConfig(f"at most {limit[k]} {k} obstacles")
    # nothing may be penned in: every open or stream hex stays reachable from every other
    passable = {h for h in a.whole if a.terrain[h] != OCEAN and h not in seen and h not in crystals}
    if passable:
        start = min(entry_hexes) if entry_hexes else min(passable)
        reach, todo = {start}, [start]
        while todo:
            h = todo.pop()
            for n in neighbours(h):
                if n in passable and n not in reach:
                    reach.add(n)
                    todo.append(n)
        if reach != passable:
            raise InvalidConfig("the obstacles pen part of the arena in")


# --- placing the wizards ---------------------------------------------------------------------------
def place_options(state: IncantrisState, side: int) -> list[dict]:
    g = Ground(state)
    a = g.arena
    solo = state.scenario == "solo"
    mine = [w for w in match.living(state) if w["side"] == side]
    todo = [w for w in mine if w["hex"] is None]
    if solo:
        used_tiles = {a.owners[as_hex(w["hex"])][0] for w in mine if w["hex"] is not None}
        spots = [h for h in a.single if a.owners[h][0] not in used_tiles]
    else:
        zone = state.sides[side]["zone"]
        assert zone is not None, "a player's side has a starting zone"
        spots = [h for h in a.tile_hexes[zone] if h in a.whole]
    out = []
    for w in todo:
        for h in sorted(spots):
            if g.terrain_cost(w, h) is None or g.blocked(w, h) or h in g.occupied:
                continue
            out.append({"kind": "place", "wizard": w["id"], "hex": list(h)})
    return out


def place(state: IncantrisState, side: int, action: dict, ev: list) -> None:
    w = match.wizard(state, action["wizard"])
    w["hex"] = list(action["hex"])
    match.event(ev, "placed", wizard=w["id"], hex=w["hex"])
    next_placer(state, side, ev)


def next_placer(state: IncantrisState, side: int, ev: list) -> None:
    """Placing goes round the table to the next side with a wizard still to place; when none
    is left, the solo game posts its attackers and any other match begins."""
    n = len(state.sides)
    for k in range(1, n + 1):
        nxt = (side + k) % n
        if any(x["hex"] is None for x in match.living(state) if x["side"] == nxt and not state.sides[nxt]["auto"]):
            state.setup = {"side": nxt}
            return
    if state.scenario == "solo":
        state.phase = "post"
        state.setup = {"side": 1}
        return
    start_play(state, ev)


def post_options(state: IncantrisState) -> list[dict]:
    """1-Player Set Up: one attacking wizard at each corner entry point."""
    waiting = [w for w in match.living(state) if state.sides[w["side"]]["auto"] and w["entry"] is None]
    if not waiting:
        return []
    taken = {w["entry"] for w in match.living(state) if w["entry"] is not None}
    first = waiting[0]
    return [{"kind": "post", "wizard": first["id"], "entry": i} for i in range(len(state.entries)) if i not in taken]


def post(state: IncantrisState, action: dict, ev: list) -> None:
    match.wizard(state, action["wizard"])["entry"] = action["entry"]
    match.event(ev, "posted", wizard=action["wizard"], entry=action["entry"])
    if not post_options(state):
        start_play(state, ev)


def side_to_act(state: IncantrisState) -> int:
    """The side placing, posting or shopping while the match is set up."""
    assert state.setup is not None, "the match is not being set up"
    return state.setup["side"]


def start_play(state: IncantrisState, ev: list) -> None:
    state.phase = "play"
    state.setup = None
    match.event(ev, "play-begins")


def shop_done(state: IncantrisState, side: int, ev: list) -> None:
    n = len(state.sides)
    if side + 1 < n:
        state.setup = {"side": side + 1}
    else:
        state.phase = "place"
        state.setup = {"side": 0}
    match.event(ev, "shop-closed", side=side)


# --- the set-up stages, as the engine routes them -------------------------------------------------
def _seat_of(state: IncantrisState) -> tuple[str, int | None]:
    return ("seat", state.sides[side_to_act(state)]["seat"])


def _known_wizard(state: IncantrisState, wid: str) -> Wizard:
    if wid not in state.wizards:
        raise MalformedAction(f"no wizard {wid!r}")
    return state.wizards[wid]


class Shop(Step):
    """Experience: stars are spent on items between games; "As soon as an item is purchased it
    must be assigned to a wizard." """

    kind = "shop"
    rule = Clause("Experience", "The player may spend experience stars to purchase equipment for the team's wizards "
                                "between games, or may save their experience stars to make purchases later.")
    OWN = Clause("Experience", "experience stars are assigned to teams, but the items purchased with them are "
                               "assigned to individual wizards.")

    def waits(self, state, task):
        return _seat_of(state)

    def options(self, state, task):
        return campaign.shop_options(state, side_to_act(state))

    def choose(self, state, task, action, ev):
        side = side_to_act(state)
        if action["kind"] == "buy":
            campaign.buy(state, side, action, ev)
        else:
            shop_done(state, side, ev)

    def refuse(self, state, task, action):
        if action["kind"] != "buy":
            return super().refuse(state, task, action)
        if action["item"] not in campaign.ITEMS:
            raise MalformedAction(f"no item {action['item']!r}")
        side = side_to_act(state)
        if _known_wizard(state, action["wizard"])["side"] != side:
            return self.OWN.violated(f"{action['wizard']} is not on this team")
        return self.rule.violated(f"{action['item']} costs {campaign.price(action['item'])} stars; the team has "
                                  f"{state.sides[side]['stars']}")


class Placing(Step):
    """Wizards enter their starting zones one at a time round the table (README reading); solo:
    anywhere, one a tile, never on a hex made by two tiles."""

    kind = "place"
    rule = Clause("Set Up", "wizards are placed one at a time round the table, each anywhere on a whole hex of its "
                            "player's starting zone that it may stand on", reading=True)
    OWN = Clause("Set Up", "Each player takes the three wizard miniatures of his or her team's color")
    ONE_A_TILE = Clause("1-Player Set Up", "Only one of the player's wizards may be placed on a single tile.")
    SEAM = Clause("1-Player Set Up", "Player wizards may not be placed in hexes that are created by two or more tiles.")
    IMPASSABLE = Clause("1-Player Set Up", "The player's wizards may not be placed in impassable hexes.")

    def waits(self, state, task):
        return _seat_of(state)

    def options(self, state, task):
        return place_options(state, side_to_act(state))

    def choose(self, state, task, action, ev):
        place(state, side_to_act(state), action, ev)

    def refuse(self, state, task, action):
        if action["kind"] != "place":
            return super().refuse(state, task, action)
        w = _known_wizard(state, action["wizard"])
        side = side_to_act(state)
        if w["side"] != side:
            return self.OWN.violated(f"{w['id']} is not on this team")
        if w["hex"] is not None:
            return self.rule.violated(f"{w['id']} is placed already")
        h = as_hex(action["hex"])
        g = Ground(state)
        a = g.arena
        if state.scenario == "solo":
            if h in a.whole and h not in a.single:
                return self.SEAM.violated(f"{list(h)} is made by two tiles")
            if h in a.single and any(x["hex"] is not None and a.owners[as_hex(x["hex"])][0] == a.owners[h][0]
                                     for x in match.living(state) if x["side"] == side):
                return self.ONE_A_TILE.violated(f"a wizard of this team stands on the tile of {list(h)} already")
            return self.IMPASSABLE.violated(f"{w['id']} cannot stand on {list(h)}")
        zone = state.sides[side]["zone"]
        if zone is None or h not in a.tile_hexes[zone] or h not in a.whole:
            return self.rule.violated(f"{list(h)} is not a whole hex of this player's starting zone")
        why = g.no_standing(w, h)
        return (why or self.rule).violated(f"{w['id']} cannot stand on {list(h)}")


class Posting(Step):
    """1-Player Set Up: one attacking wizard at each corner entry point."""

    kind = "post"
    rule = Clause("1-Player Set Up", "The player takes the attacking wizards and places them at each corner of the "
                                     "arena, positioned off the tiles in the locations shown in Figure 9.")

    def waits(self, state, task):
        return _seat_of(state)

    def options(self, state, task):
        return post_options(state)

    def choose(self, state, task, action, ev):
        post(state, action, ev)

    def refuse(self, state, task, action):
        if action["kind"] != "post":
            return super().refuse(state, task, action)
        _known_wizard(state, action["wizard"])
        if not 0 <= action["entry"] < len(state.entries):
            return self.rule.violated(f"the arena has entry points 0 to {len(state.entries) - 1}")
        return self.rule.violated("one attacking wizard goes to each entry point, in turn: "
                                  + ", ".join(describe_post(a) for a in post_options(state)))


def describe_post(action: dict) -> str:
    return f"{action['wizard']} at entry {action['entry']}"
