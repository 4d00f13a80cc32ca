"""Signing out over real gRPC and Redis: the credential presented is revoked until it would
have expired, and every call made with it for its player, on every replica, is refused with
UNAUTHENTICATED saying so; other credentials, and seat tokens, go on working."""
from __future__ import annotations

import time
import uuid

import grpc
import jwt
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc
from archmage.players.v1 import players_pb2 as pp
from archmage.players.v1 import players_pb2_grpc

from services.client.session import bearer
from services.players.credentials import REVOKED_SLACK_S, revoked_key
from tests.support.server import ServerThread


def refusal(call) -> tuple[grpc.StatusCode, str]:
    try:
        result = call()
        if hasattr(result, "__iter__") and not hasattr(result, "ListFields"):
            list(result)  # a stream fails when read
    except grpc.RpcError as exc:
        return exc.code(), exc.details()
    return grpc.StatusCode.OK, ""


def calls_for_a_player(players, queue, meta):
    """Every call that acts for the player of `meta`, on the players and matchmaking services."""
    human = [mm.SeatSpec(kind="human"), mm.SeatSpec(kind="ai")]
    return {
        "Players.Refresh": lambda: players.Refresh(pp.RefreshRequest(), metadata=meta),
        "Players.GetRating": lambda: players.GetRating(pp.GetRatingRequest(game="race"), metadata=meta),
        "Players.SignOut": lambda: players.SignOut(pp.SignOutRequest(), metadata=meta),
        "Matchmaking.ListMyMatches": lambda: queue.ListMyMatches(mm.ListMyMatchesRequest(), metadata=meta),
        "Matchmaking.CreateMatch": lambda: queue.CreateMatch(mm.CreateMatchRequest(game="race", seats=human),
                                                             metadata=meta),
        "Matchmaking.CreateTicket": lambda: queue.CreateTicket(mm.CreateTicketRequest(
            game="race", seats=2, invite_code=uuid.uuid4().hex), metadata=meta),
        "Matchmaking.WatchTicket": lambda: queue.WatchTicket(mm.TicketRef(ticket_id="x" * 16), metadata=meta,
                                                             timeout=10),
        "Matchmaking.CancelTicket": lambda: queue.CancelTicket(mm.TicketRef(ticket_id="x" * 16), metadata=meta),
        "Matchmaking.AcceptTicket": lambda: queue.AcceptTicket(mm.TicketRef(ticket_id="x" * 16), metadata=meta),
        "Matchmaking.GetTicket": lambda: queue.GetTicket(mm.TicketRef(ticket_id="x" * 16), metadata=meta),
    }


def test_a_signed_out_credential_is_refused_everywhere_it_was_accepted(players, queue, raw_channel):
    guest = players.SignInAsGuest(pp.GuestRequest())
    other = players.Refresh(pp.RefreshRequest(), metadata=bearer(guest.token))  # the same player, a second one
    meta = bearer(guest.token)
    made = queue.CreateMatch(mm.CreateMatchRequest(game="race", seats=[mm.SeatSpec(kind="human")] * 2),
                             metadata=meta)
    assert refusal(lambda: queue.ListMyMatches(mm.ListMyMatchesRequest(), metadata=meta))[0] == grpc.StatusCode.OK

    out = players.SignOut(pp.SignOutRequest(), metadata=meta)
    assert out.player_id == guest.player_id and out.revoked_until == guest.expires_at

    for name, call in calls_for_a_player(players, queue, meta).items():
        code, details = refusal(call)
        assert code == grpc.StatusCode.UNAUTHENTICATED, name
        assert "revoked" in details and "sign in again" in details, (name, details)
    # the player's other credential, and the seat tokens of their match, still work
    mine = queue.ListMyMatches(mm.ListMyMatchesRequest(), metadata=bearer(other.token)).matches
    assert [m.match_id for m in mine] == [made.match_id]
    seat = (("x-seat-token", made.seat_tokens[0].token),)
    assert board_pb2_grpc.BoardStub(raw_channel).GetMatch(board_pb2.GetMatchRequest(match_id=made.match_id),
                                                          metadata=seat).status == "active"


