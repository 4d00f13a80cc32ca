"""The Enchanted Islands as the match page draws them (static/wizards.js), built from one seat's
view only: the board's hexes laid out as shared/wizards/geometry.py lays them (odd-r rows of
pointy-top hexes, axial [q, r]), each land space of a face-up tile with its tile, label, kind
and tile type, the walls, the Water, the hexes of face-down tiles (their faces are not in the
view, so none is drawn), and the pieces on the board: Boats, the Dragon, Demons, the players'
pieces in their colours, Task Markers, Wizard markers (a Secret Wizard only by its letter) and
the Territories lost to Evil.

For the seat's own tile placement it also gives the shapes of the tiles in its hand, turned
each of the six ways (terrain and walls by offset from the Center), so the page can show a tile
where it would lie before the placement is confirmed. Hands are public in the view."""
from __future__ import annotations

from shared.hexgrid import DIRECTION_NAMES, spiral
from shared.wizards.geometry import LABELS, TILE_RADIUS, board, placed_direction, placed_hex
from shared.wizards.pack import pack
from shared.wizards.world import view_world


def tile_shape(tile: str, rotation: int) -> dict:
    """A tile of the hand laid at (0, 0) turned `rotation`: [dq, dr, kind] per space, walls as
    [dq, dr, direction] (0 = E, clockwise)."""
    spec = pack().tiles[tile]
    cells = [[*placed_hex((0, 0), rotation, label), spec["spaces"][label]["kind"]] for label in LABELS]
    walls = [[*placed_hex((0, 0), rotation, label), placed_direction(DIRECTION_NAMES.index(d), rotation)]
             for label, d in spec["walls"]]
    return {"cells": cells, "walls": walls}


def world_json(view: dict) -> dict:
    tiles = pack().tiles
    w = view_world(view)
    b = board()
    hidden = [h for t in view["tiles"]["placed"] if not t["tile"] for h in spiral(tuple(t["at"]), TILE_RADIUS)]
    covered = set(w.spaces) | set(hidden)
    spaces = [[q, r, s.tile, s.label, s.kind, s.tile_type, s.name, s.dots, (q, r) in w.coast]
              for (q, r) in b.order if (s := w.spaces.get((q, r)))]
    you = view.get("you")
    hand = view["tiles"]["hands"][you] if you is not None and not view["tiles"]["face_down"] else []
    return {
        "layout": "pointy", "columns": b.columns, "rows": b.rows,
        "spaces": spaces,  # [q, r, tile, label, kind, tile type, name, stone dots, on the coast]
        "water": [list(h) for h in b.order if h not in covered],
        "face_down": [list(h) for h in hidden],
        "walls": sorted([*a, *c] for a, c in w.walls),
        "tiles": [{"tile": t["tile"], "at": t["at"], "rotation": t["rotation"],
                   "name": tiles[t["tile"]]["name"] if t["tile"] else None,
                   "type": tiles[t["tile"]]["type"] if t["tile"] else None} for t in view["tiles"]["placed"]],
        "taken": list(view.get("taken") or []),
        "boats": [{"id": x["id"], "at": x["at"], "rider": x["rider"], "demon": bool(x.get("demon"))}
                  for x in view["boats"]],
        "dragon": view["dragon"],
        "demons": view["demons"],
        "pieces": [{"seat": p["seat"], "colour": p["colour"], "at": p["at"], "boat": p["boat"]}
                   for p in view["players"]],
        "task_markers": [{"seat": m["seat"], "at": m["at"], "task": m["task"]} for m in view["task_markers"]],
        "wizard_markers": [{"wizard": name, "at": at} for name, at in view["wizard_markers"].items() if at],
        "secret_wizards": [{"letter": x["letter"], "at": x["at"]} for x in view["secret_wizards"] if x.get("at")],
        "hand": [{"tile": t, "name": tiles[t]["name"], "type": tiles[t]["type"],
                  "turns": [tile_shape(t, k) for k in range(6)]} for t in hand],
        "selected": view["tiles"].get("selected"),
        "placer": view["tiles"]["placer"],
    }
