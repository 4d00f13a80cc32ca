"""Real processes for tests and benchmarks (Celery workers, service processes, the launcher,
redis-server, Prometheus), started, awaited and stopped one way.

A `Child` runs in its own process group with its output in a file, never in a pipe that
nobody reads (a chatty child would block on a full pipe); waiting for it to be ready fails
at once, with its last output lines, if it exits first (a bind error shows in the test
output, not after a timeout); stopping it stops its whole group, SIGTERM then SIGKILL.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from services.runtime.launcher import Supervisor

ROOT = Path(__file__).resolve().parents[2]


class ChildFailed(AssertionError):
    """A child exited (or never got ready) while a test waited for it."""


class Child:
    def __init__(self, name: str, cmd: list[str], env: dict | None = None, cwd: Path = ROOT):
        self.name = name
        self.cmd = list(cmd)
        self.env = {**os.environ, **(env or {})}
        self.cwd = cwd
        fd, path = tempfile.mkstemp(prefix=f"archmage-{name}-", suffix=".log")
        os.close(fd)
        self.log_path = Path(path)
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self) -> "Child":
        """Start (or start again, after stop) the command; output is appended to the same log."""
        with open(self.log_path, "ab") as out:
            self.proc = subprocess.Popen(self.cmd, env=self.env, cwd=self.cwd, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        return self

    @property
    def pid(self) -> int:
        return self.proc.pid

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.output().splitlines()[-lines:])

    def _failed(self, what: str) -> ChildFailed:
        state = f"exited with status {self.proc.returncode}" if self.proc.poll() is not None else "is still running"
        return ChildFailed(f"{self.name} {state} while waiting for {what}; its last output "
                           f"({self.log_path}):\n{self.tail()}")

    def wait_until(self, predicate, timeout: float = 60, interval: float = 0.05, what: str = "it to be ready"):
        """The first true value of predicate(); fails at once if the child exits first."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if self.proc.poll() is not None:
                value = predicate()  # it may have said what we wait for, then stopped
                if value:
                    return value
                raise self._failed(what)
            if time.monotonic() > deadline:
                raise ChildFailed(f"timed out after {timeout:.0f}s: " + str(self._failed(what)))
            time.sleep(interval)

    def wait_for_line(self, pattern: str, timeout: float = 60) -> re.Match:
        """The first match of the regular expression `pattern` in the child's output."""
        regex = re.compile(pattern, re.MULTILINE)
        return self.wait_until(lambda: regex.search(self.output()), timeout, what=f"a line matching {pattern!r}")

    def wait_healthy(self, addr: str, timeout: float = 60) -> None:
        self.wait_until(lambda: grpc_serving(addr), timeout, what=f"gRPC health SERVING on {addr}")

    def send(self, sig: int) -> None:
        if self.running():
            os.killpg(self.proc.pid, sig)

    def wait(self, timeout: float = 30) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise self._failed(f"it to exit within {timeout:.0f}s") from None

    def stop(self, timeout: float = 15, sig: int = signal.SIGTERM) -> int | None:
        """Stop the whole process group: `sig`, then SIGKILL after `timeout` seconds."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.send(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        try:  # what is left of the group (pool processes of a killed parent, say)
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.proc.poll() is None:
            self.proc.wait()
        return self.proc.returncode

    def close(self) -> None:
        self.stop()
        self.log_path.unlink(missing_ok=True)

    def __enter__(self) -> "Child":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:  # pytest shows what a test printed when it fails
            print(f"--- last output of {self.name} ({' '.join(self.cmd[:6])} ...):\n{self.tail(120)}")
        self.close()


def grpc_serving(addr: str, service: str = "") -> bool:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(addr) as ch:
        try:
            reply = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=service), timeout=1)
        except grpc.RpcError:
            return False
    return reply.status == health_pb2.HealthCheckResponse.SERVING


def service_process(name: str, services: str, env: dict, module: str = "services.runtime.main") -> tuple[Child, str]:
    """A service process (`python -m services.runtime.main <services>`) on a port it chose itself
    (port 0), ready: (the child, its address)."""
    child = Child(name, [sys.executable, "-m", module, services], {"ARCHMAGE_PORT": "0", "METRICS_PORT": "0", **env})
    try:
        found = child.wait_for_line(r"listening on (\S+?:\d+)")
        addr = found.group(1).rstrip(",")
        child.wait_healthy(addr)
    except BaseException:
        print(child.tail())
        child.close()
        raise
    return child, addr


def celery_worker_cmd(app: str = "tests.support.worker", queue: str = "ai", concurrency: int = 1) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", app, "worker", "-Q", queue, "-c", str(concurrency),
            "--pool", "prefork", "--loglevel", "WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"]


@contextmanager
def celery_worker(env: dict, app: str = "tests.support.worker", queue: str = "ai", concurrency: int = 1):
    with Child("celery-worker", celery_worker_cmd(app, queue, concurrency), env) as worker:
        yield worker


@contextmanager
def supervised_worker(env: dict, queue: str = "ai", concurrency: int = 1):
    """A Celery worker under the launcher's own Supervisor (services/runtime/launcher.py), as
    `make run` runs one: restarted when it dies, each death printed. Yields the supervisor."""
    logs = Path(tempfile.mkdtemp(prefix="archmage-supervised-"))
    supervisor = Supervisor(logs, out=sys.stdout)
    supervisor.start("ai-worker", celery_worker_cmd(queue=queue, concurrency=concurrency), {**os.environ, **env})
    done = threading.Event()

    def watch():
        why = supervisor.watch(done.is_set)
        if why:
            print(why, flush=True)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield supervisor
    finally:
        done.set()
        watcher.join(5)
        supervisor.stop()


def wait_for(predicate, timeout: float, interval: float = 0.1, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")
