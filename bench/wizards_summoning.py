"""Wizards: would the hard search choose otherwise at the Gem Summoning offer, were it given it?

The hard level leaves a choice taken in the middle of a resolution to its own play (shared/wizards/levels.py):
the view leaves the resolution's stages out, so no state can be rebuilt from it in general. The Master
Sorcerer's offer of Gem Summoning (7.346, 11.232), the choice most two-seat games turn on
(bench/wizards_endgame.py), is one the seat asked can place from the choice itself: his encounter is at
its offer, its last stage, and the rest of its resolution is the turn's end (some nine offers in ten; the
others, with another encounter still to come, are left out). determinize.summoning_offer puts that stage back;
the hard search (levels.search, as served) is then asked on it, beside the own play's pick (levels.own), in
whole games of the own play against normal, and the bench counts how often the two agree, by the Gems the
seat holds.

    python -m bench.wizards_summoning [--games 6] [--seats 2] [--seed 9100]
    (12 two-seat games, some 360 offers, took 7 minutes beside three other processes on two cores)
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from bench.stats import percentiles
from bench.strength import config_for, face_off
from shared.engine.registry import engine_for
from shared.wizards import levels
from shared.wizards.determinize import summoning_offer
from shared.wizards.policy import choose


def kind(action: dict) -> str:
    target = action["target"]
    return "none" if target is None else "random" if target == "random" else "a marker"


def answer(pick: dict, found: dict) -> str:
    """The search's answer beside the own play's pick: "kept", or what it chose instead."""
    if found == pick:
        return KEPT
    return "another marker" if kind(found) == kind(pick) else kind(found)


KEPT = "kept"


def measure(games: int, seats: int, seed: int, search=None, progress=lambda done: None) -> dict:
    """Over `games` whole games of the own play (seat i mod seats of game i) against normal: each Gem
    Summoning offer to the own play's seat, its pick and the search's on the rebuilt view."""
    figures: dict = {"agree": Counter(), "left_out": 0, "think": []}  # agree: (own pick's kind, answer, Gems held)
    search = search or levels.search()
    config = config_for("wizards", seats, 0)
    for i in range(games):
        face_off(engine_for("wizards"), config, _asking(search, seed + i, figures), choose, i % seats, seed + i)
        progress(i + 1)
    return figures


def _asking(search, game: int, figures: dict):
    """The own play, asking `search` too at each Gem Summoning offer and counting into `figures`."""
    def first(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
        pick = levels.own(view, seat, legal, rng)
        if any(a["kind"] == "gem_summoning" for a in legal):
            again = summoning_offer(view, seat, legal)
            if again is None:
                figures["left_out"] += 1
                return pick
            # a generator of its own: one drawn from the game's would change the game's dice from the own play's
            sample = random.Random(f"{game}:{len(figures['think'])}")
            start = time.perf_counter()
            found = search.run(again, seat, legal, sample).action
            figures["think"].append(time.perf_counter() - start)
            figures["agree"][kind(pick), answer(pick, found), len(view["players"][seat]["gems"])] += 1
        return pick
    return first


def report(games: int, seats: int, seed: int, figures: dict) -> list[str]:
    agree: Counter = figures["agree"]
    asked = sum(agree.values())
    same = sum(n for (_, said, _), n in agree.items() if said == KEPT)
    lines = [f"the Gem Summoning offers to the own play's seat, {games} whole {seats}-seat games against normal "
             f"(seeds from {seed}):",
             f"  weighed {asked} (left out, another encounter still to come: {figures['left_out']}); "
             f"the search kept the own play's pick in {same} ({same / asked:.1%})" if asked else
             f"  none weighed (left out: {figures['left_out']})"]
    if figures["think"]:
        p50, p95 = percentiles(figures["think"], 50, 95)
        lines.append(f"  think p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms")
    lines.append(f"  {'Gems held':<10}{'offers':>8}{'kept':>8}  the search chose otherwise")
    for gems in sorted({g for _, _, g in agree}):
        here = {(own, said): n for (own, said, g), n in agree.items() if g == gems}
        otherwise = ", ".join(f"{said} for {own} ({n})" for (own, said), n in sorted(here.items()) if said != KEPT)
        kept = sum(n for (_, said), n in here.items() if said == KEPT)
        lines.append(f"  {gems:<10}{sum(here.values()):>8}{kept:>8}  {otherwise or '-'}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seats", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=9100)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    def progress(done: int) -> None:
        if done < args.games:
            print(f"  {done} of {args.games} games", file=sys.stderr, flush=True)
    figures = measure(args.games, args.seats, args.seed, progress=progress)
    print("\n".join(report(args.games, args.seats, args.seed, figures)))


if __name__ == "__main__":
    main()
