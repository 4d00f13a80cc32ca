"""Incantris's AI levels and the search under `hard` (shared/engine/search.py, shared/incantris/determinize.py,
shared/incantris/levels.py). Everything in Incantris is public ("public information": life points and wizard
boards), so a seat's view is the whole state and a determinization is that state rebuilt exactly; the search is
repeatable for a seed, always answers a legal action, in every scenario and the solo game (where the attacking
team is the engine's, not a seat), and every level plays a whole match to its end."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.engine import MatchConfig, registry
from shared.engine.playout import policy_playout, random_playout
from shared.engine.search import Budget
from shared.incantris import levels
from shared.incantris.determinize import determinize
from shared.incantris.policy import choose
from tests.incantris.support import E
from tests.support.positions import decision_points

# (scenario, seats): every scenario, the solo game, two to four players
TABLES = (("battle-royale", 2), ("battle-royale", 3), ("battle-royale", 4), ("crystal-sap", 2),
          ("capture-the-crystal", 3), ("shifting-arena", 2), ("solo", 1), ("campaign", 2))


def positions(variant: str, seats: int, seed: int, every: int = 7, policy=choose, max_steps: int = 1500) -> list:
    """States of one match (the normal policy's, or random play's with policy=None), every `every`-th one where a
    seat has a choice to make (tests/support/positions.py)."""
    return decision_points(E, MatchConfig(seats, variant), seed, every, policy, max_steps=max_steps)


# --- the determinizer -----------------------------------------------------------------
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), table=st.sampled_from(TABLES))
def test_a_determinization_is_exactly_the_state_its_view_shows(seed, table):
    """Public information (life points and wizard boards are public; the view is the whole state and its viewer):
    for random reachable states of every scenario, determinize(view(state, seat)) encodes exactly as the state,
    keeps every invariant, and is a copy (playing on from it leaves the view untouched)."""
    variant, seats = table
    fill = random.Random(seed ^ 0x5EED)
    checked = {"n": 0}

    def check(state):
        seat = fill.randrange(state.seats)
        v = E.view(state, seat)
        before = repr(v)
        sample = determinize(v, seat, fill)
        assert E.encode(sample) == E.encode(state)
        E.check_invariants(sample)
        assert E.view(sample, seat) == v
        who = E.actor(sample)
        if who >= 0:
            legal = E.legal_actions(sample, who)
            assert legal == E.legal_actions(state, who)
            E.apply(sample, who, legal[-1])
        assert repr(v) == before
        checked["n"] += 1

    random_playout(E, MatchConfig(seats, variant), random.Random(seed), max_steps=400, on_state=check)
    assert checked["n"] > 30


def test_the_normal_policy_chooses_on_the_searchs_glance_exactly_as_on_the_view():
    """levels.glance (the state's JSON with its viewer, not copied) gives the policy's choice on the view, and the
    policy leaves the state it glanced at unchanged."""
    n = 0
    for k, (variant, seats) in enumerate(TABLES):
        for j, state in enumerate(positions(variant, seats, 40 + k, every=5)):
            seat = E.actor(state)
            legal = E.legal_actions(state, seat)
            before = E.encode(state)
            assert choose(levels.glance(state, seat), seat, legal, random.Random(j)) == \
                choose(E.view(state, seat), seat, legal, random.Random(j))
            assert E.encode(state) == before
            n += 1
    assert n > 100


# --- the search -------------------------------------------------------------------------
def small(iterations: int = 6, horizon: int = 8, root: str = "uct", tempo: str = "steps"):
    """A search that runs every iteration of its budget (no early stop), so whole statistics compare."""
    return replace(levels.search(Budget(iterations=iterations, ms=None), horizon=horizon, root=root, tempo=tempo),
                   settle=False)


# (root, horizon, tempo): the tree with a horizon in steps, sequential halving with one in turns
SEARCHES = (("uct", 8, "steps"), ("halving", 1, "turns"))


@pytest.mark.parametrize("root,horizon,tempo", SEARCHES)
def test_the_search_is_repeatable_for_a_seed(root, horizon, tempo):
    """Same view, same seed, an iteration budget: the same choice from the same statistics, with that many
    iterations (halving: at most that many, or one a candidate if there are more)."""
    search = small(6, horizon, root, tempo)
    compared = 0
    for variant, seats, seed in (("battle-royale", 2, 11), ("solo", 1, 12), ("crystal-sap", 3, 13)):
        for state in positions(variant, seats, seed, every=11)[:3]:
            seat = E.actor(state)
            legal = E.legal_actions(state, seat)
            v = E.view(state, seat)
            a = search.run(v, seat, legal, random.Random(42))
            b = search.run(v, seat, legal, random.Random(42))
            assert a.action == b.action and a.children == b.children
            assert a.iterations == b.iterations
            assert a.iterations in (0, 6) if root == "uct" else a.iterations <= max(6, levels.HARD_SHORTLIST)
            compared += a.iterations > 0
    assert compared >= 5


def test_a_horizon_in_turns_judges_a_rollout_once_that_many_turns_have_begun():
    """tempo="turns": a rollout stops when the `horizon`-th wizard's turn after the action begins (or the match
    ends), whatever the steps on the way."""
    state = positions("battle-royale", 2, 15, every=9)[2]
    seat = E.actor(state)
    legal = E.legal_actions(state, seat)
    v = E.view(state, seat)
    judged: list = []
    for horizon in (1, 2, 3):
        search = replace(small(4, horizon, "halving", "turns"),
                         value=lambda engine, s, who: judged.append(s) or 0.5)
        for k, action in enumerate(legal[:3]):
            search._sample(v, seat, action, (k, k + 1, k + 2))
            after, _ = E.apply(state, seat, action)
            end = judged[-1]
            assert end.phase == "over" or end.serial - after.serial == horizon


@pytest.mark.parametrize("root,horizon,tempo", SEARCHES)
def test_hard_never_answers_an_illegal_action(root, horizon, tempo):
    """Positions of every scenario, the solo game and two to four players, from normal and from random play,
    every kind of decision: the answer is one of the legal actions."""
    search = levels.search(Budget(iterations=2, ms=None), horizon=horizon, root=root, tempo=tempo)
    kinds = set()
    n = 0
    for k, (variant, seats) in enumerate(TABLES):
        for policy, every in ((choose, 13), (None, 17)):
            for state in positions(variant, seats, 60 + k, every=every, policy=policy, max_steps=600):
                seat = E.actor(state)
                legal = E.legal_actions(state, seat)
                pick = search.choose(E.view(state, seat), seat, legal, random.Random(k))
                assert pick in legal
                kinds.add(pick["kind"])
                n += 1
    assert n > 100 and {"step", "cast", "end", "activate"} <= kinds


def test_the_shortlist_keeps_the_policys_pick_and_only_legal_actions():
    """The root's candidates on a wizard's turn: at most HARD_SHORTLIST legal actions, the normal policy's own pick
    first; another decision keeps every action."""
    trimmed = 0
    for k, (variant, seats) in enumerate(TABLES[:4] + TABLES[6:7]):
        for state in positions(variant, seats, 80 + k, every=3):
            seat = E.actor(state)
            legal = E.legal_actions(state, seat)
            v = E.view(state, seat)
            kept = levels.shortlist(v, seat, legal)
            assert kept and all(a in legal for a in kept) and len(kept) == len({repr(a) for a in kept})
            assert len(kept) == min(len(legal), levels.HARD_SHORTLIST) or kept == legal
            if len(kept) < len(legal):
                assert kept[0] == choose(v, seat, legal, random.Random(0))
                trimmed += 1
    assert trimmed > 20


def test_the_value_is_the_win_blended_with_the_life_margin():
    """A won match is worth more than any unfinished one, a lost one less; an unfinished one rises with the seat's
    side's life and falls with its foes'."""
    state = positions("battle-royale", 2, 5, every=20)[2]
    final, _ = policy_playout(E, MatchConfig(2), choose, random.Random(5))
    winner = final.sides[final.result["winners"][0]]["seat"]
    assert levels.value(E, final, winner) > 0.5 + levels.MARGIN_WEIGHT / 2 - 1e-9
    assert levels.value(E, final, 1 - winner) < 0.5 - levels.MARGIN_WEIGHT / 2 + 1e-9
    seat = E.actor(state)
    base = levels.value(E, state, seat)
    hurt = E.decode(E.encode(state))
    mine = next(w for w in hurt.wizards.values() if hurt.sides[w["side"]]["seat"] == seat and w["alive"])
    mine["life"] = max(1, mine["life"] - 3)
    foe = E.decode(E.encode(state))
    theirs = next(w for w in foe.wizards.values() if foe.sides[w["side"]]["seat"] != seat and w["alive"])
    theirs["life"] = max(1, theirs["life"] - 3)
    assert levels.value(E, hurt, seat) < base <= levels.value(E, foe, seat)


# --- the levels ---------------------------------------------------------------------------
def test_the_registry_offers_easy_normal_and_hard_for_incantris():
    assert registry.levels_for("incantris") == ("easy", "normal", "hard")
    assert registry.policy_for("incantris") is choose and registry.policy_for("incantris", "normal") is choose
    assert callable(registry.policy_for("incantris", "easy")) and callable(registry.policy_for("incantris", "hard"))
    assert registry.policy_for("incantris", "hard") is registry.policy_for("incantris", "hard")


def test_every_level_plays_a_whole_match_to_its_end():
    """A battle royale of easy against normal against hard (a small budget), and the solo game at each level
    against the attacking team: each ends, every pick legal."""
    hard = levels.hard(Budget(iterations=2, ms=None), horizon=6)
    at = {"easy": registry.policy_for("incantris", "easy"), "normal": choose, "hard": hard}
    seen = set()

    def table(order):
        def policy(v, s, legal, rng):
            pick = at[order[s]](v, s, legal, rng)
            assert pick in legal
            seen.add(order[s])
            return pick
        return policy

    final, _ = policy_playout(E, MatchConfig(3), table(("easy", "normal", "hard")), random.Random(3))
    assert E.outcome(final) is not None
    for level in ("easy", "normal", "hard"):
        final, _ = policy_playout(E, MatchConfig(1, "solo"), table((level,)), random.Random(4))
        assert E.outcome(final) is not None and final.phase == "over"
    assert seen == {"easy", "normal", "hard"}
