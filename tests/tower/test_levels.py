"""Tower's AI levels and the search under `hard` (shared/engine/search.py, shared/tower/determinize.py,
shared/tower/levels.py): a determinization keeps all that the seat sees and fills in only what the view
hides (view.py: face-down Tokens, the Tower's ring, the Ramp tokens); the search is repeatable for a seed,
spends exactly its budget of iterations, always answers a legal action and cannot tell apart two states
that look alike to its seat."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.engine import CHANCE, MatchConfig, registry
from shared.engine.playout import policy_playout, random_playout
from shared.engine.search import Budget, Line
from shared.tower import levels
from shared.tower.determinize import determinize
from shared.tower.pack import pack
from shared.tower.policy import choose
from tests.support.positions import decision_points
from tests.tower.scenario import E
from tests.tower.test_view import shuffle_hidden


def positions(seed: int, seats: int = 2, every: int = 7, choice_only: bool = True, policy=choose) -> list:
    """States of one match (the normal policy's, or random play's with policy=None), every `every`-th one
    where a seat has a choice to make (tests/support/positions.py)."""
    return decision_points(E, MatchConfig(seats), seed, every, policy, choice_only)


# --- the determinizer -----------------------------------------------------------------
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seats=st.sampled_from([2, 3, 4]))
def test_a_determinization_is_a_valid_state_that_looks_to_the_seat_exactly_like_its_view(seed, seats):
    """View (what a seat may see): for random reachable states, determinize(view(state, seat)) is a state that
    keeps every invariant and whose view for that seat is the view it came from; the same seat acts, with the
    same legal actions."""
    rng, fill = random.Random(seed), random.Random(seed ^ 0x5EED)
    checked = {"n": 0}

    def check(state):
        if state.stage == "over":
            return
        seat = fill.randrange(state.seats)
        v = E.view(state, seat)
        sample = determinize(v, seat, fill)
        E.check_invariants(sample)
        assert E.view(sample, seat) == v
        who = E.actor(sample)
        assert who == E.actor(state)
        if who >= 0:
            assert E.legal_actions(sample, who) == E.legal_actions(state, who)
        elif who == CHANCE:
            assert E.chance_request(sample) == E.chance_request(state)
        checked["n"] += 1

    random_playout(E, MatchConfig(seats=seats), rng, on_state=check)
    assert checked["n"] > 50


def test_a_determinization_fills_what_is_hidden_from_the_pack_and_differs_from_seed_to_seed():
    """Set up the Game 1: face-down castle tokens have their terrain's back (every Home Castle token not face
    up is among them), spell tokens the blank back; the Tower holds the Characters no seat holds."""
    state = positions(3, seats=2, every=5)[2]
    v = E.view(state, 0)
    samples = [determinize(v, 0, random.Random(k)) for k in range(8)]
    p = pack()
    for s in samples:
        for t, sq in s.board.items():
            tok = sq["token"]
            if tok is None or tok["up"]:
                assert tok == state.board[t]["token"]
                continue
            kind = tok["id"].split(":")[0]
            if sq["castle"]:
                assert tok["id"] in p.castle_tokens_of(p.territories[t].terrain, s.removed["characters"])
            else:
                assert kind == "spell"
        homes_real = sorted(sq["token"]["id"] for sq in state.board.values()
                            if sq["token"] and sq["token"]["id"].startswith("home:"))
        homes = sorted(sq["token"]["id"] for sq in s.board.values()
                       if sq["token"] and sq["token"]["id"].startswith("home:"))
        assert homes == homes_real, "Home Castle tokens never leave the board"
        assert sorted(c for c in s.tower["chambers"] if c) == sorted(c for c in state.tower["chambers"] if c)
    assert len({E.encode(s) for s in samples}) > 1


def decision(state) -> tuple[dict, int, list[dict]]:
    """What an AI seat is handed at `state`: the acting seat's view, the seat and its legal actions."""
    seat = E.actor(state)
    return E.view(state, seat), seat, E.legal_actions(state, seat)


# --- the search -------------------------------------------------------------------------
ROOTS = ("uct", "halving")  # how the root shares the budget (search.Search.root)


