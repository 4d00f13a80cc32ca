"""Board queries (GameEngine.query): where a player could go and at what cost, and which space
a roll picks. Answers are read from the asking seat's view (the board, Boats, markers and
Record Sheets are public, 14.3; face-down tiles are not), with the rules of movement.py.

    {"kind": "destinations", "points": n}      every space the seat's player could reach with n
                                                Movement Points, by each way of moving, with its cost
    {"kind": "path", "to": space}              the cheapest way there, hex by hex, and its cost
    {"kind": "space", "territory": t, "white": d, "red": d}
                                                4.2: the exact space a white and a red die pick
    {"kind": "tile_cells", "at": [q, r], "rotation": k}   (optional "tile")
                                                before placing (3.21-3.23): the 19 board hexes a tile
                                                laid there would cover, each with its label and, for a
                                                tile of the seat's own hand, its terrain; whether the
                                                spot is open now, and if not the rule that forbids it
    {"kind": "record_sheet"}                   the seat's own Record Sheet (14.2): Order, Rank and
                                                title, points and what the next Rank needs, Tasks
                                                held with their markers, Gems, Secret Wizards, the
                                                False Wizard, spells he may cast now, Animal, Events

`n` is the whole turn's Movement Points, as after the Movement Roll (5.1): the white die with the
Movement Event Cards' changes and an Animal's added points (8.45, 8.46). Once the seat's own
turn has begun the turn is taken as it stands (already moved, a Boat boarded, Swiftness cast,
the white die rolled); otherwise as his next turn from where the player stands, with no
Swiftness and no white die. "white" sets the white die (stones and the Center need it, section 6). "path"
takes "points" too; without them it uses the points left on the seat's own Movement Segment,
and otherwise walks and sails with no limit (the whole-turn moves, which take every point a turn
has, are left out then).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from shared.engine import MalformedAction
from shared.engine.queries import query_kind
from shared.hexgrid import Hex
from shared.wizards import movement
from shared.wizards.cards import movement_modifiers
from shared.wizards.movement import ANIMAL_BONUS, MODES, Mover
from shared.wizards.pack import pack
from shared.wizards.randomspace import letter_from_white
from shared.wizards.state import afflicted, position
from shared.wizards.world import World, world_for

FIELDS = {"destinations": ({"points"}, {"white"}), "path": ({"to"}, {"points", "white"}),
          "space": ({"territory", "white", "red"}, set()), "record_sheet": (set(), set()),
          "tile_cells": ({"at", "rotation"}, {"tile"})}
MAX_POINTS = 99
UNLIMITED = 10_000  # "path" without points: walking and sailing with no limit
WHOLE_TURN = ("swim", "stone", "circle", "fly", "ride")


def answer(view: dict, seat: int | None, query) -> dict:
    kind = query_kind(query, FIELDS, "Wizards")
    if kind == "space":
        return space(view, query["territory"], _die(query, "white"), _die(query, "red"))
    if seat is None:
        raise MalformedAction(f"{kind} asks about the asking seat's player: send a seat token")
    if kind == "record_sheet":
        return record_sheet(view, seat)
    if kind == "tile_cells":
        return tile_cells(view, seat, query)
    white = _die(query, "white") if "white" in query else None
    if kind == "destinations":
        return destinations(view, seat, _points(query["points"]), white)
    points = _points(query["points"]) if "points" in query else None
    return path(view, seat, _space_hex(view, query["to"]), points, white)


# --- reading the fields -------------------------------------------------------------------------
def _points(v) -> int:
    if type(v) is not int or not 0 <= v <= MAX_POINTS:
        raise MalformedAction(f"'points' is a whole number of Movement Points, 0-{MAX_POINTS}")
    return v


def _die(query: dict, field: str) -> int:
    v = query.get(field)
    if type(v) is not int or not 1 <= v <= 6:
        raise MalformedAction(f"'{field}' is a die: a whole number 1-6")
    return v


def _territory(t) -> str:
    """A Territory by its tile id ("E4") or printed name ("Green Grove")."""
    tiles = pack().tiles
    if isinstance(t, str):
        if t in tiles:
            return t
        for tid, tile in tiles.items():
            if tile["name"].lower() == t.lower():
                return tid
    raise MalformedAction(f"'territory' names a Territory: one of {list(pack().tile_ids)} or its name")


def _space_hex(view: dict, to) -> Hex:
    """A space as [q, r], or {"territory": t, "space": label} for a tile on the board."""
    if isinstance(to, list) and len(to) == 2 and all(type(v) is int for v in to):
        return (to[0], to[1])
    if isinstance(to, dict) and set(to) == {"territory", "space"}:
        h = world_for(seen(view)).hex_of.get((_territory(to["territory"]), to["space"]))
        if h is None:
            raise MalformedAction(f"{to} is no space of a Territory on the board")
        return h
    raise MalformedAction("'to' is a space: [q, r], or {\"territory\": ..., \"space\": \"A5\"}")


# --- the player as he would move -------------------------------------------------------------------
@dataclass(frozen=True)
class Seen:
    """A seat's view read as a state.Board: the parts of the board the movement rules read."""

    players: Any
    turn: Any
    boats: Any
    dragon: Any
    demons: Any
    task_markers: Any
    wizard_markers: Any
    secret_wizards: Any
    tiles: Any
    taken: Any


