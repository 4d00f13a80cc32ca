"""Every strength-bench command line docs/ai-levels.md shows is one the bench accepts as written:
parsed and checked as the bench checks it before its first match (not run: a row of 200 hard
matches is hours of CPU)."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bench.strength import checked, parser

GUIDE = (Path(__file__).resolve().parents[2] / "docs" / "ai-levels.md").read_text()
COMMANDS = [line.strip() for block in re.findall(r"```(?:sh|bash)\n(.*?)```", GUIDE, re.S)
            for line in block.splitlines() if "-m bench.strength " in line]


def test_the_guide_shows_a_bench_command():
    assert COMMANDS


@pytest.mark.parametrize("line", COMMANDS)
def test_each_bench_command_is_accepted(line):
    words = shlex.split(line)
    checked(parser().parse_args(words[words.index("bench.strength") + 1:]))


PAIRED = [line.strip() for block in re.findall(r"```(?:sh|bash)\n(.*?)```", GUIDE, re.S)
          for line in block.splitlines() if "-m bench.strength_paired " in line]


@pytest.mark.parametrize("line", PAIRED)
def test_each_paired_comparison_runs_on_the_records_as_written(line, capsys, monkeypatch):
    """A paired comparison reads records only (seconds), so it is run: its rows are found and compared."""
    from bench.strength_paired import main as paired

    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    words = shlex.split(line)
    paired(words[words.index("bench.strength_paired") + 1:])
    both = re.search(r"(\d+) matches both played", capsys.readouterr().out)
    assert both and int(both.group(1)) > 0


def test_the_guide_shows_a_paired_comparison():
    assert PAIRED


@pytest.mark.parametrize("bad", [["--game", "chess"], ["--pairs", "hard-grandmaster"], ["--pairs", "hard"]])
def test_a_command_the_bench_cannot_play_stops_before_any_match(bad):
    with pytest.raises(SystemExit, match="--game|--pairs"):
        checked(parser().parse_args(bad))


def test_the_guides_hard_tables_are_those_of_the_committed_records():
    """docs/ai-levels.md's tables of hard rows and hard think times are what the records in docs/strength give
    (`python -m bench.strength_table --doc docs/ai-levels.md docs/strength/*.jsonl` writes them anew): a row resumed
    or a setting changed shows in the guide in the same commit."""
    from bench.strength_table import load, refreshed

    records = sorted((Path(__file__).resolve().parents[2] / "docs" / "strength").glob("*.jsonl"))
    assert records
    assert refreshed(GUIDE, load(records)) == GUIDE


def test_refreshing_the_guide_rewrites_only_its_marked_tables():
    from bench.strength_table import refreshed

    figures = [{"game": "tower", "variant": "standard", "seats": 2, "days": None, "hard": {"root": "halving"},
                "rows": [{"first": "hard", "second": "normal", "rate": 0.7, "wilson95": [0.6, 0.8], "matches": 40}],
                "think": {"hard": {"p50_ms": 300.0, "p95_ms": 700.0, "decisions": 900},
                          "normal": {"p50_ms": 0.03, "p95_ms": 0.1, "decisions": 800}}}]
    doc = ("intro\n<!-- hard rows -->\nold\n<!-- /hard rows -->\n"
           "middle\n<!-- hard think -->\nold\n<!-- /hard think -->\nend")
    new = refreshed(doc, figures)
    assert new.startswith("intro\n<!-- hard rows -->\n| game |") and "\nmiddle\n" in new and new.endswith("end")
    assert "| tower | 2 | hard (halving) v normal | 70.0% | 60.0% - 80.0% | 40 |  |" in new
    assert "| tower | 2 | hard (halving) | 300.00 ms | 700.00 ms | 900 |" in new and "| normal |" not in new
    assert "old" not in new and refreshed(new, figures) == new
    with pytest.raises(ValueError):
        refreshed("no marks here", figures)
