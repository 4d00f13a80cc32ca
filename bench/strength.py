"""How strong each AI level is (shared/engine/levels.py), in process: hard against normal and
normal against easy, over whole matches with fixed seeds and the seats rotated (match i gives
the first-named level seat i mod seats, every other seat the second level), and how long each
level thinks per decision with a choice (p50 and p95; forced decisions are left out).

    python -m bench.strength --game tower --matches 40 [--seats 2] [--variant V] [--iterations I] [--ms M]
                             [--exploration C] [--bias B] [--horizon H] [--keep K]
                             [--pairs hard-normal,normal-easy] [--seed S] [--days D]

Wizards has no time limit of its own (a match can run for months of game days): `--days D` sets
one (MatchConfig.options["days"], 14 by default for Wizards), and since a match cut short is lost
by every seat (13), each Wizards match also prints where the seats got to (Order, Rank, points,
Gems) and the pair's line the first-named level's mean progress margin over the best other seat
(shared/wizards/levels.py `progress`: Rank, the points towards the next one, Gems).

With one seat (Incantris's solo game: `--game incantris --variant solo --seats 1`) there is no
second level at the table: a pair's first level plays every match against the game's own
opponents, and its win rate is the level's solo win rate (the second-named level is not used).

A win is 1, a k-way tie 1/k of one; the win rate of the first-named level comes with its 95%
Wilson interval. Not a test: it prints figures, and a level that gets stronger or weaker
shows there.
"""
from __future__ import annotations

import argparse
import importlib
import math
import random
import statistics
import time
from collections import defaultdict

from bench.stats import percentiles
from shared.engine import MatchConfig
from shared.engine.playout import policy_playout
from shared.engine.registry import engine_for, policy_for


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (ties counted as shares of a win)."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def levels_for(game: str, args) -> dict:
    """The three levels' policies; hard with the budget asked for, when one is asked for."""
    policies = {"easy": policy_for(game, "easy"), "normal": policy_for(game, "normal")}
    if any(x is not None for x in (args.iterations, args.ms, args.exploration, args.bias, args.horizon,
                                       args.keep)):
        if game not in ("tower", "wizards", "incantris"):
            raise SystemExit("--iterations/--ms/--exploration tune Tower's, Wizards' and Incantris's search only")
        from shared.engine.search import Budget

        levels = importlib.import_module(f"shared.{game}.levels")
        budget = Budget(iterations=args.iterations if args.iterations is not None else levels.HARD_BUDGET.iterations,
                        ms=args.ms if args.ms is not None else levels.HARD_BUDGET.ms)
        policies["hard"] = levels.hard(
            budget, args.exploration if args.exploration is not None else levels.HARD_EXPLORATION,
            args.horizon if args.horizon is not None else getattr(levels, "HARD_HORIZON", None),
            args.bias if args.bias is not None else levels.HARD_BIAS,
            args.keep if args.keep is not None else levels.HARD_SHORTLIST)
    else:
        policies["hard"] = policy_for(game, "hard")
    return policies


def config_for(game: str, seats: int, days: int | None, variant: str = "standard") -> MatchConfig:
    if game == "wizards":
        return MatchConfig(seats, variant, options={"days": days or 14})
    if days is not None:
        raise SystemExit("--days sets a Wizards time limit only")
    return MatchConfig(seats, variant)


def play_pair(game: str, seats: int, first: str, second: str, matches: int, seed: int, policies: dict,
              think: dict, days: int | None = None, margins: list | None = None,
              variant: str = "standard") -> tuple[float, int]:
    """(wins of `first`, matches played); think times go into `think` by level; for Wizards, the first
    level's progress margin over the best other seat of each match goes into `margins`."""
    engine = engine_for(game)
    wins = 0.0
    for i in range(matches):
        mine = i % seats

        def policy(view, seat, legal, rng, mine=mine):
            level = first if seat == mine else second
            start = time.perf_counter()
            action = policies[level](view, seat, legal, rng)
            if len(legal) > 1:
                think[level].append(time.perf_counter() - start)
            return action

        final, _ = policy_playout(engine, config_for(game, seats, days, variant), policy, random.Random(seed + i))
        result = engine.outcome(final)
        if mine in result.winners:
            wins += 1.0 / len(result.winners)
        where = ""
        if game == "wizards":
            from shared.wizards.levels import progress

            got = [progress(q) for q in final.players]
            if margins is not None:
                margins.append(got[mine] - max(g for j, g in enumerate(got) if j != mine))
            where = ", " + "; ".join(f"seat {q['seat']} {q['order'] or 'no Order'} Rank {q['rank']} "
                                     f"{sum(q['points'].values())} pts {len(q['gems'])} Gems" for q in final.players)
        print(f"  {first} v {second} match {i + 1}/{matches}: {first} in seat {mine}, scores {list(result.scores)}"
              f" -> {'win' if result.winners == (mine,) else 'tie' if mine in result.winners else 'loss'}{where}",
              flush=True)
    return wins, matches


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="tower")
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--variant", default="standard", help="the match variant (Incantris: a scenario, e.g. solo)")
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--ms", type=float, default=None)
    ap.add_argument("--exploration", type=float, default=None)
    ap.add_argument("--bias", type=float, default=None)
    ap.add_argument("--horizon", type=int, default=None)
    ap.add_argument("--keep", type=int, default=None, help="destinations the search weighs on a move (0: all)")
    ap.add_argument("--pairs", default="hard-normal,normal-easy")
    ap.add_argument("--days", type=int, default=None, help="Wizards: the time limit in days (14 by default)")
    args = ap.parse_args(argv)
    policies = levels_for(args.game, args)
    think: dict[str, list[float]] = defaultdict(list)
    rows = []
    started = time.monotonic()
    for pair in args.pairs.split(","):
        first, second = pair.split("-")
        margins: list[float] = []
        wins, n = play_pair(args.game, args.seats, first, second, args.matches, args.seed, policies, think,
                            args.days, margins, args.variant)
        low, high = wilson(wins, n)
        progress = (f"; {first}'s progress margin mean {statistics.mean(margins):+.2f}"
                    f" (ahead in {sum(m > 0 for m in margins)}, behind in {sum(m < 0 for m in margins)})"
                    if margins else "")
        rows.append(f"{first} v {second}: {first} wins {wins:g}/{n} = {wins / n:.1%}"
                    f"  (95% Wilson {low:.1%} - {high:.1%}){progress}")
    print()
    limit = f", {args.days or 14}-day limit" if args.game == "wizards" else ""
    print(f"{args.game} ({args.variant}){limit}, {args.seats} seats, {args.matches} matches a pair, "
          f"seeds {args.seed}...{args.seed + args.matches - 1}, seats rotated, {time.monotonic() - started:.0f}s")
    for row in rows:
        print(row)
    for level in ("easy", "normal", "hard"):
        if think[level]:
            p50, p95 = percentiles(think[level], 50, 95)
            print(f"think time {level:6}: p50 {p50 * 1000:9.2f} ms  p95 {p95 * 1000:9.2f} ms"
                  f"  ({len(think[level])} decisions with a choice)")


if __name__ == "__main__":
    main()
