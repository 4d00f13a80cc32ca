"""Tower's AI levels (shared/engine/levels.py): easy, normal (policy.choose) and hard.

* easy: the normal policy with half its choices, where there is one, replaced by another legal
  action at random (the registry's `easy_noise`): it still heads for its symbols and weighs its
  battles as often as not, and as often walks past a Castle or fights a battle it should have
  avoided. Tower is a game of dice, so the shared default share (35%) left an easy seat nearly as
  strong as a normal one at a table of four (normal won 54.5% against three of them; at half, 81%).
* hard: the determinized search (shared/engine/search.py) over determinize.py's samples of
  what the view hides, the normal policy playing the other seats and the rollouts. Its root
  shares the budget by sequential halving over paired samples: each candidate move is played
  out on the same sampled tokens, Tower and dice as the others, and the normal policy's own
  move is kept unless another's gain over it is clear. A rollout is
  scored by `value`: the win (a tie shared) blended with the Pennant margin, so that a search
  of a few dozen iterations still tells a narrow loss from a rout. `HARD_BUDGET` is what one
  decision may spend; bench/strength.py measures its think time and strength.
"""
from __future__ import annotations

from shared.engine.contract import GameEngine
from shared.engine.registry import engine_for
from shared.engine.search import Budget, Search, blended, outcome_value
from shared.tower import policy
from shared.tower.determinize import determinize
from shared.tower.pack import pack
from shared.tower.pennants import scores
from shared.tower.policy import choose

HARD_BUDGET = Budget(iterations=48, ms=900.0)
HARD_EXPLORATION = 0.6
HARD_BIAS = 1.0
# sequential halving over paired samples (search.Search.root): 72.5% against normal over the first 40 matches of
# the 2-player row, where UCT at the same budget had 65.0% (bench.strength --root)
HARD_ROOT = "halving"
HARD_SHORTLIST = 5  # destinations the search weighs on a move (0: all of them)
MARGIN_WEIGHT = 0.5  # share of the value given to the Pennant margin, the rest to the win


def value(engine: GameEngine, state, seat: int) -> float:
    """The end of a rollout for `seat`, in [0, 1]: (1 - w) x the win (a tie shared) +
    w x the margin over the best other seat, scaled so 25 Pennants (a colour's all) is all of it."""
    win = outcome_value(engine, state, seat)
    mine = scores(state)
    best_other = max(s for i, s in enumerate(mine) if i != seat)
    return blended(win, (mine[seat] - best_other) / pack().pennants, MARGIN_WEIGHT)


def glance(state, seat: int) -> dict:
    """What the normal policy is shown of a sampled state inside the search: the state's own JSON,
    not copied nor redacted. policy.choose reads a face-down token's side only, the Tower's and the
    Ramp's steps only by number, so it chooses on this exactly as on the view
    (tests/tower/test_levels.py holds it), at a third less of a rollout's time."""
    data = dict(state.to_json())
    data["you"] = seat
    return data


def shortlist(view: dict, seat: int, legal: list[dict], keep: int = HARD_SHORTLIST) -> list[dict]:
    """The root's candidates for a move or a flight: the `keep` destinations the normal policy rates
    best (policy._go's values, without its noise) and passing where it is allowed; every action of
    any other decision (a battle's, a spell's, set-up's: there are few)."""
    if not any(a["kind"] in ("move", "fly") for a in legal):
        return legal
    here = view["players"][seat]["at"]

    def rate(a: dict) -> float:
        if a["kind"] not in ("move", "fly"):
            return float("-inf")
        t = a["to"]
        if t == here:
            return policy._value(view, seat, t) if view["board"][t]["token"] is None else -0.5
        return policy._value(view, seat, t) + policy._near_unknown(view, t)

    ranked = sorted((a for a in legal if a["kind"] in ("move", "fly")), key=rate, reverse=True)
    return ranked[:keep] + [a for a in legal if a["kind"] not in ("move", "fly")]


def search(budget: Budget = HARD_BUDGET, exploration: float = HARD_EXPLORATION, horizon: int | None = None,
           bias: float = HARD_BIAS, keep: int = HARD_SHORTLIST,
           root: str = HARD_ROOT) -> Search:
    candidates = (lambda v, s, legal: shortlist(v, s, legal, keep)) if keep else None
    return Search(engine_for("tower"), determinize, choose, budget=budget, exploration=exploration,
                  horizon=horizon, value=value, observe=glance, bias=bias, candidates=candidates, root=root)


def hard(budget: Budget = HARD_BUDGET, exploration: float = HARD_EXPLORATION, horizon: int | None = None,
         bias: float = HARD_BIAS, keep: int = HARD_SHORTLIST,
         root: str = HARD_ROOT):
    return search(budget, exploration, horizon, bias, keep, root).choose
