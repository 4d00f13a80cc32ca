"""Wizards: which of a player's choices matter, in process.

Whole 2-seat games (no time limit) of the normal policy against a copy of it that takes another
legal action at random in a share (`--noise`, easy's 35% by default) of one kind of decision
only. The more often that copy ends behind, the more that kind of choice decides a game, and the
more a stronger level could gain by choosing it better (or lose by choosing it worse). The kinds:

    move            a step of the movement, or ending it (the hard level's search weighs these)
    roll            before the Movement Roll: roll, or cast a spell instead
    setup           placing tiles, the start and the colour
    join_order      joining an Order, or declining (7.321, 7.331, 7.341)
    gem_summoning   whom Gem Summoning contacts, or not casting it (11.232)
    encounter_spell a spell used in an encounter, or not (11)
    take_points     which points an encounter gives
    task_markers    picking up Task Markers, or leaving them (7.312)
    other           every other choice in the middle of an encounter

Seats alternate, seeds from 3000; the figures are the copy's share of games ended ahead on progress
(shared/wizards/levels.py `lead`; a level game half) with its 95% interval, and its mean margin.

    python -m bench.wizards_choices [--games 100] [--noise 0.35] [--kinds move,roll,...]
    (100 games of a kind take about a minute of one core)
"""
from __future__ import annotations

import argparse
import random
import statistics

from bench.strength import wilson
from shared.engine import MatchConfig
from shared.engine.playout import policy_playout
from shared.engine.registry import engine_for
from shared.wizards.levels import lead
from shared.wizards.policy import choose

CONFIG = MatchConfig(2, "standard", options={})  # no time limit: the whole game
KINDS = ("move", "roll", "setup", "join_order", "gem_summoning", "encounter_spell", "take_points", "task_markers",
         "other")
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
    return "roll" if "roll" in kinds else "other"


def careless(kind: str, noise: float):
    """The normal policy, with another legal action at random in `noise` of its decisions of `kind`."""

    def policy(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
        pick = choose(view, seat, legal, rng)
        if len(legal) > 1 and kind_of(view, legal) == kind and rng.random() < noise:
            return rng.choice([a for a in legal if a != pick])
        return pick
    return policy


def margins(kind: str, games: int, noise: float) -> list[float]:
    """The careless copy's final progress margin over the normal policy, game by game."""
    engine, copy = engine_for("wizards"), careless(kind, noise)
    out = []
    for i in range(games):
        mine = i % 2

        def policy(view, seat, legal, rng, mine=mine):
            return (copy if seat == mine else choose)(view, seat, legal, rng)
        final, _ = policy_playout(engine, CONFIG, policy, random.Random(SEED + i))
        margin = lead(final, mine)
        assert margin is not None
        out.append(margin)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--noise", type=float, default=0.35)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args(argv)
    kinds = args.kinds.split(",")
    unknown = set(kinds) - set(KINDS)
    if unknown:
        parser.error(f"no such kind of decision: {', '.join(sorted(unknown))} (the kinds: {', '.join(KINDS)})")
    print(f"the normal policy against itself with {args.noise:.0%} of one kind of decision taken at random, "
          f"{args.games} whole 2-seat games each:")
    for kind in kinds:
        got = margins(kind, args.games, args.noise)
        ahead = sum(m > 0 for m in got) + sum(m == 0 for m in got) / 2
        low, high = wilson(ahead, len(got))
        print(f"  {kind:<16} careless copy ahead in {ahead / len(got):6.1%} ({low:.1%} - {high:.1%}), "
              f"mean margin {statistics.mean(got):+.2f}", flush=True)


if __name__ == "__main__":
    main()
