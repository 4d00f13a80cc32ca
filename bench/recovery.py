"""`make bench-recovery`: each fault the platform heals from, injected several times, and
measured from outside as a client sees it: per fault, attempts, attempts recovered, seconds
to recover (median and max), acknowledged actions lost and actions applied twice. Lost and
doubled compare the action ids the client had acknowledged with the match's event log.

    redis-outage-ai    Redis (AOF, appendfsync always) killed for OUTAGE_S under all-AI Tower
                       matches on the split platform (one process per service, two Celery
                       worker processes): seconds from Redis answering again until a match
                       moves again; recovered = every match then plays to its end
    redis-kill-human   Redis (appendfsync always) SIGKILLed and restarted at once under a stream
                       of human actions (a client retrying each action with its own action id
                       on UNAVAILABLE): seconds from Redis answering again to the next
                       acknowledged action
    worker-killed      the Celery AI worker's main process SIGKILLed under an all-AI match on
                       the split platform: seconds until the launcher's supervisor has a new one
                       (its "restarted ai-worker" line), and until the match's next AI turn
    orphan-match       a matchmaking replica that dies between creating a match and seating its
                       players (MM_CLAIM_MS claims): seconds from its death until GetMatch
                       answers the orphan "cancelled"; lost = tickets never seated again
    sigterm-drain      SIGTERM to a serving process (DRAIN_S): seconds health answers
                       NOT_SERVING while calls are still answered, before the port closes;
                       recovered = it exits 0 and no call it had accepted was cut
    cluster-master     one master of a 3-master Redis Cluster (no replicas, appendfsync always)
                       SIGKILLed, then restarted: calls on its slots UNAVAILABLE, the other
                       masters' matches played on; seconds from its restart until its matches
                       answer again

Figures to track, not pass/fail tests; written to bench/recovery.json.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import signal
import statistics
import threading
import time
import traceback
import uuid
from collections import Counter
from pathlib import Path

import grpc

from bench.stats import publish

RESULTS = Path(__file__).with_name("recovery.json")
TRANSIENT = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}


def _register_race() -> None:
    """The platform-test game (tests/support/race.py), for the servers this process runs itself."""
    from tests.support import race

    race.host()


def _until(predicate, timeout: float, interval: float = 0.05) -> float | None:
    """The moment (time.monotonic()) predicate() is first true, or None after `timeout` seconds.
    A call that fails (the platform still down) counts as false."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return time.monotonic()
        except grpc.RpcError:
            pass
        time.sleep(interval)
    return None


def _code(call) -> str:
    try:
        call()
    except grpc.RpcError as exc:
        return exc.code().name
    return "OK"


def _stubs(addr: str):
    from archmage.board.v1 import board_pb2_grpc
    from archmage.combat.v1 import combat_pb2_grpc
    from archmage.matchmaking.v1 import matchmaking_pb2_grpc

    ch = grpc.insecure_channel(addr)
    return (board_pb2_grpc.BoardStub(ch), combat_pb2_grpc.CombatStub(ch),
            matchmaking_pb2_grpc.MatchmakingStub(ch), ch)


def _view(board, match_id: str, meta=(), timeout: float = 5):
    from archmage.board.v1 import board_pb2

    return board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), metadata=meta, timeout=timeout)


def _logged_action_ids(board, match_id: str, meta=(), timeout: float = 10) -> list[str]:
    """The action ids in the match's event log, in order, up to its newest event now."""
    from services.client.reading import events_between

    events = events_between(board, match_id, 0, _view(board, match_id, meta).last_seq, meta, timeout)
    return [json.loads(e.body_json)["action_id"] for e in events if e.type == "action"]


