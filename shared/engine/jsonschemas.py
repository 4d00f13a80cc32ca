"""The JSON Schemas (draft 2020-12) of what a game sends and takes over the API.

Each game keeps its schemas beside its engine, in `shared/<game>/schemas/` (the folder it registers,
shared/engine/registry.py):

    actions.json   one action (ListLegalActions' action_json, ActRequest.action_json), by "kind"
    view.json      a view (MatchView.view_json) of a seat or a spectator
    events.json    one of the game's own events (Event.body_json), by "type"
    queries.json   one board query (QueryRequest.query_json), by "kind"
    answers.json   the answer to each kind of query (QueryReply.answer_json), in "$defs" by kind

and every game shares `shared/engine/schemas/`: `outcome.json` (MatchView.outcome_json, and the
"outcome" of "match_finished") and `platform-events.json` (the events the platform writes).
`python -m docs.generate` publishes them in docs/schemas/ and docs/api.md; `Board.Query` with
{"kind": "schema"} answers them for the match's game.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from shared.engine import registry

PARTS = ("actions", "view", "events", "queries", "answers")
COMMON = ("outcome", "platform-events")
HERE = Path(__file__).resolve().parent / "schemas"


def folder(game: str) -> Path:
    """The folder the game registered for its schemas (shared/<game>/schemas); KeyError if it has none."""
    found = registry.schemas_folder(game)
    if found is None:
        raise KeyError(f"{game} publishes no JSON Schemas")
    return found


@functools.cache
def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def schema(game: str | None, part: str) -> dict:
    """One schema: a game's part (PARTS) or, with game None, a common one (COMMON)."""
    if game is None:
        if part not in COMMON:
            raise KeyError(part)
        return _read(HERE / f"{part}.json")
    if part not in PARTS:
        raise KeyError(part)
    return _read(folder(game) / f"{part}.json")


def schemas(game: str) -> dict[str, Any]:
    """Everything a client of `game` may check: the game's parts and the common ones."""
    out: dict[str, Any] = {part: schema(game, part) for part in PARTS}
    out.update({part: schema(None, part) for part in COMMON})
    return out


@functools.cache
def _registry():
    from referencing import Registry, Resource

    return Registry().with_resources(
        (name, Resource.from_contents(_read(HERE / name))) for name in ("outcome.json", "platform-events.json"))


def validator(game: str | None, part: str, kind: str | None = None):
    """A jsonschema validator for one part; for "answers" (or "platform-events"), `kind` names the
    query kind (or event type) whose $defs entry to use."""
    import jsonschema

    doc = schema(game, part)
    if kind is not None:
        doc = {"$schema": doc.get("$schema", "https://json-schema.org/draft/2020-12/schema"),
               "$defs": doc["$defs"], "$ref": f"#/$defs/{kind}"}
    return jsonschema.Draft202012Validator(doc, registry=_registry())
