"""Random legal play from random seeds: the game always ends, every state keeps the invariants, views hide
what is hidden, bytes round-trip, and the log replays to the same bytes."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.engine import CHANCE, TERMINAL, MatchConfig
from shared.engine.playout import random_playout, replay
from tests.tower.scenario import E
from tests.tower.test_view import shuffle_hidden


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seats=st.sampled_from([2, 3, 4]))
def test_random_play_reaches_the_end_and_replays(seed, seats):
    """Winning the Game: every game ends when the King steps onto the Tower (with the authored patience rule);
    invariants hold at every step; no view shows hidden things; encode/decode and replay are exact."""
    rng = random.Random(seed)
    hide_rng = random.Random(seed + 1)
    steps = {"n": 0}

    def check(state):
        steps["n"] += 1
        E.check_invariants(state)
        assert E.decode(E.encode(state)) == state
        who = E.actor(state)
        if who >= 0:
            assert E.legal_actions(state, who), "a seat to act always has a choice"
        if state.stage != "over" and steps["n"] % 3 == 0:
            other = shuffle_hidden(state, hide_rng)
            seat = rng.randrange(seats)
            assert E.view(state, seat) == E.view(other, seat)

    final, log = random_playout(E, MatchConfig(seats=seats), rng, on_state=check)
    assert E.actor(final) == TERMINAL and E.outcome(final) is not None
    assert E.encode(replay(E, MatchConfig(seats=seats), log)) == E.encode(final)
    result = E.outcome(final)
    assert max(result.scores) == result.scores[result.winners[0]]
    assert sum(1 for s in log if s[0] == "act") > 10


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_chance_requests_are_well_formed(seed):
    """Chance steps: every request names its dice; secret ones only decide hidden placements."""
    rng = random.Random(seed)

    def check(state):
        if E.actor(state) == CHANCE:
            request = E.chance_request(state)
            assert request.pools and all(p.count >= 0 and p.faces for p in request.pools)
            if request.secret:
                assert state.stage == "secret"
        else:
            assert E.chance_request(state) is None

    random_playout(E, MatchConfig(seats=2 + seed % 3), rng, on_state=check)
