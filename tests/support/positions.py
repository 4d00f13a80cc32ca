"""Positions to test an AI on: the states of one match where a seat has a choice to make, from
the game's normal policy's play (replayed, to look at every state it met) or from random play."""
from __future__ import annotations

import random

from shared.engine import MatchConfig
from shared.engine.playout import policy_playout, random_playout


def decision_points(engine, config: MatchConfig, seed: int, every: int = 7, policy=None, choice_only: bool = True,
                    max_steps: int = 20_000) -> list:
    """Every `every`-th state of one match where a seat is to act (and, with `choice_only`, has two
    legal actions or more): of `policy`'s play, or of random play with policy=None."""
    found = []
    count = {"n": 0}

    def keep(state):
        who = engine.actor(state)
        if who < 0 or (choice_only and len(engine.legal_actions(state, who)) < 2):
            return
        count["n"] += 1
        if count["n"] % every == 0:
            found.append(state)

    if policy is None:
        random_playout(engine, config, random.Random(seed), max_steps=max_steps, on_state=keep)
        return found
    state = engine.setup(config)
    _, log = policy_playout(engine, config, policy, random.Random(seed))
    for step in log:
        keep(state)
        if step[0] == "chance":
            state, _ = engine.apply_chance(state, step[1])
        else:
            state, _ = engine.apply(state, step[1], step[2])
    return found
