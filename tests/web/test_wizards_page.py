"""The Wizards match page's data, over the web app (Starlette's test client) against a real
platform: the islands the page draws are built from the seat's view alone (14.3), and the seat's
own Record Sheet is asked through POST /api/matches/{id}/query, a relay of Board.Query for the
player's seat that takes only the read-only kinds the engines answer."""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import grpc
import pytest
import redis
from starlette.testclient import TestClient

from services.client import Client
from services.core.store import match_key
from services.web.sessions import COOKIE, Signer
from shared.engine.registry import engine_for
from shared.wizards.pack import pack
from shared.wizards.state import WizardsState
from tests.support.web import KEY, act, start_match

GEM_IDS = [c["id"] for c in pack().gem_cards]
FACE_DOWN = "C3"  # the tile planted face down (as a solitaire tile lies before it is turned up)



def set_up_two_seats(app, platform) -> tuple[TestClient, list]:
    """A guest holding both seats of a Wizards match, its set-up played through the platform by
    the first legal action each time (every tile placed); the page's browser holds seat 0 only."""
    player = TestClient(app)
    assert player.post("/api/guest").status_code == 200
    session = Signer(KEY, 600).load(player.cookies[COOKIE])
    seats = Client(grpc.insecure_channel(platform.address), token=session.token).create_match(
        "wizards", humans=2).seats
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the set-up did not end in a minute"
        match = seats[0].match()
        if json.loads(match.view_json)["phase"] == "play":
            break
        if match.to_act < 0:
            time.sleep(0.01)
            continue
        seat = seats[match.to_act]
        actions = seat.legal_actions()
        seat.act(actions[0], expected_version=seat.version)
    session.remember(seats[0].match_id, seats[0].token)
    player.cookies.clear()
    player.cookies.set(COOKIE, Signer(KEY, 600).dump(session))
    return player, seats


def plant(platform, redis_url: str, match_id: str) -> WizardsState:
    """Secrets written into the stored state, as encounters (and the solitaire set-up) would write
    them: seat 1's Gem and Secret Wizard Records and False Wizard, seat 0's own Gem, a Secret
    Wizard marker on the board with its identity, a face-down tile, a Task Marker and a
    Territory lost to Evil. The serving process forgets its copy of the match."""
    r = redis.Redis.from_url(redis_url)
    state = WizardsState.decode(r.hget(match_key(match_id), "s"))
    state.players[1].update(gems={"Ishkatar": "Ruby"}, secret_record={"C": "Veldor"}, false_wizard="Zegoral")
    state.players[0]["gems"] = {"Terek": "Onyx"}
    placed = [dict(t) for t in state.tiles["placed"]]
    for t in placed:
        t["face_down"] = t["tile"] == FACE_DOWN
    state.replace("tiles", {**state.tiles, "placed": placed})
    land = next(t["at"] for t in placed if t["tile"] == "C1")
    state.secret_wizards = [{"letter": "C", "wizard": "Veldor", "at": list(land)}]
    state.task_markers = [{"seat": 1, "at": list(land), "task": 7, "step": 0}]
    state.taken = ["E4"]
    r.hset(match_key(match_id), "s", engine_for("wizards").encode(state))
    platform.platform.matches.records.drop(match_id)
    return state


@pytest.fixture(scope="module")
def planted(app, platform, redis_url):
    player, seats = set_up_two_seats(app, platform)
    return player, seats, plant(platform, redis_url, seats[0].match_id)


def first_state(client: TestClient, match_id: str) -> dict:
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        return ws.receive_json()


def test_14_3_the_wizards_page_gets_the_islands_from_the_seats_view_and_no_secret(planted):
    player, seats, stored = planted
    state = first_state(player, seats[0].match_id)
    assert state["type"] == "state" and state["seat"] == 0 and state["game"] == "wizards"
    world, text = state["world"], json.dumps(state)
    # the islands: every space of the 17 face-up tiles, the face-down one as bare hexes, the Water
    assert world["layout"] == "pointy" and len(world["spaces"]) == 17 * 19 and len(world["face_down"]) == 19
    assert len(world["water"]) == world["columns"] * world["rows"] - 18 * 19 and world["walls"]
    tiles = {t["tile"] for t in world["tiles"]}
    assert FACE_DOWN not in tiles and None in tiles and {s[2] for s in world["spaces"]} == tiles - {None}
    assert pack().tiles[FACE_DOWN]["name"] not in text, "a face-down tile's face shows"
    assert all(isinstance(s[4], str) and s[5] in ("common", "elven", "magic") for s in world["spaces"])
    # the pieces as the view has them
    view = state["view"]
    assert [b["at"] for b in world["boats"]] == [b["at"] for b in view["boats"]] and world["boats"]
    assert world["dragon"] == view["dragon"] == stored.dragon
    assert [(p["seat"], p["colour"], p["at"]) for p in world["pieces"]] == [
        (p["seat"], p["colour"], p["at"]) for p in stored.players]
    assert world["task_markers"] == [{"seat": 1, "at": stored.task_markers[0]["at"], "task": 7}]
    assert world["taken"] == ["E4"]
    # what the seat may not see: deck order, the Gem Cards, seat 1's records, who a Secret Wizard is
    assert all(isinstance(n, int) for n in view["decks"].values())
    assert json.dumps(stored.decks["task"][:8])[1:-1] not in text
    assert view["gem_boxes"] == {name: "face down" for name in pack().high_wizards}
    assert not any(f'"{g}"' in text for g in GEM_IDS), "a face-down Gem Card shows"
    assert "Ruby" not in text and '"false_wizard": "Zegoral"' not in text
    assert {k: view["players"][1][k] for k in ("gems", "secret_record", "false_wizard")} == dict.fromkeys(
        ("gems", "secret_record", "false_wizard"), "hidden")
    assert view["players"][0]["gems"] == {"Terek": "Onyx"}  # its own
    assert world["secret_wizards"] == [{"letter": "C", "at": stored.secret_wizards[0]["at"]}]
    assert all("wizard" not in x for x in view["secret_wizards"])


def test_14_3_the_record_sheet_is_asked_for_the_players_own_seat_only(app, planted):
    """14.2 / 14.3: the page's query route answers the seat's own Record Sheet, as the engine
    gives it (its own Gem included, seat 1's never); a kind that is not a read-only query, a
    malformed one and a guest without the seat are refused with a message, and nothing changes."""
    player, seats, stored = planted
    match_id = seats[0].match_id
    before = seats[0].match().version
    reply = player.post(f"/api/matches/{match_id}/query", json={"kind": "record_sheet"})
    assert reply.status_code == 200, reply.text
    sheet = reply.json()
    assert sheet == json.loads(json.dumps(engine_for("wizards").query(stored, 0, {"kind": "record_sheet"})))
    assert sheet["gems"] == {"Terek": "Onyx"} and "Ruby" not in reply.text and "Veldor" not in reply.text
    assert set(sheet) >= {"order", "rank", "points", "tasks", "gems", "spells"}
    for bad in ({"kind": "move", "to": [1, 2]}, {"kind": "choose_tile", "tile": "C1"}, {}, {"kind": 3}):
        refused = player.post(f"/api/matches/{match_id}/query", json=bad)
        assert refused.status_code == 400 and refused.json()["error"].startswith("a query is one of the read-only"), \
            refused.text
    malformed = player.post(f"/api/matches/{match_id}/query", json={"kind": "record_sheet", "seat": 1})
    assert malformed.status_code == 400 and "seat" in malformed.json()["error"]  # the engine's own words
    stranger = TestClient(app)
    stranger.post("/api/guest")
    denied = stranger.post(f"/api/matches/{match_id}/query", json={"kind": "record_sheet"})
    assert denied.status_code == 403 and denied.json()["error"] == (
        f"you hold no seat in match {match_id} (from this browser): you can watch it, not play it")
    assert seats[0].match().version == before


# --- in a real browser -------------------------------------------------------------------------
DOCS_IMAGE = Path(__file__).resolve().parents[2] / "docs" / "images" / "wizards-board.png"


def what_the_page_shows(page) -> str:
    """The page's turn, error, pieces and last log lines: what a failed wait prints."""
    pieces = page.eval_on_selector_all("#board-svg .player-piece", "ps => ps.map(p => [p.dataset.seat, p.dataset.at])")
    log = page.eval_on_selector_all("#log li", "ls => ls.slice(-12).map(l => l.textContent)")
    return (f"version {page.get_attribute('body', 'data-version')}, turn {page.inner_text('#turn')!r}, "
            f"error {page.inner_text('#error')!r}, pieces {pieces}, log {log}")


def place_by_clicking(page, turns: int, shots=None) -> tuple[str, list[int]]:
    """One tile placed on the board: a tile of the hand (choose_tile), an open spot the legal
    actions name, `turns` sixth-turns clockwise with the board's turn button, one confirm."""
    version = page.get_attribute("#board-svg", "data-version")
    tile = page.get_attribute("#board-svg .hand-tile.target >> nth=0", "data-tile")
    page.locator("#board-svg .hand-tile.target").first.dispatch_event("click")
    page.wait_for_selector("#board-svg circle.spot.target", state="attached", timeout=30_000)
    assert page.get_attribute("#board-svg .hand-tile.chosen", "data-tile") == tile
    spot = page.locator("#board-svg circle.spot.target").first
    at = [int(v) for v in spot.get_attribute("data-spot").split(",")]
    spot.dispatch_event("click")
    page.wait_for_selector("#board-svg g.preview", state="attached")
    for _ in range(turns):
        page.click("#place-right")
    assert page.get_attribute("#board-svg g.preview", "data-rotation") == str(turns)
    if shots:
        shots(page, "wizards-placing")
    assert page.get_attribute("#board-svg", "data-version") != version  # choose_tile was sent, nothing more
    act(page, page.locator("#place-confirm"))
    return tile, at


def test_3_21_a_guest_lays_a_wizards_tile_by_clicking_on_the_board(browser, web, shots):
    """3.21-3.23 on the page: a guest starts Wizards against one AI from the lobby, picks a tile
    of the hand drawn under the islands, an open spot, turns it on the board and confirms once;
    the board then shows that tile's spaces where the engine laid them, turned as chosen."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    from shared.wizards.geometry import placed_hex

    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    start_match(page, web.url, "wizards")
    page.wait_for_selector("#board-svg .hand-tile.target", state="attached", timeout=60_000)
    assert page.locator("#board-svg polygon.hex").count() == 30 * 22
    tile, at = place_by_clicking(page, 2, shots)
    centre = page.locator(f"#board-svg polygon[data-hex='{at[0]},{at[1]}']")
    page.wait_for_function(f"document.querySelector(\"#board-svg polygon[data-hex='{at[0]},{at[1]}']\")"
                           f".dataset.tile === '{tile}'")
    assert centre.get_attribute("data-label") == "Center"
    for label in ("A1", "B3", "C5"):
        q, r = placed_hex((at[0], at[1]), 2, label)
        assert page.get_attribute(f"#board-svg polygon[data-hex='{q},{r}']", "data-label") == label
    assert page.locator("#log li").filter(has_text="tile placed").count() >= 1
    page.wait_for_selector("#record:not([hidden])")
    assert "Record Sheet" in page.inner_text("#record") and "Spells" in page.inner_text("#record")
    # the rest of the set-up by the board too, then the islands with their Boats, Dragon and pieces
    deadline = time.monotonic() + 120
    # a colour (3.7) or a roll; never a move or a spell of the first turn, should play have begun by the time the
    # page is read again (on a busy machine the AI's set-up steps and the page's reading interleave)
    set_up = "#actions button.action:not([data-kind=move]):not([data-kind=end_move]):not([data-kind=cast])"
    while page.locator("#board-svg .player-piece").count() < 2:
        assert time.monotonic() < deadline, "the set-up did not end in two minutes"
        page.wait_for_function("document.querySelector('#board-svg .hand-tile.target') || "
                               f"document.querySelector('{set_up}') || "
                               "document.querySelectorAll('#board-svg .player-piece').length >= 2", timeout=30_000)
        if page.locator("#board-svg .hand-tile.target").count():
            place_by_clicking(page, 0)
        elif page.locator("#board-svg .player-piece").count() < 2 and page.locator(set_up).count():
            act(page, page.locator(set_up).first)
    assert page.locator("#board-svg .boat").count() >= 1 and page.locator("#board-svg .dragon").count() == 1
    assert page.locator("#board-svg .tile-name").count() == 18
    path = shots(page, "wizards")
    # a move's destination hex is a click target: the piece goes there
    # (a roll may leave no step to take, 1 Movement Point among Woods and Mountains: the turn is ended, an
    # encounter's choice answered, and the next turn rolled, until a move is offered)
    onward = "#actions button.action:not([data-kind=move])"
    while not page.locator("#board-svg polygon.hex.target").count():
        assert time.monotonic() < deadline, "no move was offered on the board"
        page.wait_for_function("document.querySelector('#board-svg polygon.hex.target') || "
                               f"document.querySelector('{onward}')", timeout=30_000)
        if page.locator("#board-svg polygon.hex.target").count():
            break
        roll = page.locator("#actions button[data-kind=roll]")
        act(page, (roll if roll.count() else page.locator(onward)).first)
    target = page.locator("#board-svg polygon.hex.target").last
    to = target.get_attribute("data-hex")
    seq = int(page.get_attribute("body", "data-last-seq") or 0)
    target.dispatch_event("click")
    # the move is in the log, by its destination, and the piece is drawn where the log last put it: there, or
    # where an encounter met there transported it (8, Events); the log's line of the move is handed back then
    try:
        line = page.wait_for_function(f"""() => {{
            const mine = [...document.querySelectorAll('#log li')].filter(li => +li.dataset.seq > {seq} &&
                ['moved', 'transported'].includes(li.dataset.type) && li.textContent.includes('(you)'));
            const move = mine.find(li => li.dataset.type === 'moved' && li.textContent.includes(' to {to} ('));
            const to = (li) => (li.textContent.match(/ to (-?\\d+,-?\\d+) \\(/) || [])[1];  // "q,r" of its line
            const last = mine.length ? to(mine[mine.length - 1]) : null;
            const piece = document.querySelector('#board-svg .player-piece[data-seat="0"]');
            return move && piece.dataset.at === last ? move.textContent : null;
        }}""", timeout=30_000).json_value()
    except PlaywrightTimeout:
        raise AssertionError(f"the move to {to} did not show: {what_the_page_shows(page)}") from None
    assert "undefined" not in line and line.endswith(")"), line  # the space reached, by its name
    if os.environ.get("UPDATE_DOC_IMAGES") == "1":  # the README's picture, refreshed only when asked
        shutil.copy(path.with_name("wizards-board.png"), DOCS_IMAGE)