def _roll(board, combat, match_id: str, metas: list, call=lambda f: f()) -> str | None:
    """One roll by the seat to act, pinned to the version seen; its action id once acknowledged,
    None if the match is over. `call` wraps each call (in retries, say)."""
    from archmage.common.v1 import common_pb2

    view = call(lambda: _view(board, match_id, metas[0]))
    if view.status == "finished":
        return None
    request = common_pb2.ActRequest(match_id=match_id, action_id=str(uuid.uuid4()),
                                    expected_version=view.version, action_json='{"kind": "roll"}')
    call(lambda: combat.Resolve(request, metadata=metas[view.to_act], timeout=5))
    return request.action_id


def _lost_doubled(acknowledged: list[str], logged: list[str]) -> tuple[int, int]:
    """(acknowledged ids missing from the log, ids the log holds more than once)."""
    seen = Counter(logged)
    return sum(1 for a in set(acknowledged) if a not in seen), sum(n - 1 for n in seen.values() if n > 1)


def _ai_lost_doubled(logged: list[str], version_seen: int) -> tuple[int, int]:
    """For an all-AI match: every version a client had seen is an acknowledged action (the
    first action is version 2), so the log must hold at least version_seen - 1 distinct ones."""
    seen = Counter(logged)
    return max(0, version_seen - 1 - len(seen)), sum(n - 1 for n in seen.values() if n > 1)


def _row(fault: str, measured: str, seconds: list[float | None], lost: int = 0, doubled: int = 0,
         recovered: int | None = None, note: str = "") -> dict:
    done = [s for s in seconds if s is not None]
    return {"fault": fault, "measured": measured, "attempts": len(seconds),
            "recovered": len(done) if recovered is None else recovered,
            "median_s": statistics.median(done) if done else float("nan"), "max_s": max(done) if done else float("nan"),
            "seconds": [None if s is None else round(s, 3) for s in seconds], "lost": lost, "doubled": doubled,
            "note": note}


# --- (a) Redis killed for a few seconds under all-AI matches, split platform -------------------------------------

def redis_outage_ai(attempts: int, outage_s: float = 3.0, matches: int = 2) -> dict:
    from archmage.matchmaking.v1 import matchmaking_pb2 as mm

    from bench.split import SplitPlatform
    from tests.support.redis_db import RedisServer

    seconds, finished_all, lost, doubled, codes = [], 0, 0, 0, Counter()
    with RedisServer(durable=True) as redis_server, \
            SplitPlatform(redis_server.url, workers=2, env={"DICE_MODE": "inprocess"}) as p:
        board, _, _, _ = _stubs(p.addr["board"])
        _, _, matchmaking, _ = _stubs(p.addr["matchmaking"])
        request = mm.CreateMatchRequest(game="tower", seats=[mm.SeatSpec(kind="ai") for _ in range(2)])
        for _ in range(attempts):
            moved, finished, gone, twice = _outage_attempt(redis_server, board, matchmaking, request, matches,
                                                           outage_s, codes)
            seconds.append(moved)
            finished_all, lost, doubled = finished_all + finished, lost + gone, doubled + twice
    shown = ", ".join(f"{c} {n}" for c, n in codes.most_common())
    return _row("redis-outage-ai", "Redis back -> an AI match moves", seconds, lost, doubled,
                recovered=finished_all, note=f"Redis down {outage_s:.0f}s; calls meanwhile: {shown}; "
                                             f"{finished_all}/{attempts} attempts' matches all finished")


def _outage_attempt(redis_server, board, matchmaking, request, matches: int, outage_s: float, codes: Counter):
    """(seconds until a match moved after Redis was back or None, whether all finished, lost, doubled)."""
    ids = [matchmaking.CreateMatch(request, timeout=30).match_id for _ in range(matches)]

    def versions():
        return {m: _view(board, m).version for m in ids}

    _until(lambda: all(v > 2 for v in versions().values()), 60)
    before = versions()
    redis_server.kill()
    killed = time.monotonic()
    while time.monotonic() - killed < outage_s:  # the outage, as a client sees it
        codes[_code(lambda: _view(board, ids[0]))] += 1
        time.sleep(0.1)
    redis_server.start()
    back = time.monotonic()
    moved = _until(lambda: any(v > before[m] for m, v in versions().items()), 90)
    finished = _until(lambda: all(_view(board, m).status == "finished" for m in ids), 180, 0.2) is not None
    lost = doubled = 0
    for m in ids:
        gone, twice = _ai_lost_doubled(_logged_action_ids(board, m), before[m])
        lost, doubled = lost + gone, doubled + twice
    return (None if moved is None else moved - back), finished, lost, doubled


