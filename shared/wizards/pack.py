"""The Wizards content pack: board, territory tiles, cards and tables, loaded once.

The rulebook names components it does not print (tile layouts, card texts); those
live as JSON beside this module, each value marked with its origin, and are checked
against `content/pack.schema.json` when first loaded. Nothing here runs at play
time after that: the engine reads the frozen Pack.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

import jsonschema

CONTENT = Path(__file__).with_name("content")
FILES = ("board", "terrain", "territories", "tasks", "events", "wizards", "gems", "orders", "colours")

TILE_TYPES = ("common", "elven", "magic")
LAIR_TILE = "M6"  # VI – DRAGON'S LAIR (Appendix C)
CIRCLE_TILE = "M1"  # I – SACRED CIRCLE
COTTAGE_TILE = "M5"  # V – HAMDREL'S COTTAGE
TOWER_TILES = ("M2", "M3", "M4")  # the Master Sorcerers' Towers


class PackError(Exception):
    """The content pack breaks its schema or one of the rulebook's constraints."""


@dataclass(frozen=True)
class Pack:
    raw: Mapping[str, Any]

    @property
    def board(self) -> Mapping[str, Any]:
        return self.raw["board"]

    @property
    def tiles(self) -> Mapping[str, Mapping[str, Any]]:
        return self.raw["tiles_by_id"]

    @property
    def tile_ids(self) -> tuple[str, ...]:
        return self.raw["tile_ids"]

    @property
    def labels(self) -> Mapping[str, tuple[int, int]]:
        return self.raw["labels"]

    @property
    def terrain(self) -> Mapping[str, Any]:
        return self.raw["terrain"]

    @property
    def task_cards(self) -> tuple[Mapping[str, Any], ...]:
        return self.raw["tasks"]["cards"]

    @property
    def event_cards(self) -> tuple[Mapping[str, Any], ...]:
        return self.raw["events"]["cards"]

    @property
    def wizard_cards(self) -> tuple[Mapping[str, Any], ...]:
        return self.raw["wizards"]["cards"]

    @property
    def high_wizards(self) -> tuple[str, ...]:
        return tuple(self.raw["wizards"]["high_wizards"]["names"])

    @property
    def gem_cards(self) -> tuple[Mapping[str, Any], ...]:
        return self.raw["gems"]["cards"]

    @property
    def orders(self) -> Mapping[str, Any]:
        return self.raw["orders"]["orders"]

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(self.raw["colours"]["colours"])

    def tile_by_number(self, tile_type: str, number: int) -> str:
        """The id of the tile of a type with a Roman numeral (4.1: the red die names it)."""
        return f"{tile_type[0].upper()}{number}"

    def event(self, number: int) -> Mapping[str, Any]:
        return self.event_cards[number - 1]

    def task(self, number: int) -> Mapping[str, Any]:
        return self.task_cards[number - 1]


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def check_constraints(doc: Mapping[str, Any]) -> None:
    """The rulebook's own constraints on the pack, beyond the schema's shapes."""
    tiles = doc["territories"]["tiles"]
    ids = [t["id"] for t in tiles]
    expected = [f"{p}{n}" for p in "CEM" for n in range(1, 7)]
    if sorted(ids) != sorted(expected):
        raise PackError(f"tiles must be C1-C6, E1-E6, M1-M6 (Appendix C), got {ids}")
    for t in tiles:
        if t["id"] != f"{t['type'][0].upper()}{t['number']}":
            raise PackError(f"tile {t['id']} does not match its type and number")
    kinds = {(t["id"], lab): s["kind"] for t in tiles for lab, s in t["spaces"].items()}
    by_id = {t["id"]: t for t in tiles}
    need = {
        "circle": [("M1", "Center")], "lair": [("M6", "Center")], "cottage": [("M5", "Center")],
        "tower": [("M2", "Center"), ("M3", "Center"), ("M4", "Center")],
    }
    for kind, places in need.items():
        found = sorted(k for k, v in kinds.items() if v == kind)
        if found != sorted(places):
            raise PackError(f"{kind} spaces must be exactly {places} (section 6 / Appendix C), got {found}")
    for kind, tile in (("star_crest", "E4"), ("high_hollow", "M3"), ("abbey", "C3")):
        found = [k for k, v in kinds.items() if v == kind]
        if len(found) != 1 or found[0][0] != tile:
            raise PackError(f"exactly one {kind}, on tile {tile} (Appendix C), got {found}")
    for (tid, _), kind in kinds.items():
        if kind == "town" and by_id[tid]["type"] != "common":
            raise PackError("Towns stand in Common territory (section 6)")
        if kind == "dwelling" and by_id[tid]["type"] != "elven":
            raise PackError("Dwellings stand in Elven territory (section 6)")
    stones = [s["dots"] for lab, s in by_id["M1"]["spaces"].items() if s["kind"] == "stone"]
    if not stones or any(k == "stone" for (tid, _), k in kinds.items() if tid != "M1"):
        raise PackError("Sacred Circle stones stand on the Sacred Circle tile only")
    for t in tiles:
        if not any(s["kind"] == "dwelling" for s in t["spaces"].values()) and t["type"] == "elven":
            raise PackError(f"Elven territory {t['name']} needs its Dwelling")
    if any(not any(s["kind"] == "mountains" for s in by_id[tid]["spaces"].values()) for tid in TOWER_TILES):
        raise PackError("8.1 b needs MOUNTAIN spaces on each Sorcerer's Tower tile")
    for t in tiles:
        for lab, _direction in t["walls"]:
            if lab not in t["spaces"]:
                raise PackError(f"wall on unknown space {t['id']} {lab}")
    if [c["number"] for c in doc["tasks"]["cards"]] != list(range(1, 99)):
        raise PackError("Task cards are numbered 1-98")
    if [c["number"] for c in doc["events"]["cards"]] != list(range(1, 50)):
        raise PackError("Event cards are numbered 1-49")
    types = {c["type"] for c in doc["events"]["cards"]}
    if types != {"immediate", "extended", "movement", "trap"}:
        raise PackError("8.51 names four types of Event Card")
    check_cards(doc)
    names = doc["wizards"]["high_wizards"]["names"]
    his = [c["wizard"] for c in doc["wizards"]["cards"] if c["type"] == "high_wizard"]
    if sorted(his) != sorted(names):
        raise PackError("one Wizard Card for each of the seven High Wizards")
    gems = [c["gem"] for c in doc["gems"]["cards"] if c["gem"]]
    if sorted(gems) != sorted(["Diamond", "Sapphire", "Ruby", "Emerald", "Topaz", "Onyx"]) or \
            sum(1 for c in doc["gems"]["cards"] if c.get("false_wizard")) != 1:
        raise PackError("six Sacred Gems and the False Wizard (13, 7.3263)")


