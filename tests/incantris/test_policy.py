"""The AI seat: legal picks from the view alone, fast, sensible, and games that end."""
from __future__ import annotations

import random

import pytest

from shared.engine import TERMINAL, MatchConfig
from shared.engine.playout import policy_playout
from shared.hexgrid import distance
from shared.incantris.policy import choose

from .support import BLANK, E, act, arrange, begin, fill, game, legal


def play_out(config: MatchConfig, seed: int, max_steps: int = 8000):
    state, _ = policy_playout(E, config, choose, random.Random(seed), max_steps)
    return state


@pytest.mark.parametrize("variant,seats,seed", [
    ("battle-royale", 2, 1), ("battle-royale", 3, 2), ("battle-royale", 4, 3), ("crystal-sap", 2, 4),
    ("crystal-sap", 4, 5), ("capture-the-crystal", 3, 6), ("shifting-arena", 2, 7), ("shifting-arena", 4, 8),
    ("solo", 1, 9),
])
def test_games_end_when_every_seat_plays_the_policy(variant, seats, seed):
    s = play_out(MatchConfig(seats, variant), seed)
    assert E.actor(s) == TERMINAL, f"{variant} with {seats} did not end"  # (its speed is in `make bench`)


def test_focus_fire_on_the_weakest_ward():
    """A Sorceress (elemental) with a Shaman (1D against elemental) and a Sorcerer (2D+1) both in
    reach hits the Shaman."""
    s = begin(arrange(game("battle-royale", 2, teams=["purple", "grey"]),
                      {"purple-sorceress": (0, 0), "grey-sorcerer": (3, 0), "grey-arcane-knight": (0, 3)}),
              "purple-sorceress")
    pick = choose(E.view(s, 0), 0, legal(s), random.Random(1))
    assert pick["kind"] == "cast" and pick.get("target") == "grey-arcane-knight"


def test_keeps_out_of_reach_after_casting():
    s = begin(arrange(game(), {"red-druid": (0, 0), "blue-arcane-knight": (2, 0)}), "red-druid")
    s, _ = act(s, {"kind": "cast", "spell": "tempest", "target": "blue-arcane-knight"})
    s, _ = fill(s, BLANK, BLANK)
    pick = choose(E.view(s, 0), 0, legal(s), random.Random(1))
    assert pick["kind"] == "step" and distance(tuple(pick["to"]), (2, 0)) > 2


def test_puts_persistent_spells_to_work():
    """With no foe in reach of a damaging spell the Grey Sorcerer raises his hydra."""
    s = begin(arrange(game("battle-royale", 2, teams=["grey", "red"]),
                      {"grey-sorcerer": (-6, 0), "red-druid": (6, 0)}), "grey-sorcerer")
    s.turn["mp"] = 0
    pick = choose(E.view(s, 0), 0, legal(s), random.Random(1))
    assert pick["kind"] == "cast" and pick["spell"] in ("guardian-hydra", "blaze")


def test_answers_its_own_questions():
    s = begin(arrange(game("battle-royale", 2, teams=["grey", "red"]), {"grey-sorcerer": (-6, 0), "red-druid": (0, 0)}),
              "red-druid")
    s.edit("effects")["grey-sorcerer:blaze"] = {"id": "grey-sorcerer:blaze", "spell": "blaze",
                                                "caster": "grey-sorcerer", "side": 0, "since": 0, "centre": [2, 0]}
    s, _ = act(s, {"kind": "step", "to": [1, 0]})
    assert E.actor(s) == 0
    assert choose(E.view(s, 0), 0, legal(s), random.Random(1)) == {"kind": "blaze", "burn": True}


def test_the_platform_finds_this_policy():
    from shared.engine import registry

    assert registry.policy_for("incantris") is choose
