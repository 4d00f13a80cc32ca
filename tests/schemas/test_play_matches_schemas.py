"""Every action, view, query, answer, event and outcome seen in random play of every game (and
variant) is valid against the game's JSON Schemas (shared/<game>/schemas/, draft 2020-12)."""
from __future__ import annotations

import json

import jsonschema
import pytest

from shared.engine import jsonschemas, registry
from tests.support import samples

# every registered game that publishes schemas; how far to play it (seed, steps, every, offered): a few seconds
GAMES = [game for game in registry.game_names() if registry.game(game).schemas]
PLAY = {"tower": (11, 4000, 5, 0), "incantris": (12, 1500, 9, 6), "wizards": (13, 2500, 11, 6)}


def _check(validator, value, what):
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    assert not errors, f"{what} {json.dumps(value)[:300]}: " + "; ".join(
        f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in errors[:3])


@pytest.fixture(scope="module", params=GAMES)
def played(request):
    seed, steps, every, offered = PLAY.get(request.param, (10, 2000, 7, 6))
    return request.param, samples.play(request.param, seed, max_steps=steps, every=every, offered=offered)


@pytest.mark.parametrize("part", jsonschemas.PARTS + jsonschemas.COMMON)
def test_every_schema_is_a_valid_2020_12_schema(part):
    for game in GAMES if part in jsonschemas.PARTS else [None]:
        doc = jsonschemas.schema(game, part)
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.Draft202012Validator.check_schema(doc)


def test_actions_views_and_events_of_play_are_valid(played):
    game, seen = played
    assert seen.actions and seen.views and seen.events
    for part, values in (("actions", seen.actions), ("view", seen.views), ("events", seen.events)):
        v = jsonschemas.validator(game, part)
        for value in values:
            _check(v, value, f"{game} {part}")


def test_queries_and_answers_of_play_are_valid(played):
    game, seen = played
    queries = jsonschemas.validator(game, "queries")
    kinds = set()
    for query, answer in seen.queries:
        kinds.add(query["kind"])
        _check(queries, query, f"{game} query")
        _check(jsonschemas.validator(game, "answers", query["kind"]), answer, f"{game} answer to {query['kind']}")
    assert kinds, f"no {game} query was answered"


def test_every_outcome_is_valid_and_ends_in_match_finished(played):
    game, seen = played
    assert seen.outcomes, f"no {game} match of random play ended"
    finished = jsonschemas.validator(None, "platform-events", "match_finished")
    for outcome in seen.outcomes:
        _check(jsonschemas.validator(None, "outcome"), outcome, f"{game} outcome")
        _check(finished, {"outcome": outcome}, f"{game} match_finished")


def test_the_engines_write_no_end_of_match_event_of_their_own(played):
    """The end is the platform's "match_finished", one event for every game."""
    game, seen = played
    ends = {e["type"] for e in seen.events} & {"game_over", "game-over", "match_ends", "match_finished"}
    assert not ends, f"{game} writes {ends}"


def test_a_schema_refuses_what_is_not_an_action():
    v = jsonschemas.validator("tower", "actions")
    assert not v.is_valid({"kind": "teleport_home"})
    assert not v.is_valid({"to": "T7"})
    assert not jsonschemas.validator(None, "outcome").is_valid({"scores": [1], "winners": [0]})


@pytest.mark.parametrize("game", GAMES)
def test_resigning_writes_events_views_and_outcomes_the_schemas_allow(game):
    """Random play in which a seat resigns now and then (Board.Resign): the games' events of a
    resignation, the views after it and the outcomes naming the resigned seats are all valid."""
    seen = samples.play(game, 21, max_steps=600, every=7, offered=4, resign_every=40)
    resigned = [o for o in seen.outcomes if o.get("resigned")]
    assert resigned, f"no {game} match ended with a resigned seat"
    for part, values in (("view", seen.views), ("events", seen.events)):
        v = jsonschemas.validator(game, part)
        for value in values:
            _check(v, value, f"{game} {part}")
    for outcome in seen.outcomes:
        _check(jsonschemas.validator(None, "outcome"), outcome, f"{game} outcome")
        assert not set(outcome.get("resigned", [])) & set(outcome["winners"]), "a resigned seat never wins"
    _check(jsonschemas.validator(None, "platform-events", "resigned"), {"seat": 1, "action_id": "a1"}, "resigned")


def test_every_incantris_action_kind_the_engine_takes_has_its_schema():
    """The published action schema names every kind the engine accepts, with its fields: random
    play of one scenario never offers the campaign's purchases or crystal-sap's sapping, so the
    kinds are compared with the engine's own table (shared/incantris/engine.py FIELDS)."""
    from shared.incantris.engine import FIELDS, OPTIONAL

    v = jsonschemas.validator("incantris", "actions")
    samples = {"str": "x", "int": 1, "bool": True, "hex": [0, 0], "target": "x"}
    for kind, fields in FIELDS.items():
        action = {"kind": kind, **{f: samples[t] for f, t in fields.items()}}
        _check(v, action, f"incantris action {kind}")
        for f, t in OPTIONAL.get(kind, {}).items():
            _check(v, {**action, f: samples[t]}, f"incantris action {kind} with {f}")
