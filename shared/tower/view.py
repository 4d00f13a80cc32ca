"""What a seat may see. Everything hidden in this game is hidden from every player
alike: face-down Tokens, the Characters in the Tower and their order in the ring, and
the Ramp tokens (W side up, even the one a player holds until it is turned over after
the battle). So every seat and a spectator see the same view; `you` says whose it is.
When the match is over everything is shown.

A view is plain JSON data, a copy of the state's own (tree_copy), redacted."""
from __future__ import annotations

from typing import Any

from shared.engine.state import tree_copy
from shared.tower.state import TowerState

HIDDEN = "W"


def view(state: TowerState, seat: int | None) -> dict[str, Any]:
    v = tree_copy(state.to_json())
    v["you"] = seat
    if v["stage"] == "over":
        return v
    for square in v["board"].values():
        if square["token"] is not None and not square["token"]["up"]:
            square["token"] = {"up": False}
    inside = sum(1 for c in state.tower["chambers"] if c is not None)
    v["tower"] = {"inside": inside if v["stage"] == "play" else 0}
    v["ramp"] = {step: HIDDEN for step in v["ramp"]}
    for task in v["tasks"]:
        if task["task"] == "battle" and task["ramp"] is not None:
            task["ramp"] = HIDDEN
        if task["task"] == "ramp":
            task["token"] = HIDDEN
    return v
