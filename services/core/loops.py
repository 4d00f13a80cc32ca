"""Stopping a serving process's background loops (the matchmaker's cycles, the sweeps) for certain.

Each loop tries again after a failed pass (`except Exception`), so a cancellation that a library
turns into another exception on its way up (a cancel racing a timeout inside a Redis call, say)
is caught as a failure and the loop runs on: a single `task.cancel()` then never ends it, and the
process never stops. So a loop also checks a stop flag between passes, and `stop` cancels the task
again until it has ended."""
from __future__ import annotations

import asyncio


async def stop(task: asyncio.Task | None, patience_s: float = 1.0) -> None:
    """Cancel `task` and wait for it to end, cancelling it again every `patience_s` seconds."""
    if task is None:
        return
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=patience_s)
    if not task.cancelled():
        task.exception()  # retrieved: a loop that failed on its way out is not reported twice
