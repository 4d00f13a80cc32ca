"""The shape of a board query, checked the same way for every game."""
from __future__ import annotations

from typing import Any, Mapping

from shared.engine.errors import MalformedAction

Fields = set[str] | tuple[set[str], set[str]]


def query_kind(query: Any, fields: Mapping[str, Fields], game: str) -> str:
    """The kind of a well-formed query, or MalformedAction saying what is wrong.

    `fields` maps each kind a game answers to the fields it needs, or to (needed,
    optional); a query must name one of those kinds, give every needed field and no
    field the kind does not take."""
    if not isinstance(query, dict):
        raise MalformedAction("a query is a JSON object with a 'kind'")
    kind = query.get("kind")
    if not isinstance(kind, str) or kind not in fields:
        raise MalformedAction(f"{game} answers queries of kind {', '.join(fields)}; not {kind!r}")
    spec = fields[kind]
    need, optional = spec if isinstance(spec, tuple) else (spec, set())
    missing, extra = need - set(query), set(query) - need - optional - {"kind"}
    if missing:
        raise MalformedAction(f"{kind} needs {sorted(need)}; missing {sorted(missing)}")
    if extra:
        raise MalformedAction(f"{kind} takes no field {sorted(extra)}")
    return kind
