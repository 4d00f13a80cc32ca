"""The engine contract: turns, typed errors, domains, labels, bytes."""
from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.engine import (
    CHANCE,
    EngineError,
    MalformedAction,
    MatchConfig,
    NotYourTurn,
    RuleViolation,
    WrongChanceOutcome,
)
from shared.engine.playout import random_playout, sample_chance
from shared.engine.registry import engine_for, policy_for
from shared.tower.actions import FIELDS
from shared.tower.state import TowerState
from tests.tower.scenario import E, at, blank, castle, started, wizard

CHARS = {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"}


def test_registered_under_its_name():
    """The platform finds the engine and the AI policy by the name 'tower'."""
    engine = engine_for("tower")
    described = (engine.name, engine.title, engine.min_seats, engine.max_seats)
    assert described == ("tower", "Tower of the Wizard King", 2, 4)
    assert callable(policy_for("tower"))


def test_only_the_seat_to_act_may_act():
    """How to Play: turns pass to the left; others wait (NotYourTurn)."""
    state = started(4)
    action = E.legal_actions(state, 0)[0]
    with pytest.raises(NotYourTurn):
        E.apply(state, 1, action)
    assert E.legal_actions(state, 1) == []
    chance = E.setup(MatchConfig(seats=4))
    assert E.actor(chance) == CHANCE
    with pytest.raises(NotYourTurn):
        E.apply(chance, 0, {"kind": "pass"})


@pytest.mark.parametrize("action", [
    None, [], "move", {}, {"kind": 3}, {"kind": "teleport"}, {"kind": "move"}, {"kind": "move", "to": "x"},
    {"kind": "move", "to": 5, "path": []}, {"kind": "move", "to": "x", "path": "x"},
    {"kind": "move", "to": "x", "path": [["walk"]]}, {"kind": "pass", "extra": 1},
    {"kind": "transform", "pulls": True}, {"kind": "transform", "pulls": "1"}, {"kind": "reroll", "dice": [0, 0]},
    {"kind": "reroll", "dice": []}, {"kind": "home", "choice": "both"}, {"kind": "declare", "seat": None},
])
def test_garbage_is_malformed(action):
    """Contract: unknown kinds, missing or mistyped fields are MalformedAction, never KeyError or TypeError."""
    with pytest.raises(MalformedAction):
        E.apply(started(4), 0, action)


def test_well_formed_but_illegal_is_a_rule_violation_naming_the_rule():
    """Contract: RuleViolation(rule=<rulebook section>) for an action the rules forbid now."""
    state = started(4)
    with pytest.raises(RuleViolation) as err:
        E.apply(state, 0, {"kind": "fight"})
    assert err.value.rule
    with pytest.raises(RuleViolation) as err:
        E.apply(state, 0, {"kind": "move", "to": "greyfang", "path": [["walk", "greyfang"]]})
    assert err.value.rule == "Movement on the Board"


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 50), st.text(max_size=12),
                      st.sampled_from(["thornwood", "goldmeadow", "walk", "cave", "again", "pennants"]))
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
actions = st.one_of(
    json_value,
    st.builds(lambda kind, extra: {"kind": kind, **extra}, st.sampled_from(sorted(FIELDS)),
              st.dictionaries(st.sampled_from(["to", "path", "seat", "pulls", "dice", "territory", "from", "choice"]),
                              json_value, max_size=3)),
)


@cache
def some_state(seed: int) -> bytes:
    state, _ = random_playout(E, MatchConfig(seats=2 + seed % 3), random.Random(seed), max_steps=40 + seed * 7)
    return E.encode(state)


@settings(max_examples=150, deadline=None)
@given(action=actions, seed=st.integers(0, 5))
def test_any_json_is_answered_with_an_engine_error_or_applied(action, seed):
    """Contract: apply raises only the engine's own errors on bad input, and never changes its input state."""
    before = some_state(seed)
    state = E.decode(before)
    who = E.actor(state)
    try:
        E.apply(state, who if who >= 0 else 0, action)
    except EngineError:
        pass
    assert E.encode(state) == before


def test_wrong_dice_are_refused():
    """Chance steps: dice that do not answer the request are WrongChanceOutcome."""
    state = E.setup(MatchConfig(seats=4))
    with pytest.raises(WrongChanceOutcome):
        E.apply_chance(state, [[4]])
    with pytest.raises(WrongChanceOutcome):
        E.apply_chance(started(4), [[1]])