def small(iterations: int = 6, root: str = "uct"):
    """A search that runs every iteration of its budget (no early stop), so whole statistics compare."""
    return replace(levels.search(Budget(iterations=iterations, ms=None), root=root), settle=False)


@pytest.mark.parametrize("root", ROOTS)
def test_the_search_is_repeatable_for_a_seed(root):
    """Same view, same seed, an iteration budget: the same choice from the same statistics, within the budget."""
    search = small(8, root)
    for state in positions(11, every=9)[:4]:
        v, seat, legal = decision(state)
        a = search.run(v, seat, legal, random.Random(42))
        b = search.run(v, seat, legal, random.Random(42))
        assert a.action == b.action and a.children == b.children and a.iterations == b.iterations
        assert a.iterations == 8 if root == "uct" else 0 < a.iterations <= max(8, len(legal))


@pytest.mark.parametrize("root", ROOTS)
def test_a_result_lists_every_legal_action_in_order_and_weighs_only_the_candidates(root):
    """Whichever way the root shares its budget, the result shows every legal action it was handed, in that
    order, and only the game's candidates (the shortlist) have samples."""
    search = small(12, root)
    checked = 0
    for state in positions(14, every=4)[:8]:
        v, seat, legal = decision(state)
        kept = levels.shortlist(v, seat, legal)
        if len(kept) < 2 or len(kept) == len(legal):
            continue
        result = search.run(v, seat, legal, random.Random(3))
        assert [a for a, _, _ in result.children] == legal
        assert {repr(a) for a, visits, _ in result.children if visits} <= {repr(a) for a in kept}
        checked += 1
    assert checked >= 2


def test_halving_compares_every_candidate_on_the_same_samples_and_answers_the_best_survivor():
    """Sequential halving with common random numbers: every candidate is sampled in the first round, the samples
    spent never pass the budget after it; without an incumbent (bias 0) the answer is the best mean among the
    candidates sampled most; with one (the normal policy's pick, never cut) the answer is that best or the pick."""
    free, kept_pick = replace(small(24, "halving"), bias=0.0), small(24, "halving")
    checked = 0
    for state in positions(14, every=4)[:10]:
        v, seat, legal = decision(state)
        kept = levels.shortlist(v, seat, legal)
        if len(kept) < 2:
            continue
        for search in (free, kept_pick):
            result = search.run(v, seat, legal, random.Random(9))
            tried = [(a, visits, mean) for a, visits, mean in result.children if visits]
            assert {repr(a) for a, _, _ in tried} == {repr(a) for a in kept}
            assert result.iterations == sum(visits for _, visits, _ in result.children) <= max(24, len(kept))
            most = max(visits for _, visits, _ in tried)
            best = max(mean for _, visits, mean in tried if visits == most)
            leaders = [a for a, visits, mean in tried if visits == most and mean == best]
            if search is free:
                assert result.action in leaders
            else:
                local = random.Random(random.Random(9).getrandbits(64))  # as Search.run draws it
                pick = choose(v, seat, kept, random.Random(local.getrandbits(32)))
                assert result.action in leaders or result.action == pick
        checked += 1
    assert checked >= 5


def test_halving_stopped_by_the_clock_in_the_middle_of_a_sample_decides_on_the_samples_every_candidate_took(
        monkeypatch):
    """A wall-clock budget is read between candidates, so it may run out part-way through a sample: that sample
    is left out, and the answer comes from the samples every candidate in the running took (not from the few
    candidates the last sample reached, whichever they were)."""
    import shared.engine.search as search_module

    state = positions(14, every=4)[3]
    v, seat, legal = decision(state)
    kept = levels.shortlist(v, seat, legal)
    assert len(kept) >= 3
    clock = {"calls": 0, "stop": 0}

    class Clock:  # stands still until its `stop`-th reading, then is long past any deadline
        @staticmethod
        def perf_counter() -> float:
            clock["calls"] += 1
            return 0.0 if clock["calls"] < clock["stop"] else 1e9

    monkeypatch.setattr(search_module, "time", Clock)
    search = replace(levels.search(Budget(iterations=60, ms=1000.0), root="halving"), bias=0.0)
    for stop in range(len(kept) + 2, 3 * len(kept) + 2):  # through the second and third samples
        clock.update(calls=0, stop=stop)
        result = search.run(v, seat, legal, random.Random(5))
        counts = {visits for _, visits, _ in result.children if visits}
        assert len(counts) == 1, f"stopped at reading {stop}: candidates took {sorted(counts)} samples"
        best = max(mean for _, visits, mean in result.children if visits)
        assert result.action in [a for a, visits, mean in result.children if visits and mean == best]


