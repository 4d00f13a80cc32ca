"""Tickets over real gRPC and Redis, with the matchmaker running in the server."""
from __future__ import annotations

import secrets
import time

import grpc
import pytest
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc

from tests.support.server import ServerThread
from tests.trust.support import identity


@pytest.fixture(scope="module")
def stub(redis_url):
    from services.ai.celery_app import app
    from services.ai.notifier import CeleryTurns

    # AI turns go to a queue nobody serves: these tests look at tickets, not at play
    queue = "ai-unplayed-" + secrets.token_hex(4)
    server = ServerThread(redis_url, notifier=CeleryTurns(app, queue), mm_interval_s=0.05, mm_window_base=100,
                          mm_window_per_s=400)
    server.start()
    with grpc.insecure_channel(server.address) as ch:
        _CHANNEL[:] = [ch]
        yield matchmaking_pb2_grpc.MatchmakingStub(ch)
    server.stop()
    OWNERS.clear()
    import redis

    redis.Redis.from_url(redis_url).delete(queue)


OWNERS: dict[str, tuple] = {}  # ticket id -> its owner's credential metadata


_CHANNEL: list = []  # the module's channel to the server, for signing players in


def players(n):
    """n guest players, signed in through the public API."""
    return [identity(_CHANNEL[0]) for _ in range(n)]


def ticket(stub, party, invite, **kw):
    """A ticket made by party[0] and accepted by the rest of the party."""
    kw.setdefault("game", "race")
    owner = party[0]
    made = stub.CreateTicket(mm.CreateTicketRequest(party=[p.player for p in party], invite_code=invite, **kw),
                             metadata=owner.meta)
    for member in party[1:]:
        made = stub.AcceptTicket(mm.TicketRef(ticket_id=made.ticket_id), metadata=member.meta)
    OWNERS[made.ticket_id] = owner.meta
    return made


def cancel(stub, ticket_id):
    return stub.CancelTicket(mm.TicketRef(ticket_id=ticket_id), metadata=OWNERS[ticket_id])


def watch_to_end(stub, ticket_id, timeout=20):
    return list(stub.WatchTicket(mm.TicketRef(ticket_id=ticket_id), metadata=OWNERS[ticket_id], timeout=timeout))


def test_four_players_form_one_four_seat_match_without_ai(stub):
    invite = secrets.token_hex(4)
    ts = [ticket(stub, [p], invite, seats=4) for p in players(4)]
    finals = [watch_to_end(stub, t.ticket_id)[-1] for t in ts]
    assert {f.state for f in finals} == {"assigned"}
    assert len({f.assignment.match_id for f in finals}) == 1
    assert sorted(s.seat for f in finals for s in f.assignment.seats) == [0, 1, 2, 3]
    assert finals[0].assignment.ai_seats == 0 and finals[0].assignment.board_addr


def test_ai_fills_the_rest_after_the_wait_and_the_stream_ends_with_the_assignment(stub):
    start = time.monotonic()
    t = ticket(stub, players(1), secrets.token_hex(4), seats=3, ai_welcome=True, max_wait_s=1)
    states = watch_to_end(stub, t.ticket_id)
    assert states[0].state == "queued" and states[-1].state == "assigned"
    assert time.monotonic() - start >= 1.0
    a = states[-1].assignment
    assert a.ai_seats == 2 and len(a.seats) == 1 and a.seats[0].seat_token


def test_a_ticket_clock_makes_a_clocked_match_and_only_tickets_with_the_same_clock_meet(stub):
    from archmage.board.v1 import board_pb2, board_pb2_grpc
    from archmage.common.v1 import common_pb2

    invite = secrets.token_hex(4)
    blitz = common_pb2.TimeControl(mode="total", total_s=300, on_timeout="ai")
    a, b, c = players(3)
    slow = ticket(stub, [a], invite, seats=2, time_control=common_pb2.TimeControl(mode="turn", turn_s=86400))
    first = ticket(stub, [b], invite, seats=2, time_control=blitz)
    assert first.time_control == blitz
    second = ticket(stub, [c], invite, seats=2, time_control=common_pb2.TimeControl(mode="total", total_s=300))
    # (on_timeout left empty is "ai": the same clock)
    final = watch_to_end(stub, first.ticket_id)[-1]
    assert final.assignment.match_id == watch_to_end(stub, second.ticket_id)[-1].assignment.match_id
    assert stub.GetTicket(mm.TicketRef(ticket_id=slow.ticket_id), metadata=a.meta).state == "queued"
    view = board_pb2_grpc.BoardStub(_CHANNEL[0]).GetMatch(board_pb2.GetMatchRequest(match_id=final.assignment.match_id))
    assert view.time_control == blitz  # the clock the tickets asked for: a seat not yet to act has all of it
    assert [c.remaining_ms for c in view.clocks if not c.running] == [300_000] * (len(view.clocks) - 1)
    cancel(stub, slow.ticket_id)
    with pytest.raises(grpc.RpcError) as err:
        ticket(stub, players(1), invite, time_control=common_pb2.TimeControl(mode="turn", turn_s=-1))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "time_control.turn_s" in err.value.details()


def test_a_party_sits_together(stub):
    invite = secrets.token_hex(4)
    party = players(2)
    t = ticket(stub, party, invite, seats=4)
    others = [ticket(stub, [p], invite, seats=4) for p in players(2)]
    final = watch_to_end(stub, t.ticket_id)[-1]
    assert [s.player for s in final.assignment.seats] == [p.player for p in party]
    assert {watch_to_end(stub, o.ticket_id)[-1].assignment.match_id for o in others} == {final.assignment.match_id}