# --- (b) Redis SIGKILLed and restarted under a stream of human actions ---------------------------------------------

class HumanStream(threading.Thread):
    """A client playing 4-seat Race matches as fast as it is answered, one roll at a time, each
    with an action id of its own that it retries unchanged on UNAVAILABLE (as the platform's own
    clients do) until acknowledged; a new match when one ends. `acks`: (when, match, action id)."""

    def __init__(self, addr: str):
        super().__init__(daemon=True)
        from tests.trust.support import identity

        self.board, self.combat, self.mm, self.channel = _stubs(addr)
        self.owner = identity(self.channel)
        self.acks: list[tuple[float, str, str]] = []
        self.matches: dict[str, list] = {}  # match id -> each seat's metadata
        self.errors: Counter = Counter()
        self.stopping = threading.Event()
        self.failure: BaseException | None = None

    def _retrying(self, call, timeout: float = 60):
        deadline = time.monotonic() + timeout
        while True:
            try:
                return call()
            except grpc.RpcError as exc:
                if exc.code() not in TRANSIENT or time.monotonic() > deadline:
                    raise
                self.errors[exc.code().name] += 1
                time.sleep(0.02)

    def _new_match(self) -> str:
        from archmage.matchmaking.v1 import matchmaking_pb2 as mm

        made = self._retrying(lambda: self.mm.CreateMatch(mm.CreateMatchRequest(
            game="race", seats=[mm.SeatSpec(kind="human") for _ in range(4)]), metadata=self.owner.meta, timeout=5))
        self.matches[made.match_id] = [(("x-seat-token", t.token),)
                                       for t in sorted(made.seat_tokens, key=lambda t: t.seat)]
        return made.match_id

    def run(self) -> None:
        try:
            match_id = self._new_match()
            while True:
                if not self._roll(match_id):
                    if self.stopping.is_set():
                        return
                    match_id = self._new_match()
        except BaseException as exc:  # shown by the caller
            self.failure = exc

    def _roll(self, match_id: str) -> bool:
        """One acknowledged roll in the match; False if it is over."""
        action_id = _roll(self.board, self.combat, match_id, self.matches[match_id], self._retrying)
        if action_id is not None:
            self.acks.append((time.monotonic(), match_id, action_id))
        return action_id is not None


def _kill_under(player: HumanStream, redis_server, acks_between: int, seconds: list, down: list) -> bool:
    """Once `acks_between` more actions are acknowledged: SIGKILL Redis, start it again, and time
    the client's next acknowledged action. False if the client failed."""
    wanted = len(player.acks) + acks_between
    if _until(lambda: len(player.acks) >= wanted or player.failure, 60) is None or player.failure:
        return False
    killed = time.monotonic()
    redis_server.kill()
    redis_server.start()
    back = time.monotonic()
    down.append(back - killed)
    acked = _until(lambda: player.acks and player.acks[-1][0] > back or player.failure, 60, 0.01)
    seconds.append(None if acked is None or player.failure else acked - back)
    return True


