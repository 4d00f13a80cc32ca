"""Which games the platform hosts. Services look engines up here by name, so a
new game plugs in by adding one line."""
from __future__ import annotations

import importlib

from shared.engine.contract import GameEngine

# name -> "module:Class"; imported lazily so one broken game cannot stop the others.
GAMES: dict[str, str] = {}

_cache: dict[str, GameEngine] = {}


def register(name: str, target: str) -> None:
    GAMES[name] = target


def engine_for(name: str) -> GameEngine:
    """The engine of a game by its short name; KeyError if the platform has no such game."""
    if name not in _cache:
        module, cls = GAMES[name].split(":")
        _cache[name] = getattr(importlib.import_module(module), cls)()
    return _cache[name]


def game_names() -> list[str]:
    return sorted(GAMES)


register("tower", "shared.tower.engine:TowerEngine")
register("incantris", "shared.incantris.engine:IncantrisEngine")
register("wizards", "shared.wizards.engine:WizardsEngine")

# name -> "module:function" choosing an AI seat's action from its view (see shared/*/policy.py)
POLICIES: dict[str, str] = {
    "tower": "shared.tower.policy:choose",
    "incantris": "shared.incantris.policy:choose",
    "wizards": "shared.wizards.policy:choose",
}


def policy_for(name: str):
    module, fn = POLICIES[name].split(":")
    return getattr(importlib.import_module(module), fn)
