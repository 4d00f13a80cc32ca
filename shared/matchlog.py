"""Rebuild a match from its event log: the log is the source of truth.

The log holds "match_created" (game and config), then for every step the
"action" a seat took (or its "resigned"), and the "roll" that answered each chance step, in order;
the other events are what those steps caused and are re-derived, not read.
"""
from __future__ import annotations

from typing import Iterable

from shared.engine import GameEngine, MatchConfig
from shared.eventlog import LoggedEvent


def replay_events(engine: GameEngine, events: Iterable[LoggedEvent]):
    state = None
    for e in events:
        body = e.body
        if e.type == "match_created":
            state = engine.setup(MatchConfig.from_dict(body["config"]))
        elif e.type == "action":
            state, _ = engine.apply(state, body["seat"], body["action"])
        elif e.type == "resigned":
            state, _ = engine.resign(state, body["seat"])
        elif e.type == "roll" and state is not None:
            state, _ = engine.apply_chance(state, [p["results"] for p in body["pools"]])
    if state is None:
        raise ValueError("the log has no match_created event")
    return state
