"""Aiming an Incantris spell in a real browser (static/incantris-aim.js): the page lists the
spells the legal `cast` actions offer, by spell; choosing one highlights the targets its legal
actions name and shades the hexes the engine says are out of its range or out of the caster's
line of sight (Casting Spells: "Confirm range", "Confirm line of sight"; the page asks the
engine's `targets` and `line_of_sight` queries); clicking a target and confirming once casts it."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from tests.support.web import act, start_match

DOCS_IMAGE = Path(__file__).resolve().parents[2] / "docs" / "images" / "incantris-arena.png"
MAX_CLICKS = 40  # placing three wizards and activating one takes four of the seat's own clicks
CASTER = "red-sorceress"  # seat 0 plays red; her Guardian Hydra (a hex, Auto) needs no roll to be cast
SPELL = "guardian-hydra"

READY = ("(document.body.dataset.status && document.body.dataset.status !== 'active') || "
         "document.querySelector('#spells button.spell') !== null || "
         "document.querySelector('#actions button.action:not([disabled])') !== null")


def offered(page) -> str:
    return "; ".join(page.locator("#actions button.action, #spells button.spell").all_inner_texts())


def play_until_a_spell_is_offered(page) -> None:
    """Set-up and play by clicking: a board target first (placing), else the first action in the
    list, except that the Sorceress is the wizard activated; until a spell may be cast."""
    for _ in range(MAX_CLICKS):
        page.wait_for_function(READY, timeout=30_000)
        assert page.get_attribute("body", "data-status") == "active", f"the match ended first: {offered(page)}"
        if page.locator("#spells button.spell").count():
            return
        target = page.locator("#board-svg polygon.hex.target")
        activate = page.locator("#actions button.action", has_text=f"activate {CASTER}")
        if target.count():
            act(page, target.first, svg=True)
        else:
            act(page, (activate if activate.count() else page.locator("#actions button.action")).first)
    raise AssertionError(f"no spell to cast after {MAX_CLICKS} clicks; the page offered: {offered(page)}")


def aim(page, spell: str) -> None:
    page.locator(f"#spells button.spell[data-spell={spell}]").first.click()
    page.wait_for_function("document.getElementById('board-svg').dataset.aim === 'ready'", timeout=60_000)


def test_casting_spells_an_incantris_spell_is_aimed_on_the_board_with_its_range_and_sight(browser, web, shots):
    page = browser.new_context(viewport={"width": 1300, "height": 900}).new_page()
    start_match(page, web.url, "incantris", "battle-royale")
    play_until_a_spell_is_offered(page)
    spells = page.locator("#spells button.spell")
    names = [spells.nth(i).get_attribute("data-spell") for i in range(spells.count())]
    assert SPELL in names, f"the Sorceress offers no {SPELL}: {offered(page)}"
    assert page.locator("#actions button.action", has_text="cast ").count() == 0  # listed by spell instead

    # a spell aimed at a wizard (her team-mates stand next to her): the target is clicked on its piece
    assert "scorching-chain" in names, offered(page)
    aim(page, "scorching-chain")
    marks = page.locator("#board-svg .aim-target.wizard-target")
    assert marks.count() >= 1
    aimed_at = marks.first.get_attribute("data-target")
    assert page.locator(f"#board-svg .wizard[data-wizard='{aimed_at}']").count() == 1
    marks.first.dispatch_event("click")  # asks to confirm, naming that wizard; "No" goes back to aiming
    page.wait_for_selector("#aim-confirm button.confirm")
    assert aimed_at in page.inner_text("#aim-confirm")
    page.locator("#aim-confirm button.cancel").click()
    page.wait_for_selector("#aim-confirm", state="detached")

    aim(page, SPELL)
    targets = page.locator("#board-svg .aim-target.hex-target")
    assert targets.count() > 0
    hidden = set(page.eval_on_selector_all("#board-svg .shade.out-of-sight", "ns => ns.map(n => n.dataset.hex)"))
    far = set(page.eval_on_selector_all("#board-svg .shade.out-of-range", "ns => ns.map(n => n.dataset.hex)"))
    aimed = set(page.eval_on_selector_all("#board-svg .aim-target.hex-target", "ns => ns.map(n => n.dataset.hex)"))
    assert hidden - far and far, "the board shades hexes out of range, and hatches hexes in range out of sight"
    assert not aimed & (hidden | far), "every legal target is in range and in sight, as the engine answers"
    assert "out of sight" in page.inner_text("#spells .aim-status")

    before = page.locator("#board-svg [data-effect=guardian-hydra]").count()
    target = targets.first
    hex_ = target.get_attribute("data-hex")
    target.dispatch_event("click")
    page.wait_for_selector("#aim-confirm button.confirm")
    assert page.locator(f"#board-svg .aim-target.confirming[data-hex='{hex_}']").count() == 1
    path = shots(page, "incantris-aim")
    act(page, page.locator("#aim-confirm button.confirm").first)
    page.wait_for_selector(f"#board-svg [data-effect=guardian-hydra][data-hex='{hex_}']", state="attached",
                           timeout=30_000)  # the hydra stands where it was aimed
    assert page.locator("#board-svg [data-effect=guardian-hydra]").count() == before + 1
    assert page.locator("#log li", has_text=f"{CASTER} casts {SPELL}").count() == 1, page.inner_text("#log")
    assert page.locator("#spells button.spell").count() == 0  # one spell a turn: none is offered now
    shots(page, "incantris-cast")
    if os.environ.get("UPDATE_DOC_IMAGES") == "1":  # the README's picture, refreshed only when asked
        shutil.copy(path.with_name("incantris-aim-board.png"), DOCS_IMAGE)