def redis_kill_human(attempts: int, acks_between: int = 40) -> dict:
    from tests.support.processes import service_process
    from tests.support.redis_db import RedisServer

    seconds, down = [], []
    with RedisServer(durable=True, fsync="always") as redis_server:
        child, addr = service_process("platform", "all", {"REDIS_URL": redis_server.url, "AI_ENABLED": "0",
                                                          "DICE_MODE": "inprocess"}, module="tests.support.replica")
        with child:
            player = HumanStream(addr)
            player.start()
            for _ in range(attempts):
                if not _kill_under(player, redis_server, acks_between, seconds, down):
                    break
            player.stopping.set()
            player.join(60)
            if player.failure:
                raise player.failure
            logged = [a for m, metas in player.matches.items()
                      for a in _logged_action_ids(player.board, m, metas[0], timeout=5)]
            lost, doubled = _lost_doubled([a for _, _, a in player.acks], logged)
    retries = ", ".join(f"{c} {n}" for c, n in player.errors.most_common()) or "none"
    return _row("redis-kill-human", "Redis back -> next acknowledged action", seconds, lost, doubled,
                note=f"{len(player.acks)} actions acknowledged in {len(player.matches)} matches; Redis down "
                     f"{max(down, default=0):.1f}s at most (restart); the client's retries: {retries}")


# --- (c) the Celery AI worker killed, under the launcher's supervisor -----------------------------------------------

def worker_killed(attempts: int) -> dict:
    """A fresh split platform for each attempt: the supervisor's back-off grows with repeated
    deaths (1 s, 2 s, 4 s ...), and each attempt measures a first death."""
    from bench.split import SplitPlatform
    from tests.support.redis_db import RedisServer

    restarted, played, lost, doubled = [], [], 0, 0
    with RedisServer(durable=False) as redis_server:
        for _ in range(attempts):
            with SplitPlatform(redis_server.url, workers=1, env={"DICE_MODE": "inprocess"}) as p:
                up, moved, gone, twice = _worker_attempt(p)
            restarted.append(up)
            played.append(moved)
            lost, doubled = lost + gone, doubled + twice
    done = [s for s in restarted if s is not None]
    return _row("worker-killed", "worker killed -> next AI turn played", played, lost, doubled,
                note=f"a new worker after {statistics.median(done):.1f}s (median), {max(done):.1f}s (max)"
                if done else "no new worker")


def _worker_attempt(p) -> tuple[float | None, float | None, int, int]:
    """(seconds to a new worker, seconds to the next AI turn, lost, doubled) after SIGKILL to the worker."""
    from archmage.matchmaking.v1 import matchmaking_pb2 as mm

    board, _, _, _ = _stubs(p.addr["board"])
    _, _, matchmaking, _ = _stubs(p.addr["matchmaking"])
    match_id = matchmaking.CreateMatch(mm.CreateMatchRequest(
        game="tower", seats=[mm.SeatSpec(kind="ai") for _ in range(2)]), timeout=30).match_id
    _until(lambda: _view(board, match_id).version > 3, 60)
    worker = int(re.search(r"ai-worker .*\(pid (\d+)\)", p.output()).group(1))
    os.kill(worker, signal.SIGKILL)  # the main process, as the OOM killer would
    killed = time.monotonic()
    # once the supervisor has seen the death (and killed the pool processes), the version is the old worker's last
    _until(lambda: f"ai-worker (pid {worker}) exited" in p.output(), 30, 0.02)
    before = _view(board, match_id).version
    up = _until(lambda: "restarted ai-worker" in p.output(), 60, 0.02)
    moved = _until(lambda: _view(board, match_id).version > before, 120)
    gone, twice = _ai_lost_doubled(_logged_action_ids(board, match_id, timeout=3), before)
    return (None if up is None else up - killed), (None if moved is None else moved - killed), gone, twice


# --- (d) a matchmaking replica killed between creating a match and seating its players ----------------------------

def orphan_match(attempts: int, claim_ms: int = 3000) -> dict:
    from tests.support.redis_db import RedisServer
    from tests.support.server import ServerThread

    _register_race()
    seconds, lost, doubled = [], 0, 0
    with RedisServer(durable=False) as redis_server:
        server = ServerThread(redis_server.url, mm_interval_s=0.05, mm_claim_ms=claim_ms)
        server.start()
        try:
            for _ in range(attempts):
                cancelled, gone, twice = _orphan_attempt(server, claim_ms)
                seconds.append(cancelled)
                lost, doubled = lost + gone, doubled + twice
        finally:
            server.stop()
    late = [s - claim_ms / 1000 for s in seconds if s is not None]
    return _row("orphan-match", "replica died -> orphan cancelled", seconds, lost, doubled,
                note=f"MM_CLAIM_MS {claim_ms}: cancelled {max(late, default=float('nan')):.2f}s after the claim's "
                     "deadline at most; lost = tickets never seated again, doubled = seated in the orphan")


