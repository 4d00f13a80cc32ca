"""The web app over plain HTTP and WebSocket (Starlette's test client) against a real platform
server whose AI seats never move (no notifier), so nothing changes unless a test changes it:
each refusal answers a message a person reads, and leaves the match as it was."""
from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient

from services.web.sessions import COOKIE, Session, Signer
from services.web.settings import WebSettings
from tests.support.web import KEY, guest


@pytest.fixture(scope="module")
def owner(app):
    client = guest(app)
    made = client.post("/api/matches", json={"game": "tower", "variant": "standard", "ai": 1})
    assert made.status_code == 201, made.text
    client.match_id = made.json()["match_id"]
    return client


def first_state(client: TestClient, match_id: str) -> dict:
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        return ws.receive_json()


def test_the_lobby_and_the_match_page_are_served_with_their_modules(app):
    client = TestClient(app)
    assert "lobby.js" in client.get("/").text
    assert "match.js" in client.get("/match/anything").text
    for module in ("common.js", "lobby.js", "match.js", "tower.js", "incantris.js", "incantris-aim.js", "wizards.js",
                   "wizards-hex.js", "wizards-place.js", "wizards-record.js"):
        reply = client.get(f"/static/{module}")
        assert reply.status_code == 200 and "javascript" in reply.headers["content-type"]
        assert "http://" not in reply.text.replace("http://www.w3.org/2000/svg", "")  # nothing fetched from outside


def test_one_click_signs_a_guest_in_with_a_signed_cookie(app):
    client = TestClient(app)
    assert client.get("/api/me").json() == {"error": "you are not signed in: sign in as a guest on the lobby page"}
    client.post("/api/guest")
    session = Signer(KEY, 600).load(client.cookies[COOKIE])
    assert session.token and client.get("/api/me").json()["signed_in"] is True


def test_a_started_match_is_listed_and_its_page_gets_the_seats_view(owner):
    mine = owner.get("/api/matches").json()["matches"]
    assert [m["rejoin"] for m in mine if m["match_id"] == owner.match_id] == [True]
    state = first_state(owner, owner.match_id)
    assert state["type"] == "state" and state["seat"] == 0 and state["game"] == "tower"
    assert state["view"]["you"] == 0 and state["status"] == "active"


def test_a_bad_match_id_is_named_and_refused(owner):
    for bad, status in (("0000000000000000", 403), ("no such match", 404)):  # no seat of ours; not an id
        reply = owner.post(f"/api/matches/{bad}/act", json={"action": {"kind": "pass"}, "version": 1})
        assert reply.status_code == status and bad[:10] in reply.json()["error"]
        with owner.websocket_connect(f"/ws/matches/{bad}") as ws:
            message = ws.receive_json()
            assert message["type"] == "error" and message["status"] == 404, message
            assert "match" in message["error"]


def test_a_player_without_the_seat_may_watch_but_not_act_and_nothing_changes(app, owner):
    before = first_state(owner, owner.match_id)
    stranger = guest(app)
    watching = first_state(stranger, owner.match_id)
    assert watching["seat"] is None and watching["actions"] == [] and watching["view"]["you"] is None
    for path, body in (("act", {"action": {"kind": "pass"}, "version": before["version"]}), ("resign", {})):
        reply = stranger.post(f"/api/matches/{owner.match_id}/{path}", json=body)
        assert reply.status_code == 403
        assert reply.json()["error"] == (f"you hold no seat in match {owner.match_id} (from this browser): "
                                         "you can watch it, not play it")
    assert first_state(owner, owner.match_id)["version"] == before["version"]