def test_halving_answers_a_challenger_only_on_a_significant_paired_gain():
    """The incumbent (the normal policy's pick) keeps its place unless the challenger's gain, sample by sample on
    the same luck, is more than `bias` standard errors above nothing."""
    search = small(8, "halving")
    assert search.bias == levels.HARD_BIAS == 1.0
    same = {k: 0.5 for k in range(6)}
    assert not search._beats(same, same)
    assert search._beats({k: 0.6 for k in range(6)}, same)  # a gain on every sample
    assert not search._beats({0: 0.9}, {0: 0.1})  # one sample is no evidence
    noisy = {0: 0.9, 1: 0.1, 2: 0.8, 3: 0.2, 4: 0.55, 5: 0.5}  # +0.01 on average, swinging by 0.4
    assert not search._beats(noisy, same)
    steady = {0: 0.58, 1: 0.49, 2: 0.6, 3: 0.52, 4: 0.57, 5: 0.55}
    assert search._beats(steady, same) and not replace(search, bias=4.0)._beats(steady, same)
    assert not search._beats({k: 0.6 for k in range(6)}, {k + 10: 0.5 for k in range(6)})  # never paired


def test_halving_draws_each_sample_once_for_every_candidate():
    """The pairing: each sample determinizes (and rolls, and rolls out) from seeds every candidate still in the
    running shares, so the first round's determinizations are one seed's, repeated per candidate."""
    state = positions(14, every=4)[3]
    v, seat, legal = decision(state)
    seeds: list = []

    def recording(view, s, rng):
        seeds.append(rng.getstate())
        return determinize(view, s, rng)

    search = replace(small(24, "halving"), determinize=recording)
    first = len(levels.shortlist(v, seat, legal))
    assert first >= 3
    search.run(v, seat, legal, random.Random(4))
    assert len(set(seeds[:first])) == 1 and len(set(seeds)) > 1
    paired = replace(small(24, "halving"))
    action = legal[0]
    assert paired._sample(v, seat, Line(action), (1, 2, 3)) == paired._sample(v, seat, Line(action), (1, 2, 3))


@pytest.mark.parametrize("root", ROOTS)
def test_hard_never_answers_an_illegal_action(root):
    """Many positions of 2, 3 and 4 players, from normal and from random play, every kind of decision: the answer
    is one of the legal actions."""
    search = levels.search(Budget(iterations=3, ms=None), bias=1.0, root=root)
    kinds = set()
    n = 0
    for seed, seats, policy in ((1, 2, choose), (2, 3, choose), (3, 4, choose), (4, 2, None), (5, 3, None)):
        for state in positions(seed, seats, every=7, policy=policy):
            v, seat, legal = decision(state)
            pick = search.choose(v, seat, legal, random.Random(seed))
            assert pick in legal
            kinds.add(pick["kind"])
            n += 1
    assert n > 60 and {"move", "fight"} <= kinds


@pytest.mark.parametrize("root", ROOTS)
def test_hard_cannot_see_what_its_seat_cannot(root):
    """View: two states that differ only in what the seat cannot see (face-down tokens swapped, the Tower's ring
    turned, the Ramp tokens swapped) get the same choice, from the same statistics, for the same seed."""
    search = small(8, root)
    compared = 0
    for state in positions(21, every=6)[:6]:
        other = shuffle_hidden(state, random.Random(7))
        if E.encode(other) == E.encode(state):
            continue
        seat = E.actor(state)
        legal = E.legal_actions(state, seat)
        assert E.view(state, seat) == E.view(other, seat) and E.legal_actions(other, seat) == legal
        a = search.run(E.view(state, seat), seat, legal, random.Random(5))
        b = search.run(E.view(other, seat), seat, legal, random.Random(5))
        assert (a.action, a.children) == (b.action, b.children)
        compared += 1
    assert compared >= 4


