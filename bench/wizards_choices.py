"""Wizards: which of a player's choices matter, in process.

Whole 2-seat games (no time limit) of the normal policy against a copy of it that takes another
legal action at random in a share (`--noise`, the easy level's by default) of one kind of decision
only. The more often that copy ends behind, the more that kind of choice decides a game, and the
more a stronger level could gain by choosing it better (or lose by choosing it worse). The kinds:

    move            a step of the movement, ending it, or a spell on offer then (the hard level's
                    search weighs these)
    roll            before the Movement Roll: roll, or cast a spell instead
    summon_boat     which Boat Boat Summoning brings, and where (11.211)
    setup           placing tiles, the start and the colour
    join_order      joining an Order, or declining (7.321, 7.331, 7.341)
    gem_summoning   whom Gem Summoning contacts, or not casting it (11.232)
    encounter_spell a spell used in an encounter, or not (11)
    take_points     which points an encounter gives
    task_markers    picking up Task Markers, or leaving them (7.312)
    other           every other choice in the middle of an encounter (a Gem asked of a High Wizard,
                    help asked for, a Task Marker placed or a Task given)

Seats alternate, seeds from 3000; the figures are the copy's share of games ended ahead (a game won
ahead, one the other seat won behind, else by progress, shared/wizards/levels.py `lead`; a level game
half) with its 95% interval, and its mean margin.

    python -m bench.wizards_choices [--games 100] [--noise 0.35] [--kinds move,roll,...]
    (100 games of a kind take about a minute of one core)
"""
from __future__ import annotations

import argparse
import random

from bench.strength import Ends, face_off, row_figures
from shared.engine import MatchConfig
from shared.engine.levels import noisy
from shared.engine.registry import engine_for, game
from shared.wizards.levels import lead
from shared.wizards.policy import choose

CONFIG = MatchConfig(2, "standard", options={})  # no time limit: the whole game
KINDS = ("move", "roll", "summon_boat", "setup", "join_order", "gem_summoning", "encounter_spell", "take_points",
         "task_markers", "other")
SEED = 3000


def kind_of(view: dict, legal: list[dict]) -> str:
    """The kind of a decision (the module docstring), from the view and the actions on offer."""
    kinds = {a["kind"] for a in legal}
    if view["phase"] != "play":
        return "setup"
    if view["pending"]:
        for k in ("join_order", "gem_summoning", "encounter_spell", "take_points"):
            if k in kinds:
                return k
        return "task_markers" if "pick_up_task_markers" in kinds else "other"
    if kinds & {"move", "end_move"}:
        return "move"
    if "roll" in kinds:
        return "roll"
    return "summon_boat" if "summon_boat" in kinds else "other"


def careless(kind: str, noise: float):
    """The normal policy, and the easy level's noise (`noisy`) on its decisions of `kind` only."""
    easy = noisy(choose, noise)

    def policy(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
        return (easy if kind_of(view, legal) == kind else choose)(view, seat, legal, rng)
    return policy


def ends_of(kind: str, games: int, noise: float) -> Ends:
    """How each game ended for the careless copy: its final progress margin over the normal policy, and
    whether it ended ahead (bench.strength.ended_ahead: a game won ahead, one the other seat won behind)."""
    engine, copy = engine_for("wizards"), careless(kind, noise)
    ends = Ends()
    for i in range(games):
        mine = i % 2
        final = face_off(engine, CONFIG, copy, choose, mine, SEED + i)
        margin = lead(final, mine)
        assert margin is not None
        ends.add(margin, mine, engine.outcome(final).winners)
    return ends


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--noise", type=float, default=game("wizards").easy_noise)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args(argv)
    kinds = args.kinds.split(",")
    unknown = set(kinds) - set(KINDS)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if unknown:
        parser.error(f"no such kind of decision: {', '.join(sorted(unknown))} (the kinds: {', '.join(KINDS)})")
    print(f"the normal policy against itself with {args.noise:.0%} of one kind of decision taken at random, "
          f"{args.games} whole 2-seat games each:")
    for kind in kinds:
        row = row_figures(kind, "normal", 0.0, args.games, ends_of(kind, args.games, args.noise))
        low, high = row["ahead_wilson95"]
        print(f"  {kind:<16} careless copy ahead in {row['ahead']:6.1%} ({low:.1%} - {high:.1%}), "
              f"mean margin {row['margin_mean']:+.2f}", flush=True)


if __name__ == "__main__":
    main()
