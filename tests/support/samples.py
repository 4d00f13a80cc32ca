"""What random play of a game shows a client: every legal action, view, query and answer, and
event, gathered from `random_playout` (no services). The schema tests validate these against
`shared/<game>/schemas/`; `python -m tests.support.samples --draft GAME` prints a schema drawn
from them, the starting point when a game grows a new kind of action or event."""
from __future__ import annotations

import json
import random
import re
import sys
from dataclasses import dataclass, field

from shared.engine import MalformedAction, RuleViolation
from shared.engine.contract import TERMINAL, MatchConfig
from shared.engine.errors import InvalidConfig
from shared.engine.playout import sample_chance
from shared.engine.registry import engine_for


@dataclass
class Samples:
    actions: list = field(default_factory=list)
    views: list = field(default_factory=list)
    events: list = field(default_factory=list)
    queries: list = field(default_factory=list)  # (query, answer)
    outcomes: list = field(default_factory=list)


def configs(game: str) -> list[MatchConfig]:
    """One config per variant, with its fewest seats the engine sets up."""
    engine, out = engine_for(game), []
    for variant in engine.variants:
        for seats in engine.seat_counts(variant):
            try:
                engine.setup(MatchConfig(seats, variant))
            except InvalidConfig:
                continue
            out.append(MatchConfig(seats, variant))
            break
    return out


def _wizards(view) -> list[dict]:
    return [w for w in view.get("wizards", {}).values() if w.get("alive") and isinstance(w.get("hex"), list)]


def queries_for(game: str, view: dict, seat: int, legal: list[dict], rng: random.Random) -> list[dict]:
    """A few queries a client of `seat` could ask now."""
    if game == "tower":
        out = [{"kind": "destinations"}]
        moves = [a for a in legal if a.get("kind") == "move" and isinstance(a.get("to"), str)]
        if moves:
            out.append({"kind": "paths", "to": rng.choice(moves)["to"]})
        return out
    if game == "incantris":
        out, wizards = [], _wizards(view)
        if len(wizards) >= 2:
            a, b = (w["hex"] for w in rng.sample(wizards, 2))
            out += [{"kind": "line_of_sight", "from": a, "to": b}, {"kind": "range", "from": a, "to": b}]
        if wizards:
            w = rng.choice(wizards)
            out.append({"kind": "reachable", "wizard": w["id"]})
        casts = [a for a in legal if a.get("kind") == "cast"]
        if casts and (view.get("turn") or {}).get("wizard"):
            out.append({"kind": "targets", "wizard": view["turn"]["wizard"], "spell": rng.choice(casts)["spell"]})
        return out
    out = [{"kind": "record_sheet"}, {"kind": "destinations", "points": rng.randint(1, 6)},
           {"kind": "space", "territory": rng.choice(["C1", "E2", "M3"]), "white": rng.randint(1, 6),
            "red": rng.randint(1, 6)},
           {"kind": "tile_cells", "at": [rng.randint(-6, 6), rng.randint(-6, 6)], "rotation": rng.randint(0, 5)}]
    targets = [a["to"] for a in legal if isinstance(a.get("to"), list)]
    if targets:
        out.append({"kind": "path", "to": rng.choice(targets)})
    return out


