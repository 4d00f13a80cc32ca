"""Prometheus metrics of the platform, defined once; docs/metrics.md is the catalogue.

Labels are bounded: game names, action domains and kinds (the engines' own words),
RPC services, methods and status codes, queue names; never match ids or seats.

The hot path never looks a child up by its label values (a lookup costs twice an observe)
nor formats a label: it holds each metric's children in a `Children`, bound at their first
use and kept for the life of the process.

Three kinds of figure live here:
* `METRICS`: counters and histograms the code updates as it works (the resolution
  path, dice, compare-and-set, events, RPCs, AI turns);
* `PlatformProbe`: facts read from Redis when Prometheus scrapes (Redis health and
  latency, the Celery queue, the census of active matches), because no process owns
  them and no redis_exporter is assumed;
* the census itself: a sorted set per game of matches created and not yet finished.
"""
from __future__ import annotations

import logging
import math
import time
from bisect import bisect_left
from contextlib import contextmanager, nullcontext

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.utils import floatToGoString

log = logging.getLogger("archmage.metrics")

_FAST = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class _Tally:
    """One label set of a LeanHistogram: a count per bucket and the sum."""

    __slots__ = ("counts", "total", "bounds")

    def __init__(self, bounds: tuple[float, ...]):
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)  # the last one: above every bound (+Inf)
        self.total = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value


class LeanHistogram:
    """A histogram of the resolution path, exported as any Prometheus histogram is, at a
    fifth of prometheus_client's observe (~0.15 µs against ~0.85: no lock, no loop over the
    buckets). Its children are updated from one thread, the server's event loop; a scrape
    (another thread) reads them as they stand, so its sum may be one observation apart from
    its count, never its buckets from each other."""

    def __init__(self, name: str, documentation: str, labelnames, buckets, registry=REGISTRY):
        self.name, self.documentation = name, documentation
        self._labelnames = tuple(labelnames)
        self.bounds = tuple(float(b) for b in buckets if b != math.inf)
        self._children: dict[tuple[str, ...], _Tally] = {}
        if registry is not None:
            registry.register(self)

    def labels(self, *values) -> _Tally:
        key = tuple(str(v) for v in values)
        if len(key) != len(self._labelnames):
            raise ValueError(f"{self.name} takes labels {self._labelnames}, not {values!r}")
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = _Tally(self.bounds)
        return child

    def describe(self):
        return [HistogramMetricFamily(self.name, self.documentation, labels=self._labelnames)]

    def collect(self):
        family = HistogramMetricFamily(self.name, self.documentation, labels=self._labelnames)
        for key, child in list(self._children.items()):
            counts, running, buckets = list(child.counts), 0, []
            for bound, count in zip(self.bounds + (math.inf,), counts):
                running += count
                buckets.append((floatToGoString(bound), running))
            family.add_metric(list(key), buckets, child.total)
        return [family]


