"""The command line of a small bench that takes only counts (`python -m bench.wizards_life 12`): each
count optional with its default, `--help` the bench's own docstring, and a count that is not a whole
number above nothing a usage error (exit 2), not a traceback."""
from __future__ import annotations

import argparse


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} is fewer than 1")
    return n


def counts(doc: str | None, *named: tuple[str, int], argv: list[str] | None = None) -> list[int]:
    """The counts `named` (name, default) as given on the command line (`argv`, else sys.argv's), in order."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name, default in named:
        ap.add_argument(name, nargs="?", type=_positive, default=default, help=f"{default} by default")
    args = ap.parse_args(argv)
    return [getattr(args, name) for name, _ in named]
