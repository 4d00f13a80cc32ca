"""Match clocks: a seat that runs out of time is played by its stand-in AI until its player acts
again, or forfeits; each deadline is acted on once, however many sweepers race for it; a time
control that cannot be played is refused. Clocks of a second or two; every wait is on readiness."""
from __future__ import annotations

import asyncio
import json
import math
import time

import grpc
import pytest
from archmage.board.v1 import board_pb2
from archmage.common.v1 import common_pb2
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

from services.client.session import signed_in
from services.core import ai_seats
from services.core.store import DEADLINES_KEY
from shared.engine import jsonschemas
from tests.platform.test_match_driver import Client
from tests.support.processes import wait_for
from tests.support.server import ServerThread
from tests.support.terminal import ai_server

CLOCK_EVENTS = ("action", "resigned", "timed_out", "ai_took_over", "returned")


def _create(channel, control: common_pb2.TimeControl, seats=("human", "human")):
    mm = matchmaking_pb2_grpc.MatchmakingStub(channel)
    m = mm.CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="race", seats=[matchmaking_pb2.SeatSpec(kind=k) for k in seats], time_control=control))
    return m, [Client(channel, m.match_id, t.token) for t in m.seat_tokens]


def _log(server, match_id):
    return server.run(server.platform.store.read_log(match_id))


def _types(server, match_id):
    return [e.type for e in _log(server, match_id)]


def _verified(channel, match_id, events=()):
    """The match verifies (the dice and the event chain), and each event the platform wrote
    matches its schema (docs/schemas/platform-events.json)."""
    for e in events:
        if e.type in CLOCK_EVENTS:
            errors = list(jsonschemas.validator(None, "platform-events", e.type).iter_errors(_body(e)))
            assert not errors, (e.type, e.body_json, [x.message for x in errors])
    verdict = dice_pb2_grpc.DiceStub(channel).Verify(dice_pb2.VerifyRequest(session_id=match_id))
    assert verdict.ok, list(verdict.problems)


def _body(event):
    return json.loads(event.body_json)


def test_a_seat_out_of_time_is_played_by_ai_until_its_player_acts_again(own_redis):
    server = ai_server(own_redis, clock_sweep_s=0.05, stand_in_grace_s=2.0)
    try:
        channel = signed_in(grpc.insecure_channel(server.address))
        m, (zero, one) = _create(channel, common_pb2.TimeControl(mode="turn", turn_s=1, bank_s=0.5))
        view = zero.view()
        assert view.time_control.mode == "turn" and view.clocks[0].running
        assert 0 < view.deadline_ms - view.server_time_ms <= 1500  # (how much is left depends on the machine)
        assert [c.remaining_ms for c in view.clocks][1] == 500  # seat 1's bank; its turn has not begun

        # seat 0 never acts: it times out, its stand-in takes over and, after the grace, plays its turn
        wait_for(lambda: zero.view().to_act == 1, timeout=20, what="the stand-in to play seat 0's turn")
        events = _log(server, m.match_id)
        kinds = [e.type for e in events]
        out = events[kinds.index("timed_out")]
        assert _body(out)["seat"] == 0 and _body(out)["on_timeout"] == "ai"
        assert _body(events[kinds.index("ai_took_over")]) == {"seat": 0, "level": "default", "grace_ms": 2000}
        played = next(e for e in events if e.type == "action" and _body(e)["seat"] == 0)
        assert _body(played)["stand_in"] is True
        view = one.view()
        assert view.clocks[0].stand_in and view.clocks[0].remaining_ms == 0 and view.clocks[1].running

        # seat 1 plays in time (its action records the time it used); then seat 0's player is back
        reply = one.act({"kind": "hide", "number": 2})
        acted = next(e for e in reply.events if e.type == "action")
        used = json.loads(acted.body_json)
        assert used["time_used_ms"] >= 0 and used["time_left_ms"] >= 0
        reply = zero.act({"kind": "hide", "number": 1})  # within the stand-in's grace
        assert [e.type for e in reply.events][:2] == ["returned", "action"]
        view = zero.view()
        assert not view.clocks[0].stand_in and view.clocks[1].running and view.to_act == 1
        # the stand-in's token still reads (a turn it had queued finds the match moved on) but acts no more
        stand_in = Client(channel, m.match_id, ai_seats.derive(server.run(server.platform.matches.ai_key()),
                                                               m.match_id, 0))
        assert stand_in.view().your_seat == 0
        one.act({"kind": "hide", "number": 3})
        with pytest.raises(grpc.RpcError) as refused:
            stand_in.act({"kind": "hide", "number": 1})
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        zero.board.Resign(board_pb2.ResignRequest(match_id=m.match_id, action_id="gg"), metadata=zero.meta)
        # the timeout, the takeover and the return are links of its chain
        _verified(channel, m.match_id, _log(server, m.match_id))
    finally:
        server.stop()


