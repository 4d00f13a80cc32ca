"""The launcher (`make run`) on a busy machine: a port already taken is reported on the
terminal at once, with the child's own words, not after a health-check timeout."""
from __future__ import annotations

import socket
import sys
import time

from services.runtime.launcher import free_port
from tests.support.processes import Child


def test_a_taken_port_is_reported_on_the_terminal_at_once(redis_url, tmp_path):
    with socket.socket() as squatter:
        port = free_port()
        squatter.bind(("127.0.0.1", port))
        squatter.listen()
        env = {"REDIS_URL": redis_url, "ARCHMAGE_PORT": str(port), "METRICS_PORT": str(free_port()),
               "AI_QUEUE": "launcher-test", "LOG_LEVEL": "WARNING"}
        started = time.monotonic()
        with Child("launcher", [sys.executable, "-m", "services.runtime.launcher"], env) as launcher:
            status = launcher.wait(30)
            took = time.monotonic() - started
            out = launcher.output()
    assert status != 0
    assert "platform exited with status" in out and f"cannot listen on 127.0.0.1:{port}" in out, out
    assert took < 20, f"the bind error took {took:.1f}s to show"
