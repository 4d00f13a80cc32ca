"""`make run`: start the whole platform on this machine, and stop all of it on Ctrl-C.

* Redis: the one at REDIS_URL (default 127.0.0.1:6379) if it answers; otherwise a
  real redis-server started here (Debian's: `make system-tools` installs it), on 6379
  or a free port, with an append-only file in .run/redis-data that survives restarts
  (fsync as REDIS_FSYNC says: everysec by default). With REDIS_CLUSTER=1, REDIS_URL is a
  Redis Cluster that must answer already, and the AI workers' broker is BROKER_URL's Redis.
* The services: all four in one process (--mode embedded, the default) or one
  process each (--mode split), from the same code; each of those N times over (--procs N,
  or SERVE_PROCS; by default one per core, at most 2) on the same port with SO_REUSEPORT,
  so an action's work uses every core. Serving process k serves /metrics on its own port,
  METRICS_PORT (+ the service's offset in split mode) + 10 k.
* One Celery worker for the AI seats.
* The web service (services/web): the pages at http://127.0.0.1:WEB_PORT/ (8080, or a free
  port when that one is taken), a client of the services above like any other.
Every child runs in its own process group and is stopped with it; nothing stays behind.
A child that dies is restarted with back-off (see Supervisor); every endpoint is printed.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from services.core.config import ConfigError, Settings

SERVICES = ("dice", "board", "combat", "matchmaking")
WORKER_METRICS_OFFSET = 9  # the AI worker serves /metrics on METRICS_PORT + 9
PROC_METRICS_STRIDE = 10  # serving process k of a service: /metrics on its port + 10 k
MAX_PROCS = 8
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


def free_ports(*sizes: int) -> list[int]:
    """The first port of each of `sizes` blocks, all free now and none overlapping another: a
    gRPC port picked apart from a metrics block could land inside it, and then a metrics check
    would be answered by the gRPC server."""
    first = free_port(sum(sizes))
    starts, at = [], first
    for size in sizes:
        starts.append(at)
        at += size
    return starts


def port_open(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.3)
        return s.connect_ex((host, port)) == 0


def redis_answers(url: str, cluster: bool = False) -> bool:
    from services.core.redisclient import connect_sync

    try:
        return bool(connect_sync(url, cluster, timeout_s=0.5).ping())
    except (redis.RedisError, redis.exceptions.RedisClusterException):
        return False


INSTALL_TOOLS = ROOT / "deploy" / "tools" / "install-system-tools.sh"


class NoRedisServer(RuntimeError):
    pass


def redis_server_binary() -> str:
    """The system's redis-server. When there is none, deploy/tools/install-system-tools.sh installs
    Debian's (as root with apt-get; it says what to run otherwise) and it is looked for again."""
    found = shutil.which("redis-server")
    if found:
        return found
    if INSTALL_TOOLS.exists():
        print("no redis-server on this machine: running deploy/tools/install-system-tools.sh", flush=True)
        subprocess.run(["bash", str(INSTALL_TOOLS), "redis-server"], check=False)
        found = shutil.which("redis-server")
        if found:
            return found
    raise NoRedisServer("no redis-server on this machine: install it (as root: apt-get install redis-server, "
                        "or `make system-tools`), or set REDIS_URL to a Redis that runs")


_UNREADABLE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|[\x00-\x08\x0b-\x1f\x7f]")  # colour codes, C0 controls


def readable(text: str) -> str:
    """`text` without terminal colour codes and control bytes other than newlines and tabs (a log
    with a hole of NULs, the bytes of another protocol), so a person is shown the words there are."""
    return _UNREADABLE.sub("", text)


def last_lines(path: Path, count: int = 15) -> str:
    try:
        lines = readable(path.read_text(errors="replace")).splitlines()
    except OSError:
        return ""
    return "\n".join("    " + line for line in lines[-count:])


@dataclass
class Child:
    """One supervised process: how to start it, and its deaths so far."""

    name: str
    cmd: list[str]
    env: dict
    proc: subprocess.Popen | None = None
    started: float = 0.0
    deaths: list[float] = field(default_factory=list)
    restart_at: float | None = None


