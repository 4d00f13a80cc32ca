"""Incantris served for real: a 4-player Battle Royale of AI seats and a solo match (an AI
seat against the rulebook's attacking wizards), over gRPC through the real services,
Redis and Celery, each verified by the dice verifier afterwards."""
from __future__ import annotations

import json
import time

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

from services.cli.main import main as cli
from services.client.session import signed_in
from tests.support.clients import ScriptedClient


def play_all_ai(served, variant: str, seats: int, timeout_s: float = 240):
    channel = signed_in(grpc.insecure_channel(served.address))
    started = time.monotonic()
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="incantris", variant=variant, seats=[matchmaking_pb2.SeatSpec(kind="ai") for _ in range(seats)]))
    board = board_pb2_grpc.BoardStub(channel)
    while (view := board.GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id))).status != "finished":
        assert time.monotonic() - started < timeout_s, f"the {variant} match did not finish"
        time.sleep(0.1)
    print(f"incantris {variant}, {seats} AI seats: {view.version} versions in {time.monotonic() - started:.1f}s")
    return m, view


def test_a_four_player_battle_royale_of_ai_seats_plays_out_and_verifies(served):
    m, view = play_all_ai(served, "battle-royale", 4)
    outcome = json.loads(view.outcome_json)
    assert len(outcome["scores"]) == 4
    assert cli(["--addr", served.address, "verify", m.match_id]) == 0


def test_a_solo_match_against_the_attacking_wizards_plays_out_and_verifies(served):
    m, view = play_all_ai(served, "solo", 1)
    assert json.loads(view.outcome_json)["summary"]
    assert cli(["--addr", served.address, "verify", m.match_id]) == 0


@pytest.mark.parametrize("variant", ["crystal-sap", "capture-the-crystal", "shifting-arena"])
def test_a_human_client_plays_each_scenario_against_an_ai_seat(served, variant):
    channel = signed_in(grpc.insecure_channel(served.address))
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="incantris", variant=variant,
        seats=[matchmaking_pb2.SeatSpec(kind="human"), matchmaking_pb2.SeatSpec(kind="ai")]))
    client = ScriptedClient(channel, m.match_id, m.seat_tokens[0].token, seed=3)
    view = client.play_until_over(seat=0)
    assert view.status == "finished" and client.actions_taken > 0
    assert cli(["--addr", served.address, "verify", m.match_id]) == 0


def test_every_seat_sees_the_whole_state(served):
    """Incantris hides nothing: a seat's view and a spectator's view are the same."""
    channel = signed_in(grpc.insecure_channel(served.address))
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="incantris", variant="battle-royale",
        seats=[matchmaking_pb2.SeatSpec(kind="human") for _ in range(2)]))
    board = board_pb2_grpc.BoardStub(channel)
    spectator = board.GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id)).view_json
    seat = board.GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id),
                          metadata=(("x-seat-token", m.seat_tokens[1].token),)).view_json
    seat_view, spectator_view = json.loads(seat), json.loads(spectator)
    assert (seat_view.pop("viewer"), spectator_view.pop("viewer")) == (1, None)  # who is looking
    assert seat_view == spectator_view


def _play_cli(served, *args, answers="0\n" * 6000, timeout=300):
    import os
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "services.cli.main", "--addr", served.address, "play", "incantris",
                           *args], input=answers, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ))


def test_solo_mode_is_played_from_the_terminal(served):
    """`archmage play incantris --scenario solo --ai 0`: one person against the attacking wizards."""
    done = _play_cli(served, "--scenario", "solo", "--ai", "0")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "your choice" in done.stdout and "Match over. " in done.stdout


def test_a_campaign_is_played_from_the_terminal(served):
    """`archmage play incantris --campaign --ai 1`: four games in order, the record carried along."""
    done = _play_cli(served, "--campaign", "--ai", "1", timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert out.count("verify it: archmage verify") == 4
    assert "on to game 4 of the campaign" in out and "campaign over" in out and '"complete": true' in out
