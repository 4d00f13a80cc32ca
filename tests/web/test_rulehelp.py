"""Rules help (services/web/rulehelp.py): each action kind's rulebook section, as the engines name
it; every kind named is one the game's action schema has, and its section one its engine cites."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import shared
from services.web.app import build_app
from services.web.settings import WebSettings

GAMES = ("tower", "incantris", "wizards")


@pytest.fixture(scope="module")
def client(platform):
    return TestClient(build_app(WebSettings(platform_addr=platform.address, secret=b"r" * 32)))


def schema_kinds(game: str) -> set[str]:
    schema = json.loads((Path(shared.__file__).parent / game / "schemas" / "actions.json").read_text())
    return set(schema["properties"]["kind"]["enum"])


@pytest.mark.parametrize("game", GAMES)
def test_each_kind_with_help_is_an_action_of_the_game_and_cites_a_section(client, game):
    kinds = client.get(f"/api/rules/{game}").json()["kinds"]
    assert kinds, f"{game}: no action kind has a section"
    unknown = set(kinds) - schema_kinds(game)
    if game == "incantris":  # the engine's own table of kinds: the action schema lacks a few (sap, buy, ...)
        from shared.incantris.engine import FIELDS
        unknown -= set(FIELDS)
    if game == "wizards":  # the choices of an encounter are the combat service's kinds (resolution.CHOICE_KINDS)
        from shared.wizards.resolution import CHOICE_KINDS
        unknown -= set(CHOICE_KINDS) | {"roll", "cast", "summon_boat"}
    assert not unknown, unknown
    assert all(entry["section"] for entry in kinds.values())


def test_the_sections_are_the_engines_own_words(client):
    from shared.incantris.spells import TeleportChoice
    from shared.tower.movement import MOVEMENT
    from shared.wizards.engine import ALLOWED

    assert client.get("/api/rules/tower").json()["kinds"]["move"] == {"section": MOVEMENT}
    assert client.get("/api/rules/incantris").json()["kinds"]["teleport"] == {
        "section": TeleportChoice.rule.section, "clause": TeleportChoice.rule.text}
    assert client.get("/api/rules/wizards").json()["kinds"]["move"] == {"section": ALLOWED["move"][1]}
    assert client.get("/api/rules/wizards").json()["kinds"]["cast"]["section"] == "5.1 or 6"
    assert client.get("/api/rules/race").json()["kinds"] == {}  # none known: the page shows labels alone


def test_the_match_page_loads_the_rules_help_module(client):
    assert 'id="rule-help"' in client.get("/match/x").text
    assert "attachHelp" in client.get("/static/match.js").text
    assert client.get("/static/rulehelp.js").status_code == 200
