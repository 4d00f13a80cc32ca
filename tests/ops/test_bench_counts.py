"""The small benches that take counts (bench/counts.py): help is help, and a bad count a usage error."""
from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from bench.counts import counts

ROOT = Path(__file__).resolve().parents[2]


def test_counts_are_read_in_order_with_their_defaults():
    named = (("solo_games", 200), ("duel_games", 40))
    assert counts("doc", *named, argv=[]) == [200, 40]
    assert counts("doc", *named, argv=["7"]) == [7, 40]
    assert counts("doc", *named, argv=["7", "3"]) == [7, 3]


@pytest.mark.parametrize("bad, said", [(["many"], "'many' is not a whole number"), (["0"], "0 is fewer than 1"),
                                       (["1", "2", "3"], "unrecognized arguments: 3")])
def test_a_bad_count_is_a_usage_error_that_names_it(bad, said, capsys):
    with pytest.raises(SystemExit) as ended:
        counts("doc", ("solo_games", 200), ("duel_games", 40), argv=bad)
    assert ended.value.code == 2 and said in capsys.readouterr().err


@pytest.mark.parametrize("bench", ["tower_clock", "wizards_life", "wizards_match", "incantris_play",
                                   "wizards_foresight"])
def test_each_counting_bench_answers_help_with_its_own_description(bench):
    done = subprocess.run([sys.executable, "-m", f"bench.{bench}", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    described = importlib.import_module(f"bench.{bench}").__doc__.splitlines()[0]
    assert done.stdout.startswith("usage:") and described in done.stdout
    assert "positional arguments:" in done.stdout  # its counts, each with its default
