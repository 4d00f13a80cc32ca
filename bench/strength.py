"""How strong each AI level is (shared/engine/levels.py), in process: hard against normal,
normal against easy and hard against `random` (any legal action, the floor), over whole matches
with fixed seeds and the seats rotated (match i gives the first-named level seat i mod seats,
every other seat the second level), and how long each level thinks per decision with a choice
(p50 and p95; forced decisions are left out).

    python -m bench.strength --game tower --matches 200 [--seats 2] [--variant V] [--jobs 2] [--out F.json]
                             [--pairs hard-normal,normal-easy,hard-random] [--seed S] [--days D]
                             [--iterations I] [--ms M] [--exploration C] [--bias B] [--horizon H] [--keep K]
                             [--root uct|halving|lines] [--rank rated|nearest] [--win delivered|record] [--confirm N]
                             [--record F.jsonl]

`make strength` runs every game's rows. `--jobs N` shares the matches among N processes: a
match's seed is its own, so the figures are those of one process, except that a search's wall
clock budget (HARD_BUDGET.ms) binds sooner on a machine kept busy.

A row of hard matches takes hours of CPU: `--record F.jsonl` appends each match to F as it ends,
and a later run with the same record and the same settings plays only the matches F does not hold
yet (stop it at any point and run it again: nothing played is lost, nothing is played twice); its
figures are those of every recorded match of the row.

Wizards has no time limit of its own (a match of the normal policy's runs to about 200 game days and
1,800 steps): `--days D` sets one (MatchConfig.options["days"], 14 by default here; `--days 0` plays
the whole game), and since a match cut short is lost by every seat (13), each Wizards match also
prints where the seats got to (Order, Rank, points, Gems) and the pair's line the first-named
level's mean progress margin over the best other side (shared/wizards/levels.py `lead`: Rank,
the points towards the next one, Gems) and the share of matches it ended ahead (`ended_ahead`:
a game won ahead, one another won behind, else by the margin).

A game whose hard level has an own play apart from its search (Wizards: `levels.own`, the normal policy
advancing) has a fifth level, `own`, that play alone, keyed in a record by the search's revision: played
on the same deals as a hard row (`--pairs own-normal`), it shows what the search adds (bench.strength_paired).

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
import json
import math
import multiprocessing
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench.stats import percentiles
from shared.engine import MatchConfig
from shared.engine.playout import policy_playout
from shared.engine.registry import engine_for, game_names, policy_for


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (ties counted as shares of a win)."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Ends:
    """How each Wizards match ended for the first-named level: its progress margin over the best other side,
    and its share of ending ahead (`ended_ahead`), kept side by side."""
    margins: list[float] = field(default_factory=list)
    aheads: list[float] = field(default_factory=list)

    def add(self, margin: float, mine: int | None = None, winners: list[int] | tuple[int, ...] = ()) -> None:
        self.margins.append(margin)
        self.aheads.append(ended_ahead(margin, mine, winners))


def row_figures(first: str, second: str | None, wins: float, n: int, ends: Ends | None = None) -> dict:
    """A pair's figures as --out writes them: the win rate with its interval, and for Wizards (`ends`) the
    first level's mean progress margin and the share of matches it ended ahead, with its own interval: where
    whole games rarely have a winner, that share is what a goal is judged by."""
    figures = {"first": first, "second": second, "wins": wins, "matches": n, "rate": wins / n,
               "wilson95": list(wilson(wins, n))}
    if ends is not None and ends.margins:
        ahead = sum(ends.aheads)
        figures["margin_mean"] = statistics.mean(ends.margins)
        figures["ahead"] = ahead / len(ends.margins)
        figures["ahead_wilson95"] = list(wilson(ahead, len(ends.margins)))
    return figures


def ended_ahead(margin: float, mine: int | None = None, winners: list[int] | tuple[int, ...] = ()) -> float:
    """A match's share of the first level (in seat `mine`) ending ahead: where the match had `winners`, whether
    its side was among them (a partnership's two seats, one of them `mine`); else by its progress margin, a
    level tie half. A won game is ahead whatever the progress: a rival still holding six Gems stands level with
    the winner who delivered his (levels.standing), and before the search's revision 4 the margin counted a
    winner's delivered Gems as lost."""
    if not winners:
        return float(margin > 0) + (margin == 0) / 2
    return float(mine in winners)


def think_figures(think: dict[str, list[float]]) -> dict:
    """Each level's think time per decision with a choice (seconds in): p50 and p95 in ms, and how many."""
    figures = {}
    for level in ("random", "easy", "normal", "own", "hard"):
        if think.get(level):
            p50, p95 = percentiles(think[level], 50, 95)
            figures[level] = {"p50_ms": p50 * 1000, "p95_ms": p95 * 1000, "decisions": len(think[level])}
    return figures


# the hard search's settings a command tunes
TUNING = ("iterations", "ms", "exploration", "bias", "horizon", "keep", "root", "rank", "win", "confirm")
# settings only some games' searches have (Wizards: how its shortlist ranks a move, how its value counts a win, the
# fresh samples a challenger's gain must hold on)
OWN_SETTINGS = ("rank", "win", "confirm")


def hard_settings(game: str, args) -> dict:
    """What the hard level searches with: the game's served settings (its levels module's HARD_*, or a
    variant's own, `variant_settings`, unless another root is asked for), each one the command line
    tunes taken from it instead."""
    levels = importlib.import_module(f"shared.{game}.levels")
    served = {"iterations": levels.HARD_BUDGET.iterations, "ms": levels.HARD_BUDGET.ms,
              "exploration": levels.HARD_EXPLORATION, "bias": levels.HARD_BIAS,
              "horizon": getattr(levels, "HARD_HORIZON", None), "keep": levels.HARD_SHORTLIST,
              "root": levels.HARD_ROOT}
    for name in OWN_SETTINGS:
        if hasattr(levels, f"HARD_{name.upper()}"):
            served[name] = getattr(levels, f"HARD_{name.upper()}")
        elif getattr(args, name) is not None:
            raise SystemExit(f"--{name}: the {game} search has no such setting")
    own = levels.variant_settings(args.variant) if hasattr(levels, "variant_settings") else {}
    if args.root is None or args.root == own.get("root"):  # another root starts from the game's settings
        served.update(own)
    tuned = {name: value if getattr(args, name) is None else getattr(args, name) for name, value in served.items()}
    if getattr(levels, "HARD_REVISION", None) is not None:  # the search's own code changed, its settings did not
        tuned["revision"] = levels.HARD_REVISION
    return tuned


def levels_for(game: str, args) -> dict:
    """The levels' policies (and `own` where the game's levels have it); hard with the settings asked for, when
    any is asked for."""
    policies = {"random": random_legal, "easy": policy_for(game, "easy"), "normal": policy_for(game, "normal")}
    own = getattr(importlib.import_module(f"shared.{game}.levels"), "own", None)
    if own is not None:  # the hard seat's own play, without its search
        policies["own"] = own
    if any(getattr(args, name) is not None for name in TUNING):
        from shared.engine.search import Budget

        tuned = hard_settings(game, args)
        hard = importlib.import_module(f"shared.{game}.levels").hard
        try:
            policies["hard"] = hard(Budget(iterations=tuned["iterations"], ms=tuned["ms"]),
                                    **{k: v for k, v in tuned.items() if k not in ("iterations", "ms", "revision")})
        except ValueError as e:
            raise SystemExit(f"the hard search's settings: {e}") from None
    else:
        policies["hard"] = policy_for(game, "hard")
    return policies


def config_for(game: str, seats: int, days: int | None, variant: str = "standard") -> MatchConfig:
    if game == "wizards":
        return MatchConfig(seats, variant, options={} if days == 0 else {"days": days or 14})
    if days is not None:
        raise SystemExit("--days sets a Wizards time limit only")
    return MatchConfig(seats, variant)


def random_legal(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    """The floor every level is measured against: any legal action, uniformly."""
    return rng.choice(legal)


def face_off(engine, config: MatchConfig, first, second, mine: int, seed: int, on_step=None):
    """The final state of one whole match: policy `first` in seat `mine`, `second` in every other seat,
    its dice and the policies' choices drawn from `seed`; `on_step(state, events)` sees each step."""
    def policy(view, seat, legal, rng):
        return (first if seat == mine else second)(view, seat, legal, rng)
    final, _ = policy_playout(engine, config, policy, random.Random(seed), on_step=on_step)
    return final


def _match(job: tuple) -> dict:
    """One match of a pair (in a worker process with --jobs): who won, the first-named level's seat,
    each level's think times, and for Wizards where the seats got to."""
    game, seats, first, second, i, seed, days, variant = job
    policies = _POLICIES
    engine = engine_for(game)
    mine = i % seats
    think: dict[str, list[float]] = defaultdict(list)

    def timed(level: str):
        def policy(view, seat, legal, rng):
            start = time.perf_counter()
            action = policies[level](view, seat, legal, rng)
            if len(legal) > 1:
                think[level].append(time.perf_counter() - start)
            return action
        return policy

    final = face_off(engine, config_for(game, seats, days, variant), timed(first), timed(second), mine, seed + i)
    result = engine.outcome(final)
    got = {"i": i, "mine": mine, "winners": list(result.winners), "scores": list(result.scores),
           "think": {level: [round(t, 6) for t in times] for level, times in think.items()}}
    if game == "wizards":
        from shared.wizards.levels import lead, standing

        ahead = lead(final, mine)  # what the hard search's value weighs, a partnership as one side
        got["margin"] = standing(final, mine) if ahead is None else ahead
        got["where"] = "; ".join(f"seat {q['seat']} {q['order'] or 'no Order'} Rank {q['rank']} "
                                 f"{sum(q['points'].values())} pts {len(q['gems'])} Gems" for q in final.players)
    return got


def win_share(mine: int, winners: list[int] | tuple[int, ...]) -> float:
    """A match's share of a win for the seat `mine`: a k-way tie 1/k."""
    return 1.0 / len(winners) if mine in winners else 0.0


def tally(got: dict, think: dict[str, list[float]], ends: Ends) -> float:
    """One match's share of a win for the first-named level (a k-way tie 1/k), its think times added to
    `think` by level and, for Wizards, how it ended to `ends`."""
    for level, times in got["think"].items():
        think[level].extend(times)
    if "margin" in got:
        ends.add(got["margin"], got["mine"], got["winners"])
    return win_share(got["mine"], got["winners"])


def entries(path: Path) -> Iterator[dict]:
    """A record's matches in the order played, each a dict with its row's `key` (the strength, table and
    paired benches read them)."""
    for line in path.read_text().splitlines():
        if line.strip():
            yield json.loads(line)


class Record:
    """The matches a row has played, one JSON line each (`--record`), keyed by every setting that
    changes what a match gives (game, variant, seats, days, seed, the pair, and for a pair with the
    hard level the settings it searched with, served or tuned, so a match played before its game's
    served budget changed is not counted after), so a record shared by several rows or settings
    counts each match only where it belongs. The policies' code is not in the key, but a game's policy
    `REVISION` is where it has one (`policy_revision`), and its hard search's `HARD_REVISION` (in the
    hard settings): a match played before either changed is not counted after. Without one, after
    changing a policy or a search, start a new record."""

    def __init__(self, path: Path, settings: dict, hard: dict) -> None:
        self.path, self.settings, self.hard = path, settings, hard

    def played(self, first: str, second: str) -> dict[int, dict]:
        """The recorded matches of this pair at these settings, by match index."""
        key = self._key(first, second)
        found: dict[int, dict] = {}
        if self.path.exists():
            for entry in entries(self.path):
                if entry.pop("key") == key:
                    found[entry["i"]] = entry
        return found

    def add(self, first: str, second: str, got: dict) -> None:
        """Append one match, flushed at once: a run stopped any time later keeps it."""
        with self.path.open("a") as f:
            f.write(json.dumps({"key": self._key(first, second), **got}) + "\n")

    def _key(self, first: str, second: str) -> dict:
        searched = {"hard": self.hard} if "hard" in (first, second) else {}
        if "own" in (first, second):  # what the own play is goes with the search's revision
            searched["own"] = {"revision": self.hard.get("revision")}
        return {**self.settings, "first": first, "second": second, **searched}


_POLICIES: dict = {}


def policy_revision(game: str) -> dict:
    """{"policy": N} where the game's normal policy says which revision of its play it is (`REVISION`
    in shared/<game>/policy.py, raised when it comes to play otherwise), else nothing: a record's key."""
    revision = getattr(importlib.import_module(f"shared.{game}.policy"), "REVISION", None)
    return {} if revision is None else {"policy": revision}


def _start_worker(game: str, args) -> None:
    _POLICIES.update(levels_for(game, args))


def play_pair(game: str, seats: int, first: str, second: str, matches: int, seed: int, args,
              think: dict, days: int | None = None, ends: Ends | None = None,
              variant: str = "standard", jobs: int = 1, record: Record | None = None) -> tuple[float, int]:
    """(wins of `first`, matches played); think times go into `think` by level; for Wizards, how each match
    ended for the first level (its progress margin over the best other side) goes into `ends`. With `jobs`
    above one the matches are shared among that many processes (each match's seed is its own, so the
    results are the same as in one process, up to the wall-clock budget of a search). With a `record`,
    the matches it holds are counted, not played again, and each match played is added to it."""
    recorded = record.played(first, second) if record is not None else {}
    work = [(game, seats, first, second, i, seed, days, variant) for i in range(matches) if i not in recorded]
    if recorded:
        print(f"  {first} v {second}: {matches - len(work)} of {matches} matches already in {record.path}", flush=True)
    if jobs > 1:
        pool = multiprocessing.get_context("fork").Pool(jobs, _start_worker, (game, args))
        results = pool.imap_unordered(_match, work)
    else:
        pool = None
        _start_worker(game, args)
        results = map(_match, work)
    wins, ends = 0.0, Ends() if ends is None else ends
    for i in sorted(recorded):
        if i < matches:
            wins += tally(recorded[i], think, ends)
    try:
        for done, got in enumerate(results, matches - len(work) + 1):
            wins += tally(got, think, ends)
            if record is not None:
                record.add(first, second, got)
            mine, winners = got["mine"], got["winners"]
            where = f", {got['where']}" if "where" in got else ""
            outcome = "win" if winners == [mine] else "tie" if mine in winners else "loss"
            print(f"  {first} v {second} {done}/{matches} (seed {seed + got['i']}): {first} in seat {mine}, "
                  f"scores {got['scores']} -> {outcome}{where}", flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return wins, matches


def parser() -> argparse.ArgumentParser:
    """The bench's command line (docs/ai-levels.md's commands are checked against it)."""
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
    ap.add_argument("--horizon", type=float, default=None,
                    help="rollout steps after the tree (Incantris's lines: rounds of the table; Wizards: days)")
    ap.add_argument("--keep", type=int, default=None, help="candidates the search weighs at the root (0: all)")
    ap.add_argument("--root", choices=("uct", "halving", "lines"), default=None,
                    help="how the hard search's root shares its budget: UCT, halving over paired samples, "
                         "or (Incantris) halving over plans for the turn")
    # the game's own search checks these two (its levels.RANKS and WINS), so this bench imports no game for them
    ap.add_argument("--rank", default=None,
                    help="Wizards: how the shortlist ranks a move's destinations (levels.HARD_RANK, one of RANKS)")
    ap.add_argument("--win", default=None,
                    help="Wizards: how the value counts a winner's progress (levels.HARD_WIN, one of WINS)")
    ap.add_argument("--confirm", type=int, default=None,
                    help="Wizards: fresh paired samples a challenger's gain must hold on (levels.HARD_CONFIRM)")
    ap.add_argument("--pairs", default="hard-normal,normal-easy,hard-random",
                    help="first-second level pairs; the levels are random, easy, normal and hard (and own, where the "
                         "game's hard level has one: Wizards)")
    ap.add_argument("--days", type=int, default=None,
                    help="Wizards: the time limit in days (14 by default; 0: none, the whole game)")
    ap.add_argument("--jobs", type=int, default=1, help="processes to share the matches among")
    ap.add_argument("--out", type=Path, default=None, help="also write the rows and think times as JSON here")
    ap.add_argument("--record", type=Path, default=None,
                    help="append each match here as it ends, and count (not replay) the matches it holds")
    return ap


def checked(args: argparse.Namespace) -> argparse.Namespace:
    """The command line's settings, once its game, tuning and pairs are known to make sense: a bad one
    stops the bench here, before any match."""
    if args.game not in game_names():
        raise SystemExit(f"--game: {args.game!r} is not one of {', '.join(game_names())}")
    known = levels_for(args.game, args)
    for pair in args.pairs.split(","):
        named = pair.split("-")
        if len(named) != 2 or named[0] not in known or (args.seats > 1 and named[1] not in known):
            raise SystemExit(f"--pairs: {pair!r} is not two of {', '.join(known)} joined by '-'")
    return args


def main(argv: list[str] | None = None) -> None:
    args = checked(parser().parse_args(argv))
    record = None if args.record is None else Record(args.record, {
        "game": args.game, "variant": args.variant, "seats": args.seats, "days": args.days, "seed": args.seed,
        **policy_revision(args.game)},
        hard=hard_settings(args.game, args))
    think: dict[str, list[float]] = defaultdict(list)
    rows, figures = [], []
    started = time.monotonic()
    for pair in args.pairs.split(","):
        first, second = pair.split("-")
        ends = Ends()
        wins, n = play_pair(args.game, args.seats, first, second, args.matches, args.seed, args, think,
                            args.days, ends, args.variant, args.jobs, record)
        low, high = wilson(wins, n)
        progress = (f"; {first}'s progress margin mean {statistics.mean(ends.margins):+.2f}"
                    f" (ahead in {ends.aheads.count(1)}, behind in {ends.aheads.count(0)})"
                    if ends.margins else "")
        against = "the game's own opponents" if args.seats == 1 else second
        rows.append(f"{first} v {against}: {first} wins {wins:g}/{n} = {wins / n:.1%}"
                    f"  (95% Wilson {low:.1%} - {high:.1%}){progress}")
        figures.append(row_figures(first, None if args.seats == 1 else second, wins, n, ends))
    print()
    limit = ""
    if args.game == "wizards":
        limit = ", no time limit" if args.days == 0 else f", {args.days or 14}-day limit"
    took = time.monotonic() - started
    print(f"{args.game} ({args.variant}){limit}, {args.seats} seats, {args.matches} matches a pair, "
          f"seeds {args.seed}...{args.seed + args.matches - 1}, seats rotated, {args.jobs} process(es), {took:.0f}s")
    for row in rows:
        print(row)
    times = think_figures(think)
    for level, t in times.items():
        print(f"think time {level:6}: p50 {t['p50_ms']:9.2f} ms  p95 {t['p95_ms']:9.2f} ms"
              f"  ({t['decisions']} decisions with a choice)")
    if args.out is not None:
        args.out.write_text(json.dumps({"game": args.game, "variant": args.variant, "seats": args.seats,
                                        "seed": args.seed, "days": args.days, "jobs": args.jobs, "seconds": took,
                                        **policy_revision(args.game), "hard": hard_settings(args.game, args),
                                        "rows": figures, "think": times},
                                       indent=2) + "\n")


if __name__ == "__main__":
    main()
