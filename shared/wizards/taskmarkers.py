"""The Task Record (14.24) read without resolving anything: which of a player's Task
Markers he may encounter now (7.31, 7.311, 7.3051 d), and the printed marker counts.

A Task the player holds is an entry of `player["tasks"]` (public, 14.3):

    {"card": n, "mandatory": bool, "from": giver | None, "day": days played when received,
     "steps": [{"do": "go" | "return" | "take" | "meet" | "visit_every", "done": bool,
                "at": [q, r] (marked steps: where its marker was placed),
                "whom": ... (meet), "kind": ..., "visited": [[tile, label], ...] (visit_every),
                "object": name, "stealable": bool (take)}]}

Reading of "prerequisite parts" (7.311, 9.6): the requirements are done in the order of
the card, the order 14.24 records "in the order in which they must be picked up": a
requirement's prerequisites are every requirement before it. A marker whose earlier
requirements are not all done is not encountered.
"""
from __future__ import annotations

from shared.hexgrid import Hex
from shared.wizards.state import Player, TaskMarker, WizardsState, hx, player

# 1 Equipment: "120 Task Markers" and "6 Playing Pieces"; 3.7: each player takes "a Playing
# Piece with its corresponding color Task Markers": twenty markers of each colour.
TASK_MARKERS = 120
PLAYING_PIECES = 6
TASK_MARKERS_PER_COLOUR = TASK_MARKERS // PLAYING_PIECES
DEMON_MARKERS = 48  # 1 Equipment: "48 Demon Markers"


def task_of(p: Player, card: int) -> dict | None:
    for task in p["tasks"]:
        if task["card"] == card:
            return task
    return None


def prerequisites_done(task: dict, step: int) -> bool:
    """7.311: every requirement before this one is done (reading above)."""
    return all(s["done"] for s in task["steps"][:step])


def markers_in_use(p: Player) -> int:
    """Markers of his colour on the board or resting on his Task Cards (7.31: a marker picked
    up is placed on its card; 9.01: they are free again when the Task is complete)."""
    return sum(1 for t in p["tasks"] for s in t["steps"] if "at" in s)


def markers_free(p: Player) -> int:
    return TASK_MARKERS_PER_COLOUR - markers_in_use(p)


def encounterable(state: WizardsState, seat: int, h: Hex) -> list[TaskMarker]:
    """His own Task Markers in a space that he would encounter now (7.31 own only, 7.311
    prerequisites done, 7.3051 d not while Dragonbound), as board marker entries."""
    p = player(state, seat)
    if "dragonbound" in p["afflictions"]:
        return []
    out = []
    for m in state.task_markers:
        if m["seat"] != seat or hx(m["at"]) != h:
            continue
        task = task_of(p, m["task"])
        if task is not None and prerequisites_done(task, m["step"]):
            out.append(m)
    return out