def _orphan_attempt(server, claim_ms: int) -> tuple[float | None, int, int]:
    """(seconds from the replica's death to GetMatch answering the orphan cancelled, lost, doubled)."""
    from archmage.matchmaking.v1 import matchmaking_pb2 as mm

    from tests.support.orphans import replica_that_dies_after_creating
    from tests.trust.support import identity

    platform = server.platform
    board, _, matchmaking, channel = _stubs(server.address)
    players = [identity(channel) for _ in range(2)]
    invite = "orphan-" + secrets.token_hex(4)

    tickets, orphan = server.run(replica_that_dies_after_creating(platform, players, invite, claim_ms))
    died = time.monotonic()
    cancelled = _until(lambda: _view(board, orphan).status == "cancelled", claim_ms / 1000 + 30)

    def seated():
        got = [matchmaking.GetTicket(mm.TicketRef(ticket_id=t), metadata=p.meta, timeout=5)
               for t, p in zip(tickets, players)]
        return all(t.state == "assigned" for t in got) and got

    if _until(seated, 30) is None:
        return (None if cancelled is None else cancelled - died), len(tickets), 0
    doubled = sum(1 for t in seated() if t.assignment.match_id == orphan)
    return (None if cancelled is None else cancelled - died), 0, doubled


# --- (e) SIGTERM on a serving process ---------------------------------------------------------------------------------

def sigterm_drain(attempts: int, drain_s: float = 5.0, callers: int = 4) -> dict:
    from tests.support.processes import service_process
    from tests.support.redis_db import RedisServer

    seconds, clean, outcomes, stream_ends = [], 0, Counter(), Counter()
    with RedisServer(durable=False) as redis_server:
        for _ in range(attempts):
            child, addr = service_process("platform", "all", {"REDIS_URL": redis_server.url, "AI_ENABLED": "0",
                                                              "DRAIN_S": str(drain_s)})
            with child:
                drained, cut = _drain_attempt(child, addr, drain_s, callers, outcomes, stream_ends)
                status = child.wait(30)
            seconds.append(drained)
            clean += status == 0 and not cut and drained is not None
    shown = ", ".join(f"{c} {n}" for c, n in outcomes.most_common())
    ends = ", ".join(f"{c} {n}" for c, n in stream_ends.most_common())
    return _row("sigterm-drain", "NOT_SERVING before the port closes", seconds, recovered=clean,
                note=f"DRAIN_S {drain_s:.0f}; {callers} callers' calls: {shown}; an open WatchMatch ended: {ends}")