def test_ratings_far_apart_match_only_once_the_window_widens(stub, redis_url):
    """The ratings are the platform's: one player is stored at 2000 (mu - 3 sigma = 25), one is new (1000)."""
    import redis

    from services.players.ratings import rating_key

    invite = secrets.token_hex(4)
    strong = players(1)
    redis.Redis.from_url(redis_url).hset(rating_key("race", strong[0].player),
                                         mapping={"mu": 50.0, "sigma": 25 / 3, "matches": 10})
    start = time.monotonic()
    a = ticket(stub, players(1), invite, seats=2)
    b = ticket(stub, strong, invite, seats=2)
    final = watch_to_end(stub, a.ticket_id)[-1]
    waited = time.monotonic() - start
    assert final.state == "assigned"
    assert waited >= 2.0  # gap 1000 = 100 + 400/s * 2.25 s
    assert watch_to_end(stub, b.ticket_id)[-1].assignment.match_id == final.assignment.match_id


def test_one_active_ticket_per_player(stub):
    [p] = players(1)
    first = ticket(stub, [p], secrets.token_hex(4), seats=4)
    with pytest.raises(grpc.RpcError) as err:
        ticket(stub, [p], secrets.token_hex(4), seats=4)
    assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS
    cancel(stub, first.ticket_id)
    again = ticket(stub, [p], secrets.token_hex(4), seats=4)
    assert again.state == "queued"
    cancel(stub, again.ticket_id)


def test_cancel_a_queued_ticket_ends_its_watch(stub):
    t = ticket(stub, players(1), secrets.token_hex(4), seats=4)
    cancelled = cancel(stub, t.ticket_id)
    assert cancelled.state == "cancelled"
    assert [s.state for s in watch_to_end(stub, t.ticket_id)] == ["cancelled"]


def test_an_assigned_ticket_cannot_be_cancelled(stub):
    t = ticket(stub, players(1), secrets.token_hex(4), seats=2, ai_welcome=True, max_wait_s=0)
    assert watch_to_end(stub, t.ticket_id)[-1].state == "assigned"
    with pytest.raises(grpc.RpcError) as err:
        cancel(stub, t.ticket_id)
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "assigned" in err.value.details()


def test_list_queues_shows_depth_and_oldest_wait(stub):
    t = ticket(stub, players(1), secrets.token_hex(4), seats=4)
    time.sleep(0.2)
    queues = {(q.game, q.variant): q for q in stub.ListQueues(mm.ListQueuesRequest()).queues}
    q = queues[("race", "standard")]
    assert q.depth >= 1 and q.oldest_wait_ms >= 200
    cancel(stub, t.ticket_id)


@pytest.mark.parametrize("kw, fragment", [
    ({"game": "chess"}, "unknown game"),
    ({"variant": "nope"}, "no variant"),
    ({"seats": 9}, "seats 1 to 4"),
    ({"party": [f"p{i}" for i in range(5)]}, "does not fit"),
    ({"party": ["a b"]}, "player id"),
    ({"party": ["dup", "dup"]}, "twice"),
    ({"max_wait_s": 10**6}, "max_wait_s"),
    ({"invite_code": "x" * 100}, "invite_code is at most 64"),
])
def test_bad_tickets_are_invalid_argument_and_nothing_is_queued(stub, kw, fragment):
    me = players(1)[0]
    kw = dict(kw)
    kw["party"] = [me.player] + kw.get("party", [])
    kw.setdefault("game", "race")
    before = {(q.game, q.variant): q.depth for q in stub.ListQueues(mm.ListQueuesRequest()).queues}
    with pytest.raises(grpc.RpcError) as err:
        stub.CreateTicket(mm.CreateTicketRequest(**kw), metadata=me.meta)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert fragment in err.value.details()
    after = {(q.game, q.variant): q.depth for q in stub.ListQueues(mm.ListQueuesRequest()).queues}
    assert after == before


def test_unknown_ticket_is_not_found(stub):
    me = players(1)[0]
    with pytest.raises(grpc.RpcError) as err:
        stub.GetTicket(mm.TicketRef(ticket_id="race:standard:nope"), metadata=me.meta)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    with pytest.raises(grpc.RpcError) as err:
        stub.GetTicket(mm.TicketRef(ticket_id="garbage"), metadata=me.meta)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_tickets_expire_and_leave_nothing_behind(redis_url):
    import redis

    server = ServerThread(redis_url, mm_interval_s=0.05, ticket_ttl_s=1)
    server.start()
    try:
        server.platform.tickets.keep_s = 1
        with grpc.insecure_channel(server.address) as ch:
            s = matchmaking_pb2_grpc.MatchmakingStub(ch)
            [p] = [identity(ch)]
            t = ticket(s, [p], secrets.token_hex(4), seats=4)
            assert watch_to_end(s, t.ticket_id)[-1].state == "expired"
            r = redis.Redis.from_url(redis_url)
            assert r.get(f"mm:player:{p.player}") is None
            assert r.zscore("{q:race:standard}:waiting", t.ticket_id) is None
            time.sleep(1.2)
            assert not r.exists("{q:race:standard}:t:" + t.ticket_id)
    finally:
        server.stop()
