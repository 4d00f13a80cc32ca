"""Watching a match with no session at all (services/web/relay.py watcher): the match's socket
answers the spectator's view, exactly as the engine draws it for no seat, and the events as a
spectator may see them; nothing can be done from there."""
from __future__ import annotations

import json

from starlette.testclient import TestClient

from shared.engine.registry import engine_for
from tests.web.test_browser import hidden_leaks


def frames_until_events(ws) -> list[dict]:
    """The socket's first state frame and its first burst of events."""
    frames = [ws.receive_json()]
    assert frames[0]["type"] == "state", frames[0]
    frames.append(ws.receive_json())
    return frames


def test_a_visitor_with_no_session_watches_a_match_and_sees_only_the_spectators_view(app, platform):
    owner = TestClient(app)
    owner.post("/api/guest")
    match_id = owner.post("/api/matches", json={"game": "tower", "variant": "standard", "ai": 2}).json()["match_id"]
    visitor = TestClient(app)
    assert "archmage_session" not in visitor.cookies
    with visitor.websocket_connect(f"/ws/matches/{match_id}") as ws:
        state, events = frames_until_events(ws)
    rec = platform.run(platform.platform.matches.load(match_id))
    engine = engine_for("tower")
    spectator = json.loads(json.dumps(engine.view(rec.state, None)))
    assert state["seat"] is None and state["actions"] == [] and state["version"] == rec.version
    assert state["view"] == spectator
    assert state["view"] != json.loads(json.dumps(engine.view(rec.state, 0)))  # a seat sees more: not this
    assert events["type"] == "events" and events["events"]
    leaks = hidden_leaks([json.dumps(state), json.dumps(events)])
    assert not leaks, leaks
    with owner.websocket_connect(f"/ws/matches/{match_id}") as ws:  # the owner's seat: its own view
        assert ws.receive_json()["view"] == json.loads(json.dumps(engine.view(rec.state, 0)))
    acted = visitor.post(f"/api/matches/{match_id}/act", json={"action": {"kind": "pass"}, "version": rec.version})
    assert acted.status_code == 401
    assert platform.run(platform.platform.matches.load(match_id)).version == rec.version


def test_a_forged_cookie_is_still_refused_rather_than_taken_for_a_visitor(app):
    owner = TestClient(app)
    owner.post("/api/guest")
    match_id = owner.post("/api/matches", json={"game": "tower", "ai": 1}).json()["match_id"]
    with TestClient(app, cookies={"archmage_session": "forged"}).websocket_connect(f"/ws/matches/{match_id}") as ws:
        assert ws.receive_json()["status"] == 401


def test_the_lobby_offers_a_match_id_to_watch_without_signing_in(app):
    page = TestClient(app).get("/").text
    assert 'id="watch-id"' in page and 'id="watch-form"' in page
