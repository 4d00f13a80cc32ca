"""`make run` from a clean checkout: it sets itself up, serves, and stops cleanly."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import grpc
import pytest
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc

from services.runtime.launcher import free_ports, port_open

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("git") is None or shutil.which("make") is None, reason="needs git and make")
def test_make_run_from_a_clean_checkout(tmp_path, redis_url):
    clone = tmp_path / "archmage"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    metrics, port = free_ports(11, 1)  # metrics +0, +9 (the worker) and +10 (a second serving process)
    env = dict(os.environ, ARCHMAGE_PORT=str(port), METRICS_PORT=str(metrics), REDIS_URL=redis_url,
               AI_QUEUE="setup-test")
    env.pop("VIRTUAL_ENV", None)
    started = time.monotonic()
    proc = subprocess.Popen(["make", "run"], cwd=clone, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    output = []
    try:
        for line in proc.stdout:
            output.append(line)
            if "Ctrl-C stops everything" in line:
                break
        else:
            pytest.fail("make run ended before serving:\n" + "".join(output[-40:]))
        ready_s = time.monotonic() - started
        print(f"make run from a clean checkout was serving after {ready_s:.1f}s")
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            dice = dice_pb2_grpc.DiceStub(ch)
            s = dice.CreateSession(dice_pb2.CreateSessionRequest())
            rolled = dice.Roll(dice_pb2.RollRequest(session_id=s.session_id, token=s.token,
                                                    pools=[dice_pb2.Pool(purpose="setup", count=2, sides=6)]))
            assert len(rolled.results[0].faces) == 2
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
    assert "stopped" in rest, "".join(output) + rest
    # make itself reports the interrupt (-SIGINT) like any Ctrl-C; the launcher stopped cleanly
    assert proc.returncode in (0, -signal.SIGINT, 2), "".join(output) + rest
    assert not port_open("127.0.0.1", port), "the platform is still listening after Ctrl-C"
    if shutil.which("pgrep"):
        left = subprocess.run(["pgrep", "-f", "setup-test"], capture_output=True, text=True).stdout.split()
        assert not left, f"processes left behind: {left}"
