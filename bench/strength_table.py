"""The table of bench.strength's figures (the JSON files its `--out` wrote, as `make strength`
leaves them in build/strength/): one line a game, seat count and pair, with the win rate, its 95%
interval and the matches behind it (and for Wizards, where a match cut short by its time limit has
no winner, the share of matches the first level ended ahead on progress, a tie half), then each
level's think time per game.

    python -m bench.strength_table build/strength/*.json
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def rows(figures: list[dict]) -> list[str]:
    out = ["| game | seats | pair | first level wins | 95% interval | matches | ahead on progress |",
           "|---|---|---|---|---|---|---|"]
    for f in figures:
        where = f["game"] + ("" if f["variant"] == "standard" else f" ({f['variant']})")
        if f["game"] == "wizards":
            where += ", no time limit" if f["days"] == 0 else f", {f['days'] or 14} days"
        for r in f["rows"]:
            pair = f"{r['first']} v {r['second'] or 'the game'}"
            low, high = r["wilson95"]
            ahead = f"{r['ahead']:.1%} (margin {r['margin_mean']:+.2f})" if "ahead" in r else ""
            out.append(f"| {where} | {f['seats']} | {pair} | {r['rate']:.1%} | {low:.1%} - {high:.1%} |"
                       f" {r['matches']} | {ahead} |")
    return out


def think_rows(figures: list[dict]) -> list[str]:
    out = ["| game | seats | level | think p50 | think p95 | decisions |", "|---|---|---|---|---|---|"]
    for f in figures:
        where = f["game"] + ("" if f["variant"] == "standard" else f" ({f['variant']})")
        for level, t in f["think"].items():
            out.append(f"| {where} | {f['seats']} | {level} | {t['p50_ms']:.2f} ms | {t['p95_ms']:.2f} ms |"
                       f" {t['decisions']} |")
    return out


def main(argv: list[str] | None = None) -> None:
    paths = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if not paths:
        raise SystemExit("usage: python -m bench.strength_table FILE.json ...")
    figures = [json.loads(p.read_text()) for p in paths]
    print("\n".join(rows(figures)))
    print()
    print("\n".join(think_rows(figures)))


if __name__ == "__main__":
    main()
