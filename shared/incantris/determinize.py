"""A whole Incantris state from what one seat sees, for the AI's search (shared/engine/search.py).

Everything in Incantris is public (life points, wizard boards, the arena: rules/incantris.txt,
"public information"), so a seat's view (engine.view) is the whole state plus `viewer`, the seat
it was drawn for. The determinization hides nothing and draws nothing: it is that state, rebuilt
exactly (tests/incantris/test_levels.py checks that it encodes as the state it came from), and
copied, so that the search's play never touches the view it was handed. The dice still to be
rolled are not in any state: the search samples them as the engine asks for them.
"""
from __future__ import annotations

import random
from typing import Any

from shared.engine.state import tree_copy
from shared.incantris.state import IncantrisState


def determinize(view: dict[str, Any], seat: int | None, rng: random.Random) -> IncantrisState:
    """The state `view` shows (its own copy); `seat` and `rng` are not needed: nothing is hidden."""
    return IncantrisState.from_json(tree_copy({k: v for k, v in view.items() if k != "viewer"}))
