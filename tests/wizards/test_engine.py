"""The engine contract: errors, domains, labels, bytes and purity."""
from __future__ import annotations

import random

import pytest

from shared.engine import CHANCE, EngineError, MalformedAction, NotYourTurn, RuleViolation, WrongChanceOutcome
from shared.engine.registry import engine_for, policy_for
from tests.wizards.scenario import ENGINE, build, config, roll

GARBAGE = [None, [], "move", {}, {"kind": 5}, {"kind": "teleport"}, {"kind": "move"}, {"kind": "move", "by": None},
           {"kind": "move", "by": "walk", "to": None}, {"kind": "move", "by": "walk", "to": ["a", "b"]},
           {"kind": "move", "by": "walk", "to": [True, 1]}, {"kind": "cast"}, {"kind": "cast", "spell": 3},
           {"kind": "cast", "spell": "swiftness", "to": 4}, {"kind": "end_move", "now": True},
           {"kind": "place_tile"}, {"kind": "place_tile", "tile": "C1", "at": [1, 2], "rotation": "x"},
           {"kind": "summon_boat", "boat": "x"}, {"kind": "choose_colour", "colour": 3}, {"kind": "roll", "x": 1}]


def test_registry_finds_the_engine_and_policy():
    """The platform looks Wizards up by name."""
    assert type(engine_for("wizards")).__name__ == "WizardsEngine"
    assert callable(policy_for("wizards"))


@pytest.mark.parametrize("action", GARBAGE)
def test_garbage_is_refused_with_engine_errors_only(action):
    """apply raises MalformedAction / RuleViolation / NotYourTurn, never KeyError or TypeError."""
    st = roll(build(seats=2), 3)
    with pytest.raises(EngineError):
        ENGINE.apply(st, 0, action)
    st = ENGINE.setup(config(2))
    st, _ = ENGINE.apply_chance(st, [[1]] * len(st.chance["request"]["pools"]))
    st, _ = ENGINE.apply_chance(st, [[6, 6], [1, 1]])
    st, _ = ENGINE.apply_chance(st, [[1]] * len(st.chance["request"]["pools"]))
    with pytest.raises(EngineError):
        ENGINE.apply(st, st.await_["seat"], action)


def test_malformed_before_turn_and_rule_checks():
    """Unknown kinds are malformed; the wrong seat is not on turn; a known kind at the wrong time breaks a rule."""
    st = roll(build(seats=2), 3)
    with pytest.raises(MalformedAction):
        ENGINE.apply(st, 1, {"kind": "jump"})
    with pytest.raises(NotYourTurn):
        ENGINE.apply(st, 1, {"kind": "end_move"})
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(st, 0, {"kind": "choose_colour", "colour": "red"})
    assert e.value.rule == "6"
    waiting = build(seats=2)
    assert ENGINE.actor(waiting) == CHANCE
    with pytest.raises(NotYourTurn):
        ENGINE.apply(waiting, 0, {"kind": "end_move"})
    assert ENGINE.legal_actions(waiting, 0) == []


def test_chance_outcomes_must_answer_the_request():
    """apply_chance checks the faces against the pending ChanceRequest."""
    st = build(seats=2)
    for bad in ([[7], [1]], [[1]], [[1, 2], [3]], []):
        with pytest.raises(WrongChanceOutcome):
            ENGINE.apply_chance(st, bad)
    moving = roll(st, 2)
    assert ENGINE.chance_request(moving) is None
    with pytest.raises(WrongChanceOutcome):
        ENGINE.apply_chance(moving, [[1], [1]])


def test_apply_never_changes_its_input():
    """apply and apply_chance return new states and leave theirs alone."""
    st = build(seats=2)
    before = ENGINE.encode(st)
    moved = roll(st, 3)
    assert ENGINE.encode(st) == before
    before = ENGINE.encode(moved)
    ENGINE.apply(moved, 0, ENGINE.legal_actions(moved, 0)[0])
    assert ENGINE.encode(moved) == before


def test_encode_decode_is_exact():
    """encode/decode round-trip to equal values and bytes."""
    st = roll(build(seats=3), 4)
    data = ENGINE.encode(st)
    assert ENGINE.decode(data) == st and ENGINE.encode(ENGINE.decode(data)) == data


def test_action_domains():
    """Map and movement go to the board service; spells to the combat service."""
    board = [{"kind": k} for k in ("place_tile", "set_aside_tower", "choose_colour", "roll", "move", "end_move")]
    assert all(ENGINE.action_domain(a) == "board" for a in board)
    assert ENGINE.action_domain({"kind": "cast", "spell": "swiftness"}) == "combat"
    assert ENGINE.action_domain({"kind": "summon_boat", "boat": 0, "to": [1, 1]}) == "combat"
    assert ENGINE.action_domain(None) == "board"


def test_describe_labels_every_legal_action():
    """describe gives a short label for a person choosing among legal actions."""
    st = roll(build(seats=2), 3)
    labels = [ENGINE.describe(a) for a in ENGINE.legal_actions(st, 0)]
    assert all(isinstance(x, str) and x for x in labels)
    assert "end movement" in labels
    placing = ENGINE.describe({"kind": "place_tile", "tile": "C1", "at": [1, 1], "rotation": 2})
    assert placing.startswith("place Torwall")
    assert ENGINE.describe({"kind": "place_tile", "tile": 7, "at": None})
    assert ENGINE.describe({"kind": "nonsense", "x": 1})


def test_legal_actions_are_sorted_and_stable():
    """legal_actions lists every action in a stable order."""
    st = roll(build(seats=2), 4)
    assert ENGINE.legal_actions(st, 0) == ENGINE.legal_actions(ENGINE.decode(ENGINE.encode(st)), 0)
    moves = [a for a in ENGINE.legal_actions(st, 0) if a["kind"] == "move"]
    keys = [(a["by"], a["to"][1], a["to"][0]) for a in moves]
    modes = ["walk", "swim", "sail", "stone", "circle", "fly", "ride"]
    assert keys == sorted(keys, key=lambda k: (modes.index(k[0]), k[1], k[2]))
    rng = random.Random(0)
    for a in rng.sample(moves, min(10, len(moves))):
        ENGINE.apply(st, 0, a)