def _drain_attempt(child, addr: str, drain_s: float, callers: int, outcomes: Counter,
                   stream_ends: Counter) -> tuple[float | None, list]:
    """SIGTERM under load: (seconds health said NOT_SERVING before it stopped answering, cut calls)."""
    from archmage.board.v1 import board_pb2, board_pb2_grpc
    from archmage.matchmaking.v1 import matchmaking_pb2 as mm
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from services.client.channels import channel

    board, _, matchmaking, ch = _stubs(addr)
    health = health_pb2_grpc.HealthStub(ch)
    match_id = matchmaking.CreateMatch(mm.CreateMatchRequest(
        game="tower", seats=[mm.SeatSpec(kind="ai") for _ in range(2)]), timeout=30).match_id
    closed = threading.Event()
    cut: list[tuple[float, str]] = []  # (when the call was sent, its status)
    running = threading.Barrier(callers + 2)

    def caller():
        """Calls one after another until the port closes; a call the server had taken and then dropped
        (anything but an answer or a refused connection) is a cut call."""
        stub = board_pb2_grpc.BoardStub(channel(addr))  # a channel of its own, retrying as the platform's clients do
        _view(stub, match_id, timeout=10)
        running.wait()
        while not closed.is_set():
            sent = time.monotonic()
            try:
                _view(stub, match_id, timeout=5)
                outcomes["answered"] += 1
            except grpc.RpcError as exc:
                text = (exc.details() or "").lower()
                if exc.code() == grpc.StatusCode.UNAVAILABLE and ("connect" in text or "refused" in text):
                    outcomes["refused (port closed)"] += 1
                    closed.set()
                else:
                    cut.append((sent, f"{exc.code().name}: {exc.details()}"))
            time.sleep(0.01)

    def watcher():
        stream = board.WatchMatch(board_pb2.WatchMatchRequest(match_id=match_id, from_seq=0), timeout=drain_s + 30)
        try:
            next(stream)  # the stream is open: the match's first event
            running.wait()
            for _ in stream:
                pass
            stream_ends["OK"] += 1
        except grpc.RpcError as exc:
            stream_ends[exc.code().name] += 1

    threads = [threading.Thread(target=caller, daemon=True) for _ in range(callers)]
    threads.append(threading.Thread(target=watcher, daemon=True))
    for t in threads:
        t.start()
    running.wait(30)  # every caller answered once and the stream is open
    request = health_pb2.HealthCheckRequest()
    child.send(signal.SIGTERM)
    not_serving = None
    while True:  # a load balancer's health checks, every 10 ms
        try:
            status = health.Check(request, timeout=2).status
        except grpc.RpcError:
            break
        if status == health_pb2.HealthCheckResponse.NOT_SERVING and not_serving is None:
            not_serving = time.monotonic()
        time.sleep(0.01)
    gone = time.monotonic()
    closed.set()
    for t in threads:
        t.join(drain_s + 35)
    # when a cut call was sent, after the port closed (negative: before)
    outcomes.update(f"cut: {c} (sent {when - gone:+.3f}s)" for when, c in cut)
    return (None if not_serving is None else gone - not_serving), cut


# --- (f) one master of a real 3-master Redis Cluster killed -----------------------------------------------------------

class ClusterMatches:
    """Two-seat Race matches on the cluster, played by one client that keeps the ids it was
    acknowledged."""

    def __init__(self, addr: str, count: int):
        from archmage.matchmaking.v1 import matchmaking_pb2 as mm

        from tests.trust.support import identity

        self.board, self.combat, matchmaking, channel = _stubs(addr)
        owner = identity(channel)
        self.acked: dict[str, list[str]] = {}
        self.metas: dict[str, list] = {}
        for _ in range(count):
            made = matchmaking.CreateMatch(mm.CreateMatchRequest(
                game="race", seats=[mm.SeatSpec(kind="human") for _ in range(2)]), metadata=owner.meta, timeout=10)
            self.metas[made.match_id] = [(("x-seat-token", t.token),)
                                         for t in sorted(made.seat_tokens, key=lambda t: t.seat)]
            self.acked[made.match_id] = []

    def view(self, match_id: str):
        return _view(self.board, match_id, self.metas[match_id][0])

    def roll(self, match_id: str) -> bool:
        """One acknowledged roll; False if the match is over."""
        action_id = _roll(self.board, self.combat, match_id, self.metas[match_id])
        if action_id is not None:
            self.acked[match_id].append(action_id)
        return action_id is not None

    def lost_doubled(self) -> tuple[int, int]:
        """Every match played to its end, then each acknowledged id looked for in its log."""
        lost = doubled = 0
        for m, acked in self.acked.items():
            while self.roll(m):
                pass
            gone, twice = _lost_doubled(acked, _logged_action_ids(self.board, m, self.metas[m][0]))
            lost, doubled = lost + gone, doubled + twice
        return lost, doubled


