"""A service process stops gracefully on SIGTERM: health goes NOT_SERVING, then it exits."""
from __future__ import annotations

import signal

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.support.processes import service_process


def test_sigterm_turns_health_off_then_exits_cleanly(redis_url):
    child, addr = service_process("platform", "all", {"REDIS_URL": redis_url, "AI_ENABLED": "0", "DRAIN_S": "0"})
    with child:
        seen = []
        with grpc.insecure_channel(addr) as ch:
            stub = health_pb2_grpc.HealthStub(ch)
            watch = stub.Watch(health_pb2.HealthCheckRequest(service="archmage.board.v1.Board"), timeout=15)
            seen.append(next(watch).status)
            child.send(signal.SIGTERM)
            try:
                for reply in watch:
                    seen.append(reply.status)
            except grpc.RpcError:
                pass  # the server went away after saying so
        assert seen[0] == health_pb2.HealthCheckResponse.SERVING
        assert health_pb2.HealthCheckResponse.NOT_SERVING in seen
        assert child.wait(15) == 0
