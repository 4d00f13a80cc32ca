"""An AI turn's latency as a watcher sees it: from the state change that makes an AI seat's
turn due (an action committed) to that seat's action applied (the next action committed),
in all-AI 2-seat Tower matches, services split, Celery workers playing every seat through
the public API. Each match is followed with Board.WatchMatch; the gap between two action
events' arrivals is one turn (both arrive through the same stream, so the delivery of the
stream falls on both ends alike). A few matches at a time, so the figure is the path's,
not a queue's.

    ai_turn_p50_ms, ai_turn_p95_ms    state change to AI action applied
    ai_turns_timed                    how many turns the figures are of
"""
from __future__ import annotations

import asyncio

import grpc

from bench.stats import percentiles

GAME = "tower"
SEATS = 2


async def _measure(board_addr: str, mm_addr: str, seconds: float, concurrent: int) -> dict:
    from archmage.board.v1 import board_pb2, board_pb2_grpc
    from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    gaps: list[float] = []
    request = matchmaking_pb2.CreateMatchRequest(
        game=GAME, seats=[matchmaking_pb2.SeatSpec(kind="ai") for _ in range(SEATS)])
    async with grpc.aio.insecure_channel(board_addr) as board_channel, \
            grpc.aio.insecure_channel(mm_addr) as mm_channel:
        board = board_pb2_grpc.BoardStub(board_channel)
        mm = matchmaking_pb2_grpc.MatchmakingStub(mm_channel)

        async def follow() -> None:
            while loop.time() < end:
                match = await mm.CreateMatch(request, timeout=30)
                last = None
                stream = board.WatchMatch(board_pb2.WatchMatchRequest(match_id=match.match_id))
                try:
                    async for event in stream:
                        if event.type == "action":
                            now = loop.time()
                            if last is not None:
                                gaps.append(now - last)
                            last = now
                        if event.type == "match_finished" or loop.time() >= end:
                            break
                finally:
                    stream.cancel()

        await asyncio.gather(*(follow() for _ in range(concurrent)))
    p50, p95 = percentiles(gaps, 50, 95)
    return {"ai_turn_p50_ms": p50 * 1000, "ai_turn_p95_ms": p95 * 1000, "ai_turns_timed": len(gaps)}


def measure(board_addr: str, mm_addr: str, seconds: float = 15, concurrent: int = 2) -> dict:
    return asyncio.run(_measure(board_addr, mm_addr, seconds, concurrent))
