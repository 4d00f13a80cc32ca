"""An AI seat's level as a client asks for it (SeatSpec.level, a ticket's ai_level): checked
against the levels the game offers (shared/engine/registry.py levels_for)."""
from __future__ import annotations

from services.core.errors import BadRequest
from shared.engine.registry import levels_for

DEFAULT = "normal"


def checked_level(game: str, level: str, field: str = "level") -> str:
    """`level`, or the default for an empty one; BadRequest naming the levels the game has."""
    if not level:
        return DEFAULT
    offered = levels_for(game)
    if level not in offered:
        raise BadRequest(f"{field}: {game} has no AI level {level[:40]!r}; it has {', '.join(offered)}")
    return level