def seen(view: dict) -> Seen:
    return Seen(**{f.name: view[f.name] for f in fields(Seen)})


def _own_movement(view: dict, seat: int) -> bool:
    t = view["turn"]
    return (view["phase"] == "play" and view["step"] == "movement" and t is not None and t.get("seat") == seat
            and not t.get("ended"))


def _this_turn(view: dict, seat: int) -> bool:
    """The seat's own turn has begun and its movement is not over yet."""
    t = view["turn"]
    return (view["phase"] == "play" and t is not None and t.get("seat") == seat and not t.get("ended")
            and t.get("number") == view["players"][seat]["turns_taken"]
            and view["step"] in ("pre_roll", "movement_roll", "movement", "summon_boat"))


def mover(view: dict, seat: int, points: int, white: int | None) -> Mover:
    """The seat's player moving with `points`: his turn as it stands once it has begun (already
    moved, a Boat boarded, Swiftness cast, the white die), else his next turn from where he stands."""
    p = view["players"][seat]
    animal = p["animal"]["kind"] if p["animal"] else None
    if _this_turn(view, seat):
        m = movement.mover(seen(view), seat)
        rolled = view["turn"]["roll"] is not None  # 5.1: the Animal's points come with the roll
        return replace(m, mp=points, bonus=m.bonus if rolled else ANIMAL_BONUS.get(animal or "", 0),
                       white=white if white is not None else m.white)
    _, plains = movement_modifiers(p)
    # 7.372: his next turn is turns_taken + 1, so "the very next turn after leaving" is judged for it
    ahead = replace(seen(view), players=[dict(q, turns_taken=q["turns_taken"] + 1) if q["seat"] == seat else q
                                         for q in view["players"]])
    return Mover(seat=seat, at=position(p), boat=p["boat"], mp=points, bonus=ANIMAL_BONUS.get(animal or "", 0),
                 unmoved=True, white=white, afflicted=afflicted(p), dragonbound="dragonbound" in p["afflictions"],
                 as_plains=plains, animal=animal, boarded=False,
                 star_crest_ok=movement.star_crest_permitted(ahead, world_for(seen(view)), seat), swum=p["swum"],
                 lost=frozenset(view["taken"]))


def _order(key) -> tuple:
    by, h = key
    return (MODES.index(by), h[1], h[0])


def destinations(view: dict, seat: int, points: int, white: int | None) -> dict:
    p = view["players"][seat]
    out = {"seat": seat, "at": p["at"], "points": points, "destinations": []}
    if p["at"] is None or view["phase"] != "play":
        out["why"] = "the player is not on the board yet"
        return out
    m = mover(view, seat, points, white)
    out["white"] = m.white
    w = world_for(seen(view))
    moves = movement.moves_of(seen(view), m)
    out["destinations"] = [{"by": k[0], "to": list(k[1]), "cost": mv.cost, "space": w.space_name(k[1]),
                            "ends_movement": mv.ends, "animal_leaves": mv.animal_leaves}
                           for k, mv in sorted(moves.items(), key=lambda kv: _order(kv[0]))]
    return out


# --- the cheapest path --------------------------------------------------------------------------------
def path(view: dict, seat: int, to: Hex, points: int | None, white: int | None) -> dict:
    p = view["players"][seat]
    w = world_for(seen(view))
    out = {"seat": seat, "at": p["at"], "to": list(to), "space": w.space_name(to) if w.on_board(to) else None,
           "by": None, "cost": None, "path": None}
    if p["at"] is None or view["phase"] != "play":
        out["why"] = "the player is not on the board yet"
        return out
    if not w.on_board(to):
        out["why"] = f"{list(to)} is not a space of the Game Board (6)"
        return out
    unlimited = points is None and not _own_movement(view, seat)
    if points is None:
        points = UNLIMITED if unlimited else view["turn"]["mp"]
    out["points"] = None if unlimited else points
    m = mover(view, seat, points, white)
    moves = {(by, h): mv for (by, h), mv in movement.moves_of(seen(view), m).items()
             if h == to and not (unlimited and by in WHOLE_TURN)}
    if not moves:
        out["why"] = (f"{w.space_name(to)} cannot be reached " + ("on foot or by Boat" if unlimited else
                      f"with {points} Movement Points") + " (terrain costs, walls, Water, Specific Encounter "
                      "spaces on the way, section 6)")
        return out
    (by, _), best = min(moves.items(), key=lambda kv: (kv[1].cost, MODES.index(kv[0][0])))
    hexes = {"walk": _walk_path, "sail": _sail_path}.get(by, lambda *a: [to])(view, w, m, to)
    out.update(by=by, cost=best.cost, path=[list(h) for h in hexes], ends_movement=best.ends,
               animal_leaves=best.animal_leaves)
    return out


