"""Wizards: how whole games end, and where the Sacred Gems go, in process.

Whole games (no time limit) of one seat's play (`--first`: the hard seat's own play, levels.own, the hard
level itself, or the normal policy) against the normal policy in every other seat, the seats alternated,
seeds from 9000.
First how the games ended (the Sacred Circle taken, 12.46, or the Gems delivered, 7.336) and the first
seat's share of games ended ahead; then, per seat, for the first seat and the mean of the others: the
Gems it was given (7.3261), the random Gem Summonings it cast (11.2322), the Gems the False Wizard took
(7.3263) and those thieves took (9.8: the Common Folk's 7.301, Demons 7.304, the Dragon 7.305), the
summonings of a marker (11.2321), the Player Encounters it entered and those entered on it (7.302) and the
Secret Wizards they told it (Rank 4 results 5 and 6), and in the games nobody won, the Gems it held at the
end, by which such a game is judged (levels.lead). Last, how soon each seat could summon and how often it did:
the day it reached Rank FOUR and the day it had every Mandatory Task done there (13: then it gathers the Gems),
the median over the games it did, and in those its Gem Summonings and the days between them (`milestones`).
`--careful N`: the first seat declines a random Gem Summoning while it holds N Gems or more (`careful`);
with `--last-phase`, only once the Sacred Circle may fall at the next Evil attack.

    python -m bench.wizards_endgame [--games 200] [--seats 2] [--first own|hard|normal] [--careful N [--last-phase]]
                                      [--seed 9000]
    (200 two-seat games take about 7 minutes of one core; a game of the hard level some two minutes)
"""
from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter

from bench.strength import Ends, config_for, face_off, row_figures, win_share
from shared.engine.registry import engine_for
from shared.wizards import gem_aims, levels, wizardcards
from shared.wizards.evil_aims import circle_at_risk
from shared.wizards.policy import choose
from shared.wizards.world import view_world

LABEL = 46  # the report's label column: its longest label and a space
FIRST = {"own": levels.own, "hard": levels.hard(), "normal": choose}
THIEVES = {"7.301": "Common Folk's thieves (7.301)", "7.304": "Demons (7.304)", "7.305": "the Dragon (7.305)"}
COUNTS = {"given": "Gems given (7.3261)", "random": "random Gem Summonings (11.2322)",
          "false": "Gems the False Wizard took (7.3263)",
          **{f"stolen {rule}": f"Gems taken by {who}" for rule, who in THIEVES.items()},
          "stolen other": "Gems taken otherwise (9.8)",
          "contact": "Gem Summonings of a marker (11.2321)",
          "entered": "Player Encounters it entered (7.302)",
          "entered on": "Player Encounters entered on it (7.302)",
          "learned": "Secret Wizards learned in one (7.302 5)",
          "revealed": "Secret Wizards shown in one (7.302 6)"}
# how soon a seat could summon and how often it did (`pace`): each figure's label and how the games are averaged
PACE = {"rank four": ("reached Rank FOUR, median day", statistics.median),
        "gathering": ("began to gather (13), median day", statistics.median),
        "casts": ("Gem Summonings where it gathered", statistics.mean),
        "days per cast": ("days per Gem Summoning, median", statistics.median)}


def careful(play, gems: int, last_phase: bool = False):
    """`play`, but declining a random Gem Summoning (11.2322) while it holds `gems` Gems or more: it contacts a
    marker where one is out, else casts nothing (gem_aims.summon_target, cautious). A random summoning's odds fall
    as Gems are held: it gives a Gem not yet held on (6 - G)/7 x 5/6 of the one success in three, and the False
    Wizard takes all G on 1/7 x 4/6 of it (7.326, 7.3263), so from four Gems on the expected count falls.
    `gems` 0: `play` as it is (it never declines). `last_phase`: only once the next Evil attack may take the Sacred
    Circle (`circle_may_fall`), when a game nobody wins is about to be judged by the Gems held."""
    if not gems:
        return play

    def careful_play(view: dict, seat: int, legal: list[dict], rng) -> dict:
        if gem_aims.summoning_offered(legal) and len(gem_aims.held(view, seat)) >= gems \
                and (not last_phase or circle_may_fall(view)):
            return gem_aims.summon_target(view, seat, legal, cautious=True)
        return play(view, seat, legal, rng)
    return careful_play


