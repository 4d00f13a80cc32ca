"""docs/api.md, the API reference: every service, call and message of protos/archmage/*/v1/*.proto
with its comments, and the JSON carried in the string fields, from the games' JSON Schemas.

The .proto files are read as text (comments before a declaration or after it on its line), so
the reference needs neither protoc nor the generated code; and docs/schemas/ gets a copy of
every schema (shared/<game>/schemas/ and shared/engine/schemas/)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from shared.engine import jsonschemas

ROOT = Path(__file__).resolve().parent.parent
PATH = "docs/api.md"
GAMES = ("tower", "incantris", "wizards")
_DECL = re.compile(r"^\s*(service|message|enum|rpc|package)\b")


def _strip(comment: list[str]) -> str:
    return " ".join(c.strip() for c in comment).strip()


def parse(text: str) -> dict:
    """{package, doc, services: [{name, doc, rpcs: [(name, request, reply, doc)]}],
    messages: [{name, doc, fields: [(type, name, doc)]}]} of one .proto file."""
    out: dict = {"package": "", "doc": "", "services": [], "messages": []}
    pending: list[str] = []
    stack: list[dict] = []
    for raw in text.splitlines():
        line, _, trailing = raw.partition("//")
        code = line.strip()
        if not code:
            if raw.strip().startswith("//"):
                pending.append(trailing)
            continue
        doc = _strip(pending + ([trailing] if trailing else []))
        pending = []
        if m := re.match(r"package\s+([\w.]+);", code):
            out["package"], out["doc"] = m.group(1), doc
        elif m := re.match(r"service\s+(\w+)", code):
            stack.append({"kind": "service", "name": m.group(1), "doc": doc, "rpcs": []})
            out["services"].append(stack[-1])
        elif m := re.match(r"message\s+(\w+)\s*\{(.*)\}\s*$", code):  # one-line message
            fields = [(f.group(1), f.group(2), doc)
                      for f in re.finditer(r"((?:repeated\s+)?[\w.]+)\s+(\w+)\s*=\s*\d+;", m.group(2))]
            out["messages"].append({"kind": "message", "name": m.group(1), "doc": "", "fields": fields})
        elif m := re.match(r"message\s+(\w+)", code):
            stack.append({"kind": "message", "name": m.group(1), "doc": doc, "fields": []})
            out["messages"].append(stack[-1])
        elif m := re.match(r"rpc\s+(\w+)\s*\(\s*(stream\s+)?([\w.]+)\s*\)\s*returns\s*\(\s*(stream\s+)?([\w.]+)\s*\)",
                           code):
            stack[-1]["rpcs"].append((m.group(1), (m.group(2) or "") + m.group(3), (m.group(4) or "") + m.group(5),
                                      doc))
        elif code.startswith("}"):
            if stack:
                stack.pop()
        elif stack and stack[-1]["kind"] == "message":
            if m := re.match(r"((?:repeated\s+|optional\s+)?(?:map<[^>]+>|[\w.]+))\s+(\w+)\s*=\s*\d+", code):
                stack[-1]["fields"].append((m.group(1), m.group(2), doc))
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def protos_section(root: Path) -> list[str]:
    lines: list[str] = []
    for path in sorted((root / "protos").glob("archmage/*/v1/*.proto")):
        p = parse(path.read_text(encoding="utf-8"))
        lines += [f"## `{p['package']}`", "", f"`{path.relative_to(root)}`. {p['doc']}".rstrip(), ""]
        for s in p["services"]:
            lines += [f"### service `{s['name']}`", ""]
            if s["doc"]:
                lines += [s["doc"], ""]
            lines += ["| call | request | reply | what it does |", "|---|---|---|---|"]
            lines += [f"| `{n}` | `{req}` | `{rep}` | {_cell(d)} |" for n, req, rep, d in s["rpcs"]]
            lines.append("")
        for m in p["messages"]:
            lines += [f"### message `{m['name']}`", ""]
            if m["doc"]:
                lines += [m["doc"], ""]
            if m["fields"]:
                lines += ["| field | type | meaning |", "|---|---|---|"]
                lines += [f"| `{n}` | `{t}` | {_cell(d)} |" for t, n, d in m["fields"]]
            else:
                lines.append("(no fields)")
            lines.append("")
    return lines


def _fields(schema: dict) -> str:
    props = schema.get("properties", {})
    need = set(schema.get("required", []))
    shown = [f"`{k}`" + ("" if k in need else "?") for k in props if k not in ("kind", "type")]
    return ", ".join(shown) or "(none)"


def schemas_section() -> list[str]:
    out = ["## The JSON in the string fields", "",
           "Every `*_json` field carries JSON described by a JSON Schema (draft 2020-12), kept beside each",
           "game's engine in `shared/<game>/schemas/` and copied to `docs/schemas/`:",
           "",
           "| field | schema |", "|---|---|",
           "| `ActRequest.action_json`, `LegalAction.action_json` | `<game>/actions.json` (one object per `kind`) |",
           "| `MatchView.view_json` | `<game>/view.json` |",
           "| `Event.body_json` | `<game>/events.json` (the game's own `type`s), `platform-events.json` (the rest) |",
           "| `QueryRequest.query_json` | `<game>/queries.json` |",
           "| `QueryReply.answer_json` | `<game>/answers.json` (`$defs` by query kind) |",
           "| `MatchView.outcome_json`, the `outcome` of `match_finished` | `outcome.json` |",
           "",
           "Clients read them over the API too: `Board.Query` with `{\"kind\": \"schema\"}` (or",
           "`{\"kind\": \"schema\", \"part\": \"actions\"}`) answers `{\"game\", \"schemas\"}` for the match's game.",
           "A query kind, not a new call: the schemas are those of the match's game, a client already talks",
           "to `Board` with the match in hand, and every game answers it the same way, so no proto changes",
           "and older clients are unaffected.",
           "",
           "### The end of a match",
           "",
           "Every game's match ends its play with one platform event, `match_finished`, whose body is",
           "`{\"outcome\": {\"scores\": [int per seat], \"winners\": [seat, ...], \"summary\": str}}`, then",
           "`dice_revealed` `{\"seed\"}`, the last event of the log (a cancelled match: `match_cancelled`",
           "`{\"reason\"}` then `dice_revealed`). The engines write no end event of their own. `scores` has",
           "one entry per seat (Pennants in Tower; the scenario's count in Incantris; 1 for a winner in",
           "Wizards); `winners` lists the winning seats, ascending, several on a tie and none when nobody",
           "won; an Incantris campaign game adds `campaign`, the record carried to the next game; and a",
           "match in which seats resigned (`Board.Resign`, logged as `resigned` `{\"seat\", \"action_id\"}`)",
           "adds `resigned`, those seats in the order they did (a resigned seat never wins). What a",
           "resignation does in each game is in its README, \"Resigning\".",
           ""]
    for game in GAMES:
        every = jsonschemas.schemas(game)
        out += [f"### `{game}`", "", "| action `kind` | fields (`?` optional) |", "|---|---|"]
        out += [f"| `{k}` | {_fields(d)} |" for k, d in every["actions"]["$defs"].items()]
        out += ["", "| query `kind` | fields | answer fields |", "|---|---|---|"]
        out += [f"| `{k}` | {_fields(d)} | {_fields(every['answers']['$defs'].get(k, {}))} |"
                for k, d in every["queries"]["$defs"].items()]
        out += ["", "Event types: " + ", ".join(f"`{t}`" for t in every["events"]["properties"]["type"]["enum"]) + ".",
                "", "View fields: " + _fields(every["view"]) + ".", ""]
    return out


def render(root: Path = ROOT) -> str:
    head = ["# The Archmage API", "",
            "Drawn from the comments of `protos/archmage/*/v1/*.proto` and from the JSON Schemas by",
            "`python -m docs.generate`; tests/docs fails while it is stale. Errors: docs/api-errors.md;",
            "the dice and the event chain: docs/fairness.md; a Python client: `services/client` (`Client`).", ""]
    return "\n".join(head + protos_section(root) + schemas_section()).rstrip() + "\n"


def schema_files() -> dict[str, str]:
    """docs/schemas/<game>/<part>.json and docs/schemas/<common>.json, as kept beside the engines."""
    out = {}
    for game in GAMES:
        for part in jsonschemas.PARTS:
            out[f"docs/schemas/{game}/{part}.json"] = json.dumps(jsonschemas.schema(game, part), indent=1,
                                                                ensure_ascii=False) + "\n"
    for part in jsonschemas.COMMON:
        out[f"docs/schemas/{part}.json"] = json.dumps(jsonschemas.schema(None, part), indent=1,
                                                     ensure_ascii=False) + "\n"
    return out
