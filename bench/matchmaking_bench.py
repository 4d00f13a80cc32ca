"""Matchmaking figures: how long 10,000 queued tickets take to match, and the sustained
tickets per second with 2 replicas. Real replica processes, real Redis, real gRPC.

    .venv/bin/python -m bench.matchmaking_bench      (part of `make bench`)
"""
from __future__ import annotations

import asyncio
import json
import os
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import redis

RESULTS = Path(__file__).with_name("results.json")
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
GAME = "tower"


def start_replicas(n: int) -> tuple[list, list[str]]:
    from services.rpc.quotas import DEFAULTS
    from tests.support.processes import service_process

    # players-only matches here: a replica without AI workers never seats AI;
    # thousands of guests from one peer in seconds: far over the per-peer limits, on purpose
    env = dict(REDIS_URL=REDIS_URL, AI_ENABLED="0", MM_INTERVAL_S="0.05", LOG_LEVEL="WARNING",
               **{f"LIMIT_{name.upper()}": "1000000/minute" for name in DEFAULTS})
    started = [service_process(f"replica-{i}", "matchmaking", env) for i in range(n)]
    return [child for child, _ in started], [addr for _, addr in started]


def stop_all(procs) -> None:
    for p in procs:
        p.send(15)
    for p in procs:
        p.close()


def unassigned(r: redis.Redis, ids: list[str]) -> list[str]:
    """The tickets not assigned yet (assigned is for good: each poll reads only the others, so
    the polling does not load Redis, nor this process, with the whole backlog every 50 ms)."""
    pipe = r.pipeline(transaction=False)
    for t in ids:
        pipe.hget("{q:%s:standard}:t:%s" % (GAME, t), "state")
    return [t for t, s in zip(ids, pipe.execute()) if s != b"assigned"]


def wait_assigned(r, ids, timeout=600) -> float:
    """Seconds until every ticket is assigned."""
    start = time.perf_counter()
    left = unassigned(r, ids)
    while left:
        if time.perf_counter() - start > timeout:
            raise RuntimeError("tickets were not all matched in time")
        time.sleep(0.05)
        left = unassigned(r, left)
    return time.perf_counter() - start


def queue_directly(n: int, invite: str) -> list[str]:
    """Queue n tickets straight into Redis (as CreateTicket would), before any replica runs."""
    from services.core.store import RedisMatchStore
    from services.matchmaking.tickets import TicketStore

    async def go():
        store = RedisMatchStore.from_url(REDIS_URL)
        tickets = TicketStore(store.redis)
        now = int(time.time() * 1000)
        ids = []
        for i in range(n):
            t = await tickets.create(GAME, "standard", [f"{invite}-{i}"], 4, 1000, False, 600, invite, now)
            ids.append(t.ticket_id)
        await store.close()
        return ids

    return asyncio.run(go())


def bench_backlog(n: int = 10_000) -> dict:
    invite = "bench-" + secrets.token_hex(4)
    ids = queue_directly(n, invite)
    r = redis.Redis.from_url(REDIS_URL)
    procs, _ = start_replicas(2)
    try:
        total = wait_assigned(r, ids)  # from the moment both replicas answer health checks
    finally:
        stop_all(procs)
    return {"mm_backlog_tickets": n, "mm_backlog_match_s": round(total, 2),
            "mm_backlog_tickets_per_s": round(n / total, 1)}


def bench_sustained(seconds: float = 10.0, in_flight: int = 16, signed_in_first: int = 0) -> dict:
    """Tickets created for `seconds` by `in_flight` callers, each for a guest of its own, and
    how many are assigned per second until the last whole match is seated. With
    `signed_in_first`, that many guests sign in before the clock starts (signing in is the
    players service's work, not matchmaking's); the others sign in as they come."""
    from archmage.matchmaking.v1 import matchmaking_pb2 as mm
    from archmage.matchmaking.v1 import matchmaking_pb2_grpc

    from services.client.session import bearer, sign_in_as_guest

    procs, addrs = start_replicas(2)
    invite = "bench-" + secrets.token_hex(4)
    r = redis.Redis.from_url(REDIS_URL)
    channels = [grpc.insecure_channel(a) for a in addrs]
    stubs = [matchmaking_pb2_grpc.MatchmakingStub(ch) for ch in channels]
    ids: list[str] = []
    try:
        with ThreadPoolExecutor(in_flight) as pool:
            tokens = list(pool.map(lambda i: sign_in_as_guest(channels[i % 2]).token, range(signed_in_first)))
        ready = [tokens[k::in_flight] for k in range(in_flight)]  # guest k::in_flight signed in where k calls
        start = time.perf_counter()

        def producer(k):
            mine, tokens = [], ready[k]
            while time.perf_counter() - start < seconds:
                # each ticket a player of its own
                token = tokens.pop() if tokens else sign_in_as_guest(channels[k % 2]).token
                t = stubs[k % 2].CreateTicket(mm.CreateTicketRequest(game=GAME, seats=4, invite_code=invite),
                                              metadata=bearer(token), timeout=30)
                mine.append(t.ticket_id)
            return mine

        with ThreadPoolExecutor(in_flight) as pool:
            for mine in pool.map(producer, range(in_flight)):
                ids += mine
        created_s = time.perf_counter() - start
        # leftovers that cannot fill a 4-seat match stay queued; count whole matches only
        expected = len(ids) - len(ids) % 4
        deadline = time.perf_counter() + 120
        left = unassigned(r, ids)
        while len(ids) - len(left) < expected and time.perf_counter() < deadline:
            time.sleep(0.05)
            left = unassigned(r, left)
        total = time.perf_counter() - start
        assigned = len(ids) - len(left)
    finally:
        stop_all(procs)
    return {"mm_sustained_created_per_s": round(len(ids) / created_s, 1),
            "mm_sustained_tickets_per_s": round(assigned / total, 1), "mm_sustained_replicas": 2,
            "mm_sustained_signed_in_first": int(signed_in_first > 0)}


def main(argv: list[str] | tuple = ()) -> dict:
    """Both figures by default (as `make bench` runs it); argv as on the command line."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("backlog", "sustained"), help="measure one of the two figures")
    parser.add_argument("--tickets", type=int, default=10_000, help="the backlog's size")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long tickets are created for")
    parser.add_argument("--signed-in-first", type=int, default=0, metavar="N",
                        help="guests signed in before the sustained clock starts (0: each signs in on the clock)")
    args = parser.parse_args(argv)
    figures = {}
    if args.only in (None, "backlog"):
        figures.update(bench_backlog(args.tickets))
        print({k: v for k, v in figures.items()}, flush=True)
    if args.only in (None, "sustained"):
        figures.update(bench_sustained(args.seconds, signed_in_first=args.signed_in_first))
    existing = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    existing.update(figures)
    RESULTS.write_text(json.dumps(existing, indent=2, sort_keys=True) + "\n")
    for k, v in figures.items():
        print(f"{k:<32} {v}")
    return figures


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
