"""Random legal play from random seeds: the game ends (or, for long scenarios, runs a bounded
number of steps) with every invariant holding, views hiding nothing, states round-tripping
through bytes, and the log replaying to the same bytes."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.engine import CHANCE, TERMINAL, MatchConfig
from shared.engine.playout import random_playout, replay, sample_chance
from shared.incantris.policy import choose

from .support import E

pytestmark = pytest.mark.slow  # random play to the end, many times: `make test-fast` leaves it out

seeds = st.integers(0, 2**32 - 1)


def checked(state):
    E.check_invariants(state)
    assert E.decode(E.encode(state)) == state
    who = E.actor(state)
    if who >= 0:
        v = E.view(state, who)
        v.pop("viewer")
        assert v == state.to_json()  # nothing to hide, nothing invented
        assert E.legal_actions(state, who), "a seat to act always has something to do"
    elif who == CHANCE:
        assert E.chance_request(state) is not None


def play(config: MatchConfig, seed: int, max_steps: int):
    state, log = random_playout(E, config, random.Random(seed), max_steps=max_steps, on_state=checked)
    assert E.encode(replay(E, config, log)) == E.encode(state)
    return state, log


@settings(max_examples=6, deadline=None)
@given(seeds)
def test_random_battle_royale_for_two_ends(seed):
    state, _ = play(MatchConfig(2, "battle-royale"), seed, 20_000)
    assert E.actor(state) == TERMINAL
    o = E.outcome(state)
    assert set(o.winners) <= {0, 1} and len(o.scores) == 2


@settings(max_examples=8, deadline=None)
@given(seeds)
def test_random_solo_games_end(seed):
    state, _ = play(MatchConfig(1, "solo", {"teams": [random.Random(seed).choice(["red", "blue", "purple", "grey"])]}),
                    seed, 20_000)
    assert E.actor(state) == TERMINAL and E.outcome(state).winners in ((), (0,))


@settings(max_examples=4, deadline=None)
@given(seeds, st.sampled_from([("battle-royale", 4), ("crystal-sap", 3), ("capture-the-crystal", 2),
                               ("shifting-arena", 3), ("shifting-arena", 4), ("crystal-sap", 4),
                               ("capture-the-crystal", 4), ("campaign", 3)]))
def test_random_play_keeps_every_invariant(seed, variant):
    name, seats = variant
    state, log = play(MatchConfig(seats, name), seed, 500)
    assert len(log) == 500 or E.actor(state) == TERMINAL


@settings(max_examples=3, deadline=None)
@given(seeds)
def test_chance_outcomes_are_answered_face_by_face(seed):
    rng = random.Random(seed)
    s = E.setup(MatchConfig(2, "battle-royale"))
    for _ in range(800):
        who = E.actor(s)
        if who == TERMINAL:
            break
        if who == CHANCE:
            req = E.chance_request(s)
            outcome = sample_chance(req, rng)
            assert all(len(o) == p.count and set(o) <= set(p.faces) for o, p in zip(outcome, req.pools))
            s, events = E.apply_chance(s, outcome)
        else:
            s, events = E.apply(s, who, rng.choice(E.legal_actions(s, who)))
        assert all(isinstance(e, dict) and "type" in e for e in events)


# items a wizard uses on its own turn, so every use shows in the record
ITEMS = {"red-druid": ["power-ring", "red-potion"], "blue-sorcerer": ["winged-boots", "red-potion"],
         "purple-shaman": ["power-ring", "winged-boots"]}


def campaign(game: int) -> MatchConfig:
    return MatchConfig(3, "campaign", {"campaign": {"game": game, "vp": [0, 0, 0], "stars": [0, 0, 0], "items": ITEMS}})


@pytest.mark.parametrize("config", [MatchConfig(3, "crystal-sap"), MatchConfig(2, "capture-the-crystal"),
                                    MatchConfig(4, "capture-the-crystal"), MatchConfig(2, "shifting-arena"),
                                    MatchConfig(1, "solo"), campaign(1), campaign(3), campaign(4)],
                         ids=lambda c: f"{c.seats}p-{c.variant}-{c.options.get('campaign', {}).get('game', '')}")
@settings(max_examples=2, deadline=None)
@given(seed=seeds)
def test_steps_never_change_the_state_they_start_from(config, seed):
    """A step shares the arena, the sides, the persistent spells and the crystals with the state it
    starts from and changes only its own copies: saps, pick-ups, drops, shifts and items leave the
    state before as it was. Most moves are the AI seat's, which goes for the crystals, the rest random."""
    rng = random.Random(seed)
    s = E.setup(config)
    for n in range(400):
        who = E.actor(s)
        if who == TERMINAL:
            break
        before = E.encode(s)
        if who == CHANCE:
            new, _ = E.apply_chance(s, sample_chance(E.chance_request(s), rng))
        else:
            legal = E.legal_actions(s, who)
            pick = choose(E.view(s, who), who, legal, rng) if rng.random() < 0.9 else rng.choice(legal)
            new, _ = E.apply(s, who, pick)
        assert E.encode(s) == before, f"step {n} changed the state it started from"
        s = new


