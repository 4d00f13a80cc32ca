"""A game's normal policy as it is now against the same policy at an earlier commit, in process:
what a change to a policy gained. Whole matches with fixed seeds, the seats alternated (match i
gives today's policy seat i mod seats, every other seat the earlier one); today's win rate (a k-way
tie 1/k), and for Wizards, whose whole games rarely have a winner, the share of matches it ended
ahead (bench.strength.ended_ahead: a game won ahead, one the other won behind, else by progress,
shared/wizards/levels.py `lead`, a level game half), each with its 95% interval.

    python -m bench.policy_versus --game wizards --against REV [--matches 200] [--seats 2] [--seed 7000]

The earlier policy is shared/<game>/policy.py as commit REV holds it (`git show`), loaded as a
module of its own beside today's, and played on today's engine: a policy that no longer fits the
engine fails as it would there. Only that file is the earlier one: the modules it imports (the
game's aims, spells, world) are today's. Not a test: it prints figures, every 20 matches as it goes.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import types
from pathlib import Path

from bench.strength import Ends, config_for, face_off, row_figures, win_share
from shared.engine.registry import engine_for, game_names, policy_for
from shared.wizards.levels import lead

ROOT = Path(__file__).resolve().parent.parent


def earlier_policy(game: str, rev: str):
    """The `choose` of shared/<game>/policy.py at commit `rev`; SystemExit naming the commit if git has no such file."""
    path = f"shared/{game}/policy.py"
    commit = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd=ROOT,
                            capture_output=True, text=True)
    shown = subprocess.run(["git", "show", f"{commit.stdout.strip()}:{path}"], cwd=ROOT, capture_output=True,
                           text=True) if commit.returncode == 0 else commit
    if commit.returncode != 0 or shown.returncode != 0:
        raise SystemExit(f"--against: no {path} at {rev!r}: {shown.stderr.strip() or 'no such commit'}")
    module = types.ModuleType(f"earlier_{game}_policy")
    sys.modules[module.__name__] = module  # (dataclasses and the like look their module up by name)
    exec(compile(shown.stdout, f"{rev}:{path}", "exec"), module.__dict__)
    return module.choose


def play(game: str, seats: int, matches: int, seed: int, earlier, report=print) -> dict:
    """row_figures of today's policy against `earlier` over `matches` whole matches."""
    engine, now = engine_for(game), policy_for(game, "normal")
    wins, ends = 0.0, Ends()
    for i in range(matches):
        mine = i % seats
        final = face_off(engine, config_for(game, seats, 0 if game == "wizards" else None), now, earlier, mine,
                         seed + i)
        winners = engine.outcome(final).winners
        wins += win_share(mine, winners)
        if game == "wizards":
            margin = lead(final, mine)
            assert margin is not None
            ends.add(margin, mine, winners)
        if (i + 1) % 20 == 0 or i + 1 == matches:
            report(summary(row_figures("now", "earlier", wins, i + 1, ends)))
    return row_figures("now", "earlier", wins, matches, ends)


def summary(row: dict) -> str:
    low, high = row["wilson95"]
    line = f"  {row['matches']} matches: today's policy wins {row['rate']:.1%} ({low:.1%} - {high:.1%})"
    if "ahead" in row:
        a_low, a_high = row["ahead_wilson95"]
        line += f", ended ahead in {row['ahead']:.1%} ({a_low:.1%} - {a_high:.1%}), " \
                f"mean margin {row['margin_mean']:+.2f}"
    return line


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True, choices=game_names())
    ap.add_argument("--against", required=True, help="the commit whose policy today's plays against")
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7000)
    args = ap.parse_args(argv)
    if args.matches < 1 or args.seats < 2:
        ap.error("--matches must be at least 1 and --seats at least 2")
    earlier = earlier_policy(args.game, args.against)
    print(f"{args.game}: today's normal policy against {args.against}'s, {args.seats} seats, "
          f"seeds {args.seed}...{args.seed + args.matches - 1}, seats alternated:", flush=True)
    play(args.game, args.seats, args.matches, args.seed, earlier, report=lambda line: print(line, flush=True))


if __name__ == "__main__":
    main()