def play(game: str, seed: int, max_steps: int = 4000, every: int = 7, offered: int = 0,
         variants: tuple[str, ...] = (), resign_every: int = 0) -> Samples:
    """Random play of every variant of `game` (or those named): the legal actions offered
    (all, or `offered` of them at random each step), every event, and every `every` steps a
    view (of every seat and a spectator) and the seat to act's queries. With `resign_every`, a seat
    chosen at random resigns every that many steps (engine.resign)."""
    engine, rng, out = engine_for(game), random.Random(seed), Samples()
    for config in configs(game):
        if variants and config.variant not in variants:
            continue
        state, steps = engine.setup(config), 0
        seats = list(range(config.seats)) + [None]
        while steps < max_steps:
            who = engine.actor(state)
            if steps % every == 0 or who == TERMINAL:
                out.views += [engine.view(state, s) for s in seats]
            if who == TERMINAL:
                out.outcomes.append(engine.outcome(state).to_dict())
                break
            if resign_every and steps % resign_every == resign_every - 1:
                seat = rng.randrange(config.seats)
                try:
                    state, events = engine.resign(state, seat)
                except RuleViolation:  # resigned already
                    events = []
            elif who < 0:
                state, events = engine.apply_chance(state, sample_chance(engine.chance_request(state), rng))
            else:
                legal = engine.legal_actions(state, who)
                out.actions += rng.sample(legal, min(offered, len(legal))) if offered else legal
                if steps % every == 0:
                    for q in queries_for(game, engine.view(state, who), who, legal, rng):
                        try:
                            out.queries.append((q, engine.query(state, who, q)))
                        except MalformedAction:
                            pass
                state, events = engine.apply(state, who, rng.choice(legal))
            out.events += events
            steps += 1
    return out


# --- drafting a schema from samples (a starting point, edited by hand afterwards) -----------
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null", list: "array",
          dict: "object", tuple: "array"}


def draft(values: list, depth: int = 0, tag: str | None = None) -> dict:
    """A JSON Schema every one of `values` satisfies: types, the properties always present as
    required, and for `tag` ("kind", "type") the values seen as an enum."""
    types = sorted({_TYPES[type(v)] for v in values})
    if "integer" in types and "number" in types:
        types.remove("integer")
    schema: dict = {"type": types[0] if len(types) == 1 else types}
    if depth > 7:
        return schema
    objects = [v for v in values if isinstance(v, dict)]
    if objects:
        keys = {k for o in objects for k in o}
        if len(keys) > 40 or any(not _NAME.match(k) for k in keys):
            schema["additionalProperties"] = draft([x for o in objects for x in o.values()], depth + 1)
        else:
            schema["properties"] = {k: draft([o[k] for o in objects if k in o], depth + 1, k if depth == 0 else None)
                                    for k in sorted(keys)}
            required = sorted(k for k in keys if all(k in o for o in objects))
            if required:
                schema["required"] = required
    items = [x for v in values if isinstance(v, (list, tuple)) for x in v]
    if items:
        schema["items"] = draft(items, depth + 1)
    if tag in ("kind", "type") and depth == 1 and types == ["string"]:
        seen = sorted({v for v in values})
        schema["enum"] = seen
    return schema


def draft_tagged(values: list, tag: str, title: str) -> dict:
    """One schema for objects told apart by `tag`: the enum of tags, and per tag its fields."""
    by: dict = {}
    for v in values:
        by.setdefault(v[tag], []).append(v)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, "type": "object",
            "required": [tag], "properties": {tag: {"enum": sorted(by)}},
            "allOf": [{"if": {"properties": {tag: {"const": k}}}, "then": {"$ref": f"#/$defs/{k}"}}
                      for k in sorted(by)],
            "$defs": {k: draft(vs, tag=tag) for k, vs in sorted(by.items())}}


def main(argv: list[str]) -> int:
    game, seeds = argv[0], range(int(argv[1]) if len(argv) > 1 else 6)
    runs = [play(game, s) for s in seeds]
    every = Samples(*[sum((getattr(r, f) for r in runs), []) for f in ("actions", "views", "events", "queries",
                                                                       "outcomes")])
    answers: dict = {}
    for q, a in every.queries:
        answers.setdefault(q["kind"], []).append(a)
    print(json.dumps({
        "actions": draft_tagged(every.actions, "kind", "an action"),
        "events": draft_tagged(every.events, "type", "an event"),
        "view": draft(every.views),
        "queries": draft_tagged([q for q, _ in every.queries], "kind", "a query"),
        "answers": {k: draft(v) for k, v in sorted(answers.items())},
    }, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
