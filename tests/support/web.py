"""The web service (services/web) on uvicorn on a free loopback port, in a background thread,
in front of a platform server of the test's."""
from __future__ import annotations

import socket
import threading
import time


class WebThread:
    """uvicorn serving the web app on a socket of its own, in a background thread."""

    def __init__(self, platform_addr: str, **settings):
        import uvicorn

        from services.web.app import build_app
        from services.web.settings import WebSettings

        self.settings = WebSettings(platform_addr=platform_addr, secret=b"w" * 32, **settings)
        self.app = build_app(self.settings)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", ws="websockets-sansio",
                                                    timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "WebThread":
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web app did not start on uvicorn")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def start_match(page, url: str, game: str, variant: str = "", ai: int = 1) -> str:
    """From the lobby, as a new guest: one click to sign in, then a match of `game` against `ai`
    AI seats; its id, once its page is open."""
    page.goto(url)
    page.click("#guest")
    page.wait_for_selector("#start:not([hidden])")
    page.wait_for_selector(f"#game option[value={game}]", state="attached")
    page.select_option("#game", game)
    if variant:
        page.select_option("#variant", variant)
    page.fill("#ai", str(ai))
    page.click("#create")
    page.wait_for_url("**/match/*")
    return page.url.rsplit("/", 1)[1]


def act(page, control, svg: bool = False) -> None:
    """One action taken on a match page: `control` clicked (a board shape's click dispatched, since an
    SVG shape may lie under another), then waited on until the page shows the match's next version."""
    version = page.get_attribute("body", "data-version")
    if svg:
        control.dispatch_event("click")
    else:
        control.click()
    page.wait_for_function(f"document.body.dataset.version !== '{version}'", timeout=30_000)


KEY = b"k" * 32  # the test web app's cookie key: tests read and sign sessions with it (Signer(KEY, 600))


def web_app(platform_addr: str):
    """The web app in front of a platform, for Starlette's test client (no server of its own)."""
    from services.web.app import build_app
    from services.web.settings import WebSettings

    return build_app(WebSettings(platform_addr=platform_addr, secret=KEY, session_s=600))


def guest(app):
    """A test client signed in as a new guest."""
    from starlette.testclient import TestClient

    client = TestClient(app)
    assert client.post("/api/guest").status_code == 200
    return client
