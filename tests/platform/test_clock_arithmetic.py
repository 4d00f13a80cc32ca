"""The arithmetic of a match's clock (services/core/clocks.py), with the time passed in."""
from __future__ import annotations

import pytest

from services.core import clocks
from services.core.errors import BadRequest

HUMANS = ["human", "human", "human"]


def _started(control, kinds=HUMANS, actor=0, at=0):
    clock = clocks.start(control, len(kinds), 5.0, at)
    return clocks.advance(clock, None, actor, kinds, at)[0]


def test_a_turn_spends_its_own_limit_first_then_the_bank():
    clock = _started(clocks.checked("turn", 10, 30))
    assert clocks.deadline_ms(clock) == 40_000
    clock, used = clocks.advance(clock, 0, 1, HUMANS, 4_000)  # in its limit: the bank is untouched
    assert used == 4_000 and clock["left"] == [30_000, 30_000, 30_000] and clock["running"] == 1
    assert clocks.deadline_ms(clock) == 4_000 + 10_000 + 30_000
    clock, used = clocks.advance(clock, 1, 2, HUMANS, 4_000 + 25_000)  # 15 s over its limit
    assert used == 25_000 and clock["left"][1] == 15_000


def test_steps_of_one_turn_share_its_limit_and_another_seat_reacting_stops_nothing():
    clock = _started(clocks.checked("turn", 10, 0))
    clock, _ = clocks.advance(clock, 0, 0, HUMANS, 6_000)  # seat 0 steps and is still to act
    assert clocks.deadline_ms(clock) == 10_000
    clock, used = clocks.advance(clock, 2, 0, HUMANS, 7_000)  # seat 2 reacts out of turn
    assert used is None and clocks.deadline_ms(clock) == 10_000


def test_a_total_clock_runs_only_for_the_seat_to_act_and_never_for_an_ai_seat():
    kinds = ["human", "ai", "human"]
    clock = _started(clocks.checked("total", total_s=60), kinds)
    clock, used = clocks.advance(clock, 0, 1, kinds, 20_000)
    assert used == 20_000 and clock["left"][0] == 40_000
    assert clock["running"] == -1 and clocks.due_ms(clock) is None  # the AI seat runs no clock
    clock, _ = clocks.advance(clock, 1, 0, kinds, 90_000)
    assert clocks.deadline_ms(clock) == 90_000 + 40_000
    assert clocks.remaining_ms(clock, 0, 100_000) == 30_000 and clocks.remaining_ms(clock, 2, 100_000) == 60_000


def test_a_seat_out_of_time_waits_the_grace_for_its_player_at_each_of_its_turns():
    clock = _started(clocks.checked("turn", 10, 0))
    clock = clocks.timed_out(clock, 0, "hash", 10_000)
    clock, _ = clocks.advance(clock, None, 0, HUMANS, 10_000)
    assert clock["running"] == -1 and clock["waiting"] == 0 and clocks.due_ms(clock) == 15_000
    clock = clocks.returned(clock, 0)
    clock, _ = clocks.advance(clock, 0, 1, HUMANS, 12_000)
    assert clock["stand_in"] == {} and clock["running"] == 1


@pytest.mark.parametrize("args, field", [
    (("turn", -1, 0), "turn_s"), (("turn", 10, -1), "bank_s"), (("total", 0, 0, 1e9), "total_s"),
    (("turn", 0.5, 0), "turn_s"), (("total", 0, 0, float("inf")), "total_s"), (("turn", 10, 0, 60), "total_s"),
    (("total", 10, 0, 60), "turn_s"), (("none", 10), "turn_s"), (("sudden",), "mode"),
])
def test_a_clock_that_cannot_be_played_names_its_field(args, field):
    with pytest.raises(BadRequest) as refused:
        clocks.checked(*args)
    assert refused.value.field == f"time_control.{field}"