def test_a_match_socket_opened_from_another_sites_page_is_refused(owner):
    with owner.websocket_connect(f"/ws/matches/{owner.match_id}", headers={"origin": "http://elsewhere.example"}) as ws:
        message = ws.receive_json()
        assert message == {"type": "error", "status": 403,
                           "error": "a match socket opens only from this site's own pages"}
    with owner.websocket_connect(f"/ws/matches/{owner.match_id}", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"


def test_a_stale_or_malformed_action_is_refused_and_nothing_changes(owner):
    before = first_state(owner, owner.match_id)
    offered = before["actions"][0] if before["actions"] else {"action": {"kind": "pass"}, "service": "board"}
    stale = owner.post(f"/api/matches/{owner.match_id}/act",
                       json={"action": offered["action"], "service": offered["service"],
                             "version": before["version"] + 1})  # not the match's (0 would pin nothing)
    assert stale.status_code == 409 and stale.json()["error"]  # the platform's own words: not now, or stale
    malformed = owner.post(f"/api/matches/{owner.match_id}/act", json={"action": "first"})
    assert malformed.status_code == 400 and "'action'" in malformed.json()["error"]
    not_json = owner.post(f"/api/matches/{owner.match_id}/act", content=b"{oops")
    assert not_json.status_code == 400 and not_json.json()["error"] == "the request body is not JSON"
    unheard_of = owner.post(f"/api/matches/{owner.match_id}/act",
                            json={"action": {"kind": "fly-to-the-moon"}, "version": before["version"]})
    assert unheard_of.status_code in (400, 409) and "fly-to-the-moon" in unheard_of.json()["error"], unheard_of.json()
    assert first_state(owner, owner.match_id)["version"] == before["version"]


def test_an_unknown_game_or_seat_count_is_refused_with_the_platforms_reason(owner):
    unknown = owner.post("/api/matches", json={"game": "chess", "ai": 1})
    assert unknown.status_code in (400, 404) and "chess" in unknown.json()["error"]
    assert owner.post("/api/matches", json={"game": "tower", "ai": 0}).json()["error"].startswith("'ai' is how many")


def test_an_expired_session_is_refused_with_a_clear_message_and_its_cookie_cleared(app, owner):
    session = Signer(KEY, 600).load(owner.cookies[COOKIE])
    old = Session(session.token, time.time() - 601, session.name, session.seats)
    client = TestClient(app, cookies={COOKIE: Signer(KEY, 600).dump(old)})
    before = first_state(owner, owner.match_id)
    reply = client.post(f"/api/matches/{owner.match_id}/act", json={"action": {"kind": "pass"},
                                                                      "version": before["version"]})
    assert reply.status_code == 401
    assert reply.json()["error"] == "your session has expired: sign in as a guest again"
    assert 'archmage_session=""' in reply.headers["set-cookie"]
    with TestClient(app, cookies={COOKIE: Signer(KEY, 600).dump(old)}).websocket_connect(
            f"/ws/matches/{owner.match_id}") as ws:
        assert ws.receive_json()["status"] == 401
    forged = TestClient(app, cookies={COOKIE: Signer(b"x" * 32, 600).dump(session)})
    assert forged.get("/api/me").json()["error"] == "your session cookie is not one this site signed: sign in again"
    assert first_state(owner, owner.match_id)["version"] == before["version"]


def test_the_app_exports_its_metrics_by_route_template(app, owner):
    owner.get("/api/matches")
    text = TestClient(app).get("/metrics").text
    assert 'archmage_web_requests_total{route="/api/matches",status="200"}' in text


def test_the_web_settings_come_from_the_platforms_and_fail_loudly():
    from services.core.config import ConfigError

    web = WebSettings.from_env({"ARCHMAGE_ADDR": "mm:50051", "BOARD_ADDR": "board:50051", "WEB_PORT": "9999",
                                "WEB_SECRET": "s" * 16})
    assert (web.platform_addr, web.board_addr, web.combat_addr, web.port, web.secret) == (
        "mm:50051", "board:50051", "", 9999, b"s" * 16)
    assert len(WebSettings.from_env({}).secret) == 32  # a fresh key per start when none is given
    with pytest.raises(ConfigError, match="WEB_SECRET"):
        WebSettings.from_env({"WEB_SECRET": "short"})
    with pytest.raises(ConfigError, match="WEB_PORT"):
        WebSettings.from_env({"WEB_PORT": "eighty"})


def test_resigning_ends_the_seats_part_once_and_a_second_resign_is_refused(app):
    client = guest(app)
    match_id = client.post("/api/matches", json={"game": "tower", "ai": 1}).json()["match_id"]
    first = client.post(f"/api/matches/{match_id}/resign", json={"action_id": "resign-1"})
    assert first.status_code == 200, first.text
    again = client.post(f"/api/matches/{match_id}/resign", json={"action_id": "resign-1"})
    assert again.status_code == 200 and again.json()["replayed"] is True  # the same key: applied once
    state = first_state(client, match_id)
    assert state["status"] == "finished" and state["actions"] == [] and state["outcome"]["winners"] == [1]
    other = client.post(f"/api/matches/{match_id}/resign", json={"action_id": "resign-2"})
    assert other.status_code == 409 and other.json()["error"]


def test_an_action_sent_again_with_its_action_id_is_a_replay_not_a_stale_page(app, platform):
    """The page's idempotency key holds through the web service: the same action with the same
    action_id, sent again after it was applied (a lost answer), is answered as a replay."""
    import grpc

    from services.client import Client

    player = guest(app)
    session = Signer(KEY, 600).load(player.cookies[COOKIE])
    first_seat = Client(grpc.insecure_channel(platform.address), token=session.token).create_match("race", humans=2)
    seat = first_seat.seats[first_seat.match().to_act]  # the seat whose turn it is
    session.remember(seat.match_id, seat.token)  # as if the page had started it
    player.cookies.clear()
    player.cookies.set(COOKIE, Signer(KEY, 600).dump(session))
    state = first_state(player, seat.match_id)
    assert state["seat"] == seat.seat, state
    offered = state["actions"][0]
    body = {"action": offered["action"], "service": offered["service"], "version": seat.match().version,
            "action_id": "click-1"}
    first = player.post(f"/api/matches/{seat.match_id}/act", json=body)
    again = player.post(f"/api/matches/{seat.match_id}/act", json=body)
    assert first.status_code == again.status_code == 200, (first.text, again.text)
    assert first.json()["replayed"] is False and again.json() == {**first.json(), "replayed": True}
    assert seat.match().version == first.json()["version"]


def test_the_lobby_offers_each_game_s_ai_levels_and_a_match_gets_the_level_chosen(owner, app):
    """The levels a game offers (GameInfo.ai_levels) reach the page; a match started with one
    seats its AI at it, and a level the game has not is refused with the platform's words."""
    games = {g["name"]: g for g in owner.get("/api/games").json()["games"]}
    assert games["tower"]["ai_levels"] == ["easy", "normal", "hard"]
    made = owner.post("/api/matches", json={"game": "tower", "ai": 1, "level": "easy"})
    assert made.status_code == 201, made.text
    from archmage.board.v1 import board_pb2

    view = app.state.platform.client().board.GetMatch(board_pb2.GetMatchRequest(match_id=made.json()["match_id"]))
    assert [(s.kind, s.level) for s in view.seats] == [("human", ""), ("ai", "easy")]
    refused = owner.post("/api/matches", json={"game": "race", "ai": 1, "level": "hard"})
    assert refused.status_code == 400 and "easy, normal" in refused.text, refused.text


def two_seats(platform):
    """A fresh two-player Race: (the seat to act, the seat waiting)."""
    import grpc

    from services.client import Client

    first = Client(grpc.insecure_channel(platform.address)).create_match("race", humans=2)
    mover = first.seats[first.match().to_act]
    return mover, first.seats[1 - mover.seat]


def assert_one_position(state: dict, seat) -> None:
    """The page's actions are offered exactly when its view says it is the seat's turn; where they
    are, the view, the version and the actions are the match's now."""
    import json

    assert bool(state["actions"]) == (state["to_act"] == seat.seat), state
    if state["actions"]:
        now = seat.match()
        assert state["view"] == json.loads(now.view_json) and state["version"] == now.version
        assert [a["action"] for a in state["actions"]] == [a.action for a in seat.legal_actions()]


def test_the_page_never_offers_one_positions_actions_over_anothers_board(platform):
    """Where the match moves on while the page's state is read (here the other seat acts just after
    the view is read), the view and the actions still belong to one position."""
    from services.client import Seat
    from services.web.platform import match_state

    mover, waiting = two_seats(platform)

    class Overtaken(Seat):
        """The waiting seat, whose first read of the match is overtaken by the other seat's move."""
        reads = 0

        def match(self):
            view = super().match()
            self.reads += 1
            if self.reads == 1:
                mover.act(mover.legal_actions()[0])
            return view

    seat = Overtaken(waiting.client, waiting.match_id, waiting.token, waiting.seat)
    state = match_state(seat)
    assert waiting.match().to_act == waiting.seat, "the other seat moved: the waiting seat's turn"
    assert_one_position(state, waiting)


@pytest.mark.parametrize("every_pair_disagrees", [False, True])
def test_a_view_and_actions_of_two_versions_are_read_again_and_at_last_one_after_the_other(platform,
                                                                                         every_pair_disagrees):
    """The paired read whose actions are newer than its view (the other seat moved in between) is
    not shown: the two are read again. Where every paired read disagrees, the last read is of one
    and then the other, as the match stands."""
    from services.client import Seat
    from services.web.platform import READS, match_state

    disagreeing = READS if every_pair_disagrees else 1
    mover, waiting = two_seats(platform)

    class Raced(Seat):
        """The waiting seat: its first `disagreeing` paired reads get the view from before a move and
        the actions from after it (the first of them after the other seat's real move)."""
        pairs = 0

        def match_and_actions(self):
            self.pairs += 1
            view, listed = super().match_and_actions()
            if self.pairs > disagreeing:
                return view, listed
            listed()
            if self.pairs == 1:
                self.before = view
                mover.act(mover.legal_actions()[0])
            return self.before, self.legal_actions

    seat = Raced(waiting.client, waiting.match_id, waiting.token, waiting.seat)
    state = match_state(seat)
    assert seat.pairs == min(disagreeing + 1, READS), (disagreeing, seat.pairs)
    assert state["actions"] and state["version"] > seat.before.version, state
    assert_one_position(state, waiting)


def test_actions_whose_pages_are_overtaken_are_read_again_with_the_view(platform):
    """Where the match moves on between two pages of the seat's actions, the next page is refused
    (ABORTED, the page token is of the old version): the page reads the view and the actions again
    rather than failing, and shows the position as it stands."""
    from archmage.board.v1 import board_pb2

    from services.client import Seat
    from services.client.reading import all_legal_actions
    from services.web.platform import match_state

    mover, _ = two_seats(platform)
    assert len(mover.legal_actions()) > 1, "the staging needs actions over more than one page"

    class Paged(Seat):
        """The seat to act: its first paired read lists one action a page, and the seat acts
        before the second page is asked for."""
        pairs = 0

        def match_and_actions(self):
            self.pairs += 1
            if self.pairs > 1:
                return super().match_and_actions()
            board = self.client.board
            first = board.ListLegalActions(board_pb2.ListLegalActionsRequest(match_id=self.match_id, page_size=1),
                                           metadata=self.meta, timeout=self.client.timeout)
            view = self.match()
            mover.act(mover.legal_actions()[0])
            return view, lambda: all_legal_actions(board, self.match_id, self.meta, first_page=first)

    seat = Paged(mover.client, mover.match_id, mover.token, mover.seat)
    state = match_state(seat)
    assert seat.pairs == 2, seat.pairs
    assert state["version"] == mover.match().version and state["to_act"] != mover.seat, state
    assert_one_position(state, mover)