def _walk_path(view: dict, w: World, m: Mover, to: Hex) -> list[Hex]:
    """The hexes entered on the cheapest walk: the first way into `to` that movement.walk_search
    settles (the one whose cost the move lists), followed back to the start."""
    if to == m.at:
        return [to]  # a swimmer climbing into a Boat in his own space
    reached = movement.walk_search(seen(view), w, m)
    last = next(node for node in reached if node[0] == to)
    return [h for h, _, _ in movement.route(reached, last)]


def _sail_path(view: dict, w: World, m: Mover, to: Hex) -> list[Hex]:
    """The Water spaces the Boat passes on the cheapest sail (movement.sail_search)."""
    return movement.route(movement.sail_search(seen(view), w, m), to)


# --- section 4 ----------------------------------------------------------------------------------------
def space(view: dict, territory, white: int, red: int) -> dict:
    """4.2 THE EXACT SPACE: 'The WHITE die refers to the LETTER of the space: A roll of 1 or 2
    corresponds to the letter A, 3 or 4 to B, and 5 or 6 to C' (4.211); 'The number of the RED die
    refers to the number of the space: 1-6' (4.212). Where the tile lies is told only when it is
    face up on the board."""
    tid = _territory(territory)
    tile = pack().tiles[tid]
    label = f"{letter_from_white(white)}{red}"
    s = tile["spaces"][label]
    h = world_for(seen(view)).hex_of.get((tid, label))
    return {"territory": tid, "name": tile["name"], "type": tile["type"], "white": white, "red": red,
            "space": label, "kind": s["kind"], "space_name": f"{tile['name']} {label}",
            "at": list(h) if h is not None else None, "lost_to_evil": tid in view["taken"]}


# --- the Record Sheet (14.2) ------------------------------------------------------------------
def record_sheet(view: dict, seat: int) -> dict:
    """What the seat's Record Sheet holds, from its own view: the Gem Record and the Secret
    Wizard Record are his (14.3), so they are shown to him and to nobody else."""
    from shared.wizards import spells

    me = view["players"][seat]
    order = me["order"]
    ranks = pack().orders[order]["ranks"] if order else []
    nxt = ranks[me["rank"]] if order and me["rank"] < len(ranks) else None
    return {
        "order": order,
        "rank": me["rank"],
        "title": ranks[me["rank"] - 1]["title"] if order else None,
        "points": dict(me["points"]),
        "next_rank": None if nxt is None else {t: nxt[t] for t in ("knowledge", "perception", "power")},
        "rank_day": me["rank_day"],
        "tasks": me["tasks"],
        "markers": [m for m in view["task_markers"] if m["seat"] == seat],
        "completed": me.get("task_history", []),
        "gems": me["gems"],
        "secret_record": me["secret_record"],
        "false_wizard": me["false_wizard"],
        "spells": [s for s in spells.known(me) if spells.may_cast(me, s["spell"])],
        "afflictions": me["afflictions"],
        "animal": me["animal"],
        "events": me["events"],
        "lair_time": me["lair_time"],
    }


# --- a tile before it is placed (3.21-3.23) ---------------------------------------------------
def tile_cells(view: dict, seat: int, query: dict) -> dict:
    """The hexes a tile laid at `at` turned `rotation` would cover, and whether that spot is open
    (placement.check_spot's rules, read from the view); terrain only for a tile the seat holds
    (a face-down stack or another player's hand is not its to read)."""
    from shared.hexgrid import distance
    from shared.wizards.geometry import OVERLAP_DISTANCE, board, free_cells, placed_hex

    at, rotation, tile = query["at"], query["rotation"], query.get("tile")
    if not (isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at)):
        raise MalformedAction("'at' is [q, r] with integer q and r: where the tile's Center goes")
    if type(rotation) is not int or not 0 <= rotation <= 5:
        raise MalformedAction("'rotation' is a whole number 0-5 (sixth-turns clockwise)")
    tiles = view["tiles"]
    hand = [] if tiles["face_down"] else tiles["hands"][seat]
    if tile is not None and tile not in hand:
        raise MalformedAction(f"'tile' must be a tile of your hand ({', '.join(hand) or 'none'})")
    spaces = pack().tiles[tile]["spaces"] if tile else {}
    centre = (at[0], at[1])
    cells = [{"label": label, "at": list(placed_hex(centre, rotation, label)),
              **({"kind": spaces[label]["kind"]} if tile else {})} for label in pack().labels]
    placed = [(p["at"][0], p["at"][1]) for p in tiles["placed"]]
    to_place = sum(len(h) for h in tiles["hands"]) + tiles["stack"]
    b = board()
    rule: str | None
    why: str | None
    if centre not in b.cells_hit:
        rule, why = "3.22", "each hexagon on the tile must fully cover a Game Board Water hexagon"
    elif any(distance(c, centre) <= OVERLAP_DISTANCE for c in placed):
        rule, why = "3.22", "tiles may not be placed such that they overlap each other"
    elif len(free_cells(placed) - b.cells_hit[centre]) < to_place - 1:
        rule, why = "3.21", "it would leave too little room for the tiles still to place"
    else:
        rule = why = None
    return {"cells": cells, "open": rule is None, "rule": rule, "why": why}
