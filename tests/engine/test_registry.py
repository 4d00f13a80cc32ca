"""One register() per game: its engine, AI policy, terminal renderer and schema folder, each named
by dotted path and imported when first asked for."""
from __future__ import annotations

import sys

import pytest

from services.cli.play import _renderer
from shared.engine import jsonschemas, registry
from shared.engine.contract import GameEngine


@pytest.mark.parametrize("name", ["tower", "incantris", "wizards"])
def test_every_hosted_game_registers_all_its_parts(name):
    game = registry.game(name)
    engine = registry.engine_for(name)
    assert isinstance(engine, GameEngine) and engine.name == name
    assert registry.engine_for(name) is engine  # one instance per process
    assert callable(registry.policy_for(name))
    render = registry.renderer_for(name)
    assert callable(render.render) and callable(render.render_events) and _renderer(name) is render
    assert registry.schemas_folder(name) == jsonschemas.folder(name)
    assert (registry.schemas_folder(name) / "actions.json").is_file()
    assert game.schemas == f"shared.{name}.schemas"


def test_a_game_without_renderer_or_schemas_is_printed_as_json_and_publishes_none():
    """The test game registers an engine and a policy only (tests/support/race.py)."""
    assert registry.game("race").renderer is None and registry.renderer_for("race") is None
    assert _renderer("race") is None and _renderer("no-such-game") is None
    assert registry.schemas_folder("race") is None
    with pytest.raises(KeyError):
        jsonschemas.schema("race", "actions")


def test_parts_are_imported_when_first_asked_for_and_a_second_register_replaces_them():
    saved = dict(registry.GAMES)
    try:
        registry.register("lazy", engine="tests.engine.no_such_module:Engine", policy="tests.support.race:choose")
        assert "lazy" in registry.game_names() and "tests.engine.no_such_module" not in sys.modules
        assert registry.policy_for("lazy").__name__ == "choose"
        with pytest.raises(ModuleNotFoundError):
            registry.engine_for("lazy")
        registry.register("lazy", engine="tests.support.race:RaceGame", policy="tests.support.race:choose")
        assert registry.engine_for("lazy").name == "race"
    finally:
        registry.GAMES.clear()
        registry.GAMES.update(saved)
        registry._engines.pop("lazy", None)
    with pytest.raises(KeyError):
        registry.engine_for("no-such-game")
