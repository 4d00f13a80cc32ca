"""A real Redis Cluster for tests: three masters (no replicas), each a redis-server of its
own on loopback (ports below the kernel's ephemeral range), joined by `redis-cli --cluster
create`. `kill(i)` SIGKILLs one master as in a crash; the others keep serving their slots
(`cluster-require-full-coverage no`) and mark the dead one failed after `node_timeout_ms`.
With `durable`, every master acknowledges a write only once it is in its append-only file
(appendfsync always), so `restart(port)` brings back everything it had acknowledged."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import redis
from redis.cluster import key_slot

from services.runtime.launcher import free_port, redis_server_binary
from tests.support.processes import Child, wait_for


def redis_cli_binary() -> str:
    found = shutil.which("redis-cli") or str(Path(redis_server_binary()).with_name("redis-cli"))
    if not Path(found).exists():
        raise FileNotFoundError("redis-cli is needed to create a Redis Cluster (Debian's redis-tools)")
    return found


class RedisCluster:
    def __init__(self, masters: int = 3, node_timeout_ms: int = 1000, durable: bool = False):
        first = free_port(masters)
        self.ports = list(range(first, first + masters))
        while True:  # each node's cluster bus gets a port of its own (by default port + 10000: maybe ephemeral)
            bus = free_port(masters)
            if not set(range(bus, bus + masters)) & set(self.ports):
                break
        self.bus_ports = list(range(bus, bus + masters))
        self.dir = Path(tempfile.mkdtemp(prefix="archmage-cluster-"))
        self.nodes: list[Child] = []
        persistence = ["--appendonly", "yes", "--appendfsync", "always"] if durable else ["--appendonly", "no"]
        try:
            for port, bus_port in zip(self.ports, self.bus_ports):
                node_dir = self.dir / str(port)
                node_dir.mkdir()
                self.nodes.append(Child(f"redis-cluster-{port}", [
                    redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(node_dir),
                    "--cluster-enabled", "yes", "--cluster-port", str(bus_port), "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", str(node_timeout_ms), "--cluster-require-full-coverage", "no",
                    "--save", "", *persistence]))
            for node, port in zip(self.nodes, self.ports):
                node.wait_until(lambda p=port: _answers(p), 20, what=f"redis-server to answer on {port}")
            created = subprocess.run(
                [redis_cli_binary(), "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
                 "--cluster-replicas", "0", "--cluster-yes"], capture_output=True, text=True, timeout=60)
            if created.returncode != 0:
                raise RuntimeError(f"redis-cli --cluster create failed:\n{created.stdout}\n{created.stderr}")
            wait_for(lambda: all(self.cluster_info(p).get("cluster_state") == "ok" for p in self.ports),
                     30, interval=0.05, what="every node to see the cluster as ok")
        except BaseException:
            self.close()
            raise
        self.url = f"redis://127.0.0.1:{self.ports[0]}/0"

    @staticmethod
    def cluster_info(port: int) -> dict:
        try:
            raw = redis.Redis(port=port, socket_connect_timeout=0.5, socket_timeout=1).execute_command("CLUSTER INFO")
        except redis.RedisError:
            return {}
        if isinstance(raw, dict):  # redis-py parses the reply
            return {k: str(v) for k, v in raw.items()}
        text = raw.decode() if isinstance(raw, bytes) else str(raw)
        return dict(line.split(":", 1) for line in text.strip().splitlines() if ":" in line)

    def port_of_slot(self, slot: int) -> int:
        """The port of the master serving `slot` (as the first live node sees it)."""
        for port in self.ports:
            try:
                slots = redis.Redis(port=port, socket_connect_timeout=0.5).execute_command("CLUSTER SLOTS")
            except redis.RedisError:
                continue
            for start, end, master, *_ in slots:
                if start <= slot <= end:
                    return int(master[1])
        raise LookupError(f"no node serves slot {slot}")

    def port_of_key(self, key: str) -> int:
        return self.port_of_slot(key_slot(key.encode()))

    def kill(self, port: int) -> None:
        """SIGKILL the master on `port`, then wait until the others have marked it failed."""
        self.nodes[self.ports.index(port)].stop(timeout=0, sig=9)
        live = [p for p in self.ports if p != port]
        wait_for(lambda: all(self._sees_failed(p, port) for p in live), 30, interval=0.05,
                 what=f"the master on {port} marked failed")

    def restart(self, port: int) -> None:
        """Start the killed master on `port` again (its slots and data as its files kept them), then
        wait until every node sees the cluster as ok."""
        node = self.nodes[self.ports.index(port)]
        node.start()
        node.wait_until(lambda: _answers(port), 20, what=f"redis-server to answer on {port}")
        wait_for(lambda: all(self.cluster_info(p).get("cluster_state") == "ok" for p in self.ports),
                 30, interval=0.05, what="every node to see the cluster as ok again")

    @staticmethod
    def _sees_failed(port: int, dead: int) -> bool:
        try:
            raw = redis.Redis(port=port, socket_connect_timeout=0.5).execute_command("CLUSTER NODES")
        except redis.RedisError:
            return False
        if isinstance(raw, dict):  # redis-py parses the reply: address -> {"flags": ...}
            return any(addr.split("@")[0].endswith(f":{dead}") and "fail" in str(node.get("flags", "")).split(",")
                       for addr, node in raw.items())
        text = raw.decode() if isinstance(raw, bytes) else str(raw)
        return any(f":{dead}@" in line and "fail" in line.split()[2].split(",") for line in text.splitlines())

    def close(self) -> None:
        for node in self.nodes:
            node.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "RedisCluster":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _answers(port: int) -> bool:
    try:
        return bool(redis.Redis(port=port, socket_connect_timeout=0.5).ping())
    except redis.RedisError:
        return False
