"""Fixtures for games served for real: the four services and Celery workers for AI seats."""
from __future__ import annotations

import secrets

import pytest

from tests.support.processes import celery_worker
from tests.support.server import ServerThread


@pytest.fixture(scope="module")
def served(redis_url):
    """The four services and two Celery workers playing the AI seats."""
    from services.ai.celery_app import app
    from services.ai.notifier import CeleryTurns

    queue = "ai-tower-" + secrets.token_hex(4)
    server = ServerThread(redis_url, notifier=CeleryTurns(app, queue))
    server.start()
    env = {"REDIS_URL": redis_url, "BOARD_ADDR": server.address, "COMBAT_ADDR": server.address, "AI_QUEUE": queue}
    with celery_worker(env, app="services.ai.celery_app", queue=queue, concurrency=2):
        yield server
    server.stop()
