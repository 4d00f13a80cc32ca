"""bench/wizards_choices.py: its careless copy departs from the normal policy on the one kind of
decision it names, every time at noise 1 and never on another kind, and every decision of a
whole game has one of its kinds."""
from __future__ import annotations

import random

import pytest

from bench.wizards_choices import CONFIG, KINDS, careless, kind_of, main
from shared.engine.playout import policy_playout
from shared.engine.registry import engine_for
from shared.wizards.policy import choose


@pytest.fixture(scope="module")
def decisions():
    """(view, seat, legal) of every choice in a whole 2-seat game of the normal policy."""
    seen = []

    def recording(view, seat, legal, rng):
        if len(legal) > 1:
            seen.append((view, seat, legal))
        return choose(view, seat, legal, rng)
    policy_playout(engine_for("wizards"), CONFIG, recording, random.Random(3))
    return seen


def test_every_decision_of_a_game_has_a_kind_and_the_main_kinds_occur(decisions):
    kinds = [kind_of(view, legal) for view, _, legal in decisions]
    assert set(kinds) == set(KINDS)
    assert kinds.count("other") < len(kinds) / 50, "a kind of its own for a common choice"


def test_the_careless_copy_departs_on_its_own_kind_only(decisions):
    for n, (view, seat, legal) in enumerate(decisions):
        kind = kind_of(view, legal)
        policy_pick = choose(view, seat, legal, random.Random(n))
        assert careless(kind, 1.0)(view, seat, legal, random.Random(n)) != policy_pick
        other = next(k for k in KINDS if k != kind)
        assert careless(other, 1.0)(view, seat, legal, random.Random(n)) == policy_pick
        assert careless(kind, 0.0)(view, seat, legal, random.Random(n)) == policy_pick


def test_an_unknown_kind_is_refused_by_name(capsys):
    with pytest.raises(SystemExit):
        main(["--kinds", "move,flying"])
    assert "no such kind of decision: flying" in capsys.readouterr().err
