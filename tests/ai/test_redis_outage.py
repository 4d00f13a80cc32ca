"""Redis killed for 3 s under all-AI matches (a redis-server of this test's own, with every
write on disk before it is acknowledged): calls meanwhile are UNAVAILABLE naming Redis,
never INTERNAL, and once Redis is back every match plays on to its end, each action once,
with no help from outside the platform.

The AI worker runs under the launcher's own supervisor, as `make run` runs it: Redis is also
the worker's broker, and Celery's consumer can end the worker when its broker connection drops
at the wrong moment (kombu's Redis transport, celery/celery#10302); the supervisor starts it
again, and the test says how often it did."""
from __future__ import annotations

import json
import secrets
import time

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc
from celery import Celery

from services.ai.notifier import CeleryTurns
from tests.support.processes import supervised_worker, wait_for
from tests.support.redis_db import RedisServer
from tests.support.server import ServerThread

pytestmark = pytest.mark.slow  # processes of its own: `make test-fast` leaves it out

MATCHES = 4
OUTAGE_S = 3.0


def test_all_ai_matches_finish_after_redis_is_killed_for_three_seconds():
    with RedisServer(durable=True) as redis_server:
        queue = "ai-outage-" + secrets.token_hex(4)
        broker = Celery("outage-test", broker=redis_server.url)
        server = ServerThread(redis_server.url, notifier=CeleryTurns(broker, queue), ai_stall_s=2.0, ai_sweep_s=0.5)
        server.start()
        env = {"REDIS_URL": redis_server.url, "BOARD_ADDR": server.address, "COMBAT_ADDR": server.address,
               "AI_QUEUE": queue}
        try:
            with supervised_worker(env, queue=queue, concurrency=2) as supervisor:
                channel = grpc.insecure_channel(server.address)
                board = board_pb2_grpc.BoardStub(channel)
                mm = matchmaking_pb2_grpc.MatchmakingStub(channel)
                ids = [mm.CreateMatch(matchmaking_pb2.CreateMatchRequest(
                    game="race", seats=[matchmaking_pb2.SeatSpec(kind="ai") for _ in range(3)]), timeout=10).match_id
                    for _ in range(MATCHES)]

                def versions():
                    return {m: board.GetMatch(board_pb2.GetMatchRequest(match_id=m), timeout=10).version for m in ids}

                wait_for(lambda: sum(versions().values()) > MATCHES, 30, interval=0.02, what="AI play to begin")
                before = versions()
                redis_server.kill()
                killed = time.monotonic()
                codes = []
                while time.monotonic() - killed < OUTAGE_S:  # the outage itself, watched as a client sees it
                    try:
                        board.GetMatch(board_pb2.GetMatchRequest(match_id=ids[0]), timeout=5)
                        codes.append(("OK", ""))
                    except grpc.RpcError as exc:
                        codes.append((exc.code().name, exc.details()))
                    time.sleep(0.05)
                redis_server.start()
                back = time.monotonic()
                after = versions()
                assert all(after[m] >= before[m] for m in ids), "an acknowledged action was lost"
                assert codes and all(code == "UNAVAILABLE" and "Redis" in details for code, details in codes), \
                    sorted(set(codes))[:5]
                moved = wait_for(lambda: any(v > before[m] for m, v in versions().items()) and time.monotonic(),
                                 60, interval=0.05, what="AI play to resume after the outage")
                def all_finished():
                    views = [board.GetMatch(board_pb2.GetMatchRequest(match_id=m), timeout=10) for m in ids]
                    return all(v.status == "finished" for v in views) and views

                views = wait_for(all_finished, 90, interval=0.1, what="every AI match to finish after the outage")
                finished = time.monotonic()
                dice = dice_pb2_grpc.DiceStub(channel)
                for m, view in zip(ids, views):
                    verdict = dice.Verify(dice_pb2.VerifyRequest(session_id=m), timeout=10)
                    assert verdict.ok, list(verdict.problems)
                    actions = [json.loads(e.body_json) for e in board.WatchMatch(
                        board_pb2.WatchMatchRequest(match_id=m, from_seq=0), timeout=10) if e.type == "action"]
                    ids_seen = [a["action_id"] for a in actions]
                    assert len(ids_seen) == len(set(ids_seen)) == view.version - 1, "an action applied twice or lost"
                print(f"redis down {OUTAGE_S:.0f}s: {len(codes)} calls meanwhile, all UNAVAILABLE naming Redis; "
                      f"play resumed {moved - back:.1f}s after Redis was back; all {MATCHES} matches finished "
                      f"{finished - back:.1f}s after; turns queued again by the sweep: {_requeued():.0f}; "
                      f"worker restarts by the supervisor: {sum(len(c.deaths) for c in supervisor.children)}")
        finally:
            server.stop()


def _requeued() -> float:
    from services.core.metrics import METRICS

    return METRICS.ai_turns_requeued._value.get()
