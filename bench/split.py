"""The platform split on this machine, as `make run MODE=split` starts it (one process
per service and a Celery worker with N pool processes), or embedded, as `make run` starts
it (every service in one process), on free ports, for the benchmark and the monitoring
tests; each service `procs` times over on its port (the launcher's --procs: 1 here unless
asked, as `make run` does on two cores with 2). Everything it started stops with it."""
from __future__ import annotations

import os
import secrets
import signal
import sys
import urllib.request
from pathlib import Path

from services.runtime.launcher import PROC_METRICS_STRIDE, SERVICES, free_ports
from tests.support.processes import Child

READY = "Ctrl-C stops everything"
WORKER_OFFSET = 9  # the launcher serves the AI worker's /metrics on METRICS_PORT + 9


def process_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


class SplitPlatform:
    """`with SplitPlatform(workers=2) as p:` p.addr["combat"], p.metrics["combat"], p.worker_metrics."""

    def __init__(self, redis_url: str, workers: int = 2, queue: str | None = None, env: dict | None = None,
                 mode: str = "split", procs: int = 1):
        self.redis_url = redis_url
        self.mode = mode  # "embedded": every service in one process, as `make run` starts it
        self.workers = workers
        self.procs = procs
        self.queue = queue or "ops-" + secrets.token_hex(4)
        self.extra_env = dict(env or {})
        self.child: Child | None = None
        self.addr: dict[str, str] = {}
        self.metrics: dict[str, int] = {}
        self.worker_metrics = 0

    def __enter__(self) -> "SplitPlatform":
        # ports outside the kernel's ephemeral range, so nothing takes them before the children bind
        metrics_size = WORKER_OFFSET + 1 + PROC_METRICS_STRIDE * (self.procs - 1)
        metrics_base, grpc_base = free_ports(metrics_size, len(SERVICES))
        env = dict(REDIS_URL=self.redis_url, ARCHMAGE_PORT=str(grpc_base),
                   METRICS_PORT=str(metrics_base), AI_QUEUE=self.queue, LOG_LEVEL="WARNING")
        env.update(self.extra_env)
        if self.mode == "embedded":
            self.addr = {name: f"127.0.0.1:{grpc_base}" for name in SERVICES}
            self.metrics = {name: metrics_base for name in SERVICES}
        else:
            self.addr = {name: f"127.0.0.1:{grpc_base + i}" for i, name in enumerate(SERVICES)}
            self.metrics = {name: metrics_base + 1 + i for i, name in enumerate(SERVICES)}
        self.worker_metrics = metrics_base + WORKER_OFFSET
        self.child = Child("launcher", [sys.executable, "-m", "services.runtime.launcher", "--mode", self.mode,
                                        "--workers", str(self.workers), "--procs", str(self.procs)], env)
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

    def service_pids(self) -> dict[str, list[int]]:
        """The pids of each service's processes the launcher started (its children run
        `services.runtime.main <name>`)."""
        pids: dict[str, list[int]] = {}
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
                argv = (proc / "cmdline").read_bytes().split(b"\0")
            except (OSError, IndexError, ValueError):
                continue
            if ppid == self.child.pid and b"services.runtime.main" in argv:
                pids.setdefault(argv[argv.index(b"services.runtime.main") + 1].decode(), []).append(int(proc.name))
        return pids

    def cpu_seconds(self, *names: str) -> float:
        """CPU time (user and system) the named service processes have used so far (embedded:
        the one process that serves them all)."""
        pids = self.service_pids()
        if self.mode == "embedded":
            names = ("all",)
        return sum(process_cpu_seconds(pid) for name in set(names) for pid in pids[name])

    def metrics_ports(self, service: str) -> list[int]:
        """Where each of the service's processes serves /metrics."""
        return [self.metrics[service] + PROC_METRICS_STRIDE * k for k in range(self.procs)]

    def counter(self, name: str, service: str, **labels) -> float:
        """A counter's value summed over the service's processes (0 when none has such a series yet)."""
        from prometheus_client.parser import text_string_to_metric_families

        total = 0.0
        for port in self.metrics_ports(service):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
                text = reply.read().decode()
            for family in text_string_to_metric_families(text):
                for sample in family.samples:
                    if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                        total += sample.value
                        break
        return total

    def all_metrics_ports(self) -> dict[str, int]:
        """The first process of each service, and the AI worker (the monitoring tests run one each)."""
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
