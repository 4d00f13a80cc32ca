"""Battles that can be fought again and again, for measuring the combat path.

A Tower of the Wizard King match is played through the engine's own API (set-up,
legal actions, chance steps) until a seat must fight a battle in which the defender
has no re-roll, so one Combat.Resolve {"kind": "fight"} resolves the whole battle
(roll, compare, Pennants) and the game goes on. That position is the "armed" state.

On the platform a match is created for real (Matchmaking.CreateMatch), then armed by
setting its state to the armed position. After each battle the bench arms it again:
only the state field changes; the version, the event log and its hash chain, and the
dice cursor stay as the service left them, so every later Resolve is an ordinary,
valid action that the service checks, rolls and commits like any other.
"""
from __future__ import annotations

import random

from shared.engine import CHANCE, TERMINAL, MatchConfig
from shared.engine.playout import sample_chance
from shared.engine.registry import engine_for
from shared.tower.battle import defender_pennants
from shared.tower.pack import pack
from shared.tower.state import TowerState

GAME = "tower"
FIGHT = {"kind": "fight"}


def _resolves_in_one_call(engine, state, seat: int, rng: random.Random, tries: int = 20) -> bool:
    """Fighting ends the battle (no re-roll stage) and never ends the game, whatever the dice."""
    for _ in range(tries):
        rolled, _ = engine.apply(state, seat, FIGHT)
        if engine.actor(rolled) != CHANCE:
            return False
        after, _ = engine.apply_chance(rolled, sample_chance(engine.chance_request(rolled), rng))
        if engine.actor(after) in (TERMINAL, CHANCE) or any(t["task"] == "battle" for t in after.tasks):
            return False
    return True


def armed_state(seed: int = 7, seats: int = 2, max_steps: int = 5000) -> tuple[TowerState, int]:
    """(state, attacking seat): a position where `seat` may fight a battle that one call resolves."""
    engine = engine_for(GAME)
    rng = random.Random(seed)
    state = engine.setup(MatchConfig(seats))
    for _ in range(max_steps):
        who = engine.actor(state)
        if who == TERMINAL:
            state = engine.setup(MatchConfig(seats))
            continue
        if who == CHANCE:
            state, _ = engine.apply_chance(state, sample_chance(engine.chance_request(state), rng))
            continue
        legal = engine.legal_actions(state, who)
        task = state.tasks[-1] if state.tasks else None  # none while the seats make the set-up choices
        if (task is not None and FIGHT in legal and pack().reroll_allowance(defender_pennants(state, task)) == (0, 0)
                and _resolves_in_one_call(engine, state, who, random.Random(seed))):
            return state, who
        state, _ = engine.apply(state, who, rng.choice(legal))
    raise RuntimeError("no battle found to arm")


def engine_battles_per_s(state: TowerState, seat: int, seconds: float = 3.0) -> float:
    """The engine's battle resolution alone, in process: fight, then the dice."""
    import time

    engine = engine_for(GAME)
    rng = random.Random(1)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rolled, _ = engine.apply(state, seat, FIGHT)
        engine.apply_chance(rolled, sample_chance(engine.chance_request(rolled), rng))
        done += 1
    return done / (time.perf_counter() - start)


def arm_fields(state: TowerState) -> dict:
    """The match-record fields that arm a match (see the module docstring)."""
    return {"s": engine_for(GAME).encode(state)}


async def armed_match(redis_url: str):
    """A match driver in process (Redis, dice in process, no notifier) and a real match on it,
    with the armed position's fields: (the Redis store, the instrumented store, the driver,
    the match id, the attacking seat's claim, the fields that arm it)."""
    from services.core.dice_sessions import DiceSessions
    from services.core.dicesource import InProcessDice
    from services.core.instrumented_store import InstrumentedStore
    from services.core.matches import Matches
    from services.core.seats import parse
    from services.core.store import RedisMatchStore

    in_redis = RedisMatchStore.from_url(redis_url)
    store = InstrumentedStore(in_redis)
    matches = Matches(store, InProcessDice(DiceSessions(store, 3600, 8)), match_ttl_s=3600, finished_ttl_s=60,
                      action_ttl_s=600)
    state, seat = armed_state()
    created = await matches.create(GAME, "", [("human", "a"), ("human", "b")], {})
    return in_redis, store, matches, created.match_id, parse(created.tokens[seat]), arm_fields(state)
