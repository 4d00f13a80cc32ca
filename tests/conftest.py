"""Fixtures shared by the suite: a real Redis, and the platform's gRPC services
running for real on a loopback port in a background thread."""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import time

import pytest
import redis

from services.runtime.launcher import free_port, redis_answers, redis_server_binary
from shared.engine import registry

# the platform-test game (tests/support/race.py), registered like any real game
registry.register("race", "tests.support.race:RaceGame")
registry.POLICIES["race"] = "tests.support.race:choose"



def _redis_for_this_run() -> str:
    """REDIS_URL if set; else the Redis on 6379 (a database of its own per run, so two runs on
    one machine never match each other's tickets); else a redis-server started for this run."""
    if os.environ.get("REDIS_URL"):
        return os.environ["REDIS_URL"]
    url = f"redis://127.0.0.1:6379/{1 + os.getpid() % 15}"
    if redis_answers(url):
        return url
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="archmage-test-redis-")
    proc = subprocess.Popen([redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", workdir], stdout=subprocess.DEVNULL)
    atexit.register(lambda: (proc.terminate(), proc.wait(10), shutil.rmtree(workdir, ignore_errors=True)))
    url = f"redis://127.0.0.1:{port}/0"
    for _ in range(100):
        if redis_answers(url):
            return url
        time.sleep(0.05)
    raise RuntimeError("the redis-server started for the tests does not answer")


REDIS_URL = _redis_for_this_run()
os.environ["REDIS_URL"] = REDIS_URL  # the Celery app reads it at import: publish where the workers listen


@pytest.fixture(scope="session")
def redis_url() -> str:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.ConnectionError:
        pytest.exit(f"no Redis at {REDIS_URL}: start one (make test does) or set REDIS_URL", returncode=3)
    return REDIS_URL


@pytest.fixture(scope="session")
def platform(redis_url):
    """All four services in one server on a free loopback port (embedded mode)."""
    from tests.support.server import ServerThread

    server = ServerThread(redis_url=redis_url)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def channel(platform):
    import grpc

    ch = grpc.insecure_channel(platform.address)
    yield ch
    ch.close()
