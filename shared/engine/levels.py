"""AI levels, for every game: `easy`, `normal` and `hard` (registry.policy_for(game, level)).

* `normal` is the game's own policy, a one-step scorer (shared/<game>/policy.py).
* `easy` is that policy with noise: on a decision with a choice, a fixed share of the time it
  takes another of the legal actions at random instead, so it plays sensibly most of the time and
  misses now and then. The share is `EASY_NOISE`, unless the game registers its own (`easy_noise`)
  or its own easy policy.
* `hard` is the determinized search (search.py) with the normal policy for the other seats and the
  rollouts; a game has it when it registers one (`levels={"hard": ...}`), for the search must
  rebuild a state from a view (the game's determinize.py). The budget and tuning are the game's
  (shared/<game>/levels.py), or the defaults of search.Budget.

Every level reads only the seat's view and its legal actions.
"""
from __future__ import annotations

import random
from typing import Callable

LEVELS = ("easy", "normal", "hard")
EASY_NOISE = 0.35

Policy = Callable[[dict, int, list[dict], random.Random], dict]


def noisy(policy: Policy, noise: float = EASY_NOISE) -> Policy:
    """`policy`, but with probability `noise` a random other legal action where there is a choice."""

    def choose(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
        pick = policy(view, seat, legal, rng)
        if len(legal) > 1 and rng.random() < noise:
            others = [a for a in legal if a != pick]
            return rng.choice(others)
        return pick

    choose.__name__ = f"noisy_{getattr(policy, '__name__', 'policy')}"
    choose.__doc__ = f"{getattr(policy, '__name__', 'policy')} with {noise:.0%} random other actions"
    return choose
