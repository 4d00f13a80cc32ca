"""The engine contract (shared/engine/contract.py), checked once for every registered game
(shared/engine/registry.py: the hosted games and the test game) by random play of every variant
and seat count the engine offers. Along the way, at every step:

* the state keeps the game's invariants and encodes exactly (decode(encode(s)) == s, same bytes);
* actor() is a seat, CHANCE or TERMINAL; CHANCE states name their dice, others none; only
  TERMINAL has an outcome;
* apply and apply_chance never change the state they are given, and events are JSON objects
  with a "type" (private ones name real seats in "visible_to");

and at a sample of steps, where the checks cost more:

* every view (each seat's, a spectator's) is JSON and is the same for the decoded copy;
* the seat to act has legal actions, the same for the decoded copy; each one (of a sample) has a
  description (never a fallback "Unknown ...") and a label and applies; other seats have none;
* refusals are clean: another seat's try is NotYourTurn; a bent action is refused with an
  EngineError (never another exception) or applied; dice that do not answer the request, or
  come when none are awaited, are WrongChanceOutcome; and none of them changes the state.

At the end: every seat's legal actions are empty, the outcome has a score per seat and winners
among them, the match took no more steps than the engine's step_bound, and its log replays to
the same bytes and the same views. Random play and AI play (the game's registered policy) both end;
the fast check plays the first STEPS steps of every variant and seat count, the slow ones whole
matches of every variant with its fewest seats.
What a game hides is its own (a Tower token's face, a Wizards Gem Record): each game's tests check
that its views hide it, as they check that each refusal names its clause.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.engine import (
    CHANCE,
    TERMINAL,
    EngineError,
    InvalidConfig,
    MatchConfig,
    NotYourTurn,
    WrongChanceOutcome,
)
from shared.engine.playout import policy_playout, random_playout, replay, sample_chance
from shared.engine.registry import engine_for, game_names, policy_for

GAMES = game_names()
CAP = 60_000  # the steps a match may take when its engine names no bound: far above any match seen
STEPS = 250  # the fast check plays this far (a Tower or a Race match ends before it)
seeds = st.integers(0, 2**32 - 1)


def configs(game: str) -> list[MatchConfig]:
    """Every variant of the game with every seat count it offers."""
    engine = engine_for(game)
    return [MatchConfig(seats, variant) for variant in engine.variants for seats in engine.seat_counts(variant)]


def fewest(game: str) -> list[MatchConfig]:
    """Every variant with the fewest seats it offers: the whole matches played to the end."""
    engine = engine_for(game)
    return [MatchConfig(min(engine.seat_counts(variant)), variant) for variant in engine.variants]


def bound(engine, config: MatchConfig) -> int:
    return engine.step_bound(config) or CAP


def bent(action: dict, legal: list[dict], rng: random.Random) -> dict:
    """A listed action bent out of shape: another kind (listed or not), a field dropped or added, a
    value of the wrong type, or one near the listed value (a coordinate moved, a number off by some,
    a name another action uses)."""
    a = dict(action)
    roll = rng.random()
    fields = [k for k in a if k != "kind"]
    if roll < 0.15:
        a["kind"] = rng.choice([b.get("kind") for b in legal] + ["bogus", "", 3, None])
    elif roll < 0.25 and fields:
        a.pop(rng.choice(fields))
    elif roll < 0.35:
        a["bogus"] = rng.choice([1, "x", None])
    elif roll < 0.5 and fields:
        a[rng.choice(fields)] = rng.choice([None, -1, "x", [99, 99], 999, {"x": 1}, True])
    else:
        names = sorted({v for b in legal for v in b.values() if isinstance(v, str)} | {"nobody"})
        for k in fields:
            v = a[k]
            if isinstance(v, list) and v and all(type(x) is int for x in v):
                a[k] = [x + rng.randint(-3, 3) for x in v]
            elif type(v) is int:
                a[k] = v + rng.choice([-5, -1, 1, 7])
            elif isinstance(v, str):
                a[k] = rng.choice(names)
            elif isinstance(v, bool):
                a[k] = not v
    return a


class Checker:
    """The contract's checks, step by step, for one match of one game."""

    def __init__(self, engine, config: MatchConfig, rng: random.Random, deep: float):
        self.engine, self.config, self.rng, self.deep = engine, config, rng, deep
        self.seats = list(range(config.seats))

    def state(self, state) -> None:
        e = self.engine
        e.check_invariants(state)
        data = e.encode(state)
        copy = e.decode(data)
        assert copy == state and e.encode(copy) == data, "encode/decode is not exact"
        who = e.actor(state)
        assert who in self.seats or who in (CHANCE, TERMINAL), f"actor {who}"
        assert (e.chance_request(state) is not None) == (who == CHANCE)
        assert (e.outcome(state) is not None) == (who == TERMINAL)
        if self.rng.random() < self.deep:
            self.views(state, copy)
            if who >= 0:
                self.choices(state, copy, who, data)
            elif who == CHANCE:
                self.dice(state, data)

    def views(self, state, copy) -> None:
        for seat in self.seats + [None]:
            v = self.engine.view(state, seat)
            assert json.loads(json.dumps(v)) == v, "a view is JSON data"
            assert self.engine.view(copy, seat) == v, "a view depends on more than the state's bytes"

    def choices(self, state, copy, who: int, data: bytes) -> None:
        e, rng = self.engine, self.rng
        legal = e.legal_actions(state, who)
        assert legal, f"seat {who} must act but has no legal action"
        assert e.legal_actions(copy, who) == legal, "legal actions depend on more than the state's bytes"
        for seat in self.seats:
            if seat != who:
                assert e.legal_actions(state, seat) == []
                with pytest.raises(NotYourTurn):
                    e.apply(state, seat, legal[0])
        for action in rng.sample(legal, min(4, len(legal))):
            described = e.describe(action)  # a name for people, never a fallback dump of the data
            assert isinstance(described, str) and described and "Unknown" not in described
            label = e.label(state, who, action)
            assert isinstance(label, str) and label and "\n" not in label
            self.events(e.apply(state, who, action)[1])
        for _ in range(3):
            try:  # applied (a listed action, or one a game documents as the same: a Tower move by
                e.apply(state, who, bent(rng.choice(legal), legal, rng))  # another path) or refused
            except EngineError:
                pass
        with pytest.raises(WrongChanceOutcome):
            e.apply_chance(state, [[1]])  # a seat is to act: no dice are awaited
        assert e.encode(state) == data, "a step or a refusal changed the state it was given"

    def dice(self, state, data: bytes) -> None:
        e, rng = self.engine, self.rng
        request = e.chance_request(state)
        assert request.pools and all(p.count >= 0 and p.faces for p in request.pools)
        right = sample_chance(request, rng)
        wrong = [right + [[request.pools[0].faces[0]]], right[:-1]]
        if any(right):
            k = next(i for i, faces in enumerate(right) if faces)
            wrong.append([faces if i != k else ["not-a-face"] + faces[1:] for i, faces in enumerate(right)])
        for outcome in wrong:
            with pytest.raises(WrongChanceOutcome):
                e.apply_chance(state, outcome)
        assert e.encode(state) == data, "a chance step or a refusal changed the state it was given"

    def events(self, events) -> None:
        for event in events:
            assert isinstance(event, dict) and isinstance(event.get("type"), str), event
            if "visible_to" in event:
                assert set(event["visible_to"]) <= set(self.seats), event

    def play(self, max_steps: int):
        """Random legal play from set-up, every state checked: the state it stops in and the log."""
        e, before = self.engine, {}

        def on_state(state) -> None:
            self.state(state)
            before["data"] = e.encode(state)

        def on_step(state, events) -> None:
            assert e.encode(state) == before["data"], "a step changed the state it was given"
            self.events(events)

        return random_playout(e, self.config, self.rng, max_steps, on_state=on_state, on_step=on_step)

    def ended(self, final, log) -> None:
        e = self.engine
        assert e.actor(final) == TERMINAL
        assert len(log) <= bound(e, self.config), f"{len(log)} steps, past the engine's bound"
        assert all(e.legal_actions(final, seat) == [] for seat in self.seats)
        result = e.outcome(final)
        assert len(result.scores) == len(self.seats) and set(result.winners) <= set(self.seats)
        assert json.loads(json.dumps(result.to_dict())) == result.to_dict()
        again = replay(e, self.config, log)
        assert e.encode(again) == e.encode(final), "the log does not replay to the same bytes"
        assert all(e.view(again, seat) == e.view(final, seat) for seat in self.seats + [None])


