"""Stopping background loops for certain (services/core/loops.py): a loop whose first cancellation
is lost on its way up (as one racing a timeout inside a library call can be) still ends."""
from __future__ import annotations

import asyncio

from services.core import loops


def test_a_loop_that_loses_a_cancellation_is_cancelled_again_until_it_ends():
    async def go():
        lost = []

        async def stubborn():
            while True:
                try:
                    await asyncio.sleep(10)
                except asyncio.CancelledError:
                    if lost:
                        raise
                    lost.append(asyncio.current_task().uncancel())  # the first one goes missing

        task = asyncio.create_task(stubborn())
        await asyncio.sleep(0)
        await asyncio.wait_for(loops.stop(task, patience_s=0.05), 5)  # one cancel alone would wait for ever
        assert task.cancelled() and lost == [0]
        await loops.stop(None)  # nothing started: nothing to stop

    asyncio.run(go())


def test_a_loop_that_failed_before_it_was_stopped_is_stopped_quietly():
    async def go():
        async def broken():
            raise RuntimeError("a pass failed for good")

        task = asyncio.create_task(broken())
        await asyncio.sleep(0)
        await loops.stop(task)
        assert isinstance(task.exception(), RuntimeError)

    asyncio.run(go())