IMMEDIATE_OPS = ("gain_points", "lose_points", "extra_turns", "lose_turns", "transport", "animal", "draw_task", "demon",
                 "reveal_high_wizard", "complete_tasks", "star_crest_directed")
EXTENDED_OPS = ("keep", "delayed", "no_random_encounters")


def check_cards(doc: Mapping[str, Any]) -> None:
    """What tasks.py and eventcards.py rely on in the Task and Event Cards (9, 8.51, 1)."""
    from shared.wizards.taskmarkers import PLAYING_PIECES, TASK_MARKERS_PER_COLOUR

    if len(doc["colours"]["colours"]) != PLAYING_PIECES:
        raise PackError("one colour of Task Markers for each of the 6 Playing Pieces (1, 3.7)")
    kinds = {s["kind"] for t in doc["territories"]["tiles"] for s in t["spaces"].values()}
    for c in doc["tasks"]["cards"]:
        marked = [s for s in c["steps"] if s["do"] in ("go", "return", "take")]
        if len(marked) > TASK_MARKERS_PER_COLOUR:
            raise PackError(f"Task {c['number']} needs more Task Markers than a colour has (1)")
        starred = any(s["do"] == "take" and s["stealable"] for s in c["steps"])
        if starred != ("*" in c["text"]):
            raise PackError(f"Task {c['number']}: an ASTERISK in the text marks exactly its Magical Objects (9.8)")
        for s in c["steps"]:
            kind = s.get("kind") or (s.get("where") or {}).get("any")
            if kind and kind not in kinds:
                raise PackError(f"Task {c['number']} calls for a {kind} space that no tile has (4.1 ANY, 9)")
            if s["do"] == "visit_every" and len(c["steps"]) != 1:
                raise PackError(f"Task {c['number']}: a visit to EVERY location is a Task of its own (12.43)")
    for c in doc["events"]["cards"]:
        effects = c["effects"]
        ops = [e["op"] for e in effects]
        allowed = {"immediate": IMMEDIATE_OPS, "extended": EXTENDED_OPS, "movement": ("movement",),
                   "trap": ("trap",)}[c["type"]]
        if any(op not in allowed for op in ops) or (c["type"] != "immediate" and len(ops) != 1):
            raise PackError(f"Event {c['number']}: a {c['type']} card's effects must be {allowed} (8.51)")
        for e in list(effects) + [t for d in effects if d["op"] == "delayed" for t in d["then"]]:
            if e["op"] in ("gain_points", "lose_points") and e["type"] != "any" and "fixed" not in e["amount"]:
                raise PackError(f"Event {c['number']}: points of a named type are a fixed amount")
            if e["op"] == "demon" and e["where"] != "here":
                raise PackError(f"Event {c['number']}: a Demon from an Event is placed in the player's space (8.2)")
            if e["op"] == "trap" and "lose_turns" in e:
                n = e["lose_turns"]
                dice = isinstance(n, dict) and set(n) == {"dice"}
                if not (n == "fortnight" or (type(n) is int and n >= 1) or dice):
                    raise PackError(f"Event {c['number']}: lost turns are a number, dice or the Fortnight (8.3)")
            if e["op"] == "keep" and e["use"] not in ("heal", "escape_trap", "extra_turn", "dispel_demon",
                                                      "summon_boat", "wizard_bonus"):
                raise PackError(f"Event {c['number']}: unknown use of a kept card")
        for e in effects:
            if e["op"] == "delayed" and any(t["op"] not in IMMEDIATE_OPS for t in e["then"]):
                raise PackError(f"Event {c['number']}: a delayed effect is one an immediate card could have (8.51)")


