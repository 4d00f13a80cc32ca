"""Resigning, for every game (GameEngine.resign): at any point of random play, a resignation
leaves a valid state (the game's invariants, exact bytes), never asks a resigned seat to act
again, never lets it win, and replays from the log to the same bytes. In a 2-player match it
ends the match at once with the other seat winning."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.engine import CHANCE, TERMINAL, MalformedAction, MatchConfig, NotYourTurn, RuleViolation
from shared.engine.playout import replay, sample_chance
from shared.engine.registry import engine_for

# (game, seats, variant): every game, with 2 players and with more, and the variants that end differently
TABLES = [("tower", 2, "standard"), ("tower", 3, "standard"), ("tower", 4, "standard"),
          ("incantris", 2, "battle-royale"), ("incantris", 3, "crystal-sap"), ("incantris", 4, "capture-the-crystal"),
          ("incantris", 1, "solo"), ("wizards", 2, "standard"), ("wizards", 3, "standard"),
          ("wizards", 4, "partnership"), ("wizards", 1, "solitaire")]
PLAYED = 1500  # steps of random play after which the others resign too, so every test ends


def play_with_resignations(game: str, seats: int, variant: str, seed: int, at: list[int]):
    """Random play in which a random seat resigns at each step number in `at` (whoever is to act,
    chance included); returns the final state, the log and the resignations."""
    engine, rng = engine_for(game), random.Random(seed)
    config = MatchConfig(seats, variant)
    state, log, resigned = engine.setup(config), [], []
    for step in range(PLAYED + seats + 1):
        engine.check_invariants(state)
        assert engine.decode(engine.encode(state)) == state
        who = engine.actor(state)
        assert who not in resigned, "a resigned seat is never asked to act"
        if who == TERMINAL:
            break
        if step in at or step >= PLAYED:
            seat = rng.randrange(seats) if step < PLAYED else next(s for s in range(seats) if s not in resigned)
            if seat in resigned:
                with pytest.raises(RuleViolation):
                    engine.resign(state, seat)
                continue
            state, events = engine.resign(state, seat)
            assert events, "a resignation is told in the game's events"
            log.append(("resign", seat))
            resigned.append(seat)
            continue
        if who == CHANCE:
            outcome = sample_chance(engine.chance_request(state), rng)
            state, _ = engine.apply_chance(state, outcome)
            log.append(("chance", outcome))
            continue
        legal = engine.legal_actions(state, who)
        assert legal, "a seat to act always has a choice"
        action = rng.choice(legal)
        state, _ = engine.apply(state, who, action)
        log.append(("act", who, action))
    assert engine.actor(state) == TERMINAL, "every match ends"
    return state, log, resigned


@pytest.mark.parametrize("game,seats,variant", TABLES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), first=st.integers(0, 400), gap=st.integers(1, 400))
def test_a_resignation_at_any_point_leaves_a_valid_replayable_state(game, seats, variant, seed, first, gap):
    engine = engine_for(game)
    state, log, resigned = play_with_resignations(game, seats, variant, seed, [first, first + gap])
    assert engine.encode(replay(engine, MatchConfig(seats, variant), log)) == engine.encode(state)
    outcome = engine.outcome(state)
    assert outcome is not None and len(outcome.scores) == seats
    assert list(outcome.resigned) == resigned
    assert not set(outcome.winners) & set(resigned), "a resigned seat never wins"
    assert outcome.to_dict().get("resigned", []) == resigned
    if seats == 2 and resigned:
        # with two players the other one wins, at once
        first_resign = next(i for i, s in enumerate(log) if s[0] == "resign")
        assert first_resign == len(log) - 1 and outcome.winners == (1 - resigned[0],)
    if seats == 1 and resigned:
        assert outcome.winners == ()


@pytest.mark.parametrize("game", ["tower", "incantris", "wizards"])
def test_resigning_is_refused_once_the_match_is_over_or_for_a_seat_it_does_not_have(game):
    engine = engine_for(game)
    state = engine.setup(MatchConfig(2, engine.default_variant(2)))
    given = engine.encode(state)
    with pytest.raises(MalformedAction):
        engine.resign(state, 2)
    over, _ = engine.resign(state, 0)
    assert engine.actor(over) == TERMINAL and engine.outcome(over).winners == (1,)
    with pytest.raises(NotYourTurn):
        engine.resign(over, 1)
    assert engine.encode(state) == given, "resign never changes the state it is given"


@pytest.mark.parametrize("seed", [146, 162])
def test_tower_a_resignation_in_another_players_turn_leaves_nothing_of_his_pending(seed):
    """Two positions random play found: seed 146, the resigned player held a Ramp spell a
    Transformation gave him in another's turn (dropped with him); seed 162, another player's Spell
    to Conquer had only the resigned player's Castles to take (it lapses, `spell_lapsed`)."""
    engine, rng = engine_for("tower"), random.Random(seed)
    state = engine.setup(MatchConfig(3, "standard", {"setup": "chance"}))
    at, seat = rng.randrange(0, 200), rng.randrange(3)
    for step in range(3000):
        who = engine.actor(state)
        if who == TERMINAL:
            break
        assert who not in state.resigned
        if step == at:
            state, _ = engine.resign(state, seat)
            engine.check_invariants(state)
            continue
        if who == CHANCE:
            state, _ = engine.apply_chance(state, sample_chance(engine.chance_request(state), rng))
            continue
        legal = engine.legal_actions(state, who)
        assert legal, "a seat to act always has a choice"
        state, _ = engine.apply(state, who, rng.choice(legal))
    assert engine.actor(state) == TERMINAL


@pytest.mark.parametrize("game,seats,variant,seed,at", [
    # Tower: a resigned seat's turn came round after the King had reached the Tower (no task left to read)
    ("tower", 3, "standard", 2_161_431_577, [179, 180]),
    # Incantris: the last other team resigned while a wizard was passing through a team-mate's hex
    ("incantris", 3, "crystal-sap", 891_125, [14, 116]),
])
def test_resignations_that_once_broke_a_match_leave_a_valid_replayable_state(game, seats, variant, seed, at):
    engine = engine_for(game)
    state, log, _ = play_with_resignations(game, seats, variant, seed, at)
    assert engine.outcome(state) is not None
    assert engine.encode(replay(engine, MatchConfig(seats, variant), log)) == engine.encode(state)
