"""The pages in a real browser (headless Debian Chromium through Playwright): a guest signs in
with one click, starts a Tower match against AI and plays it to the end by clicking; the board
and the log follow each AI turn; a spectator's page never receives a hidden token."""
from __future__ import annotations

import json
import time

import pytest

from tests.support.web import act, start_match

pytestmark = pytest.mark.slow  # a browser and a whole match: about a minute here


def sign_in_and_start(page, url: str) -> str:
    match_id = start_match(page, url, "tower")
    page.wait_for_selector("#board-svg path.territory", state="attached")
    return match_id


def hidden_leaks(frames: list[str]) -> list[str]:
    """What a page was sent of hidden things: a face-down token's identity, a Ramp token's face (in
    a view), the faces of a secret roll or a private event's body (in the events)."""
    leaks = []
    for frame in frames:
        data = json.loads(frame)
        for event in data.get("events", []) if data.get("type") == "events" else []:
            body = event["body"]
            if body.get("secret") and any(r != "?" for p in body.get("pools", []) for r in p["results"]):
                leaks.append(f"event {event['seq']}: secret roll {body['pools']}")
            if "visible_to" in body and not body.get("redacted"):
                leaks.append(f"event {event['seq']}: a private {event['type']} in full")
        view = data.get("view") if data.get("type") == "state" else None
        if not view or view.get("stage") == "over":
            continue
        for territory, square in view["board"].items():
            token = square["token"]
            if token is not None and not token["up"] and set(token) != {"up"}:
                leaks.append(f"{territory}: {token}")
        leaks += [f"ramp step {step}: {face}" for step, face in view["ramp"].items() if face != "W"]
    return leaks


DRAWN = """() => {
  const svg = document.querySelector('#board-svg');
  return {version: svg.dataset.version,
          at: Object.fromEntries([...svg.querySelectorAll('.character')].map(c => [c.dataset.seat, c.dataset.at])),
          pennants: svg.querySelectorAll('.pennant').length};
}"""


def drawn_as_viewed(page, seen: list[dict]) -> None:
    """The board on the page is the drawing of the view it was sent for the version it shows: each
    Character where that view stands it, a Pennant flag on each territory the view gives Pennants.
    The drawing is read in one go (AI turns may redraw it meanwhile), and the state frame of its
    version is looked up among those the page received (their events may reach the test later)."""
    drawn = page.evaluate(DRAWN)
    deadline = time.monotonic() + 10
    while not (states := [m for m in seen if m.get("type") == "state" and str(m["version"]) == drawn["version"]]):
        assert time.monotonic() < deadline, f"the page drew version {drawn['version']}, which it was never sent"
        page.wait_for_timeout(20)  # lets the page's frame events reach the test
    view = states[-1]["view"]
    for seat, player in enumerate(view["players"]):
        assert drawn["at"].get(str(seat)) == player["at"], (seat, drawn["at"], player["at"])
    flagged = sum(1 for square in view["board"].values() if square["pennants"])
    assert drawn["pennants"] == flagged


def test_a_guest_plays_tower_against_ai_to_the_end_by_clicking(browser, web, shots):
    player = browser.new_context().new_page()
    seen: list[dict] = []  # what the player's page was sent
    player.on("websocket", lambda ws: ws.on("framereceived", lambda payload: seen.append(json.loads(payload))))
    match_id = sign_in_and_start(player, web.url)
    watcher_context = browser.new_context()  # another guest, who holds no seat here
    watcher = watcher_context.new_page()
    frames: list[str] = []
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    watcher.goto(web.url)
    watcher.click("#guest")
    watcher.wait_for_selector("#start:not([hidden])")

    clicks = ai_turns_seen = board_clicks = 0
    watched = False
    deadline = time.monotonic() + 240
    while player.get_attribute("body", "data-status") != "finished":
        assert time.monotonic() < deadline, "the match did not end within 4 minutes of clicking"
        player.wait_for_function("document.body.dataset.status === 'finished' || "
                                 "document.querySelector('#actions button.action') !== null", timeout=30_000)
        if player.get_attribute("body", "data-status") == "finished":
            break
        before_log = player.locator("#log li").count()
        target = player.locator("#board-svg .territory.target")
        if target.count() and board_clicks < 3:  # aimed on the board: the first target's first action
            act(player, target.first, svg=True)
            board_clicks += 1
        else:
            act(player, player.locator("#actions button.action").first)
        clicks += 1
        player.wait_for_function("document.body.dataset.status === 'finished' || "
                                 "document.querySelector('#actions button.action') !== null", timeout=30_000)
        ai_turns = player.locator("#log li[data-type=turn_started]").filter(has_text="ai ").count()
        if ai_turns > ai_turns_seen:  # an AI turn came between two of ours: the log and board followed it
            ai_turns_seen = ai_turns
            assert player.locator("#log li").count() > before_log
            drawn_as_viewed(player, seen)
        if clicks == 8:
            shots(player, "tower-midgame")
        if clicks == 4 and not watched:
            watcher.goto(f"{web.url}/match/{match_id}")
            watcher.wait_for_selector("#board-svg path.territory", state="attached")
            watcher.wait_for_function("document.querySelector('#who').textContent === 'watching'")
            assert watcher.locator("#actions button").count() == 0 and watcher.locator("#resign").is_hidden()
            face_down = watcher.locator("#board-svg [data-token=face-down]").count()
            assert face_down > 0, "the board shows the face-down tokens"
            shots(watcher, "tower-spectator")
            watched = True
    assert watched and clicks >= 5 and ai_turns_seen >= 1 and board_clicks >= 1
    player.wait_for_selector("#outcome:not([hidden])")
    assert "over" in player.inner_text("#turn")
    assert player.locator("#log li").count() > 20
    shots(player, "tower")
    assert frames and not hidden_leaks(frames), hidden_leaks(frames)
    watcher_context.close()
