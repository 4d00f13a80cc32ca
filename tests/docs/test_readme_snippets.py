"""The README's Python snippets run as written against a real platform (only the address
changes), so a newcomer who pastes them gets what the README says."""
from __future__ import annotations

import re
import secrets
from pathlib import Path

import pytest

from tests.support.processes import celery_worker
from tests.support.server import ServerThread

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()
WEB = "http://127.0.0.1:8080"
EVERY = re.findall(r"```python\n(.*?)```", README, re.S)
SNIPPETS = [s for s in EVERY if WEB not in s]  # against the platform's gRPC API
WEB_SNIPPETS = [s for s in EVERY if WEB in s]  # against the web service in front of it


@pytest.fixture(scope="module")
def address(redis_url):
    """The platform with a Celery worker playing its AI seats: the first snippet waits its turn behind them."""
    from services.ai.celery_app import app
    from services.ai.notifier import CeleryTurns

    queue = "ai-readme-" + secrets.token_hex(4)
    server = ServerThread(redis_url, notifier=CeleryTurns(app, queue), mm_interval_s=0.05)
    server.start()
    env = {"REDIS_URL": redis_url, "BOARD_ADDR": server.address, "COMBAT_ADDR": server.address, "AI_QUEUE": queue}
    with celery_worker(env, app="services.ai.celery_app", queue=queue, concurrency=1):
        yield server.address
    server.stop()


def test_the_readme_has_its_snippets():
    assert len(SNIPPETS) >= 3 and "SignInAsGuest" in SNIPPETS[0]


def test_every_python_snippet_runs(address, capsys):
    namespace: dict = {}
    for snippet in SNIPPETS:  # in order: the ticket snippet uses the first one's channel and credential
        exec(compile(snippet.replace("127.0.0.1:50051", address), "README.md", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "assigned" in printed and "True" in printed
    assert "True 1000 0" in printed, "the sign-up snippet's new player"
    assert "your_turn True" in printed, "the client snippet's turn notice"


def test_the_web_snippet_runs_against_the_web_service(address, capsys):
    from tests.support.web import WebThread

    assert WEB_SNIPPETS, "the README shows how to open the page"
    web = WebThread(address).start()
    try:
        for snippet in WEB_SNIPPETS:
            exec(compile(snippet.replace(WEB, web.url), "README.md", "exec"), {})
    finally:
        web.stop()
    printed = capsys.readouterr().out
    assert f"open {web.url}/match/" in printed and "active" in printed
