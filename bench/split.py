"""The platform split on this machine, as `make run MODE=split` starts it (one process
per service and a Celery worker with N pool processes), on free ports, for the
benchmark and the monitoring tests. Everything it started stops with it."""
from __future__ import annotations

import secrets
import signal
import sys
import urllib.request

from services.runtime.launcher import SERVICES, free_port
from tests.support.processes import Child

READY = "Ctrl-C stops everything"
WORKER_OFFSET = 9  # the launcher serves the AI worker's /metrics on METRICS_PORT + 9


class SplitPlatform:
    """`with SplitPlatform(workers=2) as p:` p.addr["combat"], p.metrics["combat"], p.worker_metrics."""

    def __init__(self, redis_url: str, workers: int = 2, queue: str | None = None, env: dict | None = None):
        self.redis_url = redis_url
        self.workers = workers
        self.queue = queue or "ops-" + secrets.token_hex(4)
        self.extra_env = dict(env or {})
        self.child: Child | None = None
        self.addr: dict[str, str] = {}
        self.metrics: dict[str, int] = {}
        self.worker_metrics = 0

    def __enter__(self) -> "SplitPlatform":
        # ports outside the kernel's ephemeral range, so nothing takes them before the children bind
        grpc_base, metrics_base = free_port(len(SERVICES)), free_port(WORKER_OFFSET + 1)
        env = dict(REDIS_URL=self.redis_url, ARCHMAGE_PORT=str(grpc_base),
                   METRICS_PORT=str(metrics_base), AI_QUEUE=self.queue, LOG_LEVEL="WARNING")
        env.update(self.extra_env)
        self.addr = {name: f"127.0.0.1:{grpc_base + i}" for i, name in enumerate(SERVICES)}
        self.metrics = {name: metrics_base + 1 + i for i, name in enumerate(SERVICES)}
        self.worker_metrics = metrics_base + WORKER_OFFSET
        self.child = Child("launcher", [sys.executable, "-m", "services.runtime.launcher", "--mode", "split",
                                        "--workers", str(self.workers)], env)
        try:
            # the services answer health checks, and the AI worker is up
            self.child.wait_until(lambda: READY in self.output() and self._worker_answers(), 90,
                                  what="the split platform to be ready")
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _worker_answers(self) -> bool:
        """The launcher says ready once the worker is started; it takes a moment more to boot."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.worker_metrics}/metrics", timeout=1) as reply:
                return reply.status == 200
        except OSError:
            return False

    def output(self) -> str:
        return self.child.output()

    def all_metrics_ports(self) -> dict[str, int]:
        return {**self.metrics, "ai-worker": self.worker_metrics}

    def __exit__(self, *exc) -> None:
        if self.child is not None:
            self.child.stop(45, sig=signal.SIGINT)  # Ctrl-C, as a person stops it
            self.child.log_path.unlink(missing_ok=True)
        self._forget_queue()

    def _forget_queue(self) -> None:
        """Drop our queue (turns of matches still in play when we stopped) and Celery's
        binding key for it: the queue name was ours alone."""
        try:
            from kombu import Connection, Queue

            with Connection(self.redis_url) as broker:
                Queue(self.queue)(broker.default_channel).delete()
        except Exception:
            pass
