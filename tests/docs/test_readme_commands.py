"""Every `archmage` command line the README shows is one the client accepts as written (parsed
by its own argument parser, not run: running them is the served tests' job)."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from services.cli.main import build_parser

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()
BLOCKS = re.findall(r"```(?:sh|bash)\n(.*?)```", README, re.S)
COMMANDS = [command.strip() for block in BLOCKS for line in block.splitlines()
            for command in line.split("  #")[0].split("&&")
            if re.match(r"\s*(\.venv/bin/)?archmage\s", command)]


def test_the_readme_shows_commands():
    assert len(COMMANDS) >= 5, COMMANDS


@pytest.mark.parametrize("line", COMMANDS)
def test_each_readme_command_parses(line):
    words = shlex.split(line)
    args = build_parser().parse_args(words[1:])
    assert callable(args.run), line
