"""Redis for the suite: a database of the shared Redis that this run owns, or a
redis-server of the test's own.

A run (each of `make test`'s pytest-xdist worker processes is one) claims a database only
when it is empty (one atomic script), marks it with its owner (host and pid) and empties it
when it ends; a database whose owner is a dead process on this host is emptied and claimed
again. Databases holding anything else are never touched."""
from __future__ import annotations

import os
import shutil
import socket
import sys
import tempfile
from pathlib import Path

import redis

from services.runtime.launcher import free_port, redis_answers, redis_server_binary
from tests.support.processes import Child

OWNER_KEY = "archmage:test-run:owner"

_CLAIM = """
local owner = redis.call('GET', KEYS[1])
if redis.call('DBSIZE') == 0 or (owner and owner == ARGV[2]) then
  redis.call('FLUSHDB')
  redis.call('SET', KEYS[1], ARGV[1])
  return 1
end
return 0
"""


def _me() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _dead_owner(owner: bytes | None) -> str | None:
    """The owner mark, if it names a process of this host that no longer runs."""
    if not owner:
        return None
    host, _, pid = owner.decode(errors="replace").rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return None
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return owner.decode()
    except PermissionError:
        return None
    return None


def claim_database(base_url: str = "redis://127.0.0.1:6379", databases=range(1, 16)) -> str | None:
    """The URL of a database of `base_url` now owned by this run, or None (none free, no Redis)."""
    for db in databases:
        url = f"{base_url}/{db}"
        try:
            client = redis.Redis.from_url(url, socket_connect_timeout=0.5)
            stale = _dead_owner(client.get(OWNER_KEY))
            if client.eval(_CLAIM, 1, OWNER_KEY, _me(), stale or ""):
                return url
        except redis.RedisError:
            return None
    return None


def release_database(url: str) -> None:
    """Empty the database if this run still owns it."""
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=1)
        if client.get(OWNER_KEY) == _me().encode():
            client.flushdb()
    except redis.RedisError:
        pass


class RedisServer:
    """A redis-server of a test's own on a free port (below the ephemeral range), its files in
    a directory of its own. With `durable`, every write is in the append-only file before it
    is acknowledged (appendfsync always, unless `fsync` says "everysec"), so kill() then start()
    loses nothing."""

    def __init__(self, durable: bool = True, port: int | None = None, fsync: str = "always"):
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="archmage-redis-"))
        persistence = ["--appendonly", "yes", "--appendfsync", fsync] if durable else ["--appendonly", "no"]
        self.child = Child("redis-server", [redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1",
                                            "--save", "", "--dir", str(self.dir), *persistence])
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._wait()

    def _wait(self) -> None:
        self.child.wait_until(lambda: redis_answers(self.url), 20, what=f"redis-server to answer on {self.port}")

    def kill(self) -> None:
        """SIGKILL: the server dies as in a crash."""
        self.child.stop(timeout=0, sig=9)

    def start(self) -> None:
        self.child.start()
        self._wait()

    def close(self) -> None:
        self.child.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "RedisServer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# the database a suite process claimed, published beside REDIS_URL to the processes it starts: pytest-xdist's
# workers inherit the controller's environment, and each of them must claim a database of its own
CLAIMED = "ARCHMAGE_TEST_CLAIMED_REDIS_URL"


def redis_for_this_run() -> tuple[str, callable]:
    """(REDIS_URL for the suite, what to call when the run ends): REDIS_URL where it is given (not one a parent
    suite process claimed), else a database of the shared Redis claimed for this process, else a redis-server of
    its own; either of those is published as CLAIMED to the processes this one starts."""
    given = os.environ.get("REDIS_URL")
    if given and given != os.environ.get(CLAIMED):
        return given, lambda: None
    url = claim_database()
    if url:
        os.environ[CLAIMED] = url
        return url, lambda: release_database(url)
    print("no free database on the Redis at 6379: starting a redis-server for this run", file=sys.stderr)
    server = RedisServer(durable=False)
    os.environ[CLAIMED] = server.url
    return server.url, server.close
