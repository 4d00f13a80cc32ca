"""AI levels travel from the client to the AI's turn: an AI seat's level at CreateMatch
(SeatSpec.level) or a ticket's ai_level for the AI seats that fill its match is kept with the
match, shown in its seats, and played by the AI turn (its think time counted by game and level);
a level the game has not, or a level on a human seat, is refused naming the levels there are."""
from __future__ import annotations

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc
from prometheus_client import REGISTRY

from tests.support.terminal import ai_server
from tests.trust.support import identity


@pytest.fixture(scope="module")
def server(redis_url):
    server = ai_server(redis_url)
    yield server
    server.stop()


def thought(game: str, level: str) -> float:
    """AI choices made in this process at that level (the AI turns run in the server's threads)."""
    return REGISTRY.get_sample_value("archmage_ai_think_seconds_count", {"game": game, "level": level}) or 0.0


def seats_of(channel, match_id: str) -> list:
    return list(board_pb2_grpc.BoardStub(channel).GetMatch(board_pb2.GetMatchRequest(match_id=match_id)).seats)


def test_an_ai_seat_plays_at_the_level_its_match_was_made_with(server):
    from tests.support.processes import wait_for

    ch = grpc.insecure_channel(server.address)
    queue = matchmaking_pb2_grpc.MatchmakingStub(ch)
    levels = {g.name: list(g.ai_levels) for g in queue.ListGames(mm.ListGamesRequest()).games}
    assert levels["tower"] == ["easy", "normal", "hard"] and "hard" not in levels["race"]
    before = {level: thought("tower", level) for level in ("easy", "hard")}
    made = queue.CreateMatch(mm.CreateMatchRequest(game="tower", seats=[
        mm.SeatSpec(kind="ai", level="hard"), mm.SeatSpec(kind="ai", level="easy"), mm.SeatSpec(kind="ai")]))
    assert [(s.kind, s.level) for s in seats_of(ch, made.match_id)] == [("ai", "hard"), ("ai", "easy"),
                                                                        ("ai", "normal")]
    wait_for(lambda: all(thought("tower", lv) > before[lv] for lv in before), timeout=60,
             what="the hard and the easy seat to choose")


def test_a_ticket_s_ai_level_fills_its_match(server):
    ch = grpc.insecure_channel(server.address)
    me = identity(ch)
    queue = matchmaking_pb2_grpc.MatchmakingStub(ch)
    ticket = queue.CreateTicket(mm.CreateTicketRequest(game="tower", seats=2, ai_welcome=True, max_wait_s=0,
                                                       ai_level="easy", invite_code="lv-" + me.player),
                                metadata=me.meta)
    final = list(queue.WatchTicket(mm.TicketRef(ticket_id=ticket.ticket_id), metadata=me.meta, timeout=30))[-1]
    assert final.state == "assigned", final
    assert sorted((s.kind, s.level) for s in seats_of(ch, final.assignment.match_id)) == [("ai", "easy"),
                                                                                          ("human", "")]


@pytest.mark.parametrize("seat, game, named", [
    (mm.SeatSpec(kind="ai", level="grandmaster"), "tower", "easy, normal, hard"),
    (mm.SeatSpec(kind="ai", level="hard"), "race", "easy, normal"),
    (mm.SeatSpec(kind="human", level="easy"), "tower", "human seat"),
])
def test_a_level_there_is_not_is_refused_naming_those_there_are(server, seat, game, named):
    ch = grpc.insecure_channel(server.address)
    me = identity(ch)
    with pytest.raises(grpc.RpcError) as refused:
        matchmaking_pb2_grpc.MatchmakingStub(ch).CreateMatch(
            mm.CreateMatchRequest(game=game, seats=[seat, mm.SeatSpec(kind="ai")]), metadata=me.meta)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT and named in refused.value.details()
    with pytest.raises(grpc.RpcError) as ticket:
        matchmaking_pb2_grpc.MatchmakingStub(ch).CreateTicket(
            mm.CreateTicketRequest(game="race", seats=2, ai_level="hard"), metadata=me.meta)
    assert ticket.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "ai_level" in ticket.value.details()
