"""The instrumentation, on the real services (gRPC on loopback, real Redis) and the small
Race game of tests/support: what each metric counts, that labels stay bounded, and the
scrape-time Redis probe (health, AI queue, census of active matches)."""
from __future__ import annotations

import asyncio
import json
import secrets
import time
from functools import partial

import grpc
import pytest
import redis
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc
from prometheus_client import REGISTRY

from services.core.errors import Conflict
from services.core.metrics import METRICS, PlatformProbe, active_key
from services.core.store import match_key
from tests.support.counts import TRIES, fewest, since, store_round_trips


def value(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def eventually(check, timeout: float = 2.0) -> bool:
    """An aborted call's status reaches the client before the server's interceptor has
    counted it: wait for the count."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def series(name: str) -> list[dict]:
    return [s.labels for m in REGISTRY.collect() for s in m.samples if s.name == name]


class Seat:
    def __init__(self, channel, seats: int = 1):
        m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
            game="race", seats=[matchmaking_pb2.SeatSpec(kind="human") for _ in range(seats)]))
        self.match_id, self.meta = m.match_id, (("x-seat-token", m.seat_tokens[0].token),)
        self.board, self.combat = board_pb2_grpc.BoardStub(channel), combat_pb2_grpc.CombatStub(channel)
        self.n = 0

    def act(self, action: dict, expected_version: int = 0):
        self.n += 1
        request = common_pb2.ActRequest(match_id=self.match_id, action_id=f"m{self.n}", action_json=json.dumps(action),
                                        expected_version=expected_version)
        call = self.combat.Resolve if action.get("kind") == "roll" else self.board.Move
        return call(request, metadata=self.meta)


def test_a_combat_resolution_is_timed_and_counted_by_game_domain_kind_and_outcome(channel):
    seat = Seat(channel)
    ok = dict(game="race", domain="combat", kind="roll", outcome="ok")
    counted, timed = value("archmage_resolutions_total", **ok), value(
        "archmage_resolution_seconds_count", game="race", domain="combat", kind="roll")
    draws, published = value("archmage_dice_draw_seconds_count", game="race"), value(
        "archmage_events_published_total", game="race")
    calls = value("archmage_rpc_total", service="Combat", method="Resolve", code="OK")
    reply = seat.act({"kind": "roll"})
    assert value("archmage_resolutions_total", **ok) == counted + 1
    assert value("archmage_resolution_seconds_count", game="race", domain="combat", kind="roll") == timed + 1
    assert value("archmage_dice_draw_seconds_count", game="race") == draws + 1
    assert value("archmage_events_published_total", game="race") == published + len(reply.events)
    assert value("archmage_rpc_total", service="Combat", method="Resolve", code="OK") == calls + 1
    assert value("archmage_rpc_seconds_count", service="Combat", method="Resolve") >= 1


def test_refusals_are_counted_and_a_client_cannot_mint_label_values(channel):
    seat = Seat(channel)
    refused = value("archmage_resolutions_total", game="race", domain="board", kind="hide", outcome="refused")
    with pytest.raises(grpc.RpcError) as err:
        seat.act({"kind": "hide", "number": 7})
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert value("archmage_resolutions_total", game="race", domain="board", kind="hide",
                 outcome="refused") == refused + 1
    invented = "zz" + secrets.token_hex(6)
    with pytest.raises(grpc.RpcError):
        seat.act({"kind": invented})
    with pytest.raises(grpc.RpcError):  # no such match: the game is "unknown", not the id
        seat.board.Move(common_pb2.ActRequest(match_id="no-such-" + invented, action_id="x",
                                              action_json='{"kind": "hide", "number": 1}'))
    labels = [v for name in ("archmage_resolutions_total", "archmage_resolution_seconds_count")
              for s in series(name) for v in s.values()]
    assert not [v for v in labels if invented in v]
    assert value("archmage_resolutions_total", game="unknown", domain="board", kind="invalid", outcome="invalid") >= 1


def test_rpc_status_codes_are_counted_and_unknown_methods_make_no_series(channel):
    board = board_pb2_grpc.BoardStub(channel)
    missing = value("archmage_rpc_total", service="Board", method="GetMatch", code="NOT_FOUND")
    with pytest.raises(grpc.RpcError):
        board.GetMatch(board_pb2.GetMatchRequest(match_id="no-such-match"))
    assert eventually(lambda: value("archmage_rpc_total", service="Board", method="GetMatch",
                                    code="NOT_FOUND") == missing + 1)
    method = "Zap" + secrets.token_hex(4)
    with pytest.raises(grpc.RpcError) as err:
        channel.unary_unary(f"/archmage.board.v1.Board/{method}")(b"")
    assert err.value.code() == grpc.StatusCode.UNIMPLEMENTED
    assert not [s for name in ("archmage_rpc_total", "archmage_rpc_seconds_count") for s in series(name)
                if s.get("method") == method]


def test_a_lost_compare_and_set_is_counted_and_retried_unless_the_version_was_pinned(platform, channel):
    seat = Seat(channel)
    store = platform.platform.store
    real_commit = store.commit
    lost = {"left": 1}

    async def racing_commit(*args, **kwargs):
        if lost["left"]:
            lost["left"] -= 1
            raise Conflict("another writer won")
        return await real_commit(*args, **kwargs)

    conflicts, retries = value("archmage_cas_conflicts_total", op="act"), value("archmage_cas_retries_total", op="act")
    store.commit = racing_commit
    try:
        seat.act({"kind": "hide", "number": 1})
        assert value("archmage_cas_conflicts_total", op="act") == conflicts + 1
        assert value("archmage_cas_retries_total", op="act") == retries + 1
        # the process now holds the match's record: the first loss is its copy's (answered from a
        # fresh load, not counted as a race), the second the fresh record's, with the version pinned
        lost["left"] = 2
        version = seat.board.GetMatch(board_pb2.GetMatchRequest(match_id=seat.match_id), metadata=seat.meta).version
        with pytest.raises(grpc.RpcError) as err:
            seat.act({"kind": "hide", "number": 2}, expected_version=version)
        assert err.value.code() == grpc.StatusCode.ABORTED
        assert value("archmage_cas_conflicts_total", op="act") == conflicts + 2
        assert value("archmage_cas_retries_total", op="act") == retries + 1
    finally:
        store.commit = real_commit


def round_trips(step) -> dict[str, float]:
    """The store's round trips by operation counted while `step` runs."""
    before = store_round_trips("load", "commit")
    step()
    return since(before)


def test_redis_round_trips_of_the_store_are_timed_by_operation(channel):
    seats: list[Seat] = []  # each figure the fewest of a few tries (tests/support/counts.py)
    creations = fewest([round_trips(lambda: seats.append(Seat(channel))) for _ in range(TRIES)])
    actions = fewest([round_trips(partial(seat.act, {"kind": "roll"})) for seat in seats])
    # a creation commits twice (the match's dice session, then the match) and reads the session once
    assert creations == {"load": 1, "commit": 2}
    # an action costs two round trips: one read (the match and its action id), one compare-and-set
    assert actions == {"load": 1, "commit": 1}


def test_the_census_holds_a_match_from_creation_to_its_end(channel, redis_url):
    r = redis.Redis.from_url(redis_url)
    seat = Seat(channel)
    assert r.zscore(active_key("race"), seat.match_id) is not None
    finished = value("archmage_matches_finished_total", game="race")
    for _ in range(40):
        if seat.board.GetMatch(board_pb2.GetMatchRequest(match_id=seat.match_id)).status == "finished":
            break
        seat.act({"kind": "roll"})
    assert value("archmage_matches_finished_total", game="race") == finished + 1
    assert r.zscore(active_key("race"), seat.match_id) is None


def probe_values(probe: PlatformProbe) -> dict:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value for f in probe.collect() for s in f.samples}


