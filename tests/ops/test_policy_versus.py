"""bench/policy_versus.py: the earlier policy is the commit's own file, loaded beside today's, and a
commit without it is refused by name before any match."""
from __future__ import annotations

import random

import pytest

from bench.policy_versus import earlier_policy, main
from shared.engine import MatchConfig
from shared.engine.playout import policy_playout
from shared.engine.registry import engine_for, policy_for


def committed_as_it_is(path: str) -> bool:
    """Whether this checkout is a git one whose `path` is as HEAD holds it."""
    import subprocess

    from bench.policy_versus import ROOT

    return subprocess.run(["git", "diff", "--quiet", "HEAD", "--", path], cwd=ROOT, capture_output=True).returncode == 0


def test_the_policy_of_the_commit_checked_out_chooses_as_todays():
    """HEAD's Tower policy is today's (its file is committed as it is): a module of its own, the same choices."""
    if not committed_as_it_is("shared/tower/policy.py"):
        pytest.skip("shared/tower/policy.py differs from HEAD's here, or this is no git checkout")
    earlier, now = earlier_policy("tower", "HEAD"), policy_for("tower")
    assert earlier is not now and earlier.__module__ != now.__module__
    agreed = []

    def both(view, seat, legal, rng):
        state = rng.getstate()
        pick = now(view, seat, legal, rng)
        rng.setstate(state)
        agreed.append(earlier(view, seat, legal, rng) == pick)
        return pick
    policy_playout(engine_for("tower"), MatchConfig(2), both, random.Random(5))
    assert len(agreed) > 20 and all(agreed)


def test_a_match_row_is_printed_as_it_goes(capsys):
    main(["--game", "tower", "--against", "HEAD", "--matches", "2"])
    out = capsys.readouterr().out
    assert "today's normal policy against HEAD's, 2 seats, seeds 7000...7001" in out
    assert "  2 matches: today's policy wins" in out


def test_a_commit_without_the_policy_is_refused_by_name():
    with pytest.raises(SystemExit, match="no shared/tower/policy.py at 'no-such-commit'"):
        main(["--game", "tower", "--against", "no-such-commit", "--matches", "1"])
