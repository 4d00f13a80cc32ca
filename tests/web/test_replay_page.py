"""A finished match's replay in a real browser (headless Debian Chromium through Playwright):
the match page links to it once the match is over, and so does the lobby; the replay steps
forward and back, the board and the highlighted log line following; the dice read verified.
A running match's replay page says where to watch it live instead."""
from __future__ import annotations

import pytest

from tests.support.web import act, start_match

pytestmark = pytest.mark.slow  # a browser and a few turns of a match

CURRENT = "() => document.querySelector('#log li.current').dataset.seq"
BOARD = "() => document.querySelector('#board-svg').innerHTML"


def click_and_wait(page, selector: str) -> None:
    step = page.get_attribute("body", "data-step")
    page.click(selector)
    page.wait_for_function(f"document.body.dataset.step !== '{step}'")


def drawn_as_step(page, index: int) -> None:
    """The board is the drawing of that step's view: each Character where it stands, a Pennant flag
    on each territory holding Pennants, a face-down token wherever the view has one."""
    view = page.evaluate(f"async () => (await (await fetch('/api/replay/' + location.pathname.split('/').pop()))"
                         f".json()).steps[{index}].view")
    drawn = page.evaluate("""() => {
      const svg = document.querySelector('#board-svg');
      return {version: svg.dataset.version, pennants: svg.querySelectorAll('.pennant').length,
              face_down: svg.querySelectorAll('[data-token=face-down]').length,
              at: Object.fromEntries([...svg.querySelectorAll('.character')].map(c => [c.dataset.seat, c.dataset.at]))};
    }""")
    assert drawn["version"] == str(index)
    assert drawn["at"] == {str(seat): player["at"] for seat, player in enumerate(view["players"])}
    assert drawn["pennants"] == sum(1 for square in view["board"].values() if square["pennants"])
    assert drawn["face_down"] == sum(1 for square in view["board"].values()
                                     if square["token"] is not None and not square["token"]["up"])


def test_a_finished_tower_match_is_replayed_step_by_step_with_its_dice_verified(browser, web, shots):
    page = browser.new_context().new_page()
    match_id = start_match(page, web.url, "tower")
    for _ in range(3):  # a few moves of ours, the AI's turns between them
        page.wait_for_selector("#actions button.action", timeout=30_000)
        act(page, page.locator("#actions button.action").first)
    assert page.locator("#replay-link").is_hidden()  # not while it runs

    live = page.context.new_page()  # the replay of the running match: refused, and where to watch it
    live.goto(f"{web.url}/replay/{match_id}")
    live.wait_for_selector("#error:not([hidden])")
    assert "the match is still being played: watch it live at /match/" in live.inner_text("#error")
    assert live.get_attribute("#watch-live", "href") == f"/match/{match_id}"
    assert live.locator("#log li").count() == 0 and live.inner_text("#seed") == ""
    live.close()

    page.wait_for_selector("#resign:not([hidden])", timeout=30_000)
    page.click("#resign")
    page.click("#resign-confirm")
    page.wait_for_function("document.body.dataset.status === 'finished'", timeout=30_000)
    page.wait_for_selector("#replay-link:not([hidden])")
    page.click("#replay")
    page.wait_for_url(f"**/replay/{match_id}")
    page.wait_for_selector("#board-svg path.territory", state="attached", timeout=30_000)
    page.wait_for_function("document.body.dataset.step === '0'")

    assert page.inner_text("#verdict").startswith("Dice verified: ")
    assert page.get_attribute("body", "data-verified") == "ok"
    assert len(page.inner_text("#commitment")) == 64 and len(page.inner_text("#seed")) == 64
    assert "commitment" in page.inner_text("#checked")
    steps = int(page.get_attribute("#slider", "max"))
    assert steps >= 6 and page.locator("#log li").count() > steps
    assert page.is_disabled("#back") and not page.is_disabled("#next")

    at_start = (page.evaluate(CURRENT), page.evaluate(BOARD))
    click_and_wait(page, "#next")
    at_one = (page.evaluate(CURRENT), page.evaluate(BOARD))
    assert int(at_one[0]) > int(at_start[0])  # the highlighted log line moved on
    for _ in range(3):
        click_and_wait(page, "#next")
    at_four = (page.evaluate(CURRENT), page.evaluate(BOARD))
    assert int(at_four[0]) > int(at_one[0]) and page.inner_text("#step-count") == f"step 4 of {steps}"
    drawn_as_step(page, 4)
    for _ in range(3):
        click_and_wait(page, "#back")
    assert (page.evaluate(CURRENT), page.evaluate(BOARD)) == at_one  # back where it was
    click_and_wait(page, "#last")
    at_end = (page.evaluate(CURRENT), page.evaluate(BOARD))
    assert at_end[1] != at_start[1], "the board at the end is not the board at the set-up"
    drawn_as_step(page, steps)
    assert page.is_disabled("#next") and page.locator("#outcome").is_visible()
    assert page.locator("#log li.current").filter(has_text="resigns").count() == 1
    page.fill("#slider", "2")
    page.wait_for_function("document.body.dataset.step === '2'")
    page.locator("#log li.current").first.scroll_into_view_if_needed()
    shots(page, "tower-replay")

    page.goto(web.url)  # the lobby lists it, with its replay
    page.wait_for_selector(f"#mine a.replay[href='/replay/{match_id}']")


def test_a_finished_wizards_match_is_replayed_on_the_islands_board(browser, web, ai_platform):
    """The Wizards replay draws with the match page's board (wizards.js): the tiles laid during
    the match appear on the islands as the replay reaches them."""
    import random

    import grpc

    from services.client import Client

    first = Client(grpc.insecure_channel(ai_platform.address)).create_match("wizards", humans=2)
    rng = random.Random(1)
    for _ in range(30):
        if first.match().status != "active":
            break
        seat = first.seats[first.match().to_act]
        seat.act(rng.choice(seat.legal_actions()), expected_version=seat.version)
    if first.match().status == "active":
        first.seats[1].resign()
    page = browser.new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{web.url}/replay/{first.match_id}")
    page.wait_for_function("document.body.dataset.step === '0'", timeout=30_000)
    laid_at_start = page.locator("#board-svg .tile-name").count()
    click_and_wait(page, "#last")
    assert page.locator("#board-svg .tile-name").count() > laid_at_start
    assert page.get_attribute("body", "data-verified") == "ok" and not errors, errors
