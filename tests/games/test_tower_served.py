"""Tower of the Wizard King served for real: a 4-seat match of three AI seats (Celery
workers) and a scripted client, over gRPC through the real services and Redis, played
to the end and verified by the dice verifier; and the terminal client."""
from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time

import grpc
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

from services.cli.main import main as cli
from services.client.session import signed_in
from tests.support.clients import ScriptedClient


def test_four_seats_three_ai_and_a_scripted_client_play_to_the_end(served):
    channel = signed_in(grpc.insecure_channel(served.address))
    seats = [matchmaking_pb2.SeatSpec(kind="human", name="scripted")] + [
        matchmaking_pb2.SeatSpec(kind="ai") for _ in range(3)]
    started = time.monotonic()
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(
        matchmaking_pb2.CreateMatchRequest(game="tower", seats=seats))
    client = ScriptedClient(channel, m.match_id, m.seat_tokens[0].token, seed=11)
    view = client.play_until_over(seat=0)
    print(f"tower 4-seat match: {view.version} versions, {client.actions_taken} scripted actions, "
          f"{time.monotonic() - started:.1f}s")
    outcome = json.loads(view.outcome_json)
    assert len(outcome["scores"]) == 4 and outcome["winners"]
    assert client.actions_taken > 0
    # the seat's view after the end shows everything; the verifier recomputes every roll
    assert cli(["--addr", served.address, "verify", m.match_id]) == 0
    events = list(client.board.WatchMatch(board_pb2.WatchMatchRequest(match_id=m.match_id), timeout=10))
    kinds = {e.type for e in events}
    assert {"match_created", "action", "roll", "match_finished", "dice_revealed"} <= kinds
    seats_that_acted = {json.loads(e.body_json)["seat"] for e in events if e.type == "action"}
    assert seats_that_acted == {0, 1, 2, 3}


def test_an_all_ai_match_finishes(served):
    channel = signed_in(grpc.insecure_channel(served.address))
    started = time.monotonic()
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="tower", seats=[matchmaking_pb2.SeatSpec(kind="ai") for _ in range(4)]))
    board = board_pb2_grpc.BoardStub(channel)
    deadline = time.monotonic() + 240
    while (view := board.GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id))).status != "finished":
        assert time.monotonic() < deadline, "the all-AI match did not finish"
        time.sleep(0.1)
    print(f"all-AI 4-player tower match: {view.version} versions in {time.monotonic() - started:.1f}s")
    assert cli(["--addr", served.address, "verify", m.match_id]) == 0


def test_no_seat_and_no_spectator_sees_face_down_tokens_or_the_tower(served):
    """What GetMatch serves hides every face-down token and the Tower's chambers, whoever asks."""
    channel = signed_in(grpc.insecure_channel(served.address))
    # set-up by chance (a quick game): the tokens are on the board before anyone acts
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="tower", seats=[matchmaking_pb2.SeatSpec(kind="human") for _ in range(2)],
        options_json=json.dumps({"setup": "chance"})))
    board = board_pb2_grpc.BoardStub(channel)
    state = served.run(served.platform.matches.load(m.match_id)).state
    assert state.stage == "play"
    inside = [c for c in state.tower["chambers"] if c]
    hidden_ids = [t["token"]["id"] for t in state.board.values() if t["token"] and not t["token"]["up"]]
    assert inside and hidden_ids
    for meta in [()] + [(("x-seat-token", t.token),) for t in m.seat_tokens]:
        text = board.GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id), metadata=meta).view_json
        assert not any(f'"{token_id}"' in text for token_id in hidden_ids)
        assert '"chambers"' not in text and "ramp:" not in text


