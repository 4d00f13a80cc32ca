"""The typed-state base: path copying shares what a step leaves alone and never
changes the state it started from; encoding is exact."""
from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.engine.state import GameState, canonical_bytes, tree_copy


@dataclasses.dataclass(slots=True, eq=True)
class Sample(GameState):
    HOT = frozenset({"turn"})
    turn: dict
    board: dict
    log: list


def sample() -> Sample:
    return Sample(turn={"seat": 0}, board={"a": {"tokens": [1, 2]}, "b": {"tokens": [3]}}, log=[[1], [2]])


def test_successor_copies_hot_fields_and_shares_the_rest():
    s = sample()
    d = s.successor()
    assert d.turn == s.turn and d.turn is not s.turn
    assert d.board is s.board and d.log is s.log


def test_edit_copies_the_path_and_leaves_siblings_shared():
    s = sample()
    d = s.successor()
    d.edit("board", "a")["tokens"].append(9)
    assert s.board["a"]["tokens"] == [1, 2]
    assert d.board["a"]["tokens"] == [1, 2, 9]
    assert d.board is not s.board and d.board["b"] is s.board["b"]
    again = d.edit("board", "a")  # owned now: no second copy
    assert again is d.board["a"]
    d.edit("board")["c"] = {"tokens": []}  # the whole field, after one entry
    assert "c" not in s.board and d.board["a"]["tokens"] == [1, 2, 9]


def test_edit_of_a_list_entry_and_of_a_state_built_directly():
    s = sample()
    d = s.successor()
    d.edit("log", 1).append(3)
    assert s.log == [[1], [2]] and d.log == [[1], [2, 3]] and d.log[0] is s.log[0]
    built = sample()
    built.edit("board", "a")["tokens"].clear()  # nothing shared: changed in place
    assert built.board["a"]["tokens"] == []


def test_an_edit_of_a_state_after_its_successor_was_taken_leaves_the_successor_alone():
    s = sample()
    d = s.successor()
    s.edit("board", "a")["tokens"].append(7)
    assert d.board["a"]["tokens"] == [1, 2] and s.board["a"]["tokens"] == [1, 2, 7]


def test_replace_owns_the_new_value():
    s = sample()
    d = s.successor()
    d.replace("board", {"z": {"tokens": []}})
    d.edit("board", "z")["tokens"].append(1)
    assert d.board == {"z": {"tokens": [1]}} and "z" not in s.board


def test_encode_is_canonical_and_exact():
    s = sample()
    data = s.encode()
    assert data == json.dumps(s.to_json(), sort_keys=True, separators=(",", ":")).encode()
    assert Sample.decode(data) == s


json_values = st.recursive(st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.text(),
                           lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=30)


with_floats = st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text()
                           | st.floats(allow_nan=False, allow_infinity=False),
                           lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=30)


@given(with_floats)
def test_tree_copy_is_equal_and_shares_no_container(value):
    copy = tree_copy(value)
    assert copy == value and canonical_bytes(copy) == canonical_bytes(value)  # each float to the last bit

    def containers(v):
        if isinstance(v, dict):
            yield v
            for x in v.values():
                yield from containers(x)
        elif isinstance(v, list):
            yield v
            for x in v:
                yield from containers(x)
    assert not {id(c) for c in containers(copy)} & {id(c) for c in containers(value)}


def test_tree_copy_refuses_data_a_state_could_not_store():
    """A dict keyed by numbers would not survive storing either: it is refused, not copied changed."""
    with pytest.raises(TypeError):
        tree_copy({"players": {0: "seat"}})


@given(json_values)
def test_canonical_bytes_match_the_json_recipe(value):
    recipe = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert canonical_bytes(value) == recipe


def test_a_state_stored_before_a_field_was_added_loads_and_plays_on():
    """A match in play when the platform is upgraded: its stored state lacks the fields added since (GameState.ADDED);
    it decodes with what an older state means, plays on, and a state missing anything else is still refused."""
    import random

    import pytest

    from shared.engine import MatchConfig
    from shared.engine.playout import random_playout
    from shared.engine.registry import engine_for

    for game in ("tower", "incantris"):
        engine = engine_for(game)
        state, _ = random_playout(engine, MatchConfig(2), random.Random(3), 60)
        old = engine.encode(state)
        data = __import__("orjson").loads(old)
        cls = type(state)
        assert cls.ADDED, game
        for name in cls.ADDED:
            del data[name]
        loaded = cls.from_json(data)
        assert all(getattr(loaded, n) == v for n, v in cls.ADDED.items())
        if engine.actor(loaded) >= 0:
            engine.apply(loaded, engine.actor(loaded), engine.legal_actions(loaded, engine.actor(loaded))[0])
        del data["seats"]
        with pytest.raises(ValueError, match="missing"):
            cls.from_json(data)
