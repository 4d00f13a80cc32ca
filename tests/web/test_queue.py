"""Queueing through matchmaking from the lobby's routes (services/web/queue.py), over Starlette's
test client against a real platform server whose matchmaker runs: two guests with one invite
code are seated together, each given only their own seat; cancelling leaves the queue; another
player can neither read nor cancel a ticket not theirs."""
from __future__ import annotations

import secrets
import time

from starlette.testclient import TestClient

from services.web.queue import BEING_MATCHED, NO_TICKET
from services.web.sessions import COOKIE, Signer
from tests.support.web import KEY, guest


def poll_until_over(client: TestClient, ticket_id: str, timeout: float = 20) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        reply = client.get(f"/api/tickets/{ticket_id}")
        assert reply.status_code == 200, reply.text
        ticket = reply.json()
        if ticket["state"] in ("assigned", "cancelled", "expired"):
            return ticket
        assert time.monotonic() < deadline, f"the ticket is still {ticket['state']} after {timeout} s"
        time.sleep(0.2)


def test_two_guests_with_one_invite_code_are_seated_together_each_with_only_their_seat(app):
    invite = secrets.token_hex(4)
    players = [guest(app), guest(app)]
    made = [p.post("/api/tickets", json={"game": "race", "seats": 2, "invite_code": invite, "max_wait_s": 60})
            for p in players]
    assert [m.status_code for m in made] == [201, 201], [m.text for m in made]
    assert {m.json()["state"] for m in made} <= {"queued", "matching", "assigned"}
    assert [p.get("/api/me").json()["ticket"] for p in players] == [m.json()["ticket_id"] for m in made]
    finals = [poll_until_over(p, m.json()["ticket_id"]) for p, m in zip(players, made)]
    assert [f["state"] for f in finals] == ["assigned", "assigned"]
    match_id = finals[0]["assignment"]["match_id"]
    assert finals[1]["assignment"]["match_id"] == match_id and finals[0]["assignment"]["ai_seats"] == 0
    assert sorted(f["assignment"]["seat"] for f in finals) == [0, 1]
    assert finals[0]["assignment"]["url"] == f"/match/{match_id}"
    tokens = [Signer(KEY, 600).load(p.cookies[COOKIE]).seats[match_id] for p in players]
    assert tokens[0] != tokens[1]
    for player, other, final in zip(players, reversed(tokens), finals):  # no answer nor cookie has the other's
        assert other not in player.get(f"/api/tickets/{final['ticket_id']}").text
        assert other not in Signer(KEY, 600).load(player.cookies[COOKIE]).seats.values()
    for player, final in zip(players, finals):
        session = Signer(KEY, 600).load(player.cookies[COOKIE])
        assert list(session.seats) == [match_id] and session.ticket == ""  # only their own seat's token
        assert int(session.seats[match_id].split(".")[1]) == final["assignment"]["seat"]
        assert player.get("/api/me").json()["ticket"] is None
        with player.websocket_connect(f"/ws/matches/{match_id}") as ws:
            state = ws.receive_json()
        assert state["type"] == "state" and state["seat"] == final["assignment"]["seat"]
        mine = [m for m in player.get("/api/matches").json()["matches"] if m["match_id"] == match_id]
        assert mine and mine[0]["rejoin"] is True and mine[0]["seats"] == [final["assignment"]["seat"]]
        late = player.post(f"/api/tickets/{final['ticket_id']}/cancel")  # seated already: the platform says so
        assert late.status_code == 409 and "assigned" in late.json()["error"], late.text


def test_a_queued_ticket_is_cancelled_and_the_player_may_queue_again(app):
    player = guest(app)
    body = {"game": "race", "seats": 3, "invite_code": secrets.token_hex(4), "max_wait_s": 600}
    ticket = player.post("/api/tickets", json=body).json()
    cancelled = player.post(f"/api/tickets/{ticket['ticket_id']}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["state"] == "cancelled", cancelled.text
    assert player.get("/api/me").json()["ticket"] is None
    assert player.get(f"/api/tickets/{ticket['ticket_id']}").json()["state"] == "cancelled"
    again = player.post("/api/tickets", json=body)
    assert again.status_code == 201 and again.json()["state"] == "queued"
    second = player.post("/api/tickets", json=body)  # one active ticket a player
    assert second.status_code == 409 and second.json()["error"]
    player.post(f"/api/tickets/{again.json()['ticket_id']}/cancel")


def test_another_player_can_neither_read_nor_cancel_a_ticket_and_is_told_nothing(app):
    owner, stranger = guest(app), guest(app)
    ticket = owner.post("/api/tickets", json={"game": "race", "seats": 4, "invite_code": secrets.token_hex(4),
                                              "max_wait_s": 600}).json()
    for reply in (stranger.get(f"/api/tickets/{ticket['ticket_id']}"),
                  stranger.post(f"/api/tickets/{ticket['ticket_id']}/cancel"),
                  stranger.get("/api/tickets/no-such-ticket"), stranger.get("/api/tickets/bad%20id")):
        assert reply.status_code == 404 and reply.json() == {"error": NO_TICKET}, reply.text
    assert owner.get(f"/api/tickets/{ticket['ticket_id']}").json()["state"] == "queued"  # untouched
    anonymous = TestClient(app).get(f"/api/tickets/{ticket['ticket_id']}")
    assert anonymous.status_code == 401
    owner.post(f"/api/tickets/{ticket['ticket_id']}/cancel")


def test_a_bad_queue_request_is_refused_with_a_reason(app):
    player = guest(app)
    assert player.post("/api/tickets", json={"game": "race", "seats": -1}).json()["error"].startswith("'seats'")
    assert player.post("/api/tickets", json={"game": "race", "ai_welcome": "yes"}).status_code == 400
    unknown = player.post("/api/tickets", json={"game": "chess"})
    assert unknown.status_code == 400 and "chess" in unknown.json()["error"]
    assert player.get("/api/me").json()["ticket"] is None



def test_a_ticket_being_matched_already_cannot_be_cancelled_and_the_page_is_told_why(app, platform):
    from services.matchmaking.tickets import split_ticket_id

    player = guest(app)
    ticket = player.post("/api/tickets", json={"game": "race", "seats": 4, "invite_code": secrets.token_hex(4),
                                               "max_wait_s": 600}).json()
    queue, _ = split_ticket_id(ticket["ticket_id"])
    # a matchmaker claims it for a match it is making (as a cycle does), for the next minute
    claimed = platform.run(platform.platform.tickets.claim(queue, [ticket["ticket_id"]], "web-test-proposal",
                                                           int(time.time() * 1000) + 60_000))
    assert claimed
    refused = player.post(f"/api/tickets/{ticket['ticket_id']}/cancel")
    assert refused.status_code == 409 and refused.json() == {"error": BEING_MATCHED}
    assert player.get(f"/api/tickets/{ticket['ticket_id']}").json()["state"] == "matching"
    assert player.get("/api/me").json()["ticket"] == ticket["ticket_id"]  # still followed: its seat is coming
