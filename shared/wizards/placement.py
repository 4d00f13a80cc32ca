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
"""
from __future__ import annotations

import gc

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


def legal_placements(state: WizardsState, seat: int) -> list[dict]:
    """Every placement, by tile (hand order), centre (board order) and rotation. With a hand of
    nine tiles this is some 25,000 actions; each has its own 'at' list, so a caller that changes
    one action changes no other."""
    centers = allowed_centers(state)
    rotations = (0, 1, 2, 3, 4, 5)
    face_down, hand = state.tiles["face_down"], state.tiles["hands"][seat]
    # Some 50,000 small acyclic containers: pausing the cyclic collector keeps it from sweeping
    # the whole heap several times over in the middle of the listing (3x faster, and steady).
    paused = gc.isenabled()
    gc.disable()
    try:
        if face_down:
            return [{"kind": "place_tile", "at": [q, r], "rotation": k} for (q, r) in centers for k in rotations]
        return [{"kind": "place_tile", "tile": t, "at": [q, r], "rotation": k}
                for t in hand for (q, r) in centers for k in rotations]
    finally:
        if paused:
            gc.enable()


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
