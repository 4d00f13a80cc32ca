"""The benchmark's own machinery (bench/): the armed battle is a real, repeatable battle
through the real combat service, and the figures are computed as documented."""
from __future__ import annotations

import json
import random

import grpc
import redis
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2

from bench.battles import FIGHT, GAME, arm_fields, armed_state
from bench.combat_load import create_matches
from bench.echo import summary
from bench.run import ROWS, table
from services.core.store import match_key
from shared.engine import CHANCE, TERMINAL
from shared.engine.playout import sample_chance
from shared.engine.registry import engine_for


def test_the_armed_state_is_a_battle_one_fight_resolves_and_the_game_goes_on():
    """Here's How to Do Battle: fight, both pools rolled, the battle resolved, no re-roll."""
    engine = engine_for(GAME)
    state, seat = armed_state()
    assert engine.actor(state) == seat and FIGHT in engine.legal_actions(state, seat)
    rng = random.Random(3)
    for _ in range(30):
        rolled, _ = engine.apply(state, seat, FIGHT)
        assert engine.actor(rolled) == CHANCE
        after, events = engine.apply_chance(rolled, sample_chance(engine.chance_request(rolled), rng))
        assert [e for e in events if e["type"] == "battle_won"]
        assert engine.actor(after) not in (CHANCE, TERMINAL)
        engine.check_invariants(after)


def test_an_armed_match_fights_battle_after_battle_through_the_combat_service(platform, channel, redis_url):
    import asyncio

    state, seat = armed_state()
    [(match_id, meta)] = asyncio.run(create_matches(platform.address, 1, seat))
    r = redis.Redis.from_url(redis_url)
    combat = combat_pb2_grpc.CombatStub(channel)
    versions = []
    for n in range(3):
        r.hset(match_key(match_id), mapping=arm_fields(state))
        reply = combat.Resolve(common_pb2.ActRequest(match_id=match_id, action_id=f"t{n}",
                                                     action_json=json.dumps(FIGHT)), metadata=meta)
        types = [e.type for e in reply.events]
        assert "battle_dice" in types and "battle_won" in types and "roll" in types
        versions.append(reply.version)
    assert versions == [versions[0], versions[0] + 1, versions[0] + 2]
    # without arming again the battle is over: fighting is refused by the rules
    try:
        combat.Resolve(common_pb2.ActRequest(match_id=match_id, action_id="t9", action_json=json.dumps(FIGHT)),
                       metadata=meta)
        raise AssertionError("a second fight without a battle was accepted")
    except grpc.RpcError as exc:
        assert exc.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT)


def test_latency_summary_and_table():
    s = summary([i / 1000 for i in range(1, 101)], seconds=2.0)
    # statistics.quantiles' inclusive percentiles of 1..100 ms
    assert s["calls"] == 100 and s["rps"] == 50
    assert abs(s["p50_ms"] - 50.5) < 1e-9 and abs(s["p99_ms"] - 99.01) < 1e-9
    figures = {name: 1.0 for name, _, _ in ROWS}
    text = table(figures)
    assert all(name in text for name, _, _ in ROWS)


def test_the_recovery_bench_counts_lost_and_doubled_against_the_acknowledged_ids():
    from bench.recovery import _ai_lost_doubled, _lost_doubled, _row
    from bench.recovery import table as recovery_table

    assert _lost_doubled(["a", "b", "c"], ["a", "c", "c", "d"]) == (1, 1)  # b lost, c twice (d: never acknowledged)
    # an all-AI match seen at version 4 had three acknowledged actions (versions 2, 3, 4)
    assert _ai_lost_doubled(["x", "y", "y"], 4) == (1, 1)
    assert _ai_lost_doubled(["x", "y", "z", "w"], 4) == (0, 0)
    row = _row("worker-killed", "worker killed -> next AI turn played", [1.0, None, 3.0, 2.0])
    assert (row["attempts"], row["recovered"], row["median_s"], row["max_s"]) == (4, 3, 2.0, 3.0)
    shown = recovery_table([row])
    assert "worker-killed" in shown and "3.00" in shown


def test_the_deadline_bench_times_out_each_waiting_match_once():
    """bench/deadlines.py at a small size: its figures are not asserted, its count is."""
    from bench import deadlines

    figures = deadlines.measure(matches_n=60, window_s=1.0)
    assert figures["matches_waiting"] == figures["timeouts"] == 60