def test_a_seat_out_of_time_forfeits_when_the_match_says_so(own_redis):
    with ServerThread(own_redis, clock_sweep_s=0.05) as server:
        channel = signed_in(grpc.insecure_channel(server.address))
        m, (zero, one) = _create(channel, common_pb2.TimeControl(mode="total", total_s=1, on_timeout="forfeit"))
        wait_for(lambda: zero.view().status == "finished", timeout=20, what="seat 0 to forfeit")
        events = _log(server, m.match_id)
        kinds = [e.type for e in events]
        assert kinds[kinds.index("timed_out"):] == ["timed_out", "resigned", "conceded", "match_finished",
                                                    "dice_revealed"]
        assert _body(events[kinds.index("resigned")])["reason"] == "timed_out"
        assert json.loads(zero.view().outcome_json)["winners"] == [1]
        assert server.run(server.platform.redis.zscore(DEADLINES_KEY, m.match_id)) is None
        _verified(channel, m.match_id, events)


def test_sweepers_racing_and_one_that_died_mid_sweep_act_on_each_deadline_once(own_redis):
    with ServerThread(own_redis, clock_sweep_s=3600) as server:  # the test sweeps by hand
        channel = signed_in(grpc.insecure_channel(server.address))
        races = [_create(channel, common_pb2.TimeControl(mode="turn", turn_s=1))[0] for _ in range(3)]
        matches, store = server.platform.matches, server.platform.store
        later = time.time() + 1.5  # every seat 0 is out of time by then, and no stand-in's grace is over

        async def many_sweepers():
            return await asyncio.gather(*(matches.sweep_deadlines(now=later) for _ in range(5)))

        assert sum(server.run(many_sweepers())) == 3
        for m in races:
            assert _types(server, m.match_id).count("timed_out") == 1

        # a sweeper that claims a deadline and dies: the deadline comes round once its lease ends
        m, (zero, one) = _create(channel, common_pb2.TimeControl(mode="turn", turn_s=1, on_timeout="forfeit"))
        (due_id, due), = [d for d in server.run(store.due_deadlines(later + 60, 100)) if d[0] == m.match_id]
        assert server.run(store.claim_deadline(m.match_id, due, later + 5))  # claimed, then nothing
        assert server.run(matches.sweep_deadlines(now=later + 1)) == 0  # leased: nobody takes it yet
        server.run(many_sweepers_at(matches, later + 6))  # (the first three's stand-ins are due by then too)
        server.run(many_sweepers_at(matches, later + 7))
        assert _types(server, m.match_id).count("timed_out") == 1
        assert zero.view().status == "finished"


async def many_sweepers_at(matches, now):
    return await asyncio.gather(*(matches.sweep_deadlines(now=now) for _ in range(4)))


@pytest.mark.parametrize("control, field", [
    (dict(mode="turn", turn_s=-5), "turn_s"),
    (dict(mode="turn", turn_s=60, bank_s=-1), "bank_s"),
    (dict(mode="total", total_s=1e12), "total_s"),
    (dict(mode="turn", turn_s=0.2), "turn_s"),
    (dict(mode="total", total_s=math.nan), "total_s"),
    (dict(mode="turn", turn_s=60, total_s=600), "total_s"),
    (dict(mode="blitz", turn_s=60), "mode"),
    (dict(mode="turn", turn_s=60, on_timeout="shrug"), "on_timeout"),
])
def test_a_clock_that_cannot_be_played_is_refused(channel, control, field):
    with pytest.raises(grpc.RpcError) as refused:
        _create(channel, common_pb2.TimeControl(**control))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert f"time_control.{field}" in refused.value.details()


