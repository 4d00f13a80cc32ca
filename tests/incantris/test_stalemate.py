"""The stalemate (authored, scenarios.py and the README): the rulebook prints no end for a match
in which nobody acts, so ten quiet rounds in a row (no life lost, no crystal sapped, picked up or
carried off) end it, and so does the end of round 100; the scenario's own victory decides it."""
from __future__ import annotations

import random

from shared.engine import CHANCE, TERMINAL, MatchConfig
from shared.engine.playout import policy_playout
from shared.hexgrid import distance
from shared.incantris import scenarios
from shared.incantris.policy import STIR_AFTER, choose

from .support import BLANK, WAND, E, act, arrange, begin, fill, game, settle

RED_SHAMAN, RED_DRUID, RED_SORC = "red-shaman", "red-druid", "red-sorceress"
BLUE_AK, BLUE_SW, BLUE_SORC = "blue-arcane-knight", "blue-shadow-weaver", "blue-sorcerer"


def idle_round(s):
    """Every side activates its wizards in turn and ends each turn at once."""
    start = s.round
    while E.actor(s) != TERMINAL and s.round == start:
        if s.turn["wizard"] is None:
            s, _ = act(s, E.legal_actions(s, E.actor(s))[0])
        s, _ = act(s, {"kind": "end"})
    return s


def test_ten_quiet_rounds_end_the_match_for_the_side_with_more_living_wizards():
    """Battle Royale: "The last player with at least one living wizard wins": at a stalemate the
    side with more living wizards wins."""
    s = arrange(game(), {RED_DRUID: (0, -6), RED_SHAMAN: (2, -6), BLUE_SW: (0, 6)})
    for _ in range(scenarios.QUIET_ROUNDS - 1):
        s = idle_round(s)
        assert E.actor(s) != TERMINAL
    assert s.quiet == scenarios.QUIET_ROUNDS - 1
    s = idle_round(s)
    assert E.actor(s) == TERMINAL and s.result == {"winners": [0], "stalemate": "quiet"}
    o = E.outcome(s)
    assert o.winners == (0,) and o.scores == (1, 0) and "stalemate" in o.summary


def test_equal_sides_are_split_by_life_left_and_else_share_the_win():
    s = arrange(game(), {RED_DRUID: (0, -6), BLUE_SW: (0, 6)}, life={RED_DRUID: 5, BLUE_SW: 6})
    s.quiet = scenarios.QUIET_ROUNDS - 1
    s = idle_round(s)
    assert s.result["winners"] == [1]
    s = arrange(game(), {RED_SORC: (0, -6), BLUE_SW: (0, 6)})  # 8 life each
    s.quiet = scenarios.QUIET_ROUNDS - 1
    s = idle_round(s)
    assert s.result["winners"] == [0, 1] and E.outcome(s).scores == (1, 1)


def test_a_round_in_which_a_wizard_loses_life_is_not_quiet():
    s = arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (2, 0)})
    s.quiet = scenarios.QUIET_ROUNDS - 1
    s = begin(s, RED_DRUID)
    s, _ = act(s, {"kind": "cast", "spell": "tempest", "target": BLUE_SW})
    s, _ = fill(s, WAND, BLANK)
    s, _ = act(s, {"kind": "end"})
    s, _ = act(s, {"kind": "activate", "wizard": BLUE_SW})
    s, _ = act(s, {"kind": "end"})
    assert E.actor(s) != TERMINAL and s.quiet == 0


def test_no_match_is_played_past_the_round_limit():
    s = arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (0, 6)})
    s.round = scenarios.MAX_ROUNDS
    s.stirred = True
    s = idle_round(s)
    assert E.actor(s) == TERMINAL and s.result["stalemate"] == "rounds" and s.round == scenarios.MAX_ROUNDS


def test_at_a_stalemate_the_solo_player_loses():
    """Solo Play: "The player wins by killing all the attacking wizards": the player who has not
    done so when the stalemate ends the match loses it."""
    s = arrange(game("solo", 1), {RED_DRUID: (0, 0), BLUE_SW: (0, 6)})
    s.quiet = scenarios.QUIET_ROUNDS
    settle(s, [])
    while E.actor(s) == CHANCE:  # a spell under way resolves before the match ends
        s, _ = fill(s, BLANK, WAND)
    assert E.actor(s) == TERMINAL and E.outcome(s).winners == () and "stalemate" in E.outcome(s).summary


def test_crystal_sap_values_crystals_sapped_first():
    s = arrange(game("crystal-sap", 3), {RED_DRUID: (0, -6), BLUE_SW: (0, 5), BLUE_AK: (1, 5),
                                         "purple-shaman": (-6, 0)})
    s.edit("sides", 0)["sapped"] = 1  # one of the two it needs
    s.quiet = scenarios.QUIET_ROUNDS - 1
    s = idle_round(s)
    assert s.result["winners"] == [0]


def test_the_ai_breaks_a_deadlock_itself():
    """Two last wizards next to each other whose only attack (Meteor Storm) would hit the caster
    too: after quiet rounds the AI steps out and casts from where the storm spares it."""
    s = arrange(game(), {BLUE_SORC: (0, 0), RED_SORC: (1, 0)})
    s.quiet = STIR_AFTER
    s = begin(s, BLUE_SORC)
    for _ in range(8):
        pick = choose(E.view(s, 1), 1, E.legal_actions(s, 1), random.Random(0))
        s, ev = act(s, pick)
        if pick["kind"] == "cast":
            assert pick["spell"] == "meteor-storm"
            assert distance(tuple(pick["target"]), tuple(s.wizards[BLUE_SORC]["hex"])) >= 2
            break
        assert pick["kind"] == "step"
    else:
        raise AssertionError("the AI never attacked")


def test_ai_matches_end_well_inside_the_bound():
    for seed, (variant, seats) in enumerate([("battle-royale", 2), ("battle-royale", 3), ("solo", 1)]):
        state, _ = policy_playout(E, MatchConfig(seats, variant), choose, random.Random(seed), max_steps=200_000)
        assert E.actor(state) == TERMINAL and state.round <= scenarios.MAX_ROUNDS
