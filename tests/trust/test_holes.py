"""The holes found by attacking the platform as a stranger on the network would (issue 12),
each tried again here over real gRPC and Redis: every one must now be refused."""
from __future__ import annotations

import json
import time
import uuid

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc

from tests.trust.support import code_of, human_match, identity


@pytest.fixture
def stubs(raw_channel):
    """Stubs on a channel with no credential: each call says who it is for, or nobody."""
    return (board_pb2_grpc.BoardStub(raw_channel), combat_pb2_grpc.CombatStub(raw_channel),
            dice_pb2_grpc.DiceStub(raw_channel), matchmaking_pb2_grpc.MatchmakingStub(raw_channel))


def events_of(stream) -> list[tuple[int, str, str]]:
    return [(e.seq, e.type, e.body_json) for e in stream]


def watched(board, match_id, meta=(), upto=None) -> list[tuple[int, str, str]]:
    upto = upto or board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), metadata=meta).last_seq
    out = []
    stream = board.WatchMatch(board_pb2.WatchMatchRequest(match_id=match_id), metadata=meta, timeout=10)
    for e in stream:
        out.append((e.seq, e.type, e.body_json))
        if e.seq >= upto:
            stream.cancel()
            break
    return out


def roll_to_the_end(board, combat, match_id, metas) -> None:
    for _ in range(200):
        view = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id))
        if view.status == "finished":
            return
        request = common_pb2.ActRequest(match_id=match_id, action_id=str(uuid.uuid4()),
                                        action_json=json.dumps({"kind": "roll"}))
        combat.Resolve(request, metadata=metas[view.to_act])
    raise AssertionError("the race did not end")


# --- hole 1: seat takeover through matchmaking ------------------------------------------------
def test_hole1_a_refused_ticket_names_no_other_ticket_and_gives_no_seat(stubs, raw_channel):
    """ALREADY_EXISTS used to quote bob's ticket id, and WatchTicket on it handed out bob's seat token."""
    *_, queue = stubs
    bob = identity(raw_channel, "bob")
    ticket = queue.CreateTicket(mm.CreateTicketRequest(game="race", party=[bob.player], seats=2,
                                                       invite_code=uuid.uuid4().hex), metadata=bob.meta)
    mallory = identity(raw_channel, "mallory")
    with pytest.raises(grpc.RpcError) as err:
        queue.CreateTicket(mm.CreateTicketRequest(game="race", party=[bob.player], seats=2), metadata=mallory.meta)
    assert err.value.code() in (grpc.StatusCode.ALREADY_EXISTS, grpc.StatusCode.PERMISSION_DENIED)
    secret = ticket.ticket_id.rsplit(":", 1)[1]
    assert secret not in err.value.details() and ticket.ticket_id not in err.value.details()
    # and a ticket id learnt some other way shows its seat to nobody outside its party
    for call in (lambda: list(queue.WatchTicket(mm.TicketRef(ticket_id=ticket.ticket_id), timeout=5)),
                 lambda: queue.GetTicket(mm.TicketRef(ticket_id=ticket.ticket_id))):
        assert code_of(call) == grpc.StatusCode.UNAUTHENTICATED
    for call in (lambda: list(queue.WatchTicket(mm.TicketRef(ticket_id=ticket.ticket_id), metadata=mallory.meta,
                                                timeout=5)),
                 lambda: queue.GetTicket(mm.TicketRef(ticket_id=ticket.ticket_id), metadata=mallory.meta)):
        assert code_of(call) == grpc.StatusCode.NOT_FOUND
    queue.CancelTicket(mm.TicketRef(ticket_id=ticket.ticket_id), metadata=bob.meta)


def test_hole1_an_assignment_shows_each_player_only_their_own_seat_token(raw_channel):
    queue = matchmaking_pb2_grpc.MatchmakingStub(raw_channel)
    invite = uuid.uuid4().hex
    alice, bob = identity(raw_channel), identity(raw_channel)
    tickets = [queue.CreateTicket(mm.CreateTicketRequest(game="race", seats=2, invite_code=invite), metadata=p.meta)
               for p in (alice, bob)]
    for me, t in zip((alice, bob), tickets):
        final = list(queue.WatchTicket(mm.TicketRef(ticket_id=t.ticket_id), metadata=me.meta, timeout=20))[-1]
        assert final.state == "assigned"
        seats = {s.player: s for s in final.assignment.seats}
        assert list(seats) == [me.player] and seats[me.player].seat_token


