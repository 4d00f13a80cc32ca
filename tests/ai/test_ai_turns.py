"""AI seats: a Celery worker plays them through the public gRPC API, once per turn."""
from __future__ import annotations

import json
import secrets

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

from services.ai.tasks import play_turn_once
from services.client import Client, Seat, channels
from services.client.session import signed_in
from services.core import ai_seats
from tests.support.processes import celery_worker, wait_for
from tests.support.server import ServerThread


def ai_seat(server, match_id: str, seat: int, token: str) -> Seat:
    """The seat as an AI worker holds it: a client with no player signed in, and the seat's token."""
    return Seat(Client(channels.channel(server.address), sign_in=False), match_id, token, seat)


def test_a_turn_run_twice_acts_once(platform):
    channel = signed_in(grpc.insecure_channel(platform.address))
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="race", seats=[matchmaking_pb2.SeatSpec(kind="ai"), matchmaking_pb2.SeatSpec(kind="human")]))
    token = ai_seats.derive(platform.run(platform.platform.matches.ai_key()), m.match_id, 0)
    first = play_turn_once(ai_seat(platform, m.match_id, 0, token), 1)
    second = play_turn_once(ai_seat(platform, m.match_id, 0, token), 1)
    assert first == ("acted", "race") and second == ("stale", "race")
    view = board_pb2_grpc.BoardStub(channel).GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id))
    assert view.version == 2


def test_an_ai_token_acts_only_for_its_seat(platform):
    channel = signed_in(grpc.insecure_channel(platform.address))
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="race", seats=[matchmaking_pb2.SeatSpec(kind="human"), matchmaking_pb2.SeatSpec(kind="ai")]))
    token = ai_seats.derive(platform.run(platform.platform.matches.ai_key()), m.match_id, 1)
    assert play_turn_once(ai_seat(platform, m.match_id, 1, token), 1)[0] == "stale"


def test_an_ai_roll_goes_to_the_combat_service_where_it_listens_apart(redis_url):
    """COMBAT_ADDR apart from BOARD_ADDR: the worker's client sends Combat.Resolve to the combat service."""
    board_side = ServerThread(redis_url, names=("dice", "board", "matchmaking"))
    combat_side = ServerThread(redis_url, names=("combat",))
    board_side.start()
    combat_side.start()
    try:
        m = matchmaking_pb2_grpc.MatchmakingStub(signed_in(grpc.insecure_channel(board_side.address))).CreateMatch(
            matchmaking_pb2.CreateMatchRequest(game="race", seats=[matchmaking_pb2.SeatSpec(kind="ai"),
                                                                   matchmaking_pb2.SeatSpec(kind="human")]))
        token = ai_seats.derive(board_side.run(board_side.platform.matches.ai_key()), m.match_id, 0)
        with pytest.raises(grpc.RpcError) as refused:  # the race AI rolls, and the board side serves no Resolve
            play_turn_once(ai_seat(board_side, m.match_id, 0, token), 1)
        assert refused.value.code() == grpc.StatusCode.UNIMPLEMENTED
        client = Client(channels.channel(board_side.address), combat_channel=channels.channel(combat_side.address),
                        sign_in=False)
        assert play_turn_once(Seat(client, m.match_id, token, 0), 1) == ("acted", "race")
        assert Seat(client, m.match_id, token, 0).match().version == 2
    finally:
        combat_side.stop()
        board_side.stop()


@pytest.fixture
def ai_platform(redis_url):
    from services.ai.celery_app import app
    from services.ai.notifier import CeleryTurns

    queue = "ai-test-" + secrets.token_hex(4)
    server = ServerThread(redis_url, notifier=CeleryTurns(app, queue))
    server.start()
    env = {"REDIS_URL": redis_url, "BOARD_ADDR": server.address, "COMBAT_ADDR": server.address, "AI_QUEUE": queue}
    with celery_worker(env, queue=queue):
        yield server
    server.stop()


def test_celery_workers_play_an_all_ai_match_to_the_end(ai_platform):
    channel = signed_in(grpc.insecure_channel(ai_platform.address))
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="race", seats=[matchmaking_pb2.SeatSpec(kind="ai") for _ in range(3)]))
    board = board_pb2_grpc.BoardStub(channel)
    view = wait_for(lambda: (v := board.GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id))).status == "finished"
                    and v, timeout=60, what="the AI match to finish")
    assert json.loads(view.outcome_json)["winners"]
    verdict = dice_pb2_grpc.DiceStub(channel).Verify(dice_pb2.VerifyRequest(session_id=m.match_id))
    assert verdict.ok, list(verdict.problems)


def test_celery_workers_play_wizards_seats_through_encounters_and_orders(ai_platform):
    """Wizards sections 7-10 served: three AI seats, played by Celery workers through the public API,
    meet encounters, join an Order at a Mentor (10) and receive his Task (9.41), answering the
    encounters' choices on the combat path; the dice verify roll by roll at the end."""
    channel = grpc.insecure_channel(ai_platform.address)
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="wizards", seats=[matchmaking_pb2.SeatSpec(kind="ai") for _ in range(3)],
        options_json=json.dumps({"days": 21})))
    board = board_pb2_grpc.BoardStub(channel)
    wait_for(lambda: board.GetMatch(board_pb2.GetMatchRequest(match_id=m.match_id)).status == "finished",
             timeout=600, interval=0.5, what="the all-AI Wizards match to finish")
    events = [(e.type, json.loads(e.body_json))
              for e in board.WatchMatch(board_pb2.WatchMatchRequest(match_id=m.match_id), timeout=60)]
    kinds = {t for t, _ in events}
    assert {"encounter_due", "joined_order", "task_drawn"} <= kinds, sorted(kinds)
    joined = [b["seat"] for t, b in events if t == "joined_order"]
    mandatory = [b for t, b in events if t == "task_drawn" and b["seat"] in joined and b["mandatory"]]
    assert mandatory, "a Mentor gives his new Apprentice a Mandatory Task (9.41)"
    verdict = dice_pb2_grpc.DiceStub(channel).Verify(dice_pb2.VerifyRequest(session_id=m.match_id))
    assert verdict.ok, list(verdict.problems)
