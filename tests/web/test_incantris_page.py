"""The Incantris arena in a real browser: the page draws the hexes the view's tiles make, and a
wizard is placed by clicking a hex on the board."""
from __future__ import annotations

from tests.support.web import act, start_match


def test_an_incantris_wizard_is_placed_by_clicking_a_hex(browser, web, shots):
    page = browser.new_context().new_page()
    start_match(page, web.url, "incantris", "battle-royale")
    page.wait_for_selector("#board-svg polygon.hex.target", state="attached", timeout=30_000)
    assert page.locator("#board-svg polygon.hex").count() > 100
    placed = page.locator("#board-svg .wizard").count()
    act(page, page.locator("#board-svg polygon.hex.target").first, svg=True)
    page.wait_for_function(f"document.querySelectorAll('#board-svg .wizard').length > {placed}")
    assert page.locator("#log li").filter(has_text="place").count() >= 1
    shots(page, "incantris")
