"""A whole Tower state from what one seat sees (view.py), for the AI's search
(shared/engine/search.py): what the view shows is kept exactly; what it hides is filled in
at random, with what the rules and the pack say could be there.

What a view hides, and how it is filled in:

* **Face-down castle tokens.** Every terrain's castle tokens (pack.castle_tokens_of, the
  eliminated Characters' Home Castles left out) were laid on that terrain's Castles. Home
  Castle tokens never leave the board, so each one not face up lies face down on a Castle of
  its terrain; the other face-down Castles of the terrain get Wizard symbols of that terrain
  not face up, drawn at random (some symbols have left the board, and the view does not say
  which).
* **Face-down spell tokens.** Drawn at random from the 15 spell tokens less those face up
  (used ones have left the board, unseen).
* **The Ramp tokens** on the steps, and the one a battle's attacker took or a seat is about to
  use (`W` in the view): drawn at random, without replacement, from the 6 Ramp tokens.
* **The Tower.** Its Characters are those neither held nor eliminated; the ring order and the
  door are drawn at random.

Before the tokens are laid (set-up) nothing is hidden, and a finished game shows everything.
Reads only the view, the seat and the pack: two states that look alike to the seat give the same
determinizations for the same random draws.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from shared.engine.state import tree_copy
from shared.tower.pack import pack
from shared.tower.state import TowerState
from shared.tower.view import HIDDEN


def _draw(pool: list[str], k: int, rng: random.Random) -> list[str]:
    """k tokens drawn without replacement from `pool`, in random order (the whole pool again
    when it has too few: a hand-built position may show more face-down tokens than the pack has)."""
    pool = sorted(pool)
    while len(pool) < k:
        pool = pool + sorted(pool or ["spell:revelation"])
    return rng.sample(pool, k)


def _less(pool: list[str], seen: list[str]) -> list[str]:
    left = Counter(pool)
    left.subtract(Counter(seen))
    return sorted(left.elements())


def determinize(view: dict[str, Any], seat: int | None, rng: random.Random) -> TowerState:
    p = pack()
    data = tree_copy(view)
    data.pop("you", None)
    if data["stage"] == "over":
        return TowerState.from_json(data)
    if data["stage"] != "play":
        # nothing is laid face down yet: the Tower is empty, the Ramp's steps wait for tokens
        data["tower"] = {"chambers": [None] * p.chambers, "door": 0}
        data["ramp"] = {step: None for step in data["ramp"]}
        return TowerState.from_json(data)

    board = data["board"]
    removed = data["removed"]["characters"]
    # castle tokens, terrain by terrain; spell tokens
    face_up: dict[str, list[str]] = {}
    face_down: dict[str, list[str]] = {}
    for t in p.territory_ids:
        square = board[t]
        token = square["token"]
        if token is None:
            continue
        back = p.territories[t].terrain if square["castle"] else "spell"
        (face_up if token["up"] else face_down).setdefault(back, []).append(t)
    for back, spots in face_down.items():
        seen = [board[t]["token"]["id"] for t in face_up.get(back, [])]
        if back == "spell":
            tokens = _draw(_less(p.spell_tokens(), seen), len(spots), rng)
        else:
            unseen = _less(p.castle_tokens_of(back, removed), seen)
            homes = [tok for tok in unseen if tok.startswith("home:")][:len(spots)]
            symbols = [tok for tok in unseen if not tok.startswith("home:")]
            tokens = homes + _draw(symbols, len(spots) - len(homes), rng)
            rng.shuffle(tokens)
        for t, token in zip(spots, tokens):
            board[t]["token"] = {"id": token, "up": False}

    # the Ramp tokens: on the steps, taken by a battle's attacker, or about to be used
    slots: list[tuple[dict, str]] = [(data["ramp"], step) for step in sorted(data["ramp"], key=int)]
    for task in data["tasks"]:
        if task["task"] == "battle" and task["ramp"] == HIDDEN:
            slots.append((task, "ramp"))
        elif task["task"] == "ramp" and task["token"] == HIDDEN:
            slots.append((task, "token"))
    for (holder, key), token in zip(slots, _draw(p.ramp_tokens(), len(slots), rng)):
        holder[key] = token

    # the Tower: who is inside is known, the ring and the door are not
    held = {pl["character"] for pl in data["players"]}
    inside = [c for c in p.character_names if c not in held and c not in removed]
    rng.shuffle(inside)
    door = rng.randrange(p.chambers)
    chambers: list[str | None] = [None] * p.chambers
    for offset, c in enumerate(inside[:p.chambers - 1], start=1):
        chambers[(door + offset) % p.chambers] = c
    data["tower"] = {"chambers": chambers, "door": door}
    return TowerState.from_json(data)
