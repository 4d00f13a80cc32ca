"""Which games the platform hosts, and where each one's parts live. A game plugs in with one
`register()` call that names its parts by dotted path:

    register("tower", engine="shared.tower.engine:TowerEngine", policy="shared.tower.policy:choose",
             renderer="shared.tower.render", schemas="shared.tower.schemas")

    engine    "module:Class", the game's GameEngine (one instance per process)      engine_for(name)
    policy    "module:function" choosing an AI seat's action,
              policy(view, seat, legal, rng) -> one of legal                          policy_for(name)
    renderer  a module with render(view, seat) and render_events(events), which
              draw the game in a terminal (none: the client prints JSON); optional hooks
              for the prompt (group, more_choices, help_text, REDRAW_CHANGES) are
              described in services/cli/choosing.py                                  renderer_for(name)
    schemas   the package folder of the game's JSON Schemas (shared/engine/jsonschemas.py
              names the files; none: the game publishes no schemas)                   schemas_folder(name)
    levels    optional "module:function" per AI level other than normal, each
              returning the level's policy (`{"hard": ...}`); a level a game does
              not name is the default of shared/engine/levels.py (easy: the policy
              with noise; hard: none without a search)                       policy_for(name, level)
    easy_noise  optional share of an easy seat's choices made at random instead of
              the policy's (default levels.EASY_NOISE)

Every part is imported the first time it is asked for, so one broken game cannot stop the others.
Services, AI tasks, the terminal client, the docs and the tests all look games up here.
"""
from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from shared.engine import levels as ai_levels
from shared.engine.contract import GameEngine


@dataclass(frozen=True)
class Game:
    """One hosted game: its short name and the dotted paths of its parts."""

    name: str
    engine: str
    policy: str
    renderer: str | None = None
    schemas: str | None = None
    levels: tuple[tuple[str, str], ...] = ()
    easy_noise: float = ai_levels.EASY_NOISE


GAMES: dict[str, Game] = {}

_engines: dict[str, GameEngine] = {}
_levels: dict[str, dict[str, Callable]] = {}


def register(name: str, *, engine: str, policy: str, renderer: str | None = None,
             schemas: str | None = None, levels: dict[str, str] | None = None,
             easy_noise: float = ai_levels.EASY_NOISE) -> Game:
    """Host a game under `name` (registering a name again replaces its parts)."""
    GAMES[name] = Game(name, engine, policy, renderer, schemas, tuple(sorted((levels or {}).items())), easy_noise)
    _engines.pop(name, None)
    _levels.pop(name, None)
    return GAMES[name]


def game(name: str) -> Game:
    """A game's registration; KeyError if the platform has no such game."""
    return GAMES[name]


def game_names() -> list[str]:
    return sorted(GAMES)


def _attribute(target: str) -> Any:
    module, attribute = target.split(":")
    return getattr(importlib.import_module(module), attribute)


def engine_for(name: str) -> GameEngine:
    """The engine of a game by its short name; KeyError if the platform has no such game."""
    if name not in _engines:
        _engines[name] = _attribute(GAMES[name].engine)()
    return _engines[name]


def policy_for(name: str, level: str = "normal") -> Callable:
    """The function choosing an AI seat's action in `name` at an AI level (easy, normal, hard;
    shared/engine/levels.py): policy(view, seat, legal, rng). KeyError for a game the platform
    does not host or a level the game does not have (hard needs a registered search)."""
    if level == "normal":
        return _attribute(GAMES[name].policy)
    if level not in ai_levels.LEVELS:
        raise KeyError(f"no AI level {level!r}; the levels are {', '.join(ai_levels.LEVELS)}")
    made = _levels.setdefault(name, {})
    if level not in made:
        named = dict(GAMES[name].levels)
        if level in named:
            made[level] = _attribute(named[level])()
        elif level == "easy":
            made[level] = ai_levels.noisy(_attribute(GAMES[name].policy), GAMES[name].easy_noise)
        else:
            raise KeyError(f"{name} has no {level!r} AI level")
    return made[level]


def levels_for(name: str) -> tuple[str, ...]:
    """The AI levels `name` offers, easiest first."""
    named = dict(GAMES[name].levels)
    return tuple(lv for lv in ("easy", "normal", "hard") if lv != "hard" or lv in named)


def renderer_for(name: str) -> ModuleType | None:
    """The module drawing `name` in a terminal, or None if the game registered none."""
    target = GAMES[name].renderer
    return importlib.import_module(target) if target else None


def schemas_folder(name: str) -> Path | None:
    """The folder of `name`'s JSON Schemas, or None if the game publishes none."""
    target = GAMES[name].schemas
    if not target:
        return None
    spec = importlib.util.find_spec(target)  # a folder of JSON files: a namespace package
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"no schema folder {target!r} for {name}")
    return Path(next(iter(spec.submodule_search_locations)))


register("tower", engine="shared.tower.engine:TowerEngine", policy="shared.tower.policy:choose",
         renderer="shared.tower.render", schemas="shared.tower.schemas",
         levels={"hard": "shared.tower.levels:hard"},
         easy_noise=0.5)  # a game of dice: at the default share an easy seat was nearly a normal one
register("incantris", engine="shared.incantris.engine:IncantrisEngine", policy="shared.incantris.policy:choose",
         renderer="shared.incantris.render", schemas="shared.incantris.schemas",
         levels={"hard": "shared.incantris.levels:served"})
register("wizards", engine="shared.wizards.engine:WizardsEngine", policy="shared.wizards.policy:choose",
         renderer="shared.wizards.render", schemas="shared.wizards.schemas",
         levels={"hard": "shared.wizards.levels:hard"})

