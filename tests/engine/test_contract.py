"""The engine contract's promise for every game: `apply` and `apply_chance` never change
the state they are given, and every state on the way encodes exactly."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.engine import CHANCE, TERMINAL, MatchConfig
from shared.engine.playout import sample_chance
from shared.engine.registry import engine_for

CONFIGS = {
    "tower": [MatchConfig(2), MatchConfig(4)],
    "incantris": [MatchConfig(2, "battle-royale"), MatchConfig(1, "solo"), MatchConfig(4, "shifting-arena")],
    "wizards": [MatchConfig(2), MatchConfig(1, "solitaire")],
}


def play_checking_inputs(game: str, config: MatchConfig, seed: int, steps: int) -> int:
    """Random legal play; before and after each step the input's bytes must agree."""
    engine = engine_for(game)
    rng = random.Random(seed)
    state = engine.setup(config)
    for n in range(steps):
        who = engine.actor(state)
        if who == TERMINAL:
            return n
        before = engine.encode(state)
        if who == CHANCE:
            new, _ = engine.apply_chance(state, sample_chance(engine.chance_request(state), rng))
        else:
            new, _ = engine.apply(state, who, rng.choice(engine.legal_actions(state, who)))
        assert engine.encode(state) == before, f"step {n} of {game} changed its input"
        assert engine.decode(engine.encode(new)) == new
        state = new
    return steps


@pytest.mark.parametrize("game,config", [(g, c) for g, cs in CONFIGS.items() for c in cs],
                         ids=lambda v: v if isinstance(v, str) else f"{v.seats}p-{v.variant}")
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_steps_never_change_their_input(game, config, seed):
    assert play_checking_inputs(game, config, seed, steps=400) > 0
