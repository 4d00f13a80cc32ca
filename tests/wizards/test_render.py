"""Drawing a view as text and describing events one line each."""
from __future__ import annotations

from shared.engine import MatchConfig
from shared.wizards.geometry import board
from shared.wizards.render import render, render_events
from tests.wizards.scenario import ENGINE, build, hex_of, move, roll


def test_render_draws_the_board_and_the_players():
    st = roll(build(seats=2), 3)
    text = render(ENGINE.view(st, 0), 0)
    lines = text.splitlines()
    assert len([ln for ln in lines if ln.strip().startswith(("~", "^", ".", "%"))]) >= board().rows - 2
    assert "a seat 0" in text and "b seat 1" in text and "Meadowfarm" in text
    assert "Waiting for seat 0 (you): move" in text
    assert "\033[" not in text
    assert "\033[" in render(ENGINE.view(st, None), None, colour=True)


def test_render_events_one_line_each_with_dice():
    st = build(seats=2)
    st, ev = ENGINE.apply_chance(st, [[4], [2]])
    st, ev2 = move(st, 0, "walk", hex_of(st, "C5", "A2"))
    events = ev + ev2
    lines = render_events(events)
    assert len(lines) == len(events)
    assert any("white die 4" in ln for ln in lines)
    assert any("walks to Meadowfarm A2" in ln for ln in lines)
    assert all("\n" not in ln for ln in lines)


def test_secret_dice_are_not_shown():
    st = ENGINE.setup(MatchConfig(2))
    st, ev = ENGINE.apply_chance(st, [[1]] * len(st["chance"]["request"]["pools"]))
    line = render_events([e for e in ev if e["type"] == "dice"])[0]
    assert "in secret" in line