def test_the_revocation_is_in_redis_until_the_credential_would_have_expired(players, platform):
    guest = players.SignInAsGuest(pp.GuestRequest())
    jti = jwt.decode(guest.token, options={"verify_signature": False})["jti"]
    players.SignOut(pp.SignOutRequest(), metadata=bearer(guest.token))
    ttl = platform.run(platform.platform.redis.ttl(revoked_key(jti)))
    left = guest.expires_at - time.time()
    assert left - 5 <= ttl <= left + REVOKED_SLACK_S + 1


def test_every_replica_refuses_a_revoked_credential(players, redis_url):
    guest = players.SignInAsGuest(pp.GuestRequest())
    players.SignOut(pp.SignOutRequest(), metadata=bearer(guest.token))
    replica = ServerThread(redis_url)  # another process of the platform, on the same Redis
    replica.start()
    try:
        with grpc.insecure_channel(replica.address) as ch:
            code, details = refusal(lambda: matchmaking_pb2_grpc.MatchmakingStub(ch).ListMyMatches(
                mm.ListMyMatchesRequest(), metadata=bearer(guest.token)))
    finally:
        replica.stop()
    assert code == grpc.StatusCode.UNAUTHENTICATED and "revoked" in details


def test_signing_out_needs_a_valid_credential(players, platform):
    guest = players.SignInAsGuest(pp.GuestRequest())
    claims = jwt.decode(guest.token, options={"verify_signature": False})
    expired = jwt.encode(dict(claims, exp=int(time.time()) - 10), platform.platform.credentials._private,
                         algorithm="EdDSA")
    for meta, says in (((), "needs a session credential"), (bearer("x"), "not valid"),
                       ((("authorization", "Basic abc"),), "Bearer <token>"), (bearer(expired), "expired")):
        code, details = refusal(lambda meta=meta: players.SignOut(pp.SignOutRequest(), metadata=meta))
        assert code == grpc.StatusCode.UNAUTHENTICATED and says in details, (meta, details)
    # none of these revoked the player's real credential
    assert players.Refresh(pp.RefreshRequest(), metadata=bearer(guest.token)).player_id == guest.player_id


def test_a_credential_issued_without_an_id_can_be_signed_out(players, queue, platform):
    """Credentials issued before they carried an id (`jti`) stay valid until they expire, and sign out too."""
    guest = players.SignInAsGuest(pp.GuestRequest())
    claims = jwt.decode(guest.token, options={"verify_signature": False})
    del claims["jti"]
    old = jwt.encode(claims, platform.platform.credentials._private, algorithm="EdDSA")
    meta = bearer(old)
    assert refusal(lambda: queue.ListMyMatches(mm.ListMyMatchesRequest(), metadata=meta))[0] == grpc.StatusCode.OK
    players.SignOut(pp.SignOutRequest(), metadata=meta)
    code, details = refusal(lambda: queue.ListMyMatches(mm.ListMyMatchesRequest(), metadata=meta))
    assert code == grpc.StatusCode.UNAUTHENTICATED and "revoked" in details
    assert refusal(lambda: queue.ListMyMatches(mm.ListMyMatchesRequest(), metadata=bearer(guest.token)))[0] \
        == grpc.StatusCode.OK


def test_a_credential_check_that_cannot_ask_redis_is_unavailable_never_a_pass():
    from tests.support.redis_db import RedisServer

    with RedisServer(durable=False) as redis_server:
        server = ServerThread(redis_server.url)
        server.start()
        try:
            with grpc.insecure_channel(server.address) as ch:
                guest = players_pb2_grpc.PlayersStub(ch).SignInAsGuest(pp.GuestRequest(), timeout=10)
                redis_server.kill()
                code, details = refusal(lambda: matchmaking_pb2_grpc.MatchmakingStub(ch).ListMyMatches(
                    mm.ListMyMatchesRequest(), metadata=bearer(guest.token), timeout=10))
        finally:
            server.stop()
    assert code == grpc.StatusCode.UNAVAILABLE and "Redis is unavailable" in details, (code, details)
