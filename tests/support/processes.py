"""Start and stop real processes for tests (Celery workers, the platform)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager


@contextmanager
def celery_worker(env: dict, app: str = "tests.support.worker", queue: str = "ai", concurrency: int = 1):
    cmd = [sys.executable, "-m", "celery", "-A", app, "worker", "-Q", queue, "-c", str(concurrency),
           "--pool", "prefork", "--loglevel", "WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    proc = subprocess.Popen(cmd, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        yield proc
    finally:
        stop(proc)


def stop(proc: subprocess.Popen, timeout: float = 15) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def wait_for(predicate, timeout: float, interval: float = 0.1, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")