def load_documents(directory: Path = CONTENT) -> dict[str, Any]:
    doc = {}
    for name in FILES:
        with open(directory / f"{name}.json", encoding="utf-8") as f:
            doc[name] = json.load(f)
    return doc


def validate(doc: Mapping[str, Any]) -> None:
    """Raise PackError unless `doc` (all files together) passes the schema and the constraints."""
    with open(CONTENT / "pack.schema.json", encoding="utf-8") as f:
        schema = json.load(f)
    try:
        jsonschema.validate(doc, schema)
    except jsonschema.ValidationError as e:
        raise PackError(f"content pack: {e.message} at {'/'.join(map(str, e.absolute_path))}") from e
    check_constraints(doc)


@lru_cache(maxsize=1)
def pack() -> Pack:
    """The content pack, read and validated on first use and shared from then on."""
    doc = load_documents()
    validate(doc)
    tiles = doc["territories"]["tiles"]
    raw = dict(doc)
    raw["tiles_by_id"] = {t["id"]: t for t in tiles}
    raw["tile_ids"] = [t["id"] for t in sorted(tiles, key=lambda t: (TILE_TYPES.index(t["type"]), t["number"]))]
    raw["labels"] = {k: tuple(v) for k, v in doc["territories"]["labels"].items()}
    return Pack(_freeze(raw))
