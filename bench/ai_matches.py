"""All-AI matches completed per minute with the services split and the Celery workers
playing every seat through the public API: a fixed number of matches in play at once,
a new one created as soon as one ends, for a fixed time."""
from __future__ import annotations

import time

import grpc

GAME = "tower"
SEATS = 2


def play(board_addr: str, mm_addr: str, seconds: float, concurrent: int = 6, poll_s: float = 0.25) -> dict:
    from archmage.board.v1 import board_pb2, board_pb2_grpc
    from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

    board = board_pb2_grpc.BoardStub(grpc.insecure_channel(board_addr))
    mm = matchmaking_pb2_grpc.MatchmakingStub(grpc.insecure_channel(mm_addr))
    request = matchmaking_pb2.CreateMatchRequest(
        game=GAME, seats=[matchmaking_pb2.SeatSpec(kind="ai") for _ in range(SEATS)])

    def new() -> str:
        return mm.CreateMatch(request, timeout=30).match_id

    start = time.monotonic()
    playing = {new(): start for _ in range(concurrent)}
    finished, actions, durations = 0, 0, []
    while time.monotonic() - start < seconds:
        time.sleep(poll_s)
        for mid in list(playing):
            view = board.GetMatch(board_pb2.GetMatchRequest(match_id=mid), timeout=30)
            if view.status == "finished":
                durations.append(time.monotonic() - playing.pop(mid))
                finished += 1
                actions += view.version - 1
                if time.monotonic() - start < seconds:
                    playing[new()] = time.monotonic()
    elapsed = time.monotonic() - start
    return {"ai_matches_per_min": finished / elapsed * 60, "ai_matches_finished": finished,
            "ai_actions_per_s": actions / elapsed, "ai_match_seconds_mean": (sum(durations) / len(durations))
            if durations else float("nan"), "ai_concurrent_matches": concurrent, "ai_seconds": elapsed}