class Supervisor:
    """The processes this launcher started. A child that dies is restarted with back-off
    (1 s, 2 s, 4 s ... 30 s; back to 1 s after a minute up), with a line on the terminal
    saying what died, its exit status and the last lines of its log; a child that dies
    MAX_DEATHS times within DEATH_WINDOW_S stops everything. All stop together."""

    MAX_DEATHS = 5
    DEATH_WINDOW_S = 120.0
    STEADY_S = 60.0

    def __init__(self, log_dir: Path, out=sys.stderr) -> None:
        self.log_dir = log_dir
        self.children: list[Child] = []
        self.out = out

    def log_path(self, name: str) -> Path:
        return self.log_dir / f"{name}.log"

    def start(self, name: str, cmd: list[str], env: dict) -> Child:
        child = Child(name, cmd, env)
        self.children.append(child)
        self._spawn(child)
        return child

    def _spawn(self, child: Child) -> None:
        # a fresh log for each launch of the platform; a restart appends to it
        with open(self.log_path(child.name), "ab" if child.started else "wb") as log:
            child.proc = subprocess.Popen(child.cmd, env=child.env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
                                          stdin=subprocess.DEVNULL, start_new_session=True)
        child.started = time.monotonic()

    def died(self, child: Child) -> str:
        """What to tell a person about a child that exited: what, its status, its last log lines."""
        path = self.log_path(child.name)
        return (f"{child.name} (pid {child.proc.pid}) exited with status {child.proc.returncode}; "
                f"the last lines of {path}:\n{last_lines(path)}")

    def check(self) -> str | None:
        """Restart what died (when its back-off is over). Returns why to stop everything, or None."""
        now = time.monotonic()
        for child in self.children:
            if child.restart_at is not None:
                if now >= child.restart_at:
                    child.restart_at = None
                    self._spawn(child)
                    print(f"restarted {child.name} (pid {child.proc.pid})", file=self.out, flush=True)
                continue
            if child.proc.poll() is None:
                continue
            _kill_group(child.proc.pid)  # what it leaves behind (a Celery worker's pool processes)
            up = now - child.started
            child.deaths = [t for t in child.deaths if now - t < self.DEATH_WINDOW_S] + [now]
            print(self.died(child), file=self.out, flush=True)
            if len(child.deaths) >= self.MAX_DEATHS:
                return (f"{child.name} died {len(child.deaths)} times within {self.DEATH_WINDOW_S:.0f}s; "
                        "stopping everything")
            recent = [t for t in child.deaths if now - t < self.STEADY_S + up]
            delay = 1.0 if up >= self.STEADY_S else min(30.0, 2.0 ** (len(recent) - 1))
            child.restart_at = now + delay
            print(f"restarting {child.name} in {delay:.0f}s", file=self.out, flush=True)
        return None

    def watch(self, stop_requested, interval: float = 0.2) -> str | None:
        """Check the children every `interval` seconds until `stop_requested()` is true (None)
        or one has died too often (why everything must stop)."""
        while not stop_requested():
            why = self.check()
            if why:
                return why
            time.sleep(interval)
        return None

    def stop(self, timeout: float = 15) -> None:
        running = [c for c in self.children if c.proc is not None and c.proc.poll() is None]
        for child in reversed(running):
            os.killpg(child.proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for child in running:
            try:
                child.proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            _kill_group(child.proc.pid)
            child.proc.wait()


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def wait_healthy(addr: str, timeout: float = 30, child=None) -> None:
    """Until the server at addr says SERVING; `child` (supervisor, child) fails the wait at once,
    with the child's last log lines, when it exits first (a port taken, say)."""
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
            if child is not None and child[1].proc.poll() is not None:
                raise RuntimeError(child[0].died(child[1]))
            time.sleep(0.1)
    raise RuntimeError(f"{addr} did not become healthy within {timeout:.0f}s")


def wait_http(url: str, timeout: float = 30, child=None) -> None:
    """Until `url` answers 200; `child` (supervisor, child) fails the wait at once when it exits
    first. An answer that is not HTTP (another kind of server on that port) is waited past, so
    the child's own bind error is what is reported, and named if it never changes."""
    import http.client
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    not_http = None
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            not_http = None  # nothing answers (yet): the last answer is what is reported
        except http.client.HTTPException as exc:
            not_http = exc
        if child is not None and child[1].proc.poll() is not None:
            raise RuntimeError(child[0].died(child[1]))
        time.sleep(0.1)
    if not_http is not None:
        raise RuntimeError(f"{url} is answered by something that does not speak HTTP "
                           f"({type(not_http).__name__}): is another server on that port?")
    raise RuntimeError(f"{url} did not answer within {timeout:.0f}s")


def default_procs() -> int:
    """Serving processes per service by default: one per core, at most 2 (this is a laptop's
    or a CI runner's launcher; a deployment scales replicas instead)."""
    return max(1, min(2, os.cpu_count() or 1))


def start_serving(children: Supervisor, label: str, services: str, env: dict, host: str, port: int,
                  metrics_port: int, procs: int) -> list[tuple[Child, int]]:
    """`procs` processes serving `services` on host:port, each ready (its /metrics up, which
    comes after its bind) before the next starts: (child, its metrics port) each. More than one
    share the port by SO_REUSEPORT, so the port is checked free first: a stray server of an
    earlier run would otherwise be joined silently rather than reported."""
    if procs > 1 and not port_free(port, host):
        raise RuntimeError(f"cannot listen on {host}:{port}: address already in use")
    started = []
    for k in range(procs):
        name = label if procs == 1 else f"{label}-{k}"
        metrics = metrics_port + PROC_METRICS_STRIDE * k if metrics_port else 0
        child_env = dict(env, ARCHMAGE_PORT=str(port), METRICS_PORT=str(metrics),
                         SERVE_REUSEPORT="1" if procs > 1 else "0")
        child = children.start(name, [sys.executable, "-m", "services.runtime.main", services], child_env)
        if metrics:
            wait_http(f"http://{env.get('METRICS_HOST') or '127.0.0.1'}:{metrics}/metrics", child=(children, child))
        wait_healthy(f"{host}:{port}", child=(children, child))
        started.append((child, metrics))
    return started


def start_web(children: Supervisor, env: dict, platform_addr: str) -> str:
    """The web service against the platform at platform_addr (Players and Matchmaking; Board and
    Combat where env says); its URL once it answers."""
    wanted = int(env.get("WEB_PORT") or 8080)
    port = wanted if port_free(wanted) else free_port()
    web_env = dict(env, ARCHMAGE_ADDR=platform_addr, WEB_PORT=str(port))
    child = children.start("web", [sys.executable, "-m", "services.web.main"], web_env)
    url = f"http://127.0.0.1:{port}/"
    wait_http(url + "healthz", child=(children, child))
    return url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="start the Archmage platform")
    parser.add_argument("--mode", choices=["embedded", "split"], default="embedded")
    parser.add_argument("--workers", type=int, default=1, help="Celery worker processes for AI seats")
    parser.add_argument("--procs", type=int, default=None,
                        help="serving processes per service, sharing its port (default SERVE_PROCS, "
                             f"else one per core, at most 2; 1 to {MAX_PROCS})")
    args = parser.parse_args(argv)
    procs = args.procs if args.procs is not None else int(os.environ.get("SERVE_PROCS") or default_procs())
    if not 1 <= procs <= MAX_PROCS:
        parser.error(f"--procs (or SERVE_PROCS) is 1 to {MAX_PROCS}, not {procs}")

    run_dir = ROOT / ".run"
    run_dir.mkdir(exist_ok=True)
    env = dict(os.environ)
    env.setdefault("DRAIN_S", "0")  # nothing balances these local servers: stop at once on Ctrl-C
    try:
        settings = Settings.from_env(env)
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    host, base_port, metrics_base = settings.grpc_host, settings.grpc_port, settings.metrics_port
    children = Supervisor(run_dir)
    stopping: list[int] = []

    def on_signal(signum, frame):
        stopping.append(signum)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        url = settings.redis_url
        if settings.redis_cluster:
            if not redis_answers(url, cluster=True):
                raise RuntimeError(f"REDIS_CLUSTER=1 but no Redis Cluster answers at {url}")
            if settings.ai_enabled and not redis_answers(settings.broker_url):
                raise RuntimeError(f"no Redis answers at BROKER_URL {settings.broker_url} (the AI workers' broker)")
            print(f"redis        {url} (a Redis Cluster; AI broker {settings.broker_url})")
        elif redis_answers(url):
            print(f"redis        {url} (found)")
        else:
            wanted = redis.connection.parse_url(url).get("port", 6379)
            port = wanted if not port_open("127.0.0.1", wanted) else free_port()
            data = run_dir / "redis-data"  # kept across runs: the matches survive a restart
            data.mkdir(exist_ok=True)
            redis_child = children.start("redis", [
                redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data),
                "--appendonly", "yes", "--appendfsync", settings.redis_fsync, "--save", "3600 1 300 100"], env)
            url = f"redis://127.0.0.1:{port}/0"
            deadline = time.monotonic() + 20
            while not redis_answers(url):
                if redis_child.proc.poll() is not None:
                    raise RuntimeError(children.died(redis_child))
                if time.monotonic() > deadline:
                    raise RuntimeError("the redis-server started here does not answer; see .run/redis.log")
                time.sleep(0.1)
            print(f"redis        {url} (started here; append-only file in {data}, "
                  f"appendfsync {settings.redis_fsync})")
        env["REDIS_URL"] = url

        how = f"{procs} processes sharing the port (SO_REUSEPORT)" if procs > 1 else "one process"
        if args.mode == "embedded":
            addr = f"{host}:{base_port}"
            served = start_serving(children, "platform", "all", env, host, base_port, metrics_base, procs)
            for name in SERVICES:
                print(f"{name:<12} {addr}")
            print(f"platform     {how}: pids {', '.join(str(c.proc.pid) for c, _ in served)}")
            for child, metrics in served:
                if metrics:
                    print(f"metrics      http://127.0.0.1:{metrics}/metrics   ({child.name})")
            env.update({f"{n.upper()}_ADDR": addr for n in SERVICES})
        else:
            addrs = {n: f"{host}:{base_port + i}" for i, n in enumerate(SERVICES)}
            env.update({f"{n.upper()}_ADDR": a for n, a in addrs.items()})
            env["DICE_MODE"] = "service" if "DICE_MODE" not in env else settings.dice_mode
            for i, name in enumerate(SERVICES):
                served = start_serving(children, name, name, env, host, base_port + i,
                                       metrics_base + 1 + i if metrics_base else 0, procs)
                ports = ", ".join(f"http://127.0.0.1:{m}/metrics" for _, m in served if m)
                print(f"{name:<12} {addrs[name]}   {how}   metrics {ports or 'off'}")
        worker_metrics = metrics_base + WORKER_METRICS_OFFSET
        worker = children.start("ai-worker", [
            sys.executable, "-m", "celery", "-A", "services.ai.celery_app", "worker", "-Q", settings.ai_queue,
            "-c", str(args.workers), "--loglevel", "INFO", "--without-gossip", "--without-mingle"],
            dict(env, METRICS_PORT=str(worker_metrics)))
        print(f"ai-worker    {args.workers} Celery process(es) on queue {settings.ai_queue!r} (pid {worker.proc.pid})"
              f"   metrics http://127.0.0.1:{worker_metrics}/metrics")
        web = start_web(children, env, env["MATCHMAKING_ADDR"])
        print(f"web          {web}   (open it in a browser: play as a guest)   metrics {web}metrics", flush=True)
        print(f"logs in {run_dir}/; a child that dies is restarted; Ctrl-C stops everything", flush=True)
        why = children.watch(lambda: bool(stopping))
        if why:
            print(why, file=sys.stderr, flush=True)
            return 1
        print("stopping...", flush=True)
        return 0
    except Exception as exc:
        print(f"could not start: {readable(str(exc))}", file=sys.stderr)
        return 1
    finally:
        children.stop()
        print("stopped", flush=True)


if __name__ == "__main__":
    sys.exit(main())
