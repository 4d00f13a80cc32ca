"""The web pages' figures on loopback, in headless Debian Chromium (Playwright):

    web_page_load_p50_ms, _p95_ms      a match page opened until its board is drawn (the socket's
                                       first state in), over LOADS loads
    web_event_to_board_p50_ms, _p95_ms the match's events reaching the page over its WebSocket until
                                       the board is redrawn from the view that follows them, over a
                                       whole Tower match against AI (every burst: the player's and the AI's)
    web_click_to_board_p50_ms, _p95_ms a click on an offered action until the board shows its result
    web_relay_p50_ms                   the server's share (archmage_web_relay_seconds): event read off
                                       WatchMatch to the page's new state sent
    web_assets_bytes                   what a match page loads: its HTML, modules, style, the realm

    .venv/bin/python -m bench.web_pages          (a platform and the web service of its own)
"""
from __future__ import annotations

import json
import shutil
import sys
import time

from bench.stats import percentiles
from tests.support.redis_db import redis_for_this_run
from tests.support.terminal import ai_server
from tests.support.web import WebThread

LOADS = 20

# timestamps the page itself takes: each events message in, each redraw of the board
PROBE = """
(() => {
  window.__bench = {events: [], drawn: []};
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    ws.addEventListener("message", (m) => {
      if (JSON.parse(m.data).type === "events") __bench.events.push(performance.now());
    });
    return ws;
  };
  const waiting = new MutationObserver(() => {
    const svg = document.getElementById("board-svg");
    if (!svg) return;
    waiting.disconnect();  // one observer on the board, once it exists
    new MutationObserver(() => __bench.drawn.push(performance.now()))
      .observe(svg, {attributes: true, attributeFilter: ["data-version"]});
  });
  waiting.observe(document, {childList: true, subtree: true});
})();
"""


def ms(values: list[float], p: int) -> float:
    return round(percentiles(values, p)[0], 1)


def main() -> int:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        print("no chromium: `make system-tools` installs Debian's", file=sys.stderr)
        return 1
    url, release = redis_for_this_run()
    platform = ai_server(url)
    web = WebThread(platform.address).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_context().new_page()
            page.add_init_script(PROBE)
            page.goto(web.url)
            page.click("#guest")
            page.wait_for_selector("#start:not([hidden])")
            page.wait_for_selector("#game option[value=tower]", state="attached")
            page.select_option("#game", "tower")
            page.click("#create")
            page.wait_for_url("**/match/*")
            match_url = page.url
            loads = []
            for _ in range(LOADS):
                started = time.perf_counter()
                page.goto(match_url)
                page.wait_for_selector("#board-svg[data-version]", state="attached")
                loads.append((time.perf_counter() - started) * 1000)
            assets = sum(r["transferSize"] or r["encodedBodySize"] for r in page.evaluate(
                "performance.getEntriesByType('resource').map(r => ({transferSize: r.transferSize, "
                "encodedBodySize: r.encodedBodySize}))")) + page.evaluate(
                "performance.getEntriesByType('navigation')[0].encodedBodySize")
            page.evaluate("window.__bench = {events: [], drawn: []}")
            clicks = []
            while page.get_attribute("body", "data-status") != "finished":
                page.wait_for_function("document.body.dataset.status === 'finished' || "
                                       "document.querySelector('#actions button.action') !== null", timeout=60_000)
                if page.get_attribute("body", "data-status") == "finished":
                    break
                version = page.get_attribute("#board-svg", "data-version")
                started = time.perf_counter()
                page.locator("#actions button.action").first.click()
                page.wait_for_function(f"document.getElementById('board-svg').dataset.version !== '{version}'")
                clicks.append((time.perf_counter() - started) * 1000)
            marks = page.evaluate("window.__bench")
            # each redraw, against the first events message since the redraw before it
            to_board, last = [], 0.0
            for drawn in marks["drawn"]:
                arrived = [t for t in marks["events"] if last < t <= drawn]
                if arrived:
                    to_board.append(drawn - arrived[0])
                last = drawn
            browser.close()
        from services.web import metrics

        relay = metrics.RELAY_SECONDS.collect()[0].samples
        buckets = [(float(s.labels["le"]), s.value) for s in relay if s.name.endswith("_bucket")]
        count = next(s.value for s in relay if s.name.endswith("_count"))
        relay_p50 = next(le for le, n in buckets if n >= count / 2) * 1000 if count else float("nan")
        figures = {
            "web_page_load_p50_ms": ms(loads, 50), "web_page_load_p95_ms": ms(loads, 95),
            "web_event_to_board_p50_ms": ms(to_board, 50), "web_event_to_board_p95_ms": ms(to_board, 95),
            "web_event_to_board_n": len(to_board),
            "web_click_to_board_p50_ms": ms(clicks, 50), "web_click_to_board_p95_ms": ms(clicks, 95),
            "web_relay_p50_ms_at_most": relay_p50, "web_assets_bytes": assets,
        }
        print(json.dumps(figures, indent=1))
        return 0
    finally:
        web.stop()
        platform.stop()
        release()


if __name__ == "__main__":
    sys.exit(main())