@pytest.mark.parametrize("game", GAMES)
def test_every_variant_sets_up_exactly_the_seat_counts_it_offers(game):
    """Matchmaking offers engine.seat_counts(variant); set-up accepts those and refuses the rest."""
    engine = engine_for(game)
    assert engine.variants and engine.default_variant(engine.max_seats) in engine.variants
    for variant in engine.variants:
        offered = engine.seat_counts(variant)
        assert offered and set(offered) <= set(range(engine.min_seats, engine.max_seats + 1)), variant
        for seats in range(0, engine.max_seats + 2):
            if seats in offered:
                engine.setup(MatchConfig(seats, variant))
            else:
                with pytest.raises(InvalidConfig):
                    engine.setup(MatchConfig(seats, variant))
    with pytest.raises(InvalidConfig):
        engine.setup(MatchConfig(engine.max_seats, "no-such-variant"))


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=seeds)
def test_random_play_keeps_the_contract(game, data, seed):
    """The first STEPS steps of a match (a whole match of the short games), checked closely."""
    config = data.draw(st.sampled_from(configs(game)), label="config")
    checker = Checker(engine_for(game), config, random.Random(seed), deep=0.08)
    final, log = checker.play(STEPS)
    if checker.engine.actor(final) == TERMINAL:
        checker.ended(final, log)


@pytest.mark.slow  # whole matches of the long games: `make test-fast` leaves it out
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=seeds)
def test_random_play_ends_within_the_bound_and_replays(game, data, seed):
    config = data.draw(st.sampled_from(fewest(game)), label="config")
    engine = engine_for(game)
    checker = Checker(engine, config, random.Random(seed), deep=0.005)
    final, log = checker.play(bound(engine, config) + 1)
    checker.ended(final, log)


@pytest.mark.slow  # whole matches of the long games: `make test-fast` leaves it out
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=seeds)
def test_ai_play_ends_within_the_bound(game, data, seed):
    """Every seat played by the game's registered policy, which sees only its own view and picks a
    listed action (policy_playout checks it)."""
    config = data.draw(st.sampled_from(fewest(game)), label="config")
    engine = engine_for(game)
    final, log = policy_playout(engine, config, policy_for(game), random.Random(seed),
                                max_steps=bound(engine, config) + 1)
    assert engine.actor(final) == TERMINAL and len(log) <= bound(engine, config)
    engine.check_invariants(final)
    assert engine.encode(replay(engine, config, log)) == engine.encode(final)
