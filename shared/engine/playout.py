"""Play an engine without services: random playouts and exact replays.

Used by every game's property tests and by AI search. A playout's log is a list
of steps, ("act", seat, action), ("chance", outcome) or ("resign", seat); replay() runs a
log again and must reach a state that encodes to the same bytes.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from shared.engine.chance import ChanceRequest, Face
from shared.engine.contract import CHANCE, TERMINAL, GameEngine, MatchConfig

Step = tuple


def sample_chance(request: ChanceRequest, rng: random.Random) -> list[list[Face]]:
    """Fair faces for a request, from a local RNG (tests and AI only, never a match)."""
    return [[rng.choice(pool.faces) for _ in range(pool.count)] for pool in request.pools]


def random_playout(
    engine: GameEngine,
    config: MatchConfig,
    rng: random.Random,
    max_steps: int = 20_000,
    choose: Callable[[Any, int, list[dict]], dict] | None = None,
    on_state: Callable[[Any], None] | None = None,
    on_step: Callable[[Any, list[dict]], None] | None = None,
    start: Any = None,
) -> tuple[Any, list[Step]]:
    """Play from set-up (or from `start`) until TERMINAL (or max_steps), returning the state and
    the log. `on_state(state)` sees every state before its step, `on_step(state, events)` the
    state a step was applied to and the events it wrote."""
    state = engine.setup(config) if start is None else start
    log: list[Step] = []
    for _ in range(max_steps):
        if on_state:
            on_state(state)
        who = engine.actor(state)
        if who == TERMINAL:
            return state, log
        if who == CHANCE:
            request = engine.chance_request(state)
            assert request is not None, "a CHANCE state names its dice"
            outcome = sample_chance(request, rng)
            new, events = engine.apply_chance(state, outcome)
            log.append(("chance", outcome))
        else:
            actions = engine.legal_actions(state, who)
            if not actions:
                raise AssertionError(f"seat {who} must act but has no legal action")
            action = choose(state, who, actions) if choose else rng.choice(actions)
            new, events = engine.apply(state, who, action)
            log.append(("act", who, action))
        if on_step:
            on_step(state, events)
        state = new
    return state, log


def replay(engine: GameEngine, config: MatchConfig, log: Sequence[Step]) -> Any:
    """Run a log from set-up; raises if any step is no longer legal."""
    state = engine.setup(config)
    for step in log:
        if step[0] == "chance":
            state, _ = engine.apply_chance(state, step[1])
        elif step[0] == "resign":
            state, _ = engine.resign(state, step[1])
        else:
            state, _ = engine.apply(state, step[1], step[2])
    return state


def policy_playout(engine: GameEngine, config: MatchConfig, policy, rng: random.Random,
                   max_steps: int = 20_000, on_state: Callable[[Any], None] | None = None,
                   on_step: Callable[[Any, list[dict]], None] | None = None) -> tuple[Any, list[Step]]:
    """Every seat played by `policy(view, seat, legal, rng)`, seeing only its own view;
    raises if the policy picks an action that is not legal. `on_state` and `on_step` as random_playout's."""

    def choose(state, seat: int, legal: list[dict]) -> dict:
        pick = policy(engine.view(state, seat), seat, legal, rng)
        if pick not in legal:
            raise AssertionError(f"the policy picked {pick!r}, which seat {seat} may not take")
        return pick

    return random_playout(engine, config, rng, max_steps, choose=choose, on_state=on_state, on_step=on_step)
