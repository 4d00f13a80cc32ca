"""bench/wizards_endgame.py: each Gem given or lost is counted once and under its cause, so that in a
whole game a seat's count of Gems given less those lost is what it holds at the end (or the six it
delivered, 7.336), and the report names every count."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from bench.wizards_endgame import COUNTS, PACE, careful, circle_may_fall, main, milestones, one_game, pace, tally
from shared.wizards import gem_aims, levels
from tests.wizards.scenario import build, hold_task, ranked


def test_a_theft_is_counted_under_the_rule_that_caused_it():
    counts = {0: Counter(), 1: Counter()}
    tally([{"type": "stolen", "seat": 1, "rule": "7.305 3"},
           {"type": "gems_stolen", "seat": 1, "gems": {"ishkatar": "ruby", "zhan": "opal"}, "rule": "14.25"},
           {"type": "stolen", "seat": 0, "rule": "7.301"},
           {"type": "gems_stolen", "seat": 0, "gems": {}, "rule": "14.25"},
           {"type": "false_wizard", "seat": 0, "wizard": "zhan", "stolen": ["ruby"], "rule": "7.3263"},
           {"type": "false_wizard", "seat": 1, "wizard": "zhan", "stolen": [], "rule": "7.3263"},
           {"type": "gem_received", "seat": 0, "wizard": "ishkatar", "gem": "ruby"},
           {"type": "spell_cast", "seat": 0, "spell": "gem_summoning", "die": 2, "success": True},
           {"type": "spell_cast", "seat": 0, "spell": "gem_summoning", "target": "zhan"}], counts)
    assert counts[1] == Counter({"stolen 7.305": 2})
    assert counts[0] == Counter({"false": 1, "given": 1, "random": 1, "contact": 1})


def test_a_player_encounter_is_counted_for_who_entered_and_who_was_entered_on():
    """7.302: the entering seat first in the group; Rank 4 result 5 tells the entering seat one Secret Wizard, 6
    shows one to every seat in the encounter; a Secret Wizard from another rule (11.223) is not counted."""
    counts = {0: Counter(), 1: Counter(), 2: Counter()}
    tally([{"type": "player_encounter", "seat": 2, "players": [2, 0, 1], "table": "4", "roll": 5, "rule": "7.302"},
           {"type": "secret_learned", "seat": 2, "from": 0, "letter": "A", "rule": "7.302 5"},
           {"type": "player_encounter", "seat": 0, "players": [0, 1], "table": "4", "roll": 6, "rule": "7.302"},
           {"type": "secret_wizard", "letter": "B", "seats": [0, 1], "rule": "7.302 Rank 4 6"},
           {"type": "secret_wizard", "letter": "C", "seats": [2], "rule": "11.223"}], counts)
    assert counts[0] == Counter({"entered": 1, "entered on": 1, "revealed": 1})
    assert counts[1] == Counter({"entered on": 2, "revealed": 1})
    assert counts[2] == Counter({"entered": 1, "learned": 1})


def test_milestones_keep_the_first_day_at_rank_four_and_the_first_with_every_mandatory_task_done():
    """13: a player at Rank FOUR gathers the Gems once his Mandatory Tasks are done (9.41); an Optional Task left
    does not hold him back, and a later day does not move a milestone already noted."""
    state = build(prepare=ranked(0, "sorcerers", 4))
    hold_task(state, 0, 1, mandatory=True)
    hold_task(state, 1, 2, mandatory=False)
    days: dict[int, dict[str, int]] = {0: {}, 1: {}}
    state.calendar["days_played"] = 100
    milestones(state, days)
    assert days == {0: {"rank four": 100}, 1: {}}
    state.players[0]["tasks"][0]["mandatory"] = False  # its Mandatory Task done (an Optional one is left)
    state.players[1]["rank"] = 4
    state.calendar["days_played"] = 112
    milestones(state, days)
    state.calendar["days_played"] = 130
    milestones(state, days)
    assert days == {0: {"rank four": 100, "gathering": 112}, 1: {"rank four": 112, "gathering": 112}}


def test_a_seats_pace_counts_its_summonings_from_the_day_it_began_to_gather():
    assert pace({"rank four": 100, "gathering": 112}, Counter({"random": 10, "contact": 2}), 160) == {
        "rank four": 100.0, "gathering": 112.0, "casts": 12.0, "days per cast": 4.0}
    assert pace({"rank four": 100}, Counter({"given": 1}), 160) == {"rank four": 100.0}


@pytest.mark.parametrize("seed", [9001, 9002])
def test_every_gem_of_a_whole_game_is_accounted_for(seed):
    final, counts, _ = one_game(levels.own, 2, seed % 2, seed)
    for seat, c in counts.items():
        assert set(c) <= set(COUNTS)
        lost = sum(n for key, n in c.items() if key == "false" or key.startswith("stolen"))
        delivered = 6 if seat in final.result["winners"] else 0
        assert c["given"] - lost == len(final.players[seat]["gems"]) + delivered
    assert sum(c["given"] for c in counts.values()) > 0, "a whole game in which no Gem was given tells nothing"


def _summonings(play, seed: int, last_phase: bool | None = None) -> list[tuple[int, object]]:
    """(Gems held, target) of each Gem Summoning offer (11.232) `play` answered in a whole two-seat game; with
    `last_phase` True or False, only the offers made once the Sacred Circle may fall, or before."""
    seen = []

    def watched(view, seat, legal, rng):
        action = play(view, seat, legal, rng)
        if gem_aims.summoning_offered(legal) and last_phase in (None, circle_may_fall(view)):
            seen.append((len(gem_aims.held(view, seat)), action["target"]))
        return action
    one_game(watched, 2, seed % 2, seed)
    return seen


def test_a_careful_seat_casts_no_random_summoning_from_the_gems_it_was_told():
    """11.2322 is cast below two Gems held and never from two on, where the own play casts it (seed 9002: the
    own play's seat reaches five Gems summoning at random)."""
    own = _summonings(levels.own, 9002)
    assert any(held >= 2 and target == "random" for held, target in own)
    kept = _summonings(careful(levels.own, 2), 9002)
    assert any(held < 2 and target == "random" for held, target in kept)
    assert [t for held, t in kept if held >= 2] and all(t != "random" for held, t in kept if held >= 2)
    assert careful(levels.own, 0) is levels.own  # 0 Gems: never declines (--careful 0, the default)


def test_careful_in_the_last_phase_casts_at_random_only_before_it():
    """With `last_phase`, 11.2322 from two Gems held is still cast while a Common or Elven Territory is left, and
    never once the next attack may take the Circle (12.131), where the own play casts it (seed 9002)."""
    assert any(held >= 2 and target == "random" for held, target in _summonings(levels.own, 9002, last_phase=True))
    late = careful(levels.own, 2, last_phase=True)
    assert any(held >= 2 and target == "random" for held, target in _summonings(late, 9002, last_phase=False))
    kept = [target for held, target in _summonings(late, 9002, last_phase=True) if held >= 2]
    assert kept and "random" not in kept


def test_a_careful_report_says_so_and_a_careful_count_out_of_range_is_refused(capsys):
    main(["--games", "1", "--seed", "9001", "--careful", "4"])
    assert "no random Gem Summoning from 4 Gems held," in capsys.readouterr().out.splitlines()[0]
    main(["--games", "1", "--seed", "9001", "--careful", "4", "--last-phase"])
    assert "from 4 Gems held once the Sacred Circle may fall," in capsys.readouterr().out.splitlines()[0]
    with pytest.raises(SystemExit):
        main(["--last-phase"])
    assert "--last-phase needs --careful N" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--careful", "7"])
    assert "--careful must be between 0 and 6 Gems" in capsys.readouterr().err


def test_the_report_names_every_count_and_how_each_game_ended(capsys):
    main(["--games", "2", "--seed", "9001"])
    out = capsys.readouterr().out
    for label in [*COUNTS.values(), *(label for label, _ in PACE.values())]:
        assert label in out
    shares = [float(s) for s in re.findall(r"\) (\d+\.\d)%", out.splitlines()[1])]
    assert sum(shares) == pytest.approx(100.0)


def test_a_game_count_below_one_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["--games", "0"])
    assert "--games must be at least 1" in capsys.readouterr().err
