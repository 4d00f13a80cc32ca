"""Fixtures shared by the suite: a real Redis, and the platform's gRPC services
running for real on a loopback port in a background thread."""
from __future__ import annotations

import atexit
import os

import pytest
import redis

from tests.support import race
from tests.support.redis_db import RedisServer, redis_for_this_run

race.host()  # the platform-test game, registered like any real game

REDIS_URL, _release_redis = redis_for_this_run()  # a database this run owns, emptied at exit
atexit.register(_release_redis)
os.environ["REDIS_URL"] = REDIS_URL  # the Celery app reads it at import: publish where the workers listen


@pytest.fixture(scope="session")
def redis_url() -> str:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.ConnectionError:
        pytest.exit(f"no Redis at {REDIS_URL}: start one (make test does) or set REDIS_URL", returncode=3)
    return REDIS_URL


@pytest.fixture
def own_redis() -> str:
    """The URL of a Redis of the test's own, for tests that a background replica sharing the
    suite's database could race (a matchmaker sweeping claims, a sweeper taking the oldest marks)."""
    with RedisServer(durable=False) as server:
        yield server.url


@pytest.fixture(scope="session")
def platform(redis_url):
    """All four services in one server on a free loopback port (embedded mode)."""
    from tests.support.server import ServerThread

    server = ServerThread(redis_url=redis_url)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def raw_channel(platform):
    """A channel with no credential: a stranger on the network."""
    import grpc

    ch = grpc.insecure_channel(platform.address)
    yield ch
    ch.close()


@pytest.fixture
def channel(raw_channel):
    """A channel signed in as a guest of its own, as `archmage play` is."""
    from services.client.session import signed_in

    return signed_in(raw_channel)
