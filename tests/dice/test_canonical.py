"""The one canonical JSON (shared/canonical.py) is RFC 8785 for the values the platform writes,
checked against the `rfc8785` package, and the very bytes the platform wrote before it."""
from __future__ import annotations

import json
import math

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.canonical import MAX_SAFE_INTEGER, canonical, number

OLD_RECIPE = dict(sort_keys=True, separators=(",", ":"), ensure_ascii=False)

texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
scalars = st.none() | st.booleans() | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER) | texts
floats = st.floats(allow_nan=False, allow_infinity=False)


bmp_keys = st.text(st.characters(exclude_categories=("Cs",), max_codepoint=0xFFFF), max_size=8)


def json_values(leaves, keys=texts):
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                        max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(json_values(scalars | floats))
def test_canonical_is_rfc8785(value):
    assert canonical(value).encode() == rfc8785.dumps(value)


@settings(max_examples=400, deadline=None)
@given(json_values(scalars, bmp_keys))
def test_without_floats_it_is_the_recipe_every_event_was_written_with(value):
    """Old chains hash the stored text, and the platform's values (no floats, keys in the Basic Multilingual
    Plane: the platform's keys are ASCII) encode as they always did; only keys mixing characters past U+FFFF
    with ones from U+E000 sort differently (UTF-16 order, as RFC 8785 asks)."""
    assert canonical(value) == json.dumps(value, **OLD_RECIPE)


@settings(max_examples=2000, deadline=None)
@given(floats)
def test_numbers_as_ecmascript_writes_them(x):
    assert number(x).encode() == rfc8785.dumps(x)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, {"x": [math.nan]}, 2**53, -(2**53), {1: "a"},
                                 "\ud800", {"k": object()}])
def test_what_jcs_cannot_write_is_refused(bad):
    with pytest.raises(ValueError):
        canonical(bad)


def test_every_event_of_real_matches_is_canonical_and_rfc8785(channel):
    """A served match's log, in full after its end: each body is the canonical text of itself."""
    from archmage.board.v1 import board_pb2_grpc
    from archmage.combat.v1 import combat_pb2_grpc
    from archmage.dice.v1 import dice_pb2, dice_pb2_grpc

    from tests.trust.support import human_match
    from tests.trust.test_holes import roll_to_the_end

    board, combat = board_pb2_grpc.BoardStub(channel), combat_pb2_grpc.CombatStub(channel)
    match_id, metas = human_match(channel, "race", 2, variant="secret-start")
    roll_to_the_end(board, combat, match_id, metas)
    log = dice_pb2_grpc.DiceStub(channel).ExportLog(dice_pb2.ExportLogRequest(session_id=match_id))
    assert len(log.events) > 4
    for e in log.events:
        value = json.loads(e.body_json)
        assert e.body_json == canonical(value) and e.body_json.encode() == rfc8785.dumps(value)
