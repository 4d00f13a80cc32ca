"""The launcher (`make run`): a port already taken is reported on the terminal at once, with
the child's own words, not after a health-check timeout; a child that dies is restarted, with
a line saying what died, its exit status and its last log lines; with --procs 2 (the default
on two cores) two serving processes share one port and both serve."""
from __future__ import annotations

import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time

import grpc
import pytest
import redis
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

from services.runtime.launcher import free_ports
from tests.support.processes import Child

pytestmark = pytest.mark.slow  # processes of its own: `make test-fast` leaves it out


@pytest.mark.parametrize("procs", [1, 2])
def test_a_taken_port_is_reported_on_the_terminal_at_once(redis_url, tmp_path, procs):
    """One serving process binds without SO_REUSEPORT, so the taken port is its own bind error;
    two are sharing the port, so the launcher looks before it starts them."""
    with socket.socket() as squatter:
        metrics, port = free_ports(11, 1)
        squatter.bind(("127.0.0.1", port))
        squatter.listen()
        env = {"REDIS_URL": redis_url, "ARCHMAGE_PORT": str(port), "METRICS_PORT": str(metrics),
               "AI_QUEUE": "launcher-test", "LOG_LEVEL": "WARNING", "SERVE_PROCS": str(procs)}
        started = time.monotonic()
        with Child("launcher", [sys.executable, "-m", "services.runtime.launcher"], env) as launcher:
            status = launcher.wait(30)
            took = time.monotonic() - started
            out = launcher.output()
    assert status != 0
    if procs == 1:
        assert re.search(r"platform \(pid \d+\) exited with status 1", out), out
    else:
        assert "could not start" in out and "platform-0" not in out, out  # nothing was started on it
    assert f"cannot listen on 127.0.0.1:{port}: address already in use" in out, out
    assert took < 20, f"the bind error took {took:.1f}s to show"


def _child_pids(parent: int) -> dict[str, int]:
    """The launcher's children: command line -> pid."""
    out = subprocess.run(["ps", "-o", "pid=,args=", "--ppid", str(parent)], capture_output=True, text=True).stdout
    return {args: int(pid) for pid, args in (line.strip().split(" ", 1) for line in out.splitlines() if line.strip())}


def _served_calls(metrics_port: int) -> float:
    """The calls one serving process answered, from its own /metrics."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith("archmage_rpc_total{"))


def test_the_launcher_restarts_a_child_that_dies_and_says_what_died(redis_url):
    metrics, port = free_ports(20, 1)  # metrics +0, +9 (the worker) and +10 (platform-1); never the gRPC port
    queue = "launcher-" + secrets.token_hex(4)
    env = {"REDIS_URL": redis_url, "ARCHMAGE_PORT": str(port), "METRICS_PORT": str(metrics), "AI_QUEUE": queue,
           "SERVE_PROCS": "2"}
    with Child("launcher", [sys.executable, "-m", "services.runtime.launcher"], env) as launcher:
        launcher.wait_for_line("Ctrl-C stops everything", 90)
        out = launcher.output()
        assert f"metrics http://127.0.0.1:{metrics + 9}/metrics" in out, out  # the worker's endpoint too
        # two serving processes on one port, each with its own /metrics; both answer calls
        assert "platform     2 processes sharing the port (SO_REUSEPORT)" in out, out
        assert f"http://127.0.0.1:{metrics + 10}/metrics   (platform-1)" in out, out
        pids = [int(p) for p in re.search(r"pids (\d+), (\d+)", out).groups()]
        assert len(set(pids)) == 2
        before = [_served_calls(metrics), _served_calls(metrics + 10)]
        for _ in range(40):  # a fresh connection each: the kernel spreads them over the two
            with grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)]) as c:
                matchmaking_pb2_grpc.MatchmakingStub(c).ListGames(matchmaking_pb2.ListGamesRequest(), timeout=10)
        after = [_served_calls(metrics), _served_calls(metrics + 10)]
        assert all(a > b for a, b in zip(after, before)), (before, after)
        worker = int(re.search(r"ai-worker .*\(pid (\d+)\)", out).group(1))
        os.kill(worker, signal.SIGKILL)  # the worker's main process, as the OOM killer would
        launcher.wait_for_line(rf"ai-worker \(pid {worker}\) exited with status -9; the last lines of", 30)
        launcher.wait_for_line(r"restarted ai-worker \(pid \d+\)", 30)

        platform = next(pid for args, pid in _child_pids(launcher.pid).items() if "services.runtime.main" in args)
        os.kill(platform, signal.SIGKILL)
        launcher.wait_for_line(rf"platform-\d \(pid {platform}\) exited with status -9", 30)
        launcher.wait_for_line(r"restarted platform", 30)
        launcher.wait_healthy(f"127.0.0.1:{port}", 60)

        # the restarted worker plays: an all-AI match moves on
        ch = grpc.insecure_channel(f"127.0.0.1:{port}")
        m = matchmaking_pb2_grpc.MatchmakingStub(ch).CreateMatch(matchmaking_pb2.CreateMatchRequest(
            game="tower", seats=[matchmaking_pb2.SeatSpec(kind="ai")] * 2), timeout=30)
        board = board_pb2_grpc.BoardStub(ch)
        launcher.wait_until(lambda: board.GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id),
                                                   timeout=10).version >= 3, 60, 0.1, "AI turns after the restarts")
        assert launcher.running(), launcher.tail()
        launcher.send(signal.SIGINT)
        assert launcher.wait(60) == 0
        assert "stopped" in launcher.output()
    redis.Redis.from_url(redis_url).delete(queue)
