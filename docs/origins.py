"""The authored values of a content pack, found from its origin marks, listed in Markdown.

A pack marks a value it had to invent (the rulebook prints none) in one of three ways:

* a mapping with `"origin": "authored"` and a `"why"` (Incantris layouts give a `"note"`);
* a rulebook origin that names authored fields: `{"origin": "rulebook", ..., "authored":
  ["points"], "why": ...}` (the printed example Task card, whose points are not printed);
* a string beginning `authored:` inside a rulebook origin (Tower: Solanos's colour, the
  reading of the re-roll table).

Each mark is named by its file and JSON pointer (RFC 6901), so a reader finds it in the pack.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterator

AUTHORED = "authored"
NOTE_PREFIX = "authored:"
SHORT_VALUE = 100  # longer values are drawn or tabled in the document instead of repeated here


@dataclass(frozen=True)
class Mark:
    file: str
    pointer: str
    label: str
    value: str | None
    why: str


def pointer(parts: list[str | int]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts) or "/"


def _get(doc: Any, parts: list[str | int]) -> Any:
    for p in parts:
        doc = doc[p]
    return doc


def _identity(item: Any) -> str | None:
    """How a list item calls itself: its id, number, name or the thing it belongs to."""
    if not isinstance(item, dict):
        return None
    for key in ("id", "number", "name", "character", "spell", "wizard"):
        if key in item and not isinstance(item[key], (dict, list)):
            name = item.get("name") if key in ("id", "number") and isinstance(item.get("name"), str) else None
            return f"{item[key]} {name}" if name else str(item[key])
    return None


def label(doc: Any, parts: list[str | int]) -> str:
    """'characters[Dragon] › moves' for /characters/0/origin/moves: origin segments left out."""
    out: list[str] = []
    node = doc
    for p in parts:
        child = node[p]
        if isinstance(p, int):
            ident = _identity(child)
            tag = f"[{ident if ident is not None else p}]"
            if out:
                out[-1] += tag
            else:
                out.append(tag)
        elif p != "origin":
            out.append(p[: -len("_origin")] if p.endswith("_origin") else p)
        node = child
    return " › ".join(out) or "the whole file"


def _short(value: Any) -> str | None:
    if value is None:
        return None
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= SHORT_VALUE else None


def _value(doc: Any, parts: list[str | int], node: Any) -> Any:
    """The value a mark speaks for, when it can be told apart from the mark itself."""
    if isinstance(node, dict) and "value" in node:
        return node["value"]
    if len(parts) >= 2 and parts[-2] == "origin":  # {"moves": 4, "origin": {"moves": {mark}}}
        owner = _get(doc, parts[:-2])
        return owner.get(parts[-1]) if isinstance(owner, dict) else None
    if parts and isinstance(parts[-1], str) and parts[-1].endswith("_origin"):  # "map_spells_origin"
        return _get(doc, parts[:-1]).get(parts[-1][: -len("_origin")])
    if parts and parts[-1] == "origin":  # the whole object it sits in
        owner = _get(doc, parts[:-1])
        if isinstance(owner, dict) and isinstance(node, dict) and isinstance(node.get(AUTHORED), list):
            return {k: owner.get(k) for k in node[AUTHORED]}
        if not isinstance(owner, dict):
            return None
        return owner["text"] if "text" in owner else {k: v for k, v in owner.items() if k != "origin"}
    if isinstance(node, dict):  # data and mark in one mapping (Incantris wizards, layouts)
        return {k: v for k, v in node.items() if k not in ("id", "origin", "why", "note")}
    return None


def _walk(doc: Any, node: Any, parts: list[str | int]) -> Iterator[tuple[list[str | int], Any, str]]:
    if isinstance(node, dict):
        if node.get("origin") == AUTHORED:
            yield parts, node, node.get("why") or node.get("note") or ""
        elif isinstance(node.get(AUTHORED), list) and "why" in node:
            yield parts, node, node["why"]
        for k, v in node.items():
            if isinstance(v, str) and v.startswith(NOTE_PREFIX):
                yield parts + [k], v, v[len(NOTE_PREFIX):]
            else:
                yield from _walk(doc, v, parts + [k])
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(doc, v, parts + [i])


def find_marks(file: str, doc: Any) -> list[Mark]:
    """Every authored mark of one pack file, in file order."""
    return [Mark(file, pointer(parts), label(doc, parts), _short(_value(doc, parts, node)), " ".join(why.split()))
            for parts, node, why in _walk(doc, doc, [])]


def _where(m: Mark) -> str:
    return f"`{m.pointer}` {m.label}" + (f" = {m.value}" if m.value is not None else "")


def authored_section(files: dict[str, Any], folder: str) -> list[str]:
    """'What is authored, and why': one heading per pack file, marks sharing a reason together."""
    lines = ["## What is authored, and why", "",
             f"The rulebook prints no value for these; each is marked `\"origin\": \"authored\"` in "
             f"`{folder}` with the reason below, and each satisfies every constraint the rulebook does state. "
             "Every entry gives the JSON pointer of its mark, what it names and, when short, the value. "
             "Someone who owns the printed game can replace any of them by editing the pack.", ""]
    for name, doc in files.items():
        lines += [f"### `{name}`", ""]
        marks = find_marks(name, doc)
        if not marks:
            lines += ["Nothing authored: every value here is printed in the rulebook.", ""]
            continue
        groups: dict[str, list[Mark]] = {}
        for m in marks:
            groups.setdefault(m.why, []).append(m)
        for why, ms in groups.items():
            if len(ms) == 1:
                lines.append(f"- {_where(ms[0])}: {why}")
            elif len(ms) <= 8:
                lines.append(f"- {len(ms)} values: {why}")
                lines += [f"  - {_where(m)}" for m in ms]
            else:
                lines.append(f"- {len(ms)} values: {why}")
                lines.append("  - " + "; ".join(_where(m) for m in ms))
        lines.append("")
    return lines
