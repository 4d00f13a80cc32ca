"""Incantris's AI levels (shared/engine/levels.py): easy, normal (policy.choose) and hard.

* easy: the default of shared/engine/levels.py, the normal policy with `EASY_NOISE` of its
  choices (where there is one) replaced by another legal action at random.
* hard: the determinized search (shared/engine/search.py) over determinize.py's states (the view
  is the whole state: only the dice to come are sampled), the normal policy playing the other
  seats, the solo game's attacking team being the engine's own (attackers.py) as always. A match
  of Incantris runs to a few hundred steps, so a rollout is cut after `HARD_HORIZON` steps and
  judged by `value`: the win (a tie shared; 1/2 for a match not over) blended with the life
  margin over the strongest other side, so that a few dozen short rollouts still tell a blow
  landed from one taken. The root weighs only `shortlist`'s few actions (the policy's own pick,
  its best-rated spells, ending the turn, a step towards and one away from the foes).
  `HARD_BUDGET` is what one decision may spend; bench/strength.py measures think time and strength.
"""
from __future__ import annotations

import random

from shared.engine.contract import GameEngine
from shared.engine.registry import engine_for
from shared.engine.search import Budget, Search, outcome_value
from shared.hexgrid import distance
from shared.incantris import match, policy
from shared.incantris.arena import as_hex
from shared.incantris.determinize import determinize
from shared.incantris.policy import choose
from shared.incantris.state import IncantrisState

HARD_BUDGET = Budget(iterations=16, ms=700.0)
HARD_EXPLORATION = 0.6
HARD_BIAS = 1.0
HARD_ROOT = "uct"  # how the root shares the budget (search.Search.root)
HARD_HORIZON = 16  # rollout steps (actions and rolls) after the tree before the position is judged
HARD_TEMPO = "steps"  # what the horizon counts: "steps", or "turns" (wizards' turns begun)
HARD_SHORTLIST = 6  # actions the search weighs at the root (0: all of them)
MARGIN_WEIGHT = 0.5  # share of the value given to the life margin, the rest to the win


def strength(state: IncantrisState, side: int) -> float:
    """A side's living wizards' life over its wizards' full life, in [0, 1] (0 for a side out)."""
    full = life = 0
    for w in state.wizards.values():
        if w["side"] == side:
            full += w["max"]
            life += w["life"] if w["alive"] else 0
    return min(1.0, life / full) if full else 0.0


def value(engine: GameEngine, state: IncantrisState, seat: int) -> float:
    """The end of a rollout for `seat`, in [0, 1]: (1 - w) x the win (a tie shared, 1/2 for a
    match not over) + w x the life margin of its side over the strongest other side (the solo
    game's attacking team included), scaled from -1 (routed) to 1."""
    win = outcome_value(engine, state, seat)
    me = match.side_of_seat(state, seat)
    if me is None:
        return win
    others = [strength(state, i) for i in range(len(state.sides)) if i != me]
    margin = strength(state, me) - (max(others) if others else 0.0)
    return (1 - MARGIN_WEIGHT) * win + MARGIN_WEIGHT * (0.5 + margin / 2)


def turns_begun(state: IncantrisState) -> int:
    """The search's clock in turns (`tempo`): wizards' turns begun so far in the match."""
    return state.serial


def glance(state: IncantrisState, seat: int) -> dict:
    """What the normal policy is shown of a state inside the search: its JSON, not copied, with the
    viewer, which is exactly engine.view's content (policy.choose reads it through
    IncantrisState.of_view and changes nothing; tests/incantris/test_levels.py holds it)."""
    data = dict(state.to_json())
    data["viewer"] = seat
    return data


def shortlist(view: dict, seat: int, legal: list[dict], keep: int = HARD_SHORTLIST) -> list[dict]:
    """The root's candidates on a wizard's turn: the normal policy's own pick, its best-rated spells
    (policy._value), ending the turn, the step nearest the foes and the one farthest from them, then
    the rest in the legal order, `keep` in all. Any other decision (set-up, a choice asked out of
    turn) keeps all its actions."""
    if len(legal) <= keep or not any(a["kind"] in ("step", "cast") for a in legal):
        return legal
    seen = IncantrisState.of_view(view)
    me = match.side_of_seat(seen, seat)
    acting = seen.turn.get("wizard") if seen.turn else None
    w = match.wizard(seen, acting) if acting else None
    order: list[dict] = [choose(view, seat, legal, random.Random(0))]
    casts = [a for a in legal if a["kind"] == "cast"]
    if w is not None and casts:
        rated = sorted(casts, key=lambda a: (-policy._value(seen, me, w, a), repr(a)))
        order += rated[:2]
    if {"kind": "end"} in legal:
        order.append({"kind": "end"})
    steps = [a for a in legal if a["kind"] == "step"]
    foes = [as_hex(x["hex"]) for x in match.on_board(seen) if x["side"] != me]
    if steps and foes:
        def near(a):
            return (min(distance(as_hex(a["to"]), f) for f in foes), repr(a))
        ranked = sorted(steps, key=near)
        order += [ranked[0], ranked[-1]]
    order += legal
    kept: list[dict] = []
    for a in order:
        if a in legal and a not in kept:
            kept.append(a)
        if len(kept) >= keep:
            break
    return kept


def search(budget: Budget = HARD_BUDGET, exploration: float = HARD_EXPLORATION,
           horizon: int | None = HARD_HORIZON, bias: float = HARD_BIAS, keep: int = HARD_SHORTLIST,
           root: str = HARD_ROOT, tempo: str = HARD_TEMPO) -> Search:
    candidates = (lambda v, s, legal: shortlist(v, s, legal, keep)) if keep else None
    return Search(engine_for("incantris"), determinize, choose, budget=budget, exploration=exploration,
                  horizon=horizon, value=value, observe=glance, bias=bias, candidates=candidates, root=root,
                  tempo=turns_begun if tempo == "turns" else None)


def hard(budget: Budget = HARD_BUDGET, exploration: float = HARD_EXPLORATION,
         horizon: int | None = HARD_HORIZON, bias: float = HARD_BIAS, keep: int = HARD_SHORTLIST,
         root: str = HARD_ROOT, tempo: str = HARD_TEMPO):
    return search(budget, exploration, horizon, bias, keep, root, tempo).choose