def test_a_step_copies_only_what_it_changes():
    """States share what a step leaves alone (shared/tower/state.py): taking a symbol changes one Territory, so
    only that Territory and the board that holds it are copied; a plain move shares the whole board."""
    state = blank(4, CHARS)
    at(state, 0, "thornwood")
    castle(state, "goldmeadow", f"symbol:{wizard(state, 0)}")
    new, _ = E.apply(state, 0, {"kind": "move", "to": "goldmeadow", "path": [["walk", "goldmeadow"]]})
    assert new.board["goldmeadow"]["token"] is None and state.board["goldmeadow"]["token"] is not None
    assert new.board is not state.board and new.board["goldmeadow"] is not state.board["goldmeadow"]
    assert all(new.board[t] is state.board[t] for t in state.board if t != "goldmeadow")
    assert new.tower is state.tower and new.ramp is state.ramp and new.sites is state.sites
    assert new.players is not state.players and new.tasks is not state.tasks and new.turn is not state.turn
    walk = next(a for a in E.legal_actions(new, 1) if a["kind"] == "move")
    after, _ = E.apply(new, 1, walk)
    assert after.board is new.board and after.players[1]["at"] == walk["to"] != new.players[1]["at"]


def test_action_domains():
    """Contract: 'board' for map and movement, 'combat' for battles, spells, transformations, token effects."""
    for kind in ("move", "pass", "fly"):
        assert E.action_domain({"kind": kind}) == "board"
    for kind in ("fight", "transform", "reroll", "accept", "declare", "reveal", "protect", "move_protection",
                 "power", "conquer", "transform_other", "home"):
        assert E.action_domain({"kind": kind}) == "combat"


@pytest.mark.parametrize("action", [None, {"kind": "move"}, {"kind": "move", "to": "x", "path": 3}, {"kind": "nope"}])
def test_describe_never_fails(action):
    """Contract: describe() is a label, so it answers even for an action that is not well formed."""
    assert E.describe(action).startswith("Unknown action")


def candidate_actions(state: TowerState, legal: list[dict], rng: random.Random) -> list[dict]:
    """Well-formed actions of every kind: the listed ones, the same kinds aimed elsewhere, and garbage-free
    near misses (other territories, seats, pulls, dice, choices)."""
    from shared.tower.pack import pack
    places = rng.sample(pack().territory_ids, 6) + ["rocky", "nowhere"]
    places += [a[f] for a in legal for f in ("to", "territory", "from") if f in a]
    seats, pulls = [0, 1, 2, 3, 4], [0, 1, 2, 3]
    out = [dict(a) for a in legal]
    for t in places:
        out += [{"kind": "move", "to": t, "path": [["walk", t]]}, {"kind": "move", "to": t, "path": [["cave", t]]},
                {"kind": "fly", "to": t}, {"kind": "reveal", "territory": t}, {"kind": "protect", "territory": t},
                {"kind": "power", "territory": t}, {"kind": "conquer", "territory": t},
                {"kind": "move_protection", "from": t, "to": places[0]}]
    out += [{"kind": k} for k in ("pass", "fight", "accept")]
    out += [{"kind": "home", "choice": c} for c in ("pennants", "again", "reclaim", "leave")]
    out += [{"kind": "declare", "seat": s} for s in seats]
    out += [{"kind": "transform", "pulls": k} for k in pulls]
    out += [{"kind": "transform_other", "seat": s, "pulls": k} for s in seats for k in pulls]
    out += [{"kind": "reroll", "dice": d} for d in ([0], [1], [4], [0, 1], [1, 0], [0, 1, 2], [0, 1, 2, 3, 4])]
    return out


@settings(max_examples=14, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_apply_accepts_exactly_the_listed_actions(seed):
    """Contract: legal_actions is complete and apply accepts exactly those - every listed action applies; anything
    else well formed is a RuleViolation. The one documented widening (README, Moving): a move may take any legal
    path, and then its destination is one of the listed moves' destinations."""
    from shared.tower.movement import check_path, occupied
    rng = random.Random(seed)
    state, _ = random_playout(E, MatchConfig(seats=2 + seed % 3), rng, max_steps=rng.randrange(20, 400))
    for _ in range(3):
        who = E.actor(state)
        if who < 0:
            return
        legal = E.legal_actions(state, who)
        for action in candidate_actions(state, legal, rng):
            if action in legal:
                E.apply(state, who, action)
                continue
            try:
                E.apply(state, who, action)
            except RuleViolation:
                continue
            assert action["kind"] == "move", f"{action} was accepted but not listed in {legal}"
            me = state.players[who]
            assert check_path(me["at"], me["character"], occupied(state.players, who), action["path"]) == action["to"]
            assert action["to"] in {a["to"] for a in legal if a["kind"] == "move"}
        state, _ = E.apply(state, who, rng.choice(legal))
        while E.actor(state) == CHANCE:
            state, _ = E.apply_chance(state, sample_chance(E.chance_request(state), rng))
