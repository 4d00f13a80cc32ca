"""Runs the platform's services on a loopback port in a background thread, so
tests call them over real gRPC with ordinary blocking stubs."""
from __future__ import annotations

import asyncio
import faulthandler
import sys
import threading
from dataclasses import replace

from services.core.config import Settings
from services.rpc.quotas import DEFAULTS


class ServerThread:
    def __init__(self, redis_url: str, names=("dice", "board", "combat", "matchmaking"), notifier=None, **overrides):
        # port 0: any free port, and every address left at its default means this server
        # the whole suite calls from one peer (loopback) into one Redis: limits stay out of the way
        # unless a test asks for its own (tests/trust/test_limits.py)
        overrides.setdefault("limits", {name: "1000000/minute" for name in DEFAULTS})
        self.settings = replace(Settings.from_env({"REDIS_URL": redis_url, "ARCHMAGE_PORT": "0"}), metrics_port=0,
                                **overrides)
        self.names = list(names)
        self.notifier = notifier
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.port = 0

    def run(self, coro, timeout: float = 30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def start(self) -> None:
        from services.runtime.app import Platform

        self._thread.start()

        async def boot():
            self.platform = Platform(self.settings, self.notifier)
            self.mounted = await self.platform.start(self.names, host="127.0.0.1")
            return self.mounted.port

        self.port = self.run(boot())

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def __enter__(self) -> "ServerThread":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        async def down():
            await self.mounted.stop(0.5)
            await self.platform.close()

        # on a machine with both cores busy, closing the store and the channels has been seen to take
        # past 30 s; a teardown waits longer rather than failing the test it follows
        try:
            self.run(down(), timeout=120)
        except TimeoutError:
            self._show_what_is_stuck()
            raise
        finally:
            # whatever happened, this server's loop stops here: a matchmaker left running would
            # form other tests' matches and hand out this server's closed address
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(5)

    def _show_what_is_stuck(self) -> None:
        """Where each of the loop's tasks and every thread stands, on stderr (shown with the failure)."""
        print(f"the server on port {self.port} did not stop within 120 s; its tasks:", file=sys.stderr)
        for task in list(asyncio.all_tasks(self.loop)):
            task.print_stack(limit=12, file=sys.stderr)
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
