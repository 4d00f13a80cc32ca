"""determinize.summoning_offer and bench/wizards_summoning.py: the Gem Summoning offer (7.346, 11.232)
rebuilt from the seat's view is a state that looks to the seat exactly like the real one and resolves the
same way, and every offer of a game is counted once, without changing the game."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from bench.strength import config_for, face_off
from bench.wizards_summoning import answer, main, measure, report
from shared.engine.registry import engine_for
from shared.engine.search import Budget
from shared.wizards import levels
from shared.wizards.determinize import determinize, summoning_offer
from shared.wizards.policy import choose

E = engine_for("wizards")
SEED = 9101  # a two-seat game whose seat 0 (the own play) is offered Gem Summoning some 50 times


def offers(seed: int = SEED) -> list[tuple]:
    """(state, legal) at each Gem Summoning offer to seat 0 of a whole game of the own play against normal."""
    found: list[tuple] = []

    def seen(state, events) -> None:
        if E.actor(state) == 0 and state.pending:
            legal = E.legal_actions(state, 0)
            if any(a["kind"] == "gem_summoning" for a in legal):
                found.append((state, legal))

    face_off(E, config_for("wizards", 2, 0), levels.own, choose, 0, seed, on_step=seen)
    return found


@pytest.fixture(scope="module")
def offered():
    return offers()


def test_11_232_a_rebuilt_offer_looks_like_its_view_and_resolves_as_the_real_one(offered):
    weighed = [(s, legal) for s, legal in offered if summoning_offer(E.view(s, 0), 0, legal) is not None]
    assert len(weighed) >= 5
    for state, legal in weighed[:8]:
        view = E.view(state, 0)
        for i in range(3):
            sample = determinize(summoning_offer(view, 0, legal), 0, random.Random(i))
            E.check_invariants(sample)
            assert E.view(sample, 0) == view, "the rebuilt stages are the seat's own and stay out of its view"
            assert E.actor(sample) == 0 and E.legal_actions(sample, 0) == legal
            decline = {"kind": "gem_summoning", "target": None}
            after, _ = E.apply(sample, 0, decline)
            real, _ = E.apply(state, 0, decline)
            assert (after.step, after.pending, E.actor(after)) == (real.step, real.pending, E.actor(real))


def test_11_232_an_offer_with_more_still_to_resolve_or_another_choice_is_not_rebuilt(offered):
    more = [(s, legal) for s, legal in offered if len(s.pending) > 2]
    assert more, "the game has an offer with another encounter still to come"
    for state, legal in more:
        assert summoning_offer(E.view(state, 0), 0, legal) is None
    state, legal = next((s, legal) for s, legal in offered if len(s.pending) == 2)
    assert summoning_offer(E.view(state, 0), 1, legal) is None, "another seat's offer"
    assert summoning_offer(E.view(state, 0), 0, [{"kind": "move", "to": [0, 0]}]) is None, "another choice"
    assert summoning_offer(E.view(state, 0), 0, legal + [{"kind": "move", "to": [0, 0]}]) is None, "not the offer alone"


def test_every_offer_is_counted_once_and_the_game_is_the_own_plays(offered):
    figures = measure(1, 2, SEED, search=levels.search(budget=Budget(iterations=2)))
    assert sum(figures["agree"].values()) + figures["left_out"] == len(offered)
    assert len(figures["think"]) == sum(figures["agree"].values())


def test_another_marker_is_another_choice_and_the_report_counts_it_so():
    marker = {"kind": "gem_summoning", "target": "secret:A"}
    assert answer(marker, dict(marker)) == "kept"
    assert answer(marker, {"kind": "gem_summoning", "target": "secret:B"}) == "another marker"
    assert answer(marker, {"kind": "gem_summoning", "target": None}) == "none"
    figures = {"agree": Counter({("random", "kept", 3): 5, ("a marker", "another marker", 2): 1}), "left_out": 2,
               "think": [0.1, 0.2]}
    out = "\n".join(report(1, 2, 9100, figures))
    assert "weighed 6 (left out, another encounter still to come: 2)" in out
    assert "kept the own play's pick in 5 (83.3%)" in out
    assert "another marker for a marker (1)" in out


def test_a_game_count_below_one_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["--games", "0"])
    assert "--games must be at least 1" in capsys.readouterr().err
