"""Queues an AI seat's turn on Celery when the match driver says it is due."""
from __future__ import annotations

import asyncio

from services.core.metrics import METRICS

TASK = "archmage.ai.play_turn"


class CeleryTurns:
    def __init__(self, app, queue: str):
        self.app, self.queue = app, queue

    async def ai_turn(self, match_id: str, seat: int, version: int, token: str) -> None:
        # publishing is a blocking Redis write (~1 ms): keep it off the event loop
        await asyncio.to_thread(self.app.send_task, TASK, args=(match_id, seat, version, token), queue=self.queue)
        METRICS.ai_turns_queued.labels("any").inc()