# --- hole 4: tickets without credential, squatting, client-stated ratings ---------------------------
def test_hole4_cancel_needs_the_ticket_s_own_player(stubs, raw_channel):
    *_, queue = stubs
    owner, other = identity(raw_channel), identity(raw_channel)
    t = queue.CreateTicket(mm.CreateTicketRequest(game="race", seats=2, invite_code=uuid.uuid4().hex),
                           metadata=owner.meta)
    assert code_of(lambda: queue.CancelTicket(mm.TicketRef(ticket_id=t.ticket_id))) == grpc.StatusCode.UNAUTHENTICATED
    assert code_of(lambda: queue.CancelTicket(mm.TicketRef(ticket_id=t.ticket_id), metadata=other.meta)) \
        == grpc.StatusCode.NOT_FOUND
    assert queue.GetTicket(mm.TicketRef(ticket_id=t.ticket_id), metadata=owner.meta).state == "queued"
    assert queue.CancelTicket(mm.TicketRef(ticket_id=t.ticket_id), metadata=owner.meta).state == "cancelled"


def test_hole4_nobody_can_queue_as_someone_else_or_block_them(stubs, raw_channel):
    *_, queue = stubs
    victim, squatter = identity(raw_channel), identity(raw_channel)
    invite = uuid.uuid4().hex
    assert code_of(lambda: queue.CreateTicket(mm.CreateTicketRequest(game="race", party=[victim.player]),
                                              metadata=squatter.meta)) == grpc.StatusCode.PERMISSION_DENIED
    assert code_of(lambda: queue.CreateTicket(mm.CreateTicketRequest(game="race", party=[victim.player]))) \
        == grpc.StatusCode.UNAUTHENTICATED
    # a party naming the victim waits for the victim to accept, and does not block them meanwhile
    # (four seats: once accepted, the two of them wait for two more, so the cancel below meets a queued ticket)
    party = queue.CreateTicket(mm.CreateTicketRequest(game="race", seats=4, invite_code=invite,
                                                      party=[squatter.player, victim.player]), metadata=squatter.meta)
    assert party.state == "forming" and list(party.accepted) == [squatter.player]
    own = queue.CreateTicket(mm.CreateTicketRequest(game="race", seats=2, invite_code=uuid.uuid4().hex),
                             metadata=victim.meta)
    assert own.state == "queued"
    assert code_of(lambda: queue.AcceptTicket(mm.TicketRef(ticket_id=party.ticket_id), metadata=victim.meta)) \
        == grpc.StatusCode.ALREADY_EXISTS  # one active ticket per player still holds
    queue.CancelTicket(mm.TicketRef(ticket_id=own.ticket_id), metadata=victim.meta)
    accepted = queue.AcceptTicket(mm.TicketRef(ticket_id=party.ticket_id), metadata=victim.meta)
    assert accepted.state == "queued" and sorted(accepted.accepted) == sorted([squatter.player, victim.player])
    queue.CancelTicket(mm.TicketRef(ticket_id=party.ticket_id), metadata=victim.meta)


def test_hole4_the_rating_is_the_platform_s_not_the_client_s(stubs, raw_channel, platform):
    *_, queue = stubs
    assert "rating" not in mm.CreateTicketRequest.DESCRIPTOR.fields_by_name
    me = identity(raw_channel)
    t = queue.CreateTicket(mm.CreateTicketRequest(game="race", seats=2, invite_code=uuid.uuid4().hex),
                           metadata=me.meta)
    stored = platform.run(platform.platform.tickets.get(t.ticket_id))
    assert stored.queued.rating == 1000  # a new player's rating, whatever the client would have said
    queue.CancelTicket(mm.TicketRef(ticket_id=t.ticket_id), metadata=me.meta)