def test_my_matches_waiting_on_me_come_first_soonest_deadline_first(own_redis):
    with ServerThread(own_redis, clock_sweep_s=3600) as server:
        channel = signed_in(grpc.insecure_channel(server.address))
        slow, _ = _create(channel, common_pb2.TimeControl(mode="turn", turn_s=600))
        unclocked, _ = _create(channel, common_pb2.TimeControl())
        soon, _ = _create(channel, common_pb2.TimeControl(mode="turn", turn_s=60))
        theirs, (me,) = _create(channel, common_pb2.TimeControl(), seats=("human", "ai"))
        me.act({"kind": "hide", "number": 1})  # now the AI seat is to act (no worker plays it here)
        mine = matchmaking_pb2_grpc.MatchmakingStub(channel).ListMyMatches(
            matchmaking_pb2.ListMyMatchesRequest(limit=10)).matches
        assert [x.match_id for x in mine] == [soon.match_id, slow.match_id, unclocked.match_id, theirs.match_id]
        assert [x.your_turn for x in mine] == [True, True, True, False]
        assert mine[0].deadline_ms < mine[1].deadline_ms and mine[2].deadline_ms == 0


def test_in_a_three_seat_tower_match_forfeits_go_on_until_one_seat_is_left(own_redis):
    with ServerThread(own_redis, clock_sweep_s=0.05) as server:
        channel = signed_in(grpc.insecure_channel(server.address))
        mm = matchmaking_pb2_grpc.MatchmakingStub(channel)
        m = mm.CreateMatch(matchmaking_pb2.CreateMatchRequest(
            game="tower", seats=[matchmaking_pb2.SeatSpec(kind="human") for _ in range(3)],
            time_control=common_pb2.TimeControl(mode="total", total_s=1, on_timeout="forfeit")))
        seat = Client(channel, m.match_id, m.seat_tokens[0].token)
        first = seat.view().to_act
        wait_for(lambda: "timed_out" in _types(server, m.match_id), timeout=20, what="the first seat out of time")
        view = seat.view()
        if view.status == "active":  # the match goes on without it, on the next seat's clock
            assert view.clocks[first].remaining_ms == 0 and view.to_act != first
            assert view.clocks[view.to_act].running
        wait_for(lambda: seat.view().status == "finished", timeout=30, what="one seat to be left")
        events = _log(server, m.match_id)
        gone = [_body(e)["seat"] for e in events if e.type == "timed_out"]
        assert len(gone) == 2 and len(set(gone)) == 2
        assert [_body(e)["reason"] for e in events if e.type == "resigned"] == ["timed_out", "timed_out"]
        outcome = json.loads(seat.view().outcome_json)
        assert outcome["winners"] == [({0, 1, 2} - set(gone)).pop()] and outcome["resigned"] == gone
        _verified(channel, m.match_id, events)


def test_an_action_id_in_the_timeout_form_is_refused_so_no_seat_can_forestall_its_timeout(channel):
    """A move sent as "clock:<version>" ahead of a deadline would make that version's timeout a
    replay (the platform's timeouts are keyed so), and the seat's clock would never fall."""
    m, (zero, _) = _create(channel, common_pb2.TimeControl(mode="turn", turn_s=60))
    before = zero.view().version
    for call in (lambda: zero.act({"kind": "hide", "number": 1}, action_id=f"clock:{before + 1}"),
                 lambda: zero.board.Resign(board_pb2.ResignRequest(match_id=m.match_id, action_id="clock:9"),
                                           metadata=zero.meta)):
        with pytest.raises(grpc.RpcError) as refused:
            call()
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "clock:" in refused.value.details()
    assert zero.view().version == before


def test_a_seat_past_its_deadline_makes_no_more_moves_before_its_timeout(own_redis):
    """Out of time is out of time: a move sent after the deadline, before any sweep has acted on
    it, is refused and changes nothing; the timeout then comes as the time control says."""
    with ServerThread(own_redis, clock_sweep_s=3600) as server:  # no sweep until the test runs one
        channel = signed_in(grpc.insecure_channel(server.address))
        m, (zero, _) = _create(channel, common_pb2.TimeControl(mode="total", total_s=1, on_timeout="forfeit"))
        view = wait_for(lambda: (v := zero.view()).server_time_ms > v.deadline_ms > 0 and v, timeout=20,
                        what="seat 0's deadline to pass")
        with pytest.raises(grpc.RpcError) as refused:
            zero.act({"kind": "hide", "number": 1})
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "out of time" in refused.value.details()
        assert zero.view().version == view.version
        assert server.run(server.platform.matches.sweep_deadlines()) == 1
        assert zero.view().status == "finished"
