"""The services import one way. Read from the source with `ast` (nothing is imported):

* no cycle among the `services.*` modules in the imports they run when they are loaded
  (module-level statements; an import inside a function is a late binding, e.g. the
  composition root's);
* no cycle among the packages either (`services.core`, `services.rpc`, `services.dice`, ...),
  so the layers read bottom to top: core, rpc, the service packages, runtime;
* no cycle among the `shared.*` modules (the engines and what they share) when they are loaded
  either. (Incantris goes further: no import inside a function at all, tests/incantris/test_shape.py.)
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def modules(root: Path = ROOT, top: str = "services") -> dict[str, Path]:
    found = {}
    for path in (root / top).rglob("*.py"):
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def module_level_imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The known modules that `path` imports in its module-level statements (under `if` and
    `try` too: they run at load time), relative imports resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(statements) -> None:
        for node in statements:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names if alias.name in known)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
                for alias in node.names:
                    if f"{base}.{alias.name}" in known:
                        found.add(f"{base}.{alias.name}")
                    elif base in known:
                        found.add(base)
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                visit(node.body)
                visit(getattr(node, "orelse", []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
                visit(getattr(node, "finalbody", []))

    visit(ast.parse(path.read_text(), str(path)).body)
    found.discard(name)
    return found


def graph(root: Path = ROOT, top: str = "services") -> dict[str, set[str]]:
    mods = modules(root, top)
    return {name: module_level_imports(path, name, set(mods)) for name, path in mods.items()}


def package_graph(g: dict[str, set[str]], depth: int = 2) -> dict[str, set[str]]:
    pkg = lambda m: ".".join(m.split(".")[:depth])
    out: dict[str, set[str]] = {}
    for m, targets in g.items():
        out.setdefault(pkg(m), set()).update(pkg(t) for t in targets if pkg(t) != pkg(m))
    return out


def cycle(g: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of g (as a path that comes back to its start), or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def walk(v: str) -> list[str] | None:
        state[v] = 1
        path.append(v)
        for w in sorted(g.get(v, ())):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state:
                found = walk(w)
                if found:
                    return found
        path.pop()
        state[v] = 2
        return None

    for v in sorted(g):
        if v not in state:
            found = walk(v)
            if found:
                return found
    return None


def test_no_import_cycle_among_the_service_modules():
    found = cycle(graph())
    assert found is None, "import cycle: " + " -> ".join(found)


def test_the_service_packages_import_one_way():
    found = cycle(package_graph(graph()))
    assert found is None, "packages import each other: " + " -> ".join(found)


def test_no_import_cycle_among_the_engine_modules():
    found = cycle(graph(top="shared"))
    assert found is None, "import cycle: " + " -> ".join(found)


def test_the_layers_are_the_documented_ones():
    packages = package_graph(graph())
    assert "services.rpc" not in packages["services.core"]
    assert packages["services.rpc"] <= {"services.core"}
    for service in ("services.dice", "services.board", "services.combat", "services.matchmaking"):
        assert "services.runtime" not in packages[service], service


def test_the_check_finds_a_cycle_it_is_shown(tmp_path):
    pkg = tmp_path / "demo"
    (pkg / "low").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "low" / "__init__.py").write_text("")
    (pkg / "low" / "a.py").write_text("from demo.high import b\n")
    (pkg / "high.py").write_text("def late():\n    from demo.low import a\n")
    (pkg / "b.py").write_text("")
    g = graph(tmp_path, "demo")
    assert cycle(g) is None  # an import inside a function runs late: no cycle at load time
    (pkg / "high.py").write_text("try:\n    from .low import a\nexcept ImportError:\n    pass\n")
    (pkg / "low" / "a.py").write_text("from ..high import late\n")
    assert cycle(graph(tmp_path, "demo")) in (["demo.high", "demo.low.a", "demo.high"],
                                              ["demo.low.a", "demo.high", "demo.low.a"])
