"""The package README stays complete: the module map, the readings of unclear rules, every
authored value of the pack with why, and the board queries."""
from __future__ import annotations

import re
from pathlib import Path

import shared.incantris as package
from shared.incantris.pack import load

HERE = Path(package.__file__).parent
README = (HERE / "README.md").read_text()
MODULES = sorted(p.stem for p in HERE.glob("*.py") if p.stem != "__init__")


def _section(title: str) -> str:
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.S | re.M)
    assert m, f"README has no section {title!r}"
    return m.group(1)


def _authored(node, path: str = "") -> set[str]:
    """Pack entries marked authored, by path (a wizard type's key read as <type>, list items as [])."""
    out = set()
    if isinstance(node, dict):
        if node.get("origin") == "authored":
            out.add(path)
        for k, v in node.items():
            key = "<type>" if path == "wizard_types" else k
            out |= _authored(v, f"{path}.{key}" if path else key)
    elif isinstance(node, list):
        for v in node:
            out |= _authored(v, f"{path}[]")
    return out


def test_the_module_map_names_every_module():
    """Each module has one job, listed in the README's module map and the package docstring."""
    table = _section("Module map")
    for name in MODULES:
        assert f"`{name}.py`" in table, name
        assert re.search(rf"^    {name}\s", package.__doc__, re.M), name


def test_every_authored_value_is_listed_with_why():
    """Every value the pack marks authored appears in the README's table with a reason."""
    table = _section("Authored values")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([^`]+)` \| [^|]+ \| ([^|]+) \|$", table, re.M)}
    for path in sorted(_authored(load().data)):
        assert path in rows, f"README lists no authored value {path!r}"
        assert len(rows[path].split()) >= 8, f"{path}: the reason is too thin"


def test_the_readings_cover_the_reviewed_rules():
    """Readings of unclear rules named by the review: where obstacles may stand (Obstacles,
    Movement & Terrain) and that a double-sided tile is laid once (Game Components)."""
    readings = _section("Readings")
    assert "Obstacles stand on open ground" in readings
    assert "otherwise impassable" in readings and "bridge" in readings
    assert "double-sided tile once" in readings
    assert "Board queries" in README and _section("Board queries").count("| `{") == 4