def test_terminal_play_runs_a_match_from_stdin(served):
    """`archmage play tower --ai 1`: a person plays a whole match from the terminal; it makes the set-up
    choices, draws the board, lists the actions, takes choices from stdin and shows the dice of each battle
    once (the game's own line; the platform's roll line is not repeated)."""
    answers = "0\n" * 3000
    proc = subprocess.run([sys.executable, "-m", "services.cli.main", "--addr", served.address, "play", "tower",
                           "--ai", "1"], input=answers, capture_output=True, text=True, timeout=240,
                          env=dict(os.environ))
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Ramp of Time" in out and out.count("your choice") >= 10
    assert "[0]" in out and "Dice: seat" in out and "\n  dice: " not in out
    assert "Set-up: seat" in out and "goes first" in out
    assert "[0] Eliminate the " in out  # each of the two seats eliminates one Character
    # the seat moving first chooses last: it selects its Wizard, or takes the last one without being asked
    assert "as your Wizard" in out or "Set-up: seat 0 takes the last Wizard," in out
    assert "Match over. " in out and "verify it: archmage verify" in out


def test_a_queued_player_is_matched_with_ai_after_the_wait_and_plays_to_the_end(served):
    """Matchmaking end to end: queue for Tower with AI welcome, get the assignment on
    WatchTicket after the wait limit, then play the match to the end against AI seats."""
    from archmage.matchmaking.v1 import matchmaking_pb2 as mm

    channel = signed_in(grpc.insecure_channel(served.address))
    stub = matchmaking_pb2_grpc.MatchmakingStub(channel)
    queued_at = time.monotonic()
    t = stub.CreateTicket(mm.CreateTicketRequest(game="tower", seats=4, ai_welcome=True, max_wait_s=1,
                                                 invite_code=secrets.token_hex(4)))
    states = list(stub.WatchTicket(mm.TicketRef(ticket_id=t.ticket_id), timeout=30))
    assert states[0].state == "queued" and states[-1].state == "assigned"
    assert {s.state for s in states} <= {"queued", "matching", "assigned"}
    assert time.monotonic() - queued_at >= 1.0
    a = states[-1].assignment
    assert a.ai_seats == 3 and a.board_addr  # any replica may form the match; it names where to play
    seat = a.seats[0]
    client = ScriptedClient(grpc.insecure_channel(a.board_addr), a.match_id, seat.seat_token, seed=5)
    view = client.play_until_over(seat=seat.seat)
    assert view.status == "finished" and len(json.loads(view.outcome_json)["scores"]) == 4


def test_watch_follows_a_match_to_its_end(served):
    """`archmage watch MATCH_ID` prints every event of a match as it happens, then ends."""
    channel = signed_in(grpc.insecure_channel(served.address))
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="tower", seats=[matchmaking_pb2.SeatSpec(kind="ai") for _ in range(2)]))
    watcher = subprocess.run([sys.executable, "-m", "services.cli.main", "--addr", served.address, "watch",
                              m.match_id], capture_output=True, text=True, timeout=240, env=dict(os.environ))
    assert watcher.returncode == 0, watcher.stderr[-2000:]
    lines = watcher.stdout.splitlines()
    assert lines[0].startswith("#1 ") and lines[-1] == "match over"
    assert any("moves from" in line for line in lines)
    assert any("dice seed revealed" in line for line in lines)


def test_a_human_who_resigns_leaves_the_ai_seats_to_play_it_out(served):
    """Board.Resign in a match of one person and two AI seats: the AI seats (Celery workers) are
    queued as after any action, play on without the resigned seat and finish the match."""
    import uuid

    channel = signed_in(grpc.insecure_channel(served.address))
    seats = [matchmaking_pb2.SeatSpec(kind="human", name="me")] + [matchmaking_pb2.SeatSpec(kind="ai")] * 2
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(
        matchmaking_pb2.CreateMatchRequest(game="tower", seats=seats, options_json=json.dumps({"setup": "chance"})))
    board = board_pb2_grpc.BoardStub(channel)
    meta = (("x-seat-token", m.seat_tokens[0].token),)
    board.Resign(board_pb2.ResignRequest(match_id=m.match_id, action_id=str(uuid.uuid4())), metadata=meta, timeout=10)
    deadline = time.monotonic() + 240
    while (view := board.GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id))).status != "finished":
        assert time.monotonic() < deadline, "the AI seats did not finish the match"
        time.sleep(0.1)
    outcome = json.loads(view.outcome_json)
    assert outcome["resigned"] == [0] and outcome["winners"] and 0 not in outcome["winners"]
    assert cli(["--addr", served.address, "verify", m.match_id]) == 0