def test_the_budget_is_respected_iterations_counted_and_the_clock_stops_a_timed_search():
    """An iteration budget runs exactly that many iterations (one determinization each, every visit counted at the
    root); a wall-clock budget stops soon after its time."""
    state = positions(5, every=5)[3]
    v, seat, legal = decision(state)
    calls = {"n": 0}

    def counting(view, s, rng):
        calls["n"] += 1
        return determinize(view, s, rng)

    search = small(13)
    search.determinize = counting
    result = search.run(v, seat, legal, random.Random(1))
    assert result.iterations == 13 == calls["n"]
    assert sum(visits for _, visits, _ in result.children) == 13
    timed = levels.search(Budget(iterations=None, ms=60.0))
    result = timed.run(v, seat, legal, random.Random(1))
    assert result.iterations >= 1 and result.ms < 60.0 + 400.0
    with pytest.raises(ValueError):
        Budget(iterations=None, ms=None)


def test_a_forced_decision_is_answered_without_searching():
    state = next(s for s in positions(5, every=1, choice_only=False)
                 if len(E.legal_actions(s, E.actor(s))) == 1)
    seat = E.actor(state)
    legal = E.legal_actions(state, seat)
    result = small(10).run(E.view(state, seat), seat, legal, random.Random(1))
    assert result.action == legal[0] and result.iterations == 0


# --- the levels ---------------------------------------------------------------------------
def test_the_registry_offers_three_levels_and_normal_is_todays_policy():
    assert registry.policy_for("tower") is choose and registry.policy_for("tower", "normal") is choose
    assert registry.levels_for("tower") == ("easy", "normal", "hard")
    assert callable(registry.policy_for("tower", "easy")) and callable(registry.policy_for("tower", "hard"))
    assert registry.policy_for("tower", "easy") is registry.policy_for("tower", "easy")
    with pytest.raises(KeyError):
        registry.policy_for("tower", "grandmaster")


def test_easy_plays_the_normal_choice_about_half_the_time_and_is_no_random_player():
    """easy is the normal scorer with Tower's share of noise (the registry's easy_noise, a half), not a random player:
    it agrees with normal far more often than a random legal pick does."""
    easy = registry.policy_for("tower", "easy")
    same = by_chance = 0.0
    n = 0
    for k, state in enumerate(positions(8, every=2)):
        v, seat, legal = decision(state)
        a = easy(v, seat, legal, random.Random(k))
        assert a in legal
        same += a == choose(v, seat, legal, random.Random(k))
        by_chance += 1 / len(legal)
        n += 1
    assert n > 50
    assert registry.game("tower").easy_noise == 0.5
    assert abs(same / n - (1 - registry.game("tower").easy_noise)) < 0.15
    assert same > 1.5 * by_chance


def test_levels_play_whole_matches_seeing_only_their_views():
    """A match of easy against hard (a small budget) ends, every pick legal."""
    hard = levels.hard(Budget(iterations=2, ms=None))
    easy = registry.policy_for("tower", "easy")
    final, _ = policy_playout(E, MatchConfig(2), lambda v, s, legal, rng: (hard if s == 0 else easy)(v, s, legal, rng),
                              random.Random(3))
    assert E.outcome(final) is not None


def test_the_normal_policy_chooses_on_the_searchs_glance_exactly_as_on_the_view():
    """levels.glance (the sampled state's JSON, unredacted, shown to the rollout policy) gives the same choices
    as the view, and the policy leaves the state it glanced at unchanged."""
    n = 0
    for seed, seats in ((31, 2), (32, 3), (33, 4)):
        for k, state in enumerate(positions(seed, seats, every=2)):
            seat = E.actor(state)
            legal = E.legal_actions(state, seat)
            before = E.encode(state)
            assert choose(levels.glance(state, seat), seat, legal, random.Random(k)) == \
                choose(E.view(state, seat), seat, legal, random.Random(k))
            assert E.encode(state) == before
            n += 1
    assert n > 100
