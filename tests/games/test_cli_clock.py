"""The terminal client and clocks: `archmage play --clock ...` asks for a time control, and a seat's
prompt shows every seat's time as the view gives it."""
from __future__ import annotations

import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc

from services.cli.play import clock_line, time_control


def test_clock_flags_read_as_time_controls_and_bad_ones_are_refused_with_the_form():
    turn = time_control("turn:60+600")
    assert (turn.mode, turn.turn_s, turn.bank_s, turn.on_timeout) == ("turn", 60, 600, "ai")
    total = time_control("total:900,forfeit")
    assert (total.mode, total.total_s, total.on_timeout) == ("total", 900, "forfeit")
    assert time_control("") is None
    for bad in ("blitz", "turn:x", "total:60,resign"):
        with pytest.raises(SystemExit, match="--clock"):
            time_control(bad)


def test_a_clocked_match_shows_each_seats_time_and_an_unclocked_one_shows_none(channel):
    matchmaking, board = matchmaking_pb2_grpc.MatchmakingStub(channel), board_pb2_grpc.BoardStub(channel)
    seats = [mm.SeatSpec(kind="human", name="you"), mm.SeatSpec(kind="human", name="other")]
    clocked = matchmaking.CreateMatch(mm.CreateMatchRequest(game="race", seats=seats,
                                                            time_control=time_control("total:90")), timeout=10)
    token = next(t.token for t in clocked.seat_tokens if t.seat == 0)
    view = board.GetMatch(board_pb2.GetMatchRequest(match_id=clocked.match_id), metadata=(("x-seat-token", token),),
                          timeout=10)
    line = clock_line(view, 0)
    assert line.startswith("clocks: you 1:") and "seat 1 1:30" in line, line
    assert line.count("(running)") == (1 if view.deadline_ms else 0), line
    plain = matchmaking.CreateMatch(mm.CreateMatchRequest(game="race", seats=seats), timeout=10)
    view = board.GetMatch(board_pb2.GetMatchRequest(match_id=plain.match_id), timeout=10)
    assert clock_line(view, 0) is None
