"""bench/wizards_endgame.py: each Gem given or lost is counted once and under its cause, so that in a
whole game a seat's count of Gems given less those lost is what it holds at the end (or the six it
delivered, 7.336), and the report names every count."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from bench.wizards_endgame import COUNTS, main, one_game, tally
from shared.wizards import levels


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
    assert counts[0] == Counter({"false": 1, "given": 1, "random": 1})


@pytest.mark.parametrize("seed", [9001, 9002])
def test_every_gem_of_a_whole_game_is_accounted_for(seed):
    final, counts = one_game(levels.own, 2, seed % 2, seed)
    for seat, c in counts.items():
        assert set(c) <= set(COUNTS)
        lost = sum(n for key, n in c.items() if key == "false" or key.startswith("stolen"))
        delivered = 6 if seat in final.result["winners"] else 0
        assert c["given"] - lost == len(final.players[seat]["gems"]) + delivered
    assert sum(c["given"] for c in counts.values()) > 0, "a whole game in which no Gem was given tells nothing"


def test_the_report_names_every_count_and_how_each_game_ended(capsys):
    main(["--games", "2", "--seed", "9001"])
    out = capsys.readouterr().out
    for label in COUNTS.values():
        assert label in out
    shares = [float(s) for s in re.findall(r"\) (\d+\.\d)%", out.splitlines()[1])]
    assert sum(shares) == pytest.approx(100.0)


def test_a_game_count_below_one_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["--games", "0"])
    assert "--games must be at least 1" in capsys.readouterr().err
