"""The table of bench.strength's figures (the JSON files its `--out` wrote, as `make strength`
leaves them in build/strength/): one line a game, seat count and pair, with the win rate, its 95%
interval and the matches behind it (and for Wizards, where a match cut short by its time limit has
no winner, the share of matches the first level ended ahead, with its own interval: a game won
ahead, one another seat won behind, else by progress, a tie half; a JSON written before a won game
counted so keeps its progress-only share), then each level's think time per game. A row's record
(`--record`, NAME.jsonl) is tabled too, with the matches recorded so far: a row still being played,
or stopped, shows where it stands (a record beside its finished NAME.json is left to the JSON).

    python -m bench.strength_table build/strength/*.json [build/strength/*.jsonl]
    python -m bench.strength_table --doc docs/ai-levels.md docs/strength/*.jsonl

With `--doc`, the guide's tables of hard rows and hard think times are written anew from the files
instead (tests/docs checks that the guide's tables are those of the committed records).
"""
from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from bench.strength import Ends, entries, row_figures, tally, think_figures


def searched(level: str, figure: dict, figures: list[dict] | None = None) -> str:
    """A level's name, and for hard how its root shared the budget where the figures say (a record's key
    does), with the settings that tell it from another of `figures` at the same table and root ("halving,
    iterations 24"), so that rows of the same pair under different searches tell themselves apart."""
    if level == "own" and figure.get("own"):  # the hard seat's own play, as of the search's revision
        return f"own (revision {figure['own']['revision']})"
    mine = figure.get("hard") or {}
    root = mine.get("root")
    if level != "hard" or not root:
        return level
    table = ("game", "variant", "seats", "days", "policy")
    others = [f["hard"] for f in figures or [] if f is not figure and (f.get("hard") or {}).get("root") == root
              and all(f.get(k) == figure.get(k) for k in table)]
    differ = [k for k in mine if k != "root" and any(o.get(k) != mine[k] for o in others)]
    return f"{level} ({', '.join([root] + [f'{k} {_setting(mine[k])}' for k in differ])})"


def _setting(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def rows(figures: list[dict]) -> list[str]:
    out = ["| game | seats | pair | first level wins | 95% interval | matches | ended ahead |",
           "|---|---|---|---|---|---|---|"]
    for f in figures:
        where = f["game"] + ("" if f["variant"] == "standard" else f" ({f['variant']})")
        if f["game"] == "wizards":
            where += ", no time limit" if f["days"] == 0 else f", {f['days'] or 14} days"
        if "policy" in f:
            where += f", policy {f['policy']}"
        for r in f["rows"]:
            second = searched(r["second"], f, figures) if r["second"] else "the game"
            pair = f"{searched(r['first'], f, figures)} v {second}"
            low, high = r["wilson95"]
            ahead = ""
            if "ahead" in r:  # (a JSON written before the share had its interval shows none)
                span = "{:.1%} - {:.1%}; ".format(*r["ahead_wilson95"]) if "ahead_wilson95" in r else ""
                ahead = f"{r['ahead']:.1%} ({span}margin {r['margin_mean']:+.2f})"
            out.append(f"| {where} | {f['seats']} | {pair} | {r['rate']:.1%} | {low:.1%} - {high:.1%} |"
                       f" {r['matches']} | {ahead} |")
    return out


def think_rows(figures: list[dict], only: str | None = None) -> list[str]:
    out = ["| game | seats | level | think p50 | think p95 | decisions |", "|---|---|---|---|---|---|"]
    for f in figures:
        where = f["game"] + ("" if f["variant"] == "standard" else f" ({f['variant']})")
        where += f", policy {f['policy']}" if "policy" in f else ""
        for level, t in f["think"].items():
            if only is not None and level != only:
                continue
            out.append(f"| {where} | {f['seats']} | {searched(level, f, figures)} | {t['p50_ms']:.2f} ms |"
                       f" {t['p95_ms']:.2f} ms | {t['decisions']} |")
    return out


def from_record(path: Path) -> list[dict]:
    """A record's matches as bench.strength's JSON would give them: one figure per setting, a row per pair."""
    settings: dict[str, dict] = {}
    pairs: dict[str, dict[tuple, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for entry in entries(path):
        key = entry.pop("key")
        pair = (key.pop("first"), key.pop("second"))
        settings[json.dumps(key, sort_keys=True)] = key
        pairs[json.dumps(key, sort_keys=True)][pair].append(entry)
    figures = []
    for name, key in settings.items():
        rows, think = [], defaultdict(list)
        for (first, second), matches in pairs[name].items():
            ends = Ends()
            wins = sum(tally(m, think, ends) for m in matches)
            rows.append(row_figures(first, None if key["seats"] == 1 else second, wins, len(matches), ends))
        figures.append({**key, "rows": rows, "think": think_figures(think)})
    return figures


def load(paths: list[Path]) -> list[dict]:
    """The figures of every file named, a record left out where its finished JSON is named too."""
    finished = {p.with_suffix("") for p in paths if p.suffix == ".json"}
    figures = []
    for p in paths:
        if p.suffix == ".jsonl":
            if p.with_suffix("") not in finished:
                figures.extend(from_record(p))
        else:
            figures.append(json.loads(p.read_text()))
    return figures


def refreshed(doc: str, figures: list[dict]) -> str:
    """`doc` with its tables of hard rows (between `<!-- hard rows -->` and `<!-- /hard rows -->`) and of hard
    think times (`<!-- hard think -->`) made anew from `figures`: the guide's tables are the records' own."""
    for mark, lines in (("hard rows", rows(figures)), ("hard think", think_rows(figures, only="hard"))):
        start, end = f"<!-- {mark} -->\n", f"<!-- /{mark} -->"
        if start not in doc or end not in doc:
            raise ValueError(f"no {start.strip()} ... {end} in the document")
        head, rest = doc.split(start, 1)
        doc = head + start + "\n".join(lines) + "\n" + end + rest.split(end, 1)[1]
    return doc


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.strength_table",
                                     description="The table of bench.strength's figures and records.")
    parser.add_argument("--doc", type=Path, help="write the guide's tables of hard rows and think times anew")
    parser.add_argument("files", nargs="+", type=Path,
                        help="bench.strength's FILE.json (--out) or FILE.jsonl (--record)")
    args = parser.parse_args(argv)
    missing = [str(p) for p in [*args.files, *([args.doc] if args.doc else [])] if not p.is_file()]
    if missing:
        parser.error(f"no such file: {', '.join(missing)}")
    figures = load(args.files)
    if args.doc is not None:
        args.doc.write_text(refreshed(args.doc.read_text(), figures))
        print(f"{args.doc}: hard rows and think times from {len(args.files)} file(s)")
        return
    print("\n".join(rows(figures)))
    print()
    print("\n".join(think_rows(figures)))


if __name__ == "__main__":
    main()
