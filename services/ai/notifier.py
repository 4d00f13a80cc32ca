"""Queues an AI seat's turn on Celery when the match driver says it is due."""
from __future__ import annotations

import asyncio

from services.core.metrics import METRICS

TASK = "archmage.ai.play_turn"


class CeleryTurns:
    def __init__(self, app, queue: str):
        self.app, self.queue = app, queue

    async def ai_turn(self, match_id: str, seat: int, version: int, token: str | None = None) -> None:
        # the message names the turn, never a token: the worker derives the seat's token from the
        # AI key (services/core/ai_seats.py). Only a match created before that scheme still hands
        # over the token it keeps, until it ends.
        args = (match_id, seat, version) if token is None else (match_id, seat, version, token)
        # publishing is a blocking Redis write (~1 ms): keep it off the event loop
        await asyncio.to_thread(self.app.send_task, TASK, args=args, queue=self.queue)
        METRICS.ai_turns_queued.labels("any").inc()
