"""Two rows of one record compared match by match: which search ended ahead on the same deals.

    python -m bench.strength_paired docs/strength/wizards-4-hard.jsonl revision=3 revision=4,rank=nearest

Each row is named by the settings that tell it from the others (the hard search's, or the record key's own:
`seats=4`, `second=random`), and must come to one row. A match counts where both rows played its index (the
same seed, deal and seats), as better, worse or level for the second row by `bench.strength.ended_ahead`, with
an exact two-sided sign test: on the same deals two searches part with far fewer matches than the intervals
of two separate rows need. `--second-record F` reads the second row from another record (a row played again
elsewhere, say at another commit or load: how far its matches came out the same), or a row of another level
on the same deals: the hard seat's own play alone (bench.strength's `own`), to see what the search adds:

    python -m bench.strength_paired docs/strength/wizards-2-own.jsonl revision=5 revision=5 \
        --second-record docs/strength/wizards-2-hard.jsonl
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from bench.strength import ended_ahead, entries


def selector(text: str) -> dict:
    """`name=value,...` as a dict, each value read as JSON where it is (4, 2.0, true), else as a string."""
    chosen = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        if not sep or not name:
            raise argparse.ArgumentTypeError(f"{part!r} is not name=value")
        try:
            chosen[name] = json.loads(value)
        except json.JSONDecodeError:
            chosen[name] = value
    return chosen


def _flat(key: dict) -> dict:
    """A record key with the hard search's settings (or the own play's: its revision) beside its own (a name in
    both: the key's)."""
    searched = {**(key.get("hard") or {}), **(key.get("own") or {})}
    return {**searched, **{k: v for k, v in key.items() if k not in ("hard", "own")}}


def row(path: Path, chosen: dict) -> tuple[dict, dict[int, float]]:
    """The one row of the record that `chosen` names: its key, and each match's share ended ahead by index."""
    rows: dict[str, dict[int, float]] = {}
    keys: dict[str, dict] = {}
    matched = False
    for entry in entries(path):
        flat = _flat(entry["key"])
        if any(flat.get(k) != v for k, v in chosen.items()):
            continue
        matched = True
        if "margin" not in entry:  # a game with no progress margin (not Wizards) has no share ahead to pair
            continue
        name = json.dumps(entry["key"], sort_keys=True)
        keys[name] = entry["key"]
        rows.setdefault(name, {})[entry["i"]] = ended_ahead(entry["margin"], entry["mine"], entry["winners"])
    if len(rows) != 1:
        found = [_flat(k) for k in keys.values()]
        differ = sorted({k for f in found for k in f if any(g.get(k) != f[k] for g in found)})
        what = (f"{len(rows)} rows, told apart by {', '.join(differ)}" if rows
                else "no row with a progress margin" if matched else f"no row of {path} has these settings")
        raise SystemExit(f"{_named(chosen)}: {what}")
    (name,) = rows
    return keys[name], rows[name]


# what must agree for two rows' matches of the same index to be the same deal at the same table (the first-named
# levels may differ: the hard search and its own play alone, `own`, on the same deals)
SAME_DEAL = ("game", "variant", "seats", "days", "seed", "second")


def sign_test(better: int, worse: int) -> float:
    """The exact two-sided sign test's p: how likely a split this uneven is between two equals."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(better, worse) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def compare(first: dict[int, float], second: dict[int, float]) -> dict:
    """The matches both rows played: each row's share ended ahead on them, and the second's better, worse, level."""
    common = sorted(first.keys() & second.keys())
    better = sum(second[i] > first[i] for i in common)
    worse = sum(second[i] < first[i] for i in common)
    n = len(common)
    return {"matches": n, "first_ahead": sum(first[i] for i in common) / n if n else float("nan"),
            "second_ahead": sum(second[i] for i in common) / n if n else float("nan"),
            "better": better, "worse": worse, "level": n - better - worse, "p": sign_test(better, worse)}


def _named(chosen: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in chosen.items())


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("record", type=Path, help="a bench.strength record (JSON lines)")
    ap.add_argument("first", type=selector, help="the first row's settings, name=value[,name=value...]")
    ap.add_argument("second", type=selector, help="the second row's, compared against the first")
    ap.add_argument("--second-record", type=Path, default=None, help="the second row's record, if not the first's")
    args = ap.parse_args(argv)
    other = args.second_record or args.record
    for path in (args.record, other):
        if not path.is_file():
            ap.error(f"no record at {path}")
    key, first = row(args.record, args.first)
    their, second = row(other, args.second)
    apart = [k for k in SAME_DEAL if key.get(k) != their.get(k)]
    if apart:
        raise SystemExit("the two rows are not played on the same deals: they differ in "
                         + ", ".join(f"{k} ({key.get(k)} and {their.get(k)})" for k in apart))
    got = compare(first, second)
    firsts = key["first"] if key["first"] == their["first"] else f"{key['first']} and {their['first']}"
    print(f"{key['game']}, {key['seats']} seats, {firsts} v {key['second']}: {got['matches']} matches both played")
    print(f"  ended ahead: {_named(args.first)} {got['first_ahead']:.1%}, {_named(args.second)} "
          f"{got['second_ahead']:.1%}")
    print(f"  {_named(args.second)} better on {got['better']}, worse on {got['worse']}, level on {got['level']}; "
          f"two-sided sign test p = {got['p']:.2f}")


if __name__ == "__main__":
    main()