def circle_may_fall(view: dict) -> bool:
    """No Common or Elven Territory is left, so the next attack takes a Magic one, and that may be the Sacred
    Circle (12.131, 12.46): the policy's watch on the Evil attack (evil_aims.circle_at_risk) at no attacks away."""
    return circle_at_risk(view, view_world(view), attacks=0)


def tally(events: list[dict], counts: dict[int, Counter]) -> None:
    """Adds one step's events to each seat's counts (COUNTS' keys). A theft (9.8) is told in two events,
    its cause's ("stolen", with the rule) before the Gems it took ("gems_stolen")."""
    cause: dict[int, str] = {}
    for e in events:
        kind, seat = e.get("type"), e.get("seat")
        if kind == "gem_received":
            counts[seat]["given"] += 1
        elif kind == "spell_cast" and e.get("spell") == "gem_summoning":
            counts[seat]["random" if "die" in e else "contact"] += 1
        elif kind == "false_wizard":
            counts[seat]["false"] += len(e["stolen"])
        elif kind == "stolen":
            cause[seat] = next((r for r in THIEVES if e["rule"].startswith(r)), "other")
        elif kind == "gems_stolen":
            counts[seat][f"stolen {cause.get(seat, 'other')}"] += len(e["gems"])
        elif kind == "player_encounter":
            counts[seat]["entered"] += 1
            for other in e["players"]:
                if other != seat:
                    counts[other]["entered on"] += 1
        elif kind == "secret_learned":
            counts[seat]["learned"] += 1
        elif kind == "secret_wizard" and e["rule"].startswith("7.302"):
            for other in e["seats"]:
                counts[other]["revealed"] += 1


def milestones(state, days: dict[int, dict[str, int]]) -> None:
    """Notes the first day each seat stood at Rank FOUR ("rank four") and the first it may ask for Gems, every
    Mandatory Task done ("gathering": the engine's own reading of 7.326 and 13, wizardcards.gathering_gems)."""
    today = state.calendar["days_played"]
    for p in state.players:
        if p["rank"] >= 4:
            seen = days[p["seat"]]
            seen.setdefault("rank four", today)
            if wizardcards.gathering_gems(state, p["seat"]):
                seen.setdefault("gathering", today)


def one_game(first, seats: int, mine: int, seed: int) -> tuple:
    """The final state of a whole game, `first` in seat `mine`, each seat's counts and its `milestones`."""
    counts: dict[int, Counter] = {s: Counter() for s in range(seats)}
    days: dict[int, dict[str, int]] = {s: {} for s in range(seats)}

    def on_step(state, events) -> None:
        tally(events, counts)
        milestones(state, days)
    final = face_off(engine_for("wizards"), config_for("wizards", seats, 0), first, choose, mine, seed,
                     on_step=on_step)
    return final, counts, days


def pace(days: dict[str, int], counts: Counter, ended: int) -> dict[str, float]:
    """A seat's milestones in one game, and where it gathered, its Gem Summonings (all of them are cast while
    gathering, 11.232) and the days per summoning from the day it began to the game's end."""
    out = {k: float(v) for k, v in days.items()}
    if "gathering" in days:
        casts = counts["random"] + counts["contact"]
        out["casts"] = float(casts)
        out["days per cast"] = (ended - days["gathering"]) / max(1, casts)
    return out