def cluster_master(attempts: int, matches: int = 9) -> dict:
    from services.core.store import match_key
    from tests.support.redis_cluster import RedisCluster
    from tests.support.server import ServerThread

    _register_race()
    seconds, seen = [], Counter()
    with RedisCluster(masters=3, durable=True) as cluster:
        server = ServerThread(cluster.url, redis_cluster=True, mm_interval_s=0.05)
        server.start()
        try:
            played = ClusterMatches(server.address, matches)
            home = {m: cluster.port_of_key(match_key(m)) for m in played.acked}
            victims = [port for port in cluster.ports if port in home.values()]
            for attempt in range(attempts):
                victim = victims[attempt % len(victims)]
                seconds.append(_master_attempt(cluster, played, [m for m in home if home[m] == victim], victim, seen))
            lost, doubled = played.lost_doubled()
        finally:
            server.stop()
    shown = "; ".join(f"{where}: {code} {n}" for (where, code), n in sorted(seen.items()))
    return _row("cluster-master", "master restarted -> its matches answer", seconds, lost, doubled,
                note=f"{matches} matches over 3 masters, no replicas, appendfsync always; calls while one was "
                     f"down: {shown}")


def _master_attempt(cluster, played: ClusterMatches, on_victim: list[str], victim: int, seen: Counter) -> float | None:
    """SIGKILL one master, see what a client sees, start it again: seconds until its matches answer."""
    for m in played.acked:
        played.roll(m)
    cluster.kill(victim)  # SIGKILL, then until the other masters mark it failed
    for m in played.acked:  # the victim's matches UNAVAILABLE, the others played on
        seen[("dead master" if m in on_victim else "live masters", _code(lambda m=m: played.roll(m)))] += 1
    started = time.monotonic()
    cluster.restart(victim)
    answered = _until(lambda: all(played.view(m).version for m in on_victim), 60)
    return None if answered is None else answered - started


FAULTS = {
    "redis-outage-ai": lambda a, args: redis_outage_ai(a, args.outage_s),
    "redis-kill-human": lambda a, args: redis_kill_human(a),
    "worker-killed": lambda a, args: worker_killed(a),
    "orphan-match": lambda a, args: orphan_match(a, args.claim_ms),
    "sigterm-drain": lambda a, args: sigterm_drain(a, args.drain_s),
    "cluster-master": lambda a, args: cluster_master(a),
}


def table(rows: list[dict]) -> str:
    head = (f"{'fault':<18} {'seconds measured':<40} {'attempts':>8} {'recovered':>9} {'median s':>9} {'max s':>7} "
            f"{'lost':>5} {'doubled':>7}")
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r['fault']:<18} {r['measured']:<40} {r['attempts']:>8} {r['recovered']:>9} "
                     f"{r['median_s']:>9.2f} {r['max_s']:>7.2f} {r['lost']:>5} {r['doubled']:>7}")
    lines.append("")
    lines += [f"{r['fault']}: {r['note']}" for r in rows if r.get("note")]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attempts", type=int, default=5, help="injections of each fault")
    parser.add_argument("--only", nargs="*", choices=list(FAULTS), help="these faults only")
    parser.add_argument("--outage-s", type=float, default=3.0, help="how long Redis is down in redis-outage-ai")
    parser.add_argument("--claim-ms", type=int, default=3000, help="MM_CLAIM_MS of the orphan-match replicas")
    parser.add_argument("--drain-s", type=float, default=5.0, help="DRAIN_S of the process sigterm-drain stops")
    args = parser.parse_args(argv)
    started = time.monotonic()
    rows = []
    for name in args.only or FAULTS:
        print(f"{name}: {args.attempts} attempts...", flush=True)
        began = time.monotonic()
        try:
            row = FAULTS[name](args.attempts, args)
        except Exception as exc:  # one fault's failure is reported; the others are still measured
            traceback.print_exc()
            row = _row(name, "failed", [None] * args.attempts, recovered=0, note=f"failed: {exc!r}"[:300])
        row["bench_seconds"] = round(time.monotonic() - began, 1)
        rows.append(row)
    return publish(RESULTS, {"faults": rows}, table(rows), started, attempts=args.attempts)


if __name__ == "__main__":
    main()
