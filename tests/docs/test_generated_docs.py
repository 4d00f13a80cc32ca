"""The documents in docs/ are what the content packs give: regenerated in memory and compared,
so a pack edited without `python -m docs.generate` fails here; and every authored value of
every pack is listed with its reason."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from docs import generate, tower_realm, wizards_tiles
from shared.tower.pack import pack as tower_pack
from shared.wizards.pack import pack as wizards_pack

ROOT = Path(__file__).resolve().parents[2]
PACKS = {  # content folder -> the document that lists its authored values
    "shared/wizards/content": "docs/wizards-tiles.md",
    "shared/incantris/content": "docs/incantris-wizards.md",
    "shared/tower/content": "docs/tower-realm.md",
}


def _pointer(parts) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts) or "/"


def authored_marks(doc, parts=()):
    """(pointer, reason) of every authored mark, found independently of docs.origins."""
    if isinstance(doc, dict):
        if doc.get("origin") == "authored":
            yield _pointer(parts), doc.get("why") or doc.get("note")
        elif isinstance(doc.get("authored"), list):
            yield _pointer(parts), doc["why"]
        for k, v in doc.items():
            if isinstance(v, str) and v.startswith("authored:"):
                yield _pointer(parts + (k,)), v[len("authored:"):]
            else:
                yield from authored_marks(v, parts + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from authored_marks(v, parts + (i,))


def _pack_files(folder: str) -> list[Path]:
    return sorted(p for p in (ROOT / folder).glob("*.json") if not p.name.endswith("schema.json"))


def _section(text: str, file: str) -> str:
    """The part of a document's authored list headed by one pack file."""
    authored = text.split("## What is authored, and why", 1)[1]
    parts = re.split(r"^### ", authored, flags=re.M)
    found = [p for p in parts if p.startswith(f"`{file}`")]
    assert found, f"no authored list for {file}"
    return found[0]


def test_documents_match_the_packs():
    built = generate.documents()
    assert sorted(p for p in built if not p.startswith("docs/schemas/")) == sorted(
        [*PACKS.values(), "docs/fairness-vectors.json", "docs/api.md"])
    assert {p for p in built if p.startswith("docs/schemas/")} == {
        *(f"docs/schemas/{g}/{part}.json" for g in ("tower", "incantris", "wizards")
          for part in ("actions", "view", "events", "queries", "answers")),
        "docs/schemas/outcome.json", "docs/schemas/platform-events.json"}
    for path, text in built.items():
        on_disk = (ROOT / path).read_text(encoding="utf-8")
        assert on_disk == text, f"{path} is stale: run .venv/bin/python -m docs.generate"


def test_stale_finds_an_edited_or_missing_document(tmp_path):
    for path, text in generate.documents().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    assert generate.stale(tmp_path) == []
    edited = tmp_path / "docs/tower-realm.md"
    edited.write_text(edited.read_text(encoding="utf-8").replace("Dragon", "Wyvern", 1), encoding="utf-8")
    (tmp_path / "docs/wizards-tiles.md").unlink()
    assert generate.stale(tmp_path) == ["docs/wizards-tiles.md", "docs/tower-realm.md"]


@pytest.mark.parametrize("folder", sorted(PACKS))
def test_every_authored_value_is_listed_with_its_reason(folder):
    text = (ROOT / PACKS[folder]).read_text(encoding="utf-8")
    files = _pack_files(folder)
    assert files
    total = 0
    for file in files:
        section = _section(text, file.name)
        for pointer, why in authored_marks(json.loads(file.read_text(encoding="utf-8"))):
            total += 1
            assert f"`{pointer}`" in section, f"{file.name} {pointer} is not listed in {PACKS[folder]}"
            assert why and " ".join(why.split()) in section, f"{file.name} {pointer}: its reason is missing"
    assert total > 0


def test_each_tile_drawing_shows_its_19_labels_and_every_wall():
    for tid in wizards_pack().tile_ids:
        tile = wizards_pack().tiles[tid]
        drawing = "\n".join(wizards_tiles.tile_drawing(tile))
        labels = re.findall(r"(Ctr|[ABC][1-6]) ", drawing)
        assert sorted(labels) == sorted(["Ctr"] + [f"{r}{i}" for r in "ABC" for i in range(1, 7)]), tid
        assert drawing.count(wizards_tiles.WALL) == len(tile["walls"]), tid


def test_the_tower_strip_map_shows_exactly_the_borders_of_the_pack():
    """Where two strips overlap the territories touch; ring neighbours touch; nothing else does."""
    p = tower_pack()
    rings = {name: sorted((t for t in p.territory_ids if p.territories[t].ring == name),
                          key=lambda t: p.territories[t].position) for name in ("inner", "middle", "outer")}
    shown = set()
    for ring in rings.values():
        shown |= {frozenset((ring[i], ring[(i + 1) % len(ring)])) for i in range(len(ring))}
    for a, b in (("outer", "middle"), ("middle", "inner")):
        shown |= {frozenset((tower_realm.cell_at(rings[a], x), tower_realm.cell_at(rings[b], x)))
                  for x in range(tower_realm.width())}
    listed = {frozenset((t, c.to)) for t in p.territory_ids for c in p.crossings[t]}
    assert shown == listed
    assert "?" not in "\n".join(tower_realm.strip_map())
