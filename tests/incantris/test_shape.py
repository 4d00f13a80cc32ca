"""The engine's shape: modules import one way (no cycles, no imports hidden inside functions),
every pending step is a Task in the engine's TASKS table, and every refusal quotes the clause
that forbids the action."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from shared.engine import MalformedAction, RuleViolation
from shared.incantris import engine, flow
from shared.incantris.tasks import Task

from .support import E, act, arrange, begin, fill, game

HERE = Path(engine.__file__).parent
MODULES = {p.stem: p for p in HERE.glob("*.py")}
RED_SHAMAN, RED_DRUID, RED_SORC = "red-shaman", "red-druid", "red-sorceress"
BLUE_AK, BLUE_SW, BLUE_SORC = "blue-arcane-knight", "blue-shadow-weaver", "blue-sorcerer"


def _imports(path: Path) -> tuple[set[str], list[str]]:
    """(the shared.incantris modules a module imports at its top, the imports inside functions)."""
    tree = ast.parse(path.read_text())
    top: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "shared.incantris":
                top |= {a.name for a in node.names}
            elif node.module.startswith("shared.incantris."):
                top.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            top |= {a.name.split(".")[2] for a in node.names if a.name.startswith("shared.incantris.")}
    inner = [f"{path.stem}:{n.lineno}" for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.ClassDef))
             for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom))
             and (getattr(n, "module", "") or "").startswith("shared.incantris")]
    return top & set(MODULES), inner


GRAPH = {name: _imports(path)[0] for name, path in MODULES.items() if name != "__init__"}


def test_no_module_imports_inside_a_function():
    inner = [x for path in MODULES.values() for x in _imports(path)[1]]
    assert inner == []


def test_there_is_no_import_cycle_among_the_modules():
    """Depth-first search for a back edge in the import graph of shared.incantris."""
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(n: str, stack: list[str]) -> bool:
        state[n] = 1
        for m in sorted(GRAPH.get(n, ())):
            if state.get(m) == 1:
                cycle.extend(stack[stack.index(m):] + [n, m] if m in stack else [n, m])
                return True
            if state.get(m) is None and visit(m, stack + [n]):
                return True
        state[n] = 2
        return False

    for n in sorted(GRAPH):
        if state.get(n) is None and visit(n, []):
            break
    assert cycle == [], " -> ".join(cycle)


def test_the_queue_imports_no_rule():
    assert GRAPH["flow"] <= {"state"}


def test_every_pending_step_is_a_task_in_the_table():
    assert all(isinstance(t, Task) and k == t.kind for k, t in engine.TASKS.items())
    kinds_pushed = set()
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if isinstance(k, ast.Constant) and k.value == "t" and isinstance(v, ast.Constant):
                        kinds_pushed.add(v.value)
    assert kinds_pushed <= set(engine.TASKS), kinds_pushed - set(engine.TASKS)
    assert not hasattr(flow, "HANDLERS")


def refused(s, action):
    with pytest.raises(RuleViolation) as e:
        act(s, action)
    return e.value


def test_a_refused_step_names_the_clause_that_forbids_it():
    s = begin(arrange(game(), {BLUE_SW: (0, 0), RED_SHAMAN: (3, 0), RED_DRUID: (0, -1)}), BLUE_SW)
    e = refused(s, {"kind": "step", "to": [0, -1]})
    assert e.rule == "Movement & Terrain" and "opposing teams are impassable" in str(e)
    e = refused(s, {"kind": "step", "to": [2, 0]})
    assert e.rule == "Movement & Terrain" and "adjacent hex" in str(e)
    s2, _ = act(s, {"kind": "step", "to": [1, 0]})
    s2, _ = act(s2, {"kind": "step", "to": [2, 0]})  # next to the Shaman: stops
    e = refused(s2, {"kind": "step", "to": [2, 1]})
    assert e.rule == "Bear Presence" and "must immediately stop" in str(e)


def test_a_wizard_bound_by_bear_presence_is_told_so():
    """Bear Presence's second sentence, quoted when a wizard that began next to the Shaman steps
    straight to another hex next to him."""
    s = begin(arrange(game(), {BLUE_SW: (1, 0), RED_SHAMAN: (0, 0)}), BLUE_SW)
    e = refused(s, {"kind": "step", "to": [1, -1]})
    assert e.rule == "Bear Presence" and "begins his or her turn adjacent" in str(e)


def test_a_refused_cast_names_the_clause_that_forbids_it():
    s = begin(arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (5, 0), BLUE_AK: (2, 0)}), RED_DRUID)
    e = refused(s, {"kind": "cast", "spell": "tempest", "target": BLUE_SW})
    assert e.rule == "Casting Spells" and "maximum number of hexes" in str(e)
    e = refused(s, {"kind": "cast", "spell": "gloom-strike", "target": BLUE_SW})
    assert "reference board" in str(e)
    s2, _ = act(s, {"kind": "cast", "spell": "entanglement", "target": BLUE_AK})
    while E.actor(s2) < 0 and E.chance_request(s2):
        s2, _ = fill(s2)
    e = refused(s2, {"kind": "cast", "spell": "tempest", "target": BLUE_AK})
    assert e.rule == "Sequence of Play" and "single spell per turn" in str(e)


def test_a_cast_out_of_sight_quotes_line_of_sight():
    s = begin(arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (3, 0), BLUE_AK: (1, 0)}), RED_DRUID)
    e = refused(s, {"kind": "cast", "spell": "tempest", "target": BLUE_SW})
    assert e.rule == "Casting Spells" and "line of sight" in str(e)


def test_activation_refusals_name_their_sentences():
    s = arrange(game(), {RED_DRUID: (0, 0), RED_SHAMAN: (0, 3), BLUE_SW: (5, 0)})
    e = refused(s, {"kind": "activate", "wizard": BLUE_SW})
    assert e.rule == "Sequence of Play" and "his or her wizards" in str(e)
    e = refused(s, {"kind": "step", "to": [1, 0]})
    assert "activate" in str(e)
    with pytest.raises(MalformedAction):
        act(s, {"kind": "activate", "wizard": "nobody"})


def test_a_teleport_too_far_or_onto_an_obstacle_quotes_teleport():
    """Teleport: "up to four hexes from his or her current location" and "may not be teleported to
    an impassable hex"."""
    s = arrange(game(), {BLUE_SW: (0, 0), RED_DRUID: (0, -6)})
    s.replace("obstacles", [{"kind": "tree", "hexes": [[2, 0]]}])
    s = begin(s, BLUE_SW)
    s, _ = act(s, {"kind": "cast", "spell": "teleport", "target": BLUE_SW})
    e = refused(s, {"kind": "teleport", "to": [5, 0]})
    assert e.rule == "Teleport" and "up to four hexes" in str(e)
    e = refused(s, {"kind": "teleport", "to": [2, 0]})
    assert e.rule == "Teleport" and "impassable hex" in str(e) and "obstacles" in str(e)


def test_a_second_cancel_and_a_foreign_spell_quote_the_cancelling_sentence():
    s = arrange(game(), {RED_SORC: (0, 0), BLUE_SW: (0, 6)})
    for key, spot in (("red-sorceress:guardian-hydra", [2, 0]),):
        s.edit("effects")[key] = {"id": key, "spell": "guardian-hydra", "caster": RED_SORC, "side": 0, "since": 0,
                                  "hex": spot}
    s = begin(s, BLUE_SW)
    e = refused(s, {"kind": "cancel", "effect": "red-sorceress:guardian-hydra"})
    assert e.rule == "Casting Spells" and "his or her own persistent spells" in str(e)
    with pytest.raises(MalformedAction):
        act(s, {"kind": "cancel", "effect": "nobody:nothing"})
