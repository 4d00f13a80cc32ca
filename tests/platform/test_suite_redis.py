"""The suite's Redis (tests/support/redis_db.py): each process of a parallel run (`make test`, pytest-xdist)
works in a database of its own, whatever it inherits from the process that started it, and a REDIS_URL
given from outside is used as given."""
from __future__ import annotations

import os

import redis

from tests.conftest import REDIS_URL
from tests.support.redis_db import CLAIMED, OWNER_KEY, redis_for_this_run


def test_a_process_that_inherits_a_claimed_database_claims_one_of_its_own(monkeypatch):
    monkeypatch.setenv("REDIS_URL", REDIS_URL)  # as a pytest-xdist worker inherits them from its controller
    monkeypatch.setenv(CLAIMED, REDIS_URL)
    url, release = redis_for_this_run()
    try:
        assert url != REDIS_URL
        assert os.environ[CLAIMED] == url, "what this process claimed is what it publishes"
        mark = redis.Redis.from_url(url).get(OWNER_KEY)
        assert mark, "the database is marked as this run's"
    finally:
        release()
    assert redis.Redis.from_url(url).get(OWNER_KEY) != mark, "released: emptied, for another run to claim"


def test_a_redis_url_given_from_outside_is_used_as_given(monkeypatch):
    given = "redis://127.0.0.1:6379/15"
    monkeypatch.setenv("REDIS_URL", given)
    monkeypatch.delenv(CLAIMED, raising=False)
    url, release = redis_for_this_run()
    assert url == given and CLAIMED not in os.environ
    release()
