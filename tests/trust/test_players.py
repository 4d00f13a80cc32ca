"""Players over real gRPC and Redis: sign-up, sign-in, guests, credentials, their matches
and the ratings the platform keeps."""
from __future__ import annotations

import json
import secrets
import time
import uuid

import grpc
import jwt
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.players.v1 import players_pb2 as pp
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from services.client.session import bearer
from tests.trust.support import code_of, identity


def test_sign_up_then_sign_in_and_the_password_is_stored_hashed(players, platform):
    name = "wiz" + secrets.token_hex(4)
    signed = players.SignUp(pp.SignUpRequest(name=name, password="correct horse battery"))
    assert signed.player_id == name and not signed.guest and signed.expires_at > time.time()
    again = players.SignIn(pp.SignInRequest(name=name, password="correct horse battery"))
    assert again.player_id == name
    for password in ("wrong horse battery", ""):
        assert code_of(lambda password=password: players.SignIn(pp.SignInRequest(name=name, password=password))) \
            == grpc.StatusCode.UNAUTHENTICATED
    assert code_of(lambda: players.SignUp(pp.SignUpRequest(name=name, password="another password"))) \
        == grpc.StatusCode.ALREADY_EXISTS
    stored = platform.run(platform.platform.redis.hget(f"player:{name}", "password")).decode()
    assert stored.startswith("$argon2id$") and "horse" not in stored


def test_a_guest_is_one_call_away_and_refreshes(players):
    guest = players.SignInAsGuest(pp.GuestRequest())
    assert guest.guest and guest.player_id.startswith("guest-")
    fresh = players.Refresh(pp.RefreshRequest(), metadata=bearer(guest.token))
    assert fresh.player_id == guest.player_id and fresh.expires_at >= guest.expires_at


def test_forged_expired_or_missing_credentials_are_unauthenticated(players, queue, platform):
    guest = players.SignInAsGuest(pp.GuestRequest())
    claims = jwt.decode(guest.token, options={"verify_signature": False})
    forged = jwt.encode(dict(claims, sub="someone-else"), Ed25519PrivateKey.generate(), algorithm="EdDSA")
    key = platform.platform.credentials._private
    expired = jwt.encode(dict(claims, exp=int(time.time()) - 10), key, algorithm="EdDSA")
    unsigned = jwt.encode(dict(claims, sub="someone-else"), None, algorithm="none")
    tampered = guest.token[:-4] + ("AAAA" if not guest.token.endswith("AAAA") else "BBBB")
    for meta in ((), bearer(forged), bearer(expired), bearer(unsigned), bearer(tampered), bearer("x"),
                 (("authorization", "Basic abc"),)):
        assert code_of(lambda meta=meta: queue.ListMyMatches(mm.ListMyMatchesRequest(), metadata=meta)) \
            == grpc.StatusCode.UNAUTHENTICATED
    assert code_of(lambda: queue.ListMyMatches(mm.ListMyMatchesRequest(), metadata=bearer(guest.token))) \
        == grpc.StatusCode.OK


def test_human_seats_need_a_player_and_list_among_their_matches(queue, raw_channel):
    seats = [mm.SeatSpec(kind="human"), mm.SeatSpec(kind="ai")]
    assert code_of(lambda: queue.CreateMatch(mm.CreateMatchRequest(game="race", seats=seats))) \
        == grpc.StatusCode.UNAUTHENTICATED
    me = identity(raw_channel)
    made = queue.CreateMatch(mm.CreateMatchRequest(game="race", seats=seats), metadata=me.meta)
    mine = queue.ListMyMatches(mm.ListMyMatchesRequest(), metadata=me.meta).matches
    assert [(m.match_id, list(m.seats), m.rated) for m in mine] == [(made.match_id, [0], False)]
    assert queue.ListMyMatches(mm.ListMyMatchesRequest(), metadata=identity(raw_channel).meta).matches == []


def play_race(channel, match_id, tokens):
    board, combat = board_pb2_grpc.BoardStub(channel), combat_pb2_grpc.CombatStub(channel)
    while (view := board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id))).status != "finished":
        combat.Resolve(common_pb2.ActRequest(match_id=match_id, action_id=str(uuid.uuid4()),
                                             action_json=json.dumps({"kind": "roll"})),
                       metadata=(("x-seat-token", tokens[view.to_act]),))
    return json.loads(view.outcome_json)


def test_a_matched_game_is_rated_and_feeds_the_leaderboard(queue, players, raw_channel):
    alice, bob = identity(raw_channel), identity(raw_channel)
    invite = uuid.uuid4().hex
    tickets = {p.player: (p, queue.CreateTicket(mm.CreateTicketRequest(game="race", seats=2, invite_code=invite),
                                                metadata=p.meta)) for p in (alice, bob)}
    tokens, match_id = {}, None
    for who, t in tickets.values():
        final = list(queue.WatchTicket(mm.TicketRef(ticket_id=t.ticket_id), metadata=who.meta, timeout=20))[-1]
        match_id = final.assignment.match_id
        tokens.update({s.seat: s.seat_token for s in final.assignment.seats})
    play_race(raw_channel, match_id, tokens)
    ratings = {p.player: players.GetRating(pp.GetRatingRequest(game="race"), metadata=p.meta) for p in (alice, bob)}
    assert all(r.matches == 1 for r in ratings.values())
    assert len({r.mu for r in ratings.values()}) == 2  # one gained, one lost
    best = max(ratings.values(), key=lambda r: r.mu)
    assert best.rating > 1000 > min(r.rating for r in ratings.values())
    leaders = players.ListLeaders(pp.ListLeadersRequest(game="race", limit=100)).ratings
    assert best.player_id in [r.player_id for r in leaders]
    listed = queue.ListMyMatches(mm.ListMyMatchesRequest(), metadata=alice.meta).matches
    assert listed[0].match_id == match_id and listed[0].rated and listed[0].status == "finished"
