"""Placing the Territory tiles on the Game Board (3.21-3.23, Appendix A step 5).

Rules enforced:
* 3.21 a player places only tiles he holds, one at a time, in turn;
* 3.22 each tile hex fully covers one board Water hex (the whole tile lies on the
  board) and tiles never overlap;
* 3.23 any position and any of the six orientations, terrain up;
* room for the rest (authored, from 3.21 "until all players have placed every tile"):
  a placement must leave at least as many free reserve cells as tiles still to
  place, so the set-up can always be finished (see board.json "reserve").
In the solitaire game the tiles are face down (Appendix A 5): the player places
the next tile of the face-down stack without knowing which it is.

The choice is listed in three short steps rather than as one list of every placement
(some 25,000 with a hand of nine tiles): `choose_tile` (a tile of his hand; skipped
face down), `choose_spot` (where its Center goes: legality depends on the spot alone)
and `place_tile` (the turn, 0-5, which places it). The selection so far is public,
`tiles["selected"] = {"tile", "at"}`, and goes when the tile is placed; choosing another
tile starts again. A `place_tile` naming tile, spot and turn at once is the same placement and is
taken at any of the three steps, checked by the same rules.
"""
from __future__ import annotations

from shared.engine import MalformedAction, RuleViolation
from shared.hexgrid import Hex, distance
from shared.wizards.geometry import OVERLAP_DISTANCE, board, free_cells, open_centers
from shared.wizards.state import WizardsState, hx


def placed_centers(state: WizardsState) -> list[Hex]:
    return [hx(t["at"]) for t in state.tiles["placed"]]


def tiles_to_place(state: WizardsState) -> int:
    t = state.tiles
    return len(t["stack"]) + sum(len(h) for h in t["hands"])


def allowed_centers(state: WizardsState) -> list[Hex]:
    """Centres where the placer may lay a tile now: on the board, no overlap, room kept."""
    placed = placed_centers(state)
    free = free_cells(placed)
    need_after = tiles_to_place(state) - 1
    hit = board().cells_hit
    return [c for c in open_centers(placed) if len(free - hit[c]) >= need_after]


def selection(state: WizardsState) -> tuple[str | None, Hex | None]:
    """The tile and the spot chosen so far for the placement awaited."""
    chosen = state.tiles.get("selected") or {}
    at = chosen.get("at")
    return chosen.get("tile"), None if at is None else (at[0], at[1])


def legal_placements(state: WizardsState, seat: int) -> list[dict]:
    """The next step of a placement: which tile, then where, then which turn (module docstring)."""
    face_down, hand = state.tiles["face_down"], state.tiles["hands"][seat]
    tile, at = selection(state)
    restart = [] if face_down else [{"kind": "choose_tile", "tile": t} for t in hand if t != tile or at is not None]
    if not face_down and tile is None:
        return restart
    if at is None:
        return [{"kind": "choose_spot", "at": [q, r]} for (q, r) in allowed_centers(state)] + restart
    named = {} if face_down else {"tile": tile}
    return [{"kind": "place_tile", **named, "at": [at[0], at[1]], "rotation": k} for k in range(6)] + restart


def act_choose_tile(state: WizardsState, seat: int, action: dict) -> None:
    tile = action.get("tile")
    if set(action) != {"kind", "tile"} or not isinstance(tile, str):
        raise MalformedAction("choose_tile takes 'tile': a tile id such as 'C1'")
    if state.tiles["face_down"]:
        raise RuleViolation("Appendix A 5", "the tiles are placed face down: there is no tile to choose")
    if tile not in state.tiles["hands"][seat]:
        raise RuleViolation("3.21", f"you do not hold tile {tile}; you place only the tiles dealt to you")
    state.edit("tiles")["selected"] = {"tile": tile, "at": None}


def act_choose_spot(state: WizardsState, seat: int, action: dict) -> None:
    tile, _ = selection(state)
    at = action.get("at")
    if set(action) != {"kind", "at"} or not (isinstance(at, list) and len(at) == 2
                                             and all(type(v) is int for v in at)):
        raise MalformedAction("choose_spot takes 'at': [q, r] with integer q and r, where the tile's Center goes")
    if tile is None and not state.tiles["face_down"]:
        raise RuleViolation("3.21", "choose the tile to place first")
    check_spot(state, (at[0], at[1]))
    state.edit("tiles")["selected"] = {"tile": tile, "at": [at[0], at[1]]}


def read_placement(action: dict, face_down: bool) -> tuple[str | None, Hex, int]:
    """Check the action's shape (MalformedAction) and return (tile, at, rotation)."""
    at, rotation = action.get("at"), action.get("rotation")
    if not (isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at)):
        raise MalformedAction("place_tile needs 'at': [q, r] with integer q and r")
    if type(rotation) is not int or not 0 <= rotation <= 5:
        raise MalformedAction("place_tile needs 'rotation': an integer 0-5 (sixth-turns clockwise)")
    tile = action.get("tile")
    if face_down:
        if tile is not None:
            raise MalformedAction("in the solitaire game the tiles are placed face down: name no tile (Appendix A 5)")
    elif not isinstance(tile, str):
        raise MalformedAction("place_tile needs 'tile': a tile id such as 'C1'")
    extra = set(action) - {"kind", "tile", "at", "rotation"}
    if extra:
        raise MalformedAction(f"place_tile has unknown fields {sorted(extra)}")
    return tile, (at[0], at[1]), rotation


def check_placement(state: WizardsState, seat: int, tile: str | None, at: Hex, rotation: int) -> None:
    """Raise RuleViolation naming the rule a placement breaks."""
    if not state.tiles["face_down"] and tile not in state.tiles["hands"][seat]:
        raise RuleViolation("3.21", f"you do not hold tile {tile}; you place only the tiles dealt to you")
    check_spot(state, at)


def check_spot(state: WizardsState, at: Hex) -> None:
    """3.21-3.22: whether a tile's Center may go on `at` (the turn never matters)."""
    b = board()
    if at not in b.cells_hit:
        raise RuleViolation("3.22", "each hexagon on the tile must FULLY COVER one Game Board Water hexagon: "
                                    f"a tile centred on {list(at)} would leave the board")
    for c in placed_centers(state):
        if distance(c, at) <= OVERLAP_DISTANCE:
            raise RuleViolation("3.22", "tiles may not be placed such that they overlap each other")
    placed = placed_centers(state)
    need_after = tiles_to_place(state) - 1
    if len(free_cells(placed) - b.cells_hit[at]) < need_after:
        raise RuleViolation("3.21", f"every tile must be placed: this placement would leave room for fewer than "
                                    f"the {need_after} tiles still to place")
