"""The web service for real: a platform server whose AI seats play in its own threads
(tests/support/terminal.py AiServer), and the web app on uvicorn on a free loopback port."""
from __future__ import annotations

import pytest

from tests.support.terminal import ai_server
from tests.support.web import WebThread, web_app


@pytest.fixture(scope="module")
def ai_platform(redis_url):
    server = ai_server(redis_url)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def app(platform):
    """The web app (Starlette's test client drives it) in front of the suite's platform."""
    return web_app(platform.address)


@pytest.fixture(scope="module")
def web(ai_platform):
    server = WebThread(ai_platform.address).start()
    yield server
    server.stop()


def chromium_path() -> str | None:
    import shutil

    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium from Debian's packages (`make system-tools` installs it), driven by
    Playwright for Python; Playwright's own browser download is never used."""
    playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed "
                                         "(pip install -e '.[test]')")
    path = chromium_path()
    if path is None:
        pytest.skip("Debian's chromium is not installed and could not be (as root: apt-get install chromium, "
                    "or `make system-tools`)")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def shots(tmp_path_factory):
    """Where the run's screenshots go (under the run's tmp dir); each saved one's path is printed."""
    folder = tmp_path_factory.getbasetemp() / "screenshots"
    folder.mkdir(exist_ok=True)

    def save(page, name: str, board: bool = True):
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        if not board:  # a page with no board (the lobby)
            print(f"screenshot of the {name} page: {path}")
            return path
        page.locator("#board-svg").screenshot(path=str(folder / f"{name}-board.png"))
        print(f"screenshot of the {name} page: {path} (the board alone: {folder / f'{name}-board.png'})")
        return path
    return save

