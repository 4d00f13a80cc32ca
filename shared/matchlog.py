"""Rebuild a match from its event log: the log is the source of truth.

The log holds "match_created" (game and config), then for every step the
"action" a seat took (or its "resigned"), and the "roll" that answered each chance step, in order;
the other events are what those steps caused and are re-derived, not read.

    state = replay_events(engine, events)              the state the whole log reaches
    for event, before, state in replay_steps(engine, events):   each step on its own (a replay
        ...                                            shown step by step: services/web/replay.py)
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from shared.engine import GameEngine, MatchConfig
from shared.eventlog import LoggedEvent

STEP_TYPES = ("match_created", "action", "resigned", "roll")  # the events a replay applies


def replay_steps(engine: GameEngine, events: Iterable[LoggedEvent]) -> Iterator[tuple[LoggedEvent, Any, Any]]:
    """Each event that changes the game, with the state before it (None for "match_created")
    and the state after it, in log order; the other events are skipped."""
    state = None
    for e in events:
        body = e.body if e.type in STEP_TYPES else None
        before = state
        if e.type == "match_created":
            state = engine.setup(MatchConfig.from_dict(body["config"]))
        elif e.type == "action":
            state, _ = engine.apply(state, body["seat"], body["action"])
        elif e.type == "resigned":
            state, _ = engine.resign(state, body["seat"])
        elif e.type == "roll" and state is not None:
            state, _ = engine.apply_chance(state, [p["results"] for p in body["pools"]])
        else:
            continue
        yield e, before, state


def replay_events(engine: GameEngine, events: Iterable[LoggedEvent]):
    state = None
    for step in replay_steps(engine, events):
        state = step[2]
    if state is None:
        raise ValueError("the log has no match_created event")
    return state
