"""Write the documents drawn from the content packs: `python -m docs.generate`.

Run it after editing a pack; tests/docs fails while a document differs from what its pack
gives. `--check` only compares and exits 1 when a document is stale.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from docs import api_reference, fairness_vectors, incantris_wizards, tower_realm, wizards_tiles

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS: dict[str, Callable[[], str]] = {
    wizards_tiles.PATH: wizards_tiles.render,
    incantris_wizards.PATH: incantris_wizards.render,
    tower_realm.PATH: tower_realm.render,
    fairness_vectors.PATH: fairness_vectors.render,
    api_reference.PATH: api_reference.render,
}


def documents() -> dict[str, str]:
    """Each document's path (from the repository root) and its text, built in memory."""
    return {**{path: render() for path, render in DOCUMENTS.items()}, **api_reference.schema_files()}


def stale(root: Path = ROOT) -> list[str]:
    """The documents whose file is missing or differs from what the packs give."""
    out = []
    for path, text in documents().items():
        file = root / path
        if not file.exists() or file.read_text(encoding="utf-8") != text:
            out.append(path)
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--check"]:
        old = stale()
        for path in old:
            print(f"stale: {path} (run python -m docs.generate)")
        return 1 if old else 0
    if args:
        print("usage: python -m docs.generate [--check]", file=sys.stderr)
        return 2
    for path, text in documents().items():
        file = ROOT / path
        if not file.exists() or file.read_text(encoding="utf-8") != text:
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        else:
            print(f"unchanged {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