# --- every match ends: the stalemate's bound (scenarios.py, README "The stalemate") --------------------
VARIANTS = [("battle-royale", 2), ("battle-royale", 4), ("shifting-arena", 3), ("crystal-sap", 4),
            ("capture-the-crystal", 4), ("solo", 1), ("campaign", 3)]
STEP_BOUND = 60_000  # far above any match seen; the rounds are the documented bound


@settings(max_examples=6, deadline=None)
@given(seeds, st.sampled_from(VARIANTS))
def test_random_play_always_ends_by_the_round_limit(seed, variant):
    from shared.incantris.scenarios import MAX_ROUNDS

    name, seats = variant
    state, log = random_playout(E, MatchConfig(seats, name), random.Random(seed), max_steps=STEP_BOUND)
    assert E.actor(state) == TERMINAL and state.round <= MAX_ROUNDS and E.outcome(state) is not None


@settings(max_examples=4, deadline=None)
@given(seeds, st.sampled_from(VARIANTS))
def test_ai_play_always_ends_by_the_round_limit(seed, variant):
    from shared.engine.playout import policy_playout
    from shared.incantris.scenarios import MAX_ROUNDS

    name, seats = variant
    state, _ = policy_playout(E, MatchConfig(seats, name), choose, random.Random(seed), max_steps=STEP_BOUND)
    assert E.actor(state) == TERMINAL and state.round <= MAX_ROUNDS


def _mangle(action: dict, rng: random.Random, state) -> dict:
    """A legal action bent out of shape: another kind, a field dropped or added, a value changed."""
    a = dict(action)
    roll = rng.random()
    if roll < 0.15:
        a["kind"] = rng.choice(["step", "cast", "activate", "teleport", "coin", "keep", "amulet", "sap", "end",
                                "hydra", "cleanse", "cancel", "reach", "chain", "place", "post", "buy", "bogus"])
    elif roll < 0.25 and len(a) > 1:
        a.pop(rng.choice([k for k in a if k != "kind"]))
    elif roll < 0.35:
        a[rng.choice(["to", "wizard", "x", "spell", "target"])] = rng.choice([[0, 0], "red-druid", 3, None, True])
    else:
        for k, v in list(a.items()):
            if k == "kind":
                continue
            if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v):
                a[k] = [v[0] + rng.randint(-9, 9), v[1] + rng.randint(-9, 9)]
            elif isinstance(v, str):
                a[k] = rng.choice(sorted(state.wizards) + ["nobody", "meteor-storm", "totem", "x:y"])
            elif isinstance(v, bool):
                a[k] = not v
            elif isinstance(v, int):
                a[k] = v + rng.choice([-5, -1, 1, 7])
    return a


@settings(max_examples=6, deadline=None)
@given(seeds, st.sampled_from(VARIANTS))
def test_a_malformed_or_illegal_action_is_only_ever_refused_by_the_rules(seed, variant):
    """Anything but a legal action raises MalformedAction or RuleViolation (NotYourTurn when the
    seat is wrong), never another exception, and leaves the state as it was."""
    from shared.engine import EngineError

    name, seats = variant
    rng = random.Random(seed)
    s = E.setup(MatchConfig(seats, name))
    for _ in range(600):
        who = E.actor(s)
        if who == TERMINAL:
            break
        if who == CHANCE:
            s, _ = E.apply_chance(s, sample_chance(E.chance_request(s), rng))
            continue
        legal = E.legal_actions(s, who)
        before = E.encode(s)
        for _ in range(3):
            bent = _mangle(rng.choice(legal), rng, s)
            try:
                E.apply(s, who, bent)
            except EngineError:
                pass
            else:
                assert bent in legal, f"{bent} was accepted but is not listed"
        assert E.encode(s) == before
        s, _ = E.apply(s, who, rng.choice(legal))


@settings(max_examples=6, deadline=None)
@given(seeds, st.sampled_from([1, 2, 3, 4]), st.sampled_from([2, 3, 4]))
def test_random_campaign_games_with_every_item_in_hand_end_cleanly(seed, game, seats):
    """Every wizard holds two Crystal Coins, an Amulet and a Power Ring: Meteor Storms, Scorching
    Chains, Retribution and Blaze roll many times in one step, and an item spent on one roll is
    never offered again (a Crystal Coin reroll once failed inside the engine here)."""
    from shared.incantris.pack import load

    items = {wid: ["crystal-coin", "crystal-coin", "amulet", "power-ring"] for wid in load().wizards}
    record = {"game": game, "vp": [0] * seats, "stars": [0] * seats, "items": items}
    state, log = random_playout(E, MatchConfig(seats, "campaign", {"campaign": record}), random.Random(seed),
                                max_steps=STEP_BOUND)
    assert E.actor(state) == TERMINAL
    assert E.encode(replay(E, MatchConfig(seats, "campaign", {"campaign": record}), log)) == E.encode(state)
