"""Players and matches for the trust tests, made through the public API."""
from __future__ import annotations

from dataclasses import dataclass

import grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc


@dataclass(frozen=True)
class Identity:
    player: str
    meta: tuple = ()


def identity(channel, name: str = "") -> Identity:
    """A guest player of its own, signed in through the public API."""
    from archmage.players.v1 import players_pb2, players_pb2_grpc

    signed = players_pb2_grpc.PlayersStub(channel).SignInAsGuest(players_pb2.GuestRequest())
    return Identity(signed.player_id, (("authorization", f"Bearer {signed.token}"),))


class SeatMetas(list):
    """Each seat's metadata, by seat; `player` is the metadata of the player who made the match."""

    player: tuple = ()


def human_match(channel, game: str, seats: int, variant: str = "") -> tuple[str, SeatMetas]:
    """A match of `seats` human seats, all played by a new guest; the seat tokens' metadata by seat."""
    me = identity(channel)
    queue = matchmaking_pb2_grpc.MatchmakingStub(channel)
    created = queue.CreateMatch(mm.CreateMatchRequest(game=game, variant=variant, seats=[
        mm.SeatSpec(kind="human", name=f"seat {i}") for i in range(seats)]), metadata=me.meta)
    metas = SeatMetas((("x-seat-token", t.token),) for t in sorted(created.seat_tokens, key=lambda t: t.seat))
    metas.player = me.meta
    return created.match_id, metas


def code_of(call) -> grpc.StatusCode:
    try:
        call()
    except grpc.RpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK
