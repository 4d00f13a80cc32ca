"""The lobby's queue and watching in a real browser (headless Debian Chromium through Playwright):
a guest queues, sees the ticket wait and cancels it; queues again with "AI may fill" and no wait,
lands on the match page with the assigned seat and plays; the rules help follows the pointer; a
browser with no session opens the match's address and watches it read-only; back in the lobby,
the match's "your turn" badge lights."""
from __future__ import annotations

import secrets

import pytest

from tests.support.web import act

pytestmark = pytest.mark.slow


def queue(page, game: str, seats: str, ai: bool, wait: int, invite: str = "") -> None:
    page.wait_for_selector(f"#q-game option[value={game}]", state="attached")
    page.select_option("#q-game", game)
    page.select_option("#q-seats", seats)
    page.set_checked("#q-ai", ai)
    page.fill("#q-wait", str(wait))
    page.fill("#q-invite", invite)
    page.click("#q-join")


def test_a_guest_queues_lands_on_the_match_plays_and_a_visitor_watches(browser, web, shots):
    context = browser.new_context()
    player = context.new_page()
    player.goto(web.url)
    player.click("#guest")
    player.wait_for_selector("#start:not([hidden])")
    queue(player, "tower", "2", False, 600, secrets.token_hex(4))  # nobody else has the code: it waits
    player.wait_for_selector("#q-status[data-state=queued]")
    player.wait_for_function("/waited [1-9]/.test(document.querySelector('#q-state').textContent)", timeout=10_000)
    assert player.locator("#q-cancel").is_visible() and player.locator("#q-join").is_disabled()
    shots(player, "lobby-queue", board=False)
    player.click("#q-cancel")
    player.wait_for_selector("#q-status[data-state=cancelled]")
    assert player.locator("#q-cancel").is_hidden()

    queue(player, "tower", "2", True, 0)  # AI fills at once
    player.wait_for_url("**/match/*", timeout=20_000)
    match_id = player.url.rsplit("/", 1)[1]
    player.wait_for_selector("#board-svg path.territory", state="attached")
    player.wait_for_function("document.querySelector('#who').textContent.startsWith('you play seat')")
    player.wait_for_selector("#actions button.action", timeout=30_000)
    first = player.locator("#actions button.action").first
    first.hover()
    player.wait_for_selector("#rule-help:not([hidden])")
    helped = player.inner_text("#rule-help")
    assert first.inner_text() in helped and helped.startswith("rulebook, "), helped  # tower's set-up: a section
    shots(player, "match-rule-help")
    act(player, first)
    for _ in range(40):  # through the set-up to a move, whose destinations are targets on the board
        player.wait_for_selector("#actions button.action", timeout=30_000)
        if player.locator("#board-svg .territory.target").count():
            break
        act(player, player.locator("#actions button.action").first)
    target = player.locator("#board-svg .territory.target").first
    target.hover(force=True)
    player.wait_for_function("document.querySelector('#rule-help').dataset.kind === 'move'")
    from shared.tower.movement import MOVEMENT
    assert player.inner_text("#rule-help").startswith(f"rulebook, {MOVEMENT}: "), player.inner_text("#rule-help")

    visitor_context = browser.new_context()  # no session at all
    visitor = visitor_context.new_page()
    frames: list[str] = []
    visitor.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    visitor.goto(web.url)  # the lobby, not signed in: the match's address pasted into "watch"
    visitor.wait_for_selector("#signin:not([hidden])")
    visitor.fill("#watch-id", f"{web.url}/match/{match_id}")
    visitor.click("#watch-go")
    visitor.wait_for_url(f"**/match/{match_id}")
    visitor.wait_for_selector("#board-svg path.territory", state="attached")
    visitor.wait_for_function("document.querySelector('#who').textContent === 'watching'")
    assert visitor.locator("#actions button").count() == 0 and visitor.locator("#resign").is_hidden()
    assert "read-only" in visitor.inner_text("#choices-title")
    assert visitor.locator("#log li").count() > 0
    assert not visitor_context.cookies()
    from tests.web.test_browser import hidden_leaks
    assert frames and not hidden_leaks(frames), hidden_leaks(frames)
    shots(visitor, "match-visitor")

    player.goto(web.url)  # back in the lobby: the match is listed, the turns socket is live
    player.wait_for_selector(f"#mine li[data-match='{match_id}']")
    player.wait_for_function("document.body.dataset.turns === 'live'")
    # the AI answers in the set-up and the turn comes back to the player, who is in the lobby: the badge lights
    player.wait_for_selector(f"#mine li[data-match='{match_id}'] .your-turn:not([hidden])", timeout=30_000)
    # a match started elsewhere with the lobby open (the same player, through the API): its notice arrives
    # live and brings it into the list with its badge lit
    import grpc

    from services.client import Client
    from services.web.sessions import COOKIE, Signer

    cookie = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)
    token = Signer(web.settings.secret, web.settings.session_s).load(cookie).token
    with grpc.insecure_channel(web.settings.platform_addr) as channel:
        elsewhere = Client(channel, token=token).create_match("race", humans=2)
        player.wait_for_function(f"document.body.dataset.lastNotice === 'your_turn:{elsewhere.match_id}'",
                                 timeout=15_000)
    player.wait_for_selector(f"#mine li[data-match='{elsewhere.match_id}'] .your-turn:not([hidden])")
    shots(player, "lobby-your-turn", board=False)
    visitor_context.close()
    context.close()
