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


@pytest.mark.parametrize("bad", [["--game", "chess"], ["--pairs", "hard-grandmaster"], ["--pairs", "hard"]])
def test_a_command_the_bench_cannot_play_stops_before_any_match(bad):
    with pytest.raises(SystemExit, match="--game|--pairs"):
        checked(parser().parse_args(bad))
