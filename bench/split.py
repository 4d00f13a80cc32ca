"""The platform split on this machine, as `make run MODE=split` starts it (one process
per service and a Celery worker with N pool processes), on free ports, for the
benchmark and the monitoring tests. Everything it started stops with it."""
from __future__ import annotations

import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from services.runtime.launcher import SERVICES, port_open

ROOT = Path(__file__).resolve().parents[1]
READY = "Ctrl-C stops everything"
WORKER_OFFSET = 9  # the launcher serves the AI worker's /metrics on METRICS_PORT + 9


def _free_run(count_grpc: int = 4) -> tuple[int, int]:
    """A gRPC base port with 4 free ports after it, and a metrics base whose +1..+4 and +9 are free."""
    rng = random.Random()
    for _ in range(200):
        grpc_base, metrics_base = rng.randrange(20000, 40000), rng.randrange(40000, 60000)
        ports = [grpc_base + i for i in range(count_grpc)]
        ports += [metrics_base + 1 + i for i in range(count_grpc)] + [metrics_base + WORKER_OFFSET]
        if not any(port_open("127.0.0.1", p) for p in ports):
            return grpc_base, metrics_base
    raise RuntimeError("no free run of ports for the split platform")


class SplitPlatform:
    """`with SplitPlatform(workers=2) as p:` p.addr["combat"], p.metrics["combat"], p.worker_metrics."""

    def __init__(self, redis_url: str, workers: int = 2, queue: str | None = None, env: dict | None = None):
        self.redis_url = redis_url
        self.workers = workers
        self.queue = queue or "ops-" + secrets.token_hex(4)
        self.extra_env = dict(env or {})
        self.proc: subprocess.Popen | None = None
        self.addr: dict[str, str] = {}
        self.metrics: dict[str, int] = {}
        self.worker_metrics = 0

    def __enter__(self) -> "SplitPlatform":
        grpc_base, metrics_base = _free_run()
        env = dict(os.environ, REDIS_URL=self.redis_url, ARCHMAGE_PORT=str(grpc_base),
                   METRICS_PORT=str(metrics_base), AI_QUEUE=self.queue, LOG_LEVEL="WARNING")
        env.update(self.extra_env)
        self.addr = {name: f"127.0.0.1:{grpc_base + i}" for i, name in enumerate(SERVICES)}
        self.metrics = {name: metrics_base + 1 + i for i, name in enumerate(SERVICES)}
        self.worker_metrics = metrics_base + WORKER_OFFSET
        self._out = tempfile.NamedTemporaryFile(prefix="archmage-split-", suffix=".log", delete=False)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "services.runtime.launcher", "--mode", "split", "--workers", str(self.workers)],
            cwd=ROOT, env=env, stdout=self._out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            self._wait_ready(90)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.output()
            if READY in text and self._worker_answers():
                return  # the services answer health checks, and the AI worker is up
            if self.proc.poll() is not None:
                raise RuntimeError(f"the split platform stopped while starting:\n{text[-3000:]}")
            time.sleep(0.1)
        raise RuntimeError(f"the split platform was not ready within {timeout:.0f}s:\n{self.output()[-3000:]}")

    def _worker_answers(self) -> bool:
        """The launcher says ready once the worker is started; it takes a moment more to boot."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.worker_metrics}/metrics", timeout=1) as reply:
                return reply.status == 200
        except OSError:
            return False

    def output(self) -> str:
        return Path(self._out.name).read_text(errors="replace")

    def all_metrics_ports(self) -> dict[str, int]:
        return {**self.metrics, "ai-worker": self.worker_metrics}

    def __exit__(self, *exc) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(45)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self._forget_queue()
        Path(self._out.name).unlink(missing_ok=True)

    def _forget_queue(self) -> None:
        """Drop our queue (turns of matches still in play when we stopped) and Celery's
        binding key for it: the queue name was ours alone."""
        try:
            import redis

            from services.core.metrics import _PRIORITY_STEPS

            names = [self.queue + step for step in _PRIORITY_STEPS] + [f"_kombu.binding.{self.queue}"]
            redis.Redis.from_url(self.redis_url).delete(*names)
        except Exception:
            pass