def test_hole4_a_ticket_claiming_a_huge_rating_is_matched_at_its_stored_rating(raw_channel, platform, redis_url):
    """An old client still sending the removed `rating` field (5) with 5000 is matched at the
    rating the platform keeps for its players (2400 here), and matched all the same."""
    import redis as sync_redis

    from services.players.ratings import rating_key

    strong = [identity(raw_channel), identity(raw_channel)]
    r = sync_redis.Redis.from_url(redis_url)
    for p in strong:  # mu 50, sigma 5: 1000 + 40 * (50 - 15) = 2400
        r.hset(rating_key("race", p.player), mapping={"mu": 50, "sigma": 5, "matches": 3})
    invite = uuid.uuid4().hex
    legacy = raw_channel.unary_unary("/archmage.matchmaking.v1.Matchmaking/CreateTicket",
                                     request_serializer=lambda b: b, response_deserializer=mm.Ticket.FromString)
    field_5_is_5000 = bytes([5 << 3, 0x88, 0x27])
    tickets = [legacy(mm.CreateTicketRequest(game="race", seats=2, invite_code=invite).SerializeToString()
                      + field_5_is_5000, metadata=p.meta) for p in strong]
    for t in tickets:
        assert platform.run(platform.platform.tickets.get(t.ticket_id)).queued.rating == 2400
    queue = matchmaking_pb2_grpc.MatchmakingStub(raw_channel)
    finals = [list(queue.WatchTicket(mm.TicketRef(ticket_id=t.ticket_id), metadata=p.meta, timeout=20))[-1]
              for t, p in zip(tickets, strong)]
    assert [f.state for f in finals] == ["assigned", "assigned"]
    assert finals[0].assignment.match_id == finals[1].assignment.match_id


# --- hole 2: a running match's secret rolls through the Dice service -------------------------
def test_hole2_dice_log_and_session_of_a_running_match_are_redacted_as_watch_match(stubs, raw_channel):
    """ExportLog returned the raw log of a running match; now each reader gets what WatchMatch
    gives them (secret rolls as '?', other seats' private events hidden), in full after the end."""
    board, combat, dice, queue = stubs
    match_id, metas = human_match(raw_channel, "race", 2, variant="secret-start")
    board.Move(common_pb2.ActRequest(match_id=match_id, action_id=str(uuid.uuid4()),
                                     action_json=json.dumps({"kind": "hide", "number": 2})), metadata=metas[0])
    for meta in ((), metas[0], metas[1]):
        exported = events_of(dice.ExportLog(dice_pb2.ExportLogRequest(session_id=match_id), metadata=meta).events)
        assert exported == watched(board, match_id, meta)
        text = "\n".join(body for _, _, body in exported)
        assert '"?"' in text  # the secret start roll
    spectator = events_of(dice.ExportLog(dice_pb2.ExportLogRequest(session_id=match_id)).events)
    # seat 0's hidden number, shown as its commitment (docs/fairness.md, "Sealed events")
    assert any(sorted(json.loads(b)) == ["redacted", "sealed"] for _, _, b in spectator)
    session = dice.GetSession(dice_pb2.GetSessionRequest(session_id=match_id))
    assert not session.seed and not session.revealed and not session.token
    roll_to_the_end(board, combat, match_id, metas)
    full = events_of(dice.ExportLog(dice_pb2.ExportLogRequest(session_id=match_id)).events)
    assert '"?"' not in "".join(b for _, _, b in full) and full[-1][1] == "dice_revealed"
    assert dice.Verify(dice_pb2.VerifyRequest(session_id=match_id)).ok
    assert dice.GetSession(dice_pb2.GetSessionRequest(session_id=match_id)).seed


# --- hole 3: anyone could write into any match's dice --------------------------------------------
def test_hole3_client_seeds_of_a_match_need_a_seat_token_once_per_seat(stubs, raw_channel):
    board, _, dice, queue = stubs
    match_id, metas = human_match(raw_channel, "race", 2)
    before = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id)).last_seq
    for meta in ((), (("x-seat-token", "0123456789abcdef.0.forged"),)):
        with pytest.raises(grpc.RpcError) as err:
            dice.AddClientSeed(dice_pb2.AddClientSeedRequest(session_id=match_id, client_seed="chaos"), metadata=meta)
        assert err.value.code() in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED)
    assert board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id)).last_seq == before  # nothing written
    assert dice.AddClientSeed(dice_pb2.AddClientSeedRequest(session_id=match_id, client_seed="mine"),
                              metadata=metas[1]).client_seeds == 1
    with pytest.raises(grpc.RpcError) as err:
        dice.AddClientSeed(dice_pb2.AddClientSeedRequest(session_id=match_id, client_seed="again"), metadata=metas[1])
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    seeded = [json.loads(b) for _, t, b in watched(board, match_id) if t == "client_seed"]
    assert seeded == [{"seed": "mine", "seat": 1}]


