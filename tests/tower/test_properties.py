"""Random legal play from random seeds, for what is Tower's own: views hide every face-down thing, the
winner has the best score, chance is secret only while the tokens are laid face down, and the quick
set-up ends within the bound too. The contract's checks (invariants, bytes, replays, the bound of a
match with the players' set-up, AI play) are tests/engine/test_conformance.py's, for every game."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.engine import CHANCE, TERMINAL, MatchConfig
from shared.engine.playout import policy_playout, random_playout
from shared.tower.policy import choose
from shared.tower.turns import step_bound
from tests.tower.scenario import E
from tests.tower.test_view import shuffle_hidden


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seats=st.sampled_from([2, 3, 4]))
def test_random_play_hides_what_is_face_down_and_ends_with_the_best_score_winning(seed, seats):
    """Set up the Game 1 (tokens laid face down), Winning the Game: no view shows a hidden thing, whatever
    lies under it; secret dice only lay the face-down tokens; the winner has the highest score."""
    rng = random.Random(seed)
    hide_rng = random.Random(seed + 1)
    steps = {"n": 0}

    def check(state):
        steps["n"] += 1
        if E.actor(state) == CHANCE and E.chance_request(state).secret:
            assert state.stage == "secret"
        if state.stage != "over" and steps["n"] % 3 == 0:
            other = shuffle_hidden(state, hide_rng)
            seat = rng.randrange(seats)
            assert E.view(state, seat) == E.view(other, seat)

    final, log = random_playout(E, MatchConfig(seats=seats), rng, on_state=check)
    assert E.actor(final) == TERMINAL
    result = E.outcome(final)
    assert max(result.scores) == result.scores[result.winners[0]]
    assert sum(1 for s in log if s[0] == "act") > 10


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seats=st.sampled_from([2, 3, 4]))
def test_a_quick_set_up_game_ends_within_the_documented_bound_under_random_and_ai_play(seed, seats):
    """Winning the Game: 'The game ends when the Wizard King makes the final step from the Ramp of Time onto the
    top of the Tower.' A climb comes at least every king_patience rounds of turns (extra turns counted) and the
    19th ends the game, so every game, however it is played, ends within turns.step_bound(seats) steps (set-up
    included; TowerEngine.step_bound). The conformance suite checks it with the players' set-up; here, with
    chance deciding the set-up."""
    config = MatchConfig(seats=seats, options={"setup": "chance"})
    bound = step_bound(seats)
    assert E.step_bound(config) == bound
    final, log = random_playout(E, config, random.Random(seed), max_steps=bound + 1)
    assert E.actor(final) == TERMINAL and len(log) <= bound
    final, log = policy_playout(E, config, choose, random.Random(seed), max_steps=bound + 1)
    assert E.actor(final) == TERMINAL and len(log) <= bound
