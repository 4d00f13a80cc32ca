"""The lobby's turns socket (services/web/turns.py): Matchmaking.WatchMyTurns relayed to the page
for the signed-in player, only the notices sent since the page connected; no session, no socket."""
from __future__ import annotations

import time

import grpc
from starlette.testclient import TestClient

from services.client import Client
from services.web import turns
from services.web.sessions import COOKIE, Signer
from tests.support.web import KEY


def test_a_turn_coming_to_the_player_in_any_match_reaches_the_lobbys_socket(app, platform):
    player = TestClient(app)
    player.post("/api/guest")
    token = Signer(KEY, 600).load(player.cookies[COOKIE]).token
    client = Client(grpc.insecure_channel(platform.address), token=token)
    earlier = client.create_match("race", humans=2)  # its notices are from before the socket: not relayed
    time.sleep(turns.SLACK_MS / 1000 + 0.3)
    with player.websocket_connect("/ws/turns") as ws:
        assert ws.receive_json() == {"type": "ready"}
        seat = earlier.seats[earlier.match().to_act]
        seat.act({"kind": "roll"})  # the other seat, the same player's, comes to act
        notice = ws.receive_json()
        assert notice["type"] == "notice" and notice["kind"] == "your_turn", notice
        assert notice["match_id"] == earlier.match_id and notice["seat"] == 1 - seat.seat
        assert notice["game"] == "race" and notice["version"] == earlier.match().version
    listed = [m for m in player.get("/api/matches").json()["matches"] if m["match_id"] == earlier.match_id]
    assert listed[0]["your_turn"] is True


def test_the_turns_socket_needs_a_session_and_this_sites_page(app):
    with TestClient(app).websocket_connect("/ws/turns") as ws:
        assert ws.receive_json()["status"] == 401
    player = TestClient(app)
    player.post("/api/guest")
    with player.websocket_connect("/ws/turns", headers={"origin": "http://elsewhere.example"}) as ws:
        assert ws.receive_json()["status"] == 403
