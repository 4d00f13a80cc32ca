"""A service process stops gracefully on SIGTERM: health goes NOT_SERVING, then it exits."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.runtime.launcher import free_port, wait_healthy


def test_sigterm_turns_health_off_then_exits_cleanly(redis_url):
    port = free_port()
    env = dict(os.environ, REDIS_URL=redis_url, ARCHMAGE_PORT=str(port), METRICS_PORT="0", AI_ENABLED="0")
    proc = subprocess.Popen([sys.executable, "-m", "services.runtime.main", "all"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_healthy(f"127.0.0.1:{port}")
        seen = []
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            stub = health_pb2_grpc.HealthStub(ch)
            watch = stub.Watch(health_pb2.HealthCheckRequest(service="archmage.board.v1.Board"), timeout=15)
            seen.append(next(watch).status)
            proc.send_signal(signal.SIGTERM)
            try:
                for reply in watch:
                    seen.append(reply.status)
            except grpc.RpcError:
                pass  # the server went away after saying so
        assert seen[0] == health_pb2.HealthCheckResponse.SERVING
        assert health_pb2.HealthCheckResponse.NOT_SERVING in seen
        assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    time.sleep(0)