# --- hole 5: INTERNAL on demand -------------------------------------------------------------------
def deep(levels: int) -> str:
    return '{"kind": "move", "to": ' + "[" * levels + "]" * levels + "}"


def test_hole5_deep_json_is_invalid_argument_on_every_json_field(stubs, raw_channel):
    board, combat, _, queue = stubs
    match_id, metas = human_match(raw_channel, "race", 1)
    calls = [
        lambda: board.Move(common_pb2.ActRequest(match_id=match_id, action_id="a1", action_json=deep(990)),
                           metadata=metas[0]),
        lambda: combat.Resolve(common_pb2.ActRequest(match_id=match_id, action_id="a2", action_json=deep(5000)),
                               metadata=metas[0]),
        lambda: board.Query(board_pb2.QueryRequest(match_id=match_id, query_json=deep(990))),
        lambda: queue.CreateMatch(mm.CreateMatchRequest(game="race", seats=[mm.SeatSpec(kind="ai")],
                                                        options_json=deep(990)), metadata=metas.player),
    ]
    for call in calls:
        assert code_of(call) == grpc.StatusCode.INVALID_ARGUMENT


def test_hole5_huge_sides_are_refused_before_any_face_is_built(stubs):
    _, _, dice, _ = stubs
    s = dice.CreateSession(dice_pb2.CreateSessionRequest())
    for sides in (4294967295, 2_000_000):
        started = time.perf_counter()
        pool = dice_pb2.Pool(purpose="x", count=1, sides=sides)
        assert code_of(lambda pool=pool: dice.Roll(dice_pb2.RollRequest(session_id=s.session_id, token=s.token,
                                                              pools=[pool]))) == grpc.StatusCode.INVALID_ARGUMENT
        assert code_of(lambda pool=pool: dice.Draw(dice_pb2.DrawRequest(session_id=s.session_id, token=s.token,
                                                              pools=[pool]))) == grpc.StatusCode.INVALID_ARGUMENT
        assert time.perf_counter() - started < 0.2
    many = [dice_pb2.Pool(purpose="x", count=1, sides=1000)] * 2000
    assert code_of(lambda: dice.Roll(dice_pb2.RollRequest(session_id=s.session_id, token=s.token, pools=many))) \
        == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_hole5_a_stream_offset_past_the_end_is_clamped(stubs, raw_channel):
    board, combat, _, queue = stubs
    match_id, metas = human_match(raw_channel, "race", 1)
    roll_to_the_end(board, combat, match_id, metas)
    stream = board.WatchMatch(board_pb2.WatchMatchRequest(match_id=match_id, from_seq=2**64 - 1), timeout=10)
    assert list(stream) == []


def test_hole5_oversized_ids_are_refused_without_being_echoed(stubs):
    board, _, dice, queue = stubs
    huge = "x" * 100_000
    calls = [
        lambda: board.GetMatch(board_pb2.GetMatchRequest(match_id=huge)),
        lambda: list(board.WatchMatch(board_pb2.WatchMatchRequest(match_id=huge), timeout=10)),
        lambda: dice.GetSession(dice_pb2.GetSessionRequest(session_id=huge)),
        lambda: dice.ExportLog(dice_pb2.ExportLogRequest(session_id=huge)),
        lambda: queue.GetTicket(mm.TicketRef(ticket_id=huge)),
        lambda: queue.CreateTicket(mm.CreateTicketRequest(game=huge, party=["p"])),
        lambda: queue.CreateMatch(mm.CreateMatchRequest(game="race", variant=huge)),
    ]
    for call in calls:
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, err.value.details()
        assert len(err.value.details()) < 600