class _Metrics:
    def __init__(self) -> None:
        # the resolution path (Matches.act): every battle, spell, encounter, token effect and move
        self.resolution_seconds = LeanHistogram(
            "archmage_resolution_seconds", "Time to resolve one action end to end in the service "
            "(load, rules, dice, compare-and-set), by game, serving domain and kind",
            ["game", "domain", "kind"], buckets=_FAST)
        self.resolutions = Counter(
            "archmage_resolutions_total", "Actions resolved, by game, serving domain, kind and outcome",
            ["game", "domain", "kind", "outcome"])
        self.dice_calls = LeanHistogram(
            "archmage_dice_draw_seconds", "Time to draw the dice of one chance step", ["game"], buckets=_FAST)
        self.store_seconds = LeanHistogram(
            "archmage_store_seconds", "Round trips of the match store, by operation", ["op"], buckets=_FAST)
        self.cas_conflicts = Counter(
            "archmage_cas_conflicts_total", "Compare-and-set writes that lost a race", ["op"])
        self.cas_retries = Counter(
            "archmage_cas_retries_total", "Lost compare-and-set races retried on fresh state", ["op"])
        self.record_cache = Counter(
            "archmage_record_cache_total", "Actions by how the serving process's copy of the match served them "
            "(hit, miss, stale, rechecked)", ["result"])
        self.events_published = Counter(
            "archmage_events_published_total", "Events appended to match event streams", ["game"])
        self.matches_created = Counter("archmage_matches_created_total", "Matches created", ["game"])
        self.matches_finished = Counter("archmage_matches_finished_total", "Matches played to the end", ["game"])
        self.rpc_seconds = LeanHistogram(
            "archmage_rpc_seconds", "gRPC handling time of unary calls by service and method",
            ["service", "method"], buckets=_FAST)
        self.rpc_total = Counter("archmage_rpc_total", "gRPC calls by service, method and status code",
                                 ["service", "method", "code"])
        self.ai_turns = Counter("archmage_ai_turns_total", "AI turns played by workers, by game and result",
                                ["game", "result"])
        self.ai_turn_seconds = Histogram("archmage_ai_turn_seconds", "AI turn task latency (read, think, act)",
                                         ["game"], buckets=(0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
        self.ai_think_seconds = Histogram("archmage_ai_think_seconds", "An AI seat's choice alone, by game and level",
                                          ["game", "level"],
                                          buckets=(0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5))
        self.ai_queue_failures = Counter(
            "archmage_ai_queue_failures_total", "AI turns that could not be queued when due (retried later)")
        self.ai_turns_requeued = Counter(
            "archmage_ai_turns_requeued_total", "AI turns queued again by the sweep: due a while and no move since")
        self.ai_turns_queued = Counter("archmage_ai_turns_queued_total", "AI turns queued for workers", ["game"])
        # clocks (services/core/clocks.py, services/core/deadlines.py)
        self.clock_timeouts = Counter(
            "archmage_clock_timeouts_total", "Seats whose time ran out, by game and what followed (ai, forfeit)",
            ["game", "on_timeout"])
        self.ai_takeovers = Counter(
            "archmage_ai_takeovers_total", "Seats out of time handed to a stand-in AI", ["game"])
        self.stand_in_turns = Counter(
            "archmage_stand_in_turns_total", "Turns of a seat out of time queued for its stand-in AI", ["game"])
        self.stand_in_returns = Counter(
            "archmage_stand_in_returns_total", "Players who acted again in a seat their stand-in was playing",
            ["game"])
        self.clock_sweep_lag = Histogram(
            "archmage_clock_sweep_lag_seconds", "How late the deadline sweep acted on a due clock deadline",
            ["game"], buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60))
        self.matches_abandoned = Counter(
            "archmage_matches_abandoned_total", "Matches ended because no human acted in them for ABANDON_AFTER_S",
            ["game"])
        # players' turn notices (services/core/turn_notices.py)
        self.turn_notices = Counter(
            "archmage_turn_notices_total", "Notices sent to players' turn streams, by kind (your_turn, ended)",
            ["kind"])
        self.turn_notices_repaired = Counter(
            "archmage_turn_notices_repaired_total", "Notices a repair sent: lost after their commit, found later")

    def prime(self, games) -> None:
        """Create the series whose label values are known up front, at zero, so a rate
        reads 0 rather than 'no data' before the first event."""
        for game in games:
            for metric in (self.matches_created, self.matches_finished, self.events_published, self.ai_takeovers,
                           self.stand_in_turns, self.stand_in_returns, self.clock_sweep_lag, self.matches_abandoned):
                metric.labels(game)
            for on_timeout in ("ai", "forfeit"):
                self.clock_timeouts.labels(game, on_timeout)
        for result in ("hit", "miss", "stale", "rechecked"):
            self.record_cache.labels(result)
        for kind in ("your_turn", "ended"):
            self.turn_notices.labels(kind)
        for op in ("act", "rating"):
            self.cas_conflicts.labels(op)
            self.cas_retries.labels(op)

    @contextmanager
    def switched_off(self):
        """Every metric becomes a no-op inside the block: the benchmark measures the
        instrumentation's own cost on the hot path with and without it."""
        saved = dict(self.__dict__)
        for name in saved:
            setattr(self, name, _NULL)
        try:
            yield
        finally:
            self.__dict__.update(saved)


class _NullMetric:
    def labels(self, *args, **kwargs):
        return self

    def observe(self, value) -> None:
        pass

    def inc(self, amount=1) -> None:
        pass

    def time(self):
        return nullcontext()


_NULL = _NullMetric()
METRICS = _Metrics()


class Children:
    """The children of one labelled metric of METRICS, each bound once per label set:
    `RESOLUTIONS = Children("resolutions")`, then `RESOLUTIONS(game, domain, kind, outcome).inc()`
    costs a dict look-up by the tuple of label values, never a `.labels(...)`.

    Inside `METRICS.switched_off()` it hands out the no-op metric and keeps its children,
    so the benchmark that alternates with and without metrics binds nothing twice."""

    __slots__ = ("name", "metric", "children")

    def __init__(self, name: str):
        self.name = name
        self.metric = None
        self.children: dict[tuple, object] = {}

    def __call__(self, *labels):
        metric = getattr(METRICS, self.name)
        if metric is not self.metric:
            if metric is _NULL:
                return _NULL
            self.metric, self.children = metric, {}
        child = self.children.get(labels)
        if child is None:
            child = self.children[labels] = metric.labels(*labels)
        return child


def _prime_known_games() -> None:
    try:
        from shared.engine.registry import game_names
    except ImportError:  # the metrics stay usable without the engines
        return
    METRICS.prime(game_names())


_prime_known_games()


# --- the census of active matches -------------------------------------------------------
# One sorted set per game: match id -> when it was created (or last found alive by the
# probe). Finished matches leave it; abandoned ones are swept once their keys expired.
def active_key(game: str) -> str:
    return f"archmage:active:{game}"


async def match_started(redis, game: str, match_id: str) -> None:
    try:
        await redis.zadd(active_key(game), {match_id: time.time()})
    except Exception:  # the census is instrumentation: it never fails an action
        log.warning("could not add match %s to the census", match_id, exc_info=True)


async def match_ended(redis, game: str, match_id: str) -> None:
    try:
        await redis.zrem(active_key(game), match_id)
    except Exception:
        log.warning("could not remove match %s from the census", match_id, exc_info=True)


# --- read at scrape time -----------------------------------------------------------------
SWEEP_BATCH = 100


class PlatformProbe:
    """Scrape-time facts from Redis. Every service process serves them, so they survive
    any one process; they are the same everywhere, so dashboards take max().

    The match data may be a Redis Cluster (`cluster`): its figures are then summed over the
    masters, and Redis counts as up only while every master answers. The AI queue is read
    from the Celery broker (`broker_url`, REDIS_URL's Redis unless BROKER_URL says otherwise)
    through kombu's own API."""

    def __init__(self, redis_url: str, queues, games, match_ttl_s: int, timeout_s: float = 0.5, client=None,
                 *, cluster: bool = False, broker_url: str | None = None):
        import kombu.exceptions
        import redis

        self.redis_error = (redis.RedisError, redis.exceptions.RedisClusterException, OSError,
                            kombu.exceptions.OperationalError)
        self.redis_url, self.cluster, self.timeout_s = redis_url, cluster, timeout_s
        self._client = client  # made at the first scrape: a Cluster client connects as it is made
        self.broker_url = broker_url or redis_url
        self._broker = None
        self.queues = list(queues)
        self.games = list(games)
        self.match_ttl_s = match_ttl_s

    @property
    def client(self):
        if self._client is None:
            from services.core.redisclient import connect_sync

            self._client = connect_sync(self.redis_url, self.cluster, timeout_s=self.timeout_s)
        return self._client

    def describe(self):
        return list(self._families().values())

    def _families(self) -> dict:
        g, c = GaugeMetricFamily, CounterMetricFamily
        return {
            "up": g("archmage_redis_up", "1 when this process reached Redis at the last scrape, else 0"),
            "ping": g("archmage_redis_ping_seconds", "Round trip of a PING from this process at the last scrape"),
            "probe": g("archmage_probe_seconds", "Time the scrape-time Redis probe took"),
            "memory": g("archmage_redis_used_memory_bytes", "Memory Redis uses (INFO used_memory)"),
            "maxmemory": g("archmage_redis_maxmemory_bytes", "Redis maxmemory, 0 when unlimited"),
            "clients": g("archmage_redis_connected_clients", "Client connections to Redis"),
            "commands": c("archmage_redis_commands_processed", "Commands Redis has processed since it started"),
            "evicted": c("archmage_redis_evicted_keys", "Keys Redis evicted for lack of memory"),
            "rejected": c("archmage_redis_rejected_connections", "Connections Redis refused (maxclients)"),
            "persist": g("archmage_redis_persistence_ok",
                         "1 unless Redis reports its last RDB save or AOF write failed"),
            "aof": g("archmage_redis_aof_enabled", "1 when Redis writes an append-only file"),
            "queue": g("archmage_ai_queue_depth", "AI turn tasks waiting in the Celery queue", labels=["queue"]),
            "unacked": g("archmage_ai_tasks_unacked", "AI turn tasks taken by a worker and not yet acknowledged"),
            "active": g("archmage_active_matches", "Matches created and not yet finished (nor expired)",
                        labels=["game"]),
        }

    def collect(self):
        start = time.perf_counter()
        f = self._families()
        try:
            t0 = time.perf_counter()
            self.client.ping()
            f["ping"].add_metric([], time.perf_counter() - t0)
            info = self._info()
            pipe = self.client.pipeline(transaction=False)
            for game in self.games:
                pipe.zrangebyscore(active_key(game), "-inf", time.time() - self.match_ttl_s, 0, SWEEP_BATCH)
            replies = pipe.execute()
            stale = {game: replies.pop(0) for game in self.games}
            active = self._census(stale)
            queued, unacked = self._ai_queue()
            for queue in self.queues:
                f["queue"].add_metric([queue], queued[queue])
            f["unacked"].add_metric([], unacked)
            for game, count in active.items():
                f["active"].add_metric([game], count)
        except self.redis_error as exc:
            log.warning("Redis probe failed: %s", exc)
            f["up"].add_metric([], 0)
            f["probe"].add_metric([], time.perf_counter() - start)
            return [f["up"], f["probe"]]
        f["up"].add_metric([], 1)
        f["memory"].add_metric([], info.get("used_memory", 0))
        f["maxmemory"].add_metric([], info.get("maxmemory", 0))
        f["clients"].add_metric([], info.get("connected_clients", 0))
        f["commands"].add_metric([], info.get("total_commands_processed", 0))
        f["evicted"].add_metric([], info.get("evicted_keys", 0))
        f["rejected"].add_metric([], info.get("rejected_connections", 0))
        failed = info.get("rdb_last_bgsave_status", "ok") != "ok" or info.get("aof_last_write_status", "ok") != "ok"
        f["persist"].add_metric([], 0 if failed else 1)
        f["aof"].add_metric([], int(info.get("aof_enabled", 0)))
        f["probe"].add_metric([], time.perf_counter() - start)
        return list(f.values())

    _SUMMED = ("used_memory", "maxmemory", "connected_clients", "total_commands_processed", "evicted_keys",
               "rejected_connections")

    def _info(self) -> dict:
        """INFO of the Redis; of a Cluster, its masters' summed (persistence: all must be ok)."""
        if not self.cluster:
            return self.client.info()
        per_node = self.client.info(target_nodes=self.client.PRIMARIES)
        nodes = list(per_node.values()) if per_node and isinstance(next(iter(per_node.values())), dict) \
            else [per_node]
        info = {k: sum(n.get(k, 0) for n in nodes) for k in self._SUMMED}
        for k in ("rdb_last_bgsave_status", "aof_last_write_status"):
            info[k] = "ok" if all(n.get(k, "ok") == "ok" for n in nodes) else "err"
        info["aof_enabled"] = min((int(n.get("aof_enabled", 0)) for n in nodes), default=0)
        return info

    def _ai_queue(self) -> tuple[dict[str, int], int]:
        """(tasks waiting per queue, tasks taken and not yet acknowledged), from the broker
        through kombu: a passive queue_declare counts a queue's messages at every priority."""
        from kombu import Connection
        from kombu.exceptions import ChannelError

        if self._broker is None:
            self._broker = Connection(self.broker_url, connect_timeout=self.timeout_s,
                                      transport_options={"socket_timeout": self.timeout_s,
                                                         "socket_connect_timeout": self.timeout_s})
        try:
            channel = self._broker.default_channel
            depths = {}
            for queue in self.queues:
                try:
                    depths[queue] = channel.queue_declare(queue=queue, passive=True).message_count
                except ChannelError:  # an empty queue leaves nothing in Redis: kombu says NOT_FOUND
                    depths[queue] = 0
            # the tasks a worker holds: kombu's Redis transport keeps them in its unacked hash
            unacked = channel.client.hlen(channel.unacked_key)
        except Exception:
            self._broker.release()  # a fresh connection at the next scrape
            self._broker = None
            raise
        return depths, unacked

    def _census(self, stale: dict) -> dict[str, int]:
        """Sweep members older than the match TTL (their match may have expired), then count.
        A member whose match still exists is stamped anew; one whose keys are gone leaves."""
        from services.core.store import match_key

        checks = [(game, mid.decode()) for game, ids in stale.items() for mid in ids]
        pipe = self.client.pipeline(transaction=False)
        if checks:
            alive = self.client.pipeline(transaction=False)
            for _, mid in checks:
                alive.exists(match_key(mid))
            now = time.time()
            for (game, mid), found in zip(checks, alive.execute()):
                if found:
                    pipe.zadd(active_key(game), {mid: now}, xx=True)
                else:
                    pipe.zrem(active_key(game), mid)
        for game in self.games:
            pipe.zcard(active_key(game))
        counts = pipe.execute()[-len(self.games):] if self.games else []
        return dict(zip(self.games, counts))


def watch_platform(settings) -> PlatformProbe | None:
    """Register the Redis probe in this process's registry (service processes only)."""
    if not settings.metrics_port:
        return None
    from shared.engine.registry import game_names

    probe = PlatformProbe(settings.redis_url, [settings.ai_queue], game_names(), settings.match_ttl_s,
                          cluster=settings.redis_cluster, broker_url=settings.broker_url)
    REGISTRY.register(probe)
    return probe


def serve_worker_metrics(port: int, host: str, multiproc_dir: str = "") -> None:
    """/metrics of a Celery worker. Turns run in forked pool processes, so their metrics
    are shared through files (in `multiproc_dir`, PROMETHEUS_MULTIPROC_DIR) and summed here,
    in the parent."""
    registry = REGISTRY
    if multiproc_dir:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=multiproc_dir)
    try:
        start_http_server(port, addr=host, registry=registry)
    except OSError as exc:  # metrics must never stop a worker from playing turns
        log.warning("worker metrics not served on %s:%s: %s", host, port, exc)
