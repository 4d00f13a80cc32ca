"""Many matchmaking replicas on one Redis, thousands of tickets, one replica killed
mid-run: no ticket in two matches, none lost, and every cancel either cancels or
yields the assignment, never both."""
from __future__ import annotations

import json
import random
import secrets
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
import redis
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc

from services.rpc.quotas import DEFAULTS
from tests.support.processes import service_process
from tests.trust.support import identity

pytestmark = pytest.mark.slow  # processes of its own: `make test-fast` leaves it out

TICKETS = 2000
REPLICAS = 3


def start_replica(redis_url: str, ai_queue: str, n: int):
    # AI turns go to a queue nobody serves: this test looks at tickets, not at play
    env = dict(REDIS_URL=redis_url, AI_QUEUE=ai_queue, MM_INTERVAL_S="0.02", MM_LOCK_MS="1000", MM_CLAIM_MS="1500",
               LOG_LEVEL="WARNING",
               # thousands of players from one peer in seconds: far over the per-peer limits, on purpose
               **{f"LIMIT_{name.upper()}": "1000000/minute" for name in DEFAULTS})
    return service_process(f"replica-{n}", "matchmaking", env, module="tests.support.replica")


def test_replicas_never_double_assign_or_lose_tickets(redis_url):
    ai_queue = "ai-unplayed-" + secrets.token_hex(4)
    procs = []
    try:
        procs = [start_replica(redis_url, ai_queue, n) for n in range(REPLICAS)]
        channels = [grpc.insecure_channel(addr) for _, addr in procs]
        stubs = [matchmaking_pb2_grpc.MatchmakingStub(ch) for ch in channels]
        rng = random.Random(7)
        invite = "replicas-" + secrets.token_hex(4)
        requests, parties = [], []
        for i in range(TICKETS):
            size = 1 if rng.random() < 0.8 else 2
            # players signed in on one replica are believed by every other: they share the signing key
            party = [identity(channels[(i + k) % REPLICAS]) for k in range(size)]
            parties.append(party)
            requests.append(mm.CreateTicketRequest(
                game="race", party=[p.player for p in party], seats=rng.choice([0, 2, 3, 4]),
                ai_welcome=True, max_wait_s=rng.choice([0, 1, 2]), invite_code=invite))
        owners: dict[str, tuple] = {}

        def create(i):
            # the first half goes to every replica; the second only to those still alive
            stub = stubs[i % REPLICAS] if i < TICKETS // 2 else stubs[1 + i % (REPLICAS - 1)]
            ticket_id = stub.CreateTicket(requests[i], metadata=parties[i][0].meta, timeout=30).ticket_id
            for member in parties[i][1:]:
                stub.AcceptTicket(mm.TicketRef(ticket_id=ticket_id), metadata=member.meta, timeout=30)
            owners[ticket_id] = parties[i][0].meta
            return ticket_id

        cancels: dict[str, str] = {}

        def cancel(ticket_id):
            try:
                stubs[1].CancelTicket(mm.TicketRef(ticket_id=ticket_id), metadata=owners[ticket_id], timeout=30)
                cancels[ticket_id] = "cancelled"
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.FAILED_PRECONDITION, exc.details()
                cancels[ticket_id] = "refused"

        with ThreadPoolExecutor(16) as pool:
            ids = list(pool.map(create, range(TICKETS // 2)))
            procs[0][0].send(signal.SIGKILL)  # mid-run, probably mid-cycle
            ids += list(pool.map(create, range(TICKETS // 2, TICKETS)))
            list(pool.map(cancel, rng.sample(ids, TICKETS // 10)))

        r = redis.Redis.from_url(redis_url)
        key = "{q:race:standard}:t:"
        deadline = time.monotonic() + 90
        while True:
            pipe = r.pipeline(transaction=False)
            for t in ids:
                pipe.hmget(key + t, "state", "assignment", "party")
            rows = pipe.execute()
            states = [row[0].decode() if row[0] else "missing" for row in rows]
            if all(s in ("assigned", "cancelled") for s in states) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert all(s in ("assigned", "cancelled") for s in states), \
            {s: states.count(s) for s in set(states)}
        seats_by_match: dict[str, list[tuple[str, int]]] = {}
        for t, (state, assignment, party) in zip(ids, rows):
            if t in cancels:
                expected = "cancelled" if cancels[t] == "cancelled" else "assigned"
                assert state.decode() == expected, (t, cancels[t], state)
            if state == b"assigned":
                a = json.loads(assignment)
                assert [s["player"] for s in a["seats"]] == json.loads(party)
                seats_by_match.setdefault(a["match_id"], []).extend((s["player"], s["seat"]) for s in a["seats"])
            else:
                assert assignment is None
        players = [p for seats in seats_by_match.values() for p, _ in seats]
        assert len(players) == len(set(players)), "a player sits in two matches"
        for match_id, seats in seats_by_match.items():
            assert len({s for _, s in seats}) == len(seats), f"two players share a seat in {match_id}"
            names = [s["name"] for s in json.loads(r.hget("{m:%s}" % match_id, "seats"))]
            for player, seat in seats:
                assert names[seat] == player
        print(f"{len(ids)} tickets, {len(seats_by_match)} matches, "
              f"{sum(v == 'cancelled' for v in cancels.values())} cancelled, "
              f"{sum(v == 'refused' for v in cancels.values())} cancels lost to a match")
    finally:
        for child, _ in procs:
            child.close()
        redis.Redis.from_url(redis_url).delete(ai_queue)