def test_the_probe_reads_redis_health_queue_depth_and_active_matches(redis_url):
    from kombu import Connection

    r = redis.Redis.from_url(redis_url)
    queue, game = "probe-" + secrets.token_hex(4), "probe-game-" + secrets.token_hex(4)
    alive, gone, fresh = (secrets.token_hex(8) for _ in range(3))
    try:
        probe = PlatformProbe(redis_url, [queue], [game], match_ttl_s=3600)
        assert probe_values(probe)[("archmage_ai_queue_depth", (("queue", queue),))] == 0  # no such queue yet
        with Connection(redis_url) as broker:  # tasks as Celery publishes them, some at a higher priority
            producer = broker.Producer()
            for body, priority in (("a", 0), ("b", 0), ("c", 0), ("d", 3), ("e", 9)):
                producer.publish(body, routing_key=queue, declare=[broker.SimpleQueue(queue).queue],
                                 priority=priority)
        r.hset(match_key(alive), "game", game)
        old = time.time() - 7200
        r.zadd(active_key(game), {alive: old, gone: old, fresh: time.time()})
        got = probe_values(probe)
        assert got[("archmage_redis_up", ())] == 1
        assert got[("archmage_ai_queue_depth", (("queue", queue),))] == 5
        # the match whose keys expired leaves the census; the one still there is stamped anew
        assert got[("archmage_active_matches", (("game", game),))] == 2
        assert r.zscore(active_key(game), gone) is None and r.zscore(active_key(game), alive) > old
        assert got[("archmage_redis_used_memory_bytes", ())] > 0
        assert 0 < got[("archmage_redis_ping_seconds", ())] < 1
        assert got[("archmage_redis_commands_processed_total", ())] > 0
    finally:
        with Connection(redis_url) as broker:
            broker.SimpleQueue(queue).queue(broker.default_channel).delete()
        r.delete(match_key(alive), active_key(game))


def test_the_probe_says_redis_is_down_without_failing_the_scrape():
    got = probe_values(PlatformProbe("redis://127.0.0.1:1/0", ["ai"], ["race"], 3600, timeout_s=0.2))
    assert got[("archmage_redis_up", ())] == 0
    assert {name for name, _ in got} == {"archmage_redis_up", "archmage_probe_seconds"}


def test_switched_off_metrics_record_nothing_and_come_back(channel):
    seat = Seat(channel)
    key = dict(game="race", domain="combat", kind="roll", outcome="ok")
    before = value("archmage_resolutions_total", **key)
    with METRICS.switched_off():
        seat.act({"kind": "roll"})
    assert value("archmage_resolutions_total", **key) == before
    seat.act({"kind": "roll"})
    assert value("archmage_resolutions_total", **key) == before + 1


def test_a_failed_census_write_never_fails_the_action():
    from services.core.metrics import match_started

    class Broken:
        async def zadd(self, *a, **k):
            raise redis.ConnectionError("down")

    asyncio.run(match_started(Broken(), "race", "m"))