def measure(first: str, seats: int, games: int, seed: int, progress=lambda done: None, gems: int = 0,
            last_phase: bool = False) -> dict:
    """The figures the module docstring names, over `games` whole games (`progress(done)` after each), the first
    seat `careful` from `gems` Gems held (in the last phase only, with `last_phase`)."""
    play = careful(FIRST[first], gems, last_phase)
    ends, reasons, days = Ends(), Counter(), []
    mine_counts: list[Counter] = []
    other_counts: list[Counter] = []
    held: dict[str, list[float]] = {"first": [], "others": []}
    paces: dict[str, list[dict[str, float]]] = {"first": [], "others": []}
    wins = 0.0
    for i in range(games):
        mine = i % seats
        final, counts, seat_days = one_game(play, seats, mine, seed + i)
        result = final.result
        winners = result["winners"]
        wins += win_share(mine, winners)
        ends.add(levels.lead(final, mine), mine, winners)
        reasons[result["reason"]] += 1
        days.append(result["days"])
        mine_counts.append(counts[mine])
        other_counts += [counts[s] for s in counts if s != mine]
        for s in counts:
            paces["first" if s == mine else "others"].append(pace(seat_days[s], counts[s], result["days"]))
        if not winners:
            held["first"].append(len(final.players[mine]["gems"]))
            held["others"] += [len(p["gems"]) for p in final.players if p["seat"] != mine]
        progress(i + 1)
    return {"row": row_figures(first, "normal", wins, games, ends), "reasons": reasons, "days": days,
            "first": {k: statistics.mean(c[k] for c in mine_counts) for k in COUNTS},
            "others": {k: statistics.mean(c[k] for c in other_counts) for k in COUNTS},
            "held": {k: statistics.mean(v) if v else 0.0 for k, v in held.items()}, "no_winner": len(held["first"]),
            "pace": {k: paced(v) for k, v in paces.items()}}


def paced(games: list[dict[str, float]]) -> dict[str, tuple[float, int]]:
    """Each PACE figure over the games that have it, and how many those are."""
    out = {}
    for key, (_, average) in PACE.items():
        seen = [g[key] for g in games if key in g]
        out[key] = (average(seen) if seen else 0.0, len(seen))
    return out


def report(first: str, seats: int, games: int, seed: int, figures: dict, gems: int = 0,
           last_phase: bool = False) -> list[str]:
    """`measure`'s figures as the lines printed: a column for the first seat, one for the mean of the others."""
    row = figures["row"]
    low, high = row["ahead_wilson95"]
    ended = ", ".join(f"{reason} {n / games:.1%}" for reason, n in figures["reasons"].most_common())
    when = " once the Sacred Circle may fall" if last_phase else ""
    played = f"{first}, no random Gem Summoning from {gems} Gems held{when}," if gems else first
    lines = [f"{played} against normal, {games} whole {seats}-seat games (seeds from {seed}):",
             f"  ended: {ended}; median day {statistics.median(figures['days']):.0f}",
             f"  {first} ahead in {row['ahead']:.1%} ({low:.1%} - {high:.1%}), won {row['rate']:.1%}, "
             f"mean margin {row['margin_mean']:+.2f}",
             f"  {'per seat':<{LABEL}}{first:>8}{'normal':>8}"]
    for key, label in COUNTS.items():
        lines.append(f"  {label:<{LABEL}}{figures['first'][key]:8.2f}{figures['others'][key]:8.2f}")
    lines.append(f"  {'Gems held at the end, of ' + str(figures['no_winner']) + ' games nobody won':<{LABEL}}"
                 f"{figures['held']['first']:8.2f}{figures['held']['others']:8.2f}")
    for key, (label, _) in PACE.items():  # over the seat-games that got so far, counted at the end of the line
        mine, others = figures["pace"]["first"][key], figures["pace"]["others"][key]
        lines.append(f"  {label:<{LABEL}}{mine[0]:8.1f}{others[0]:8.1f}   ({mine[1]} and {others[1]} seat-games)")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--first", default="own", choices=sorted(FIRST))
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--careful", type=int, default=0, metavar="N",
                        help="the first seat declines a random Gem Summoning while it holds N Gems or more (0: never)")
    parser.add_argument("--last-phase", action="store_true",
                        help="with --careful: only once the Sacred Circle may fall at the next Evil attack")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 0 <= args.careful <= 6:
        parser.error("--careful must be between 0 and 6 Gems")
    if args.last_phase and not args.careful:
        parser.error("--last-phase needs --careful N")

    def progress(done: int) -> None:
        if done % 20 == 0 and done < args.games:
            print(f"  {done} of {args.games} games", file=sys.stderr, flush=True)
    figures = measure(args.first, args.seats, args.games, args.seed, progress, args.careful, args.last_phase)
    print("\n".join(report(args.first, args.seats, args.games, args.seed, figures, args.careful, args.last_phase)))


if __name__ == "__main__":
    main()
