"""Random legal play of what is Incantris's own: steps from the crystal scenarios, the solo game and
campaign games with items in hand (most moves the AI seat's) never change the state they start from,
and campaign games with every item in hand end cleanly and replay. The contract's checks for every
variant and seat count (invariants, among them the round limit and the stalemate's quiet rounds;
bytes; views; refusals; every match ending under random and AI play) are
tests/engine/test_conformance.py's, for every game."""
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


STEP_BOUND = 60_000  # far above any match seen; the rounds are the documented bound


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
