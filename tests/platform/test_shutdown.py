"""A service process stops gracefully on SIGTERM: health goes NOT_SERVING at once, the
server keeps answering for the drain period (so balancers and clients move away), then it
stops and exits cleanly."""
from __future__ import annotations

import signal
import time

import grpc
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.support.processes import service_process

DRAIN_S = 2.0


def test_sigterm_drains_not_serving_while_answering_then_exits_cleanly(redis_url):
    child, addr = service_process("platform", "all", {"REDIS_URL": redis_url, "AI_ENABLED": "0",
                                                      "DRAIN_S": str(DRAIN_S)})
    with child, grpc.insecure_channel(addr) as ch:
        health = health_pb2_grpc.HealthStub(ch)
        games = matchmaking_pb2_grpc.MatchmakingStub(ch)
        board = health_pb2.HealthCheckRequest(service="archmage.board.v1.Board")
        assert health.Check(board, timeout=5).status == health_pb2.HealthCheckResponse.SERVING
        assert games.ListGames(matchmaking_pb2.ListGamesRequest(), timeout=30).games  # the engines loaded
        child.send(signal.SIGTERM)
        sent = time.monotonic()
        seen = []  # (seconds after SIGTERM, health status, whether a real call was answered)
        while True:
            try:
                status = health.Check(board, timeout=5).status
                answered = bool(games.ListGames(matchmaking_pb2.ListGamesRequest(), timeout=5).games)
            except grpc.RpcError:
                break
            seen.append((time.monotonic() - sent, status, answered))
            time.sleep(0.05)  # a poller, as a load balancer's health checks
        draining = [t for t, status, answered in seen
                    if status == health_pb2.HealthCheckResponse.NOT_SERVING and answered]
        assert draining, seen[:5]
        assert draining[0] < 0.5, f"NOT_SERVING only {draining[0]:.2f}s after SIGTERM"
        assert draining[-1] >= DRAIN_S * 0.75, f"stopped answering {draining[-1]:.2f}s into a {DRAIN_S}s drain"
        assert child.wait(15) == 0
