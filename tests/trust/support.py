"""Players and matches for the trust tests, made through the public API."""
from __future__ import annotations

import secrets
from dataclasses import dataclass

import grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm


@dataclass(frozen=True)
class Identity:
    player: str
    meta: tuple = ()


def identity(queue, name: str) -> Identity:
    """A player of its own for this test."""
    return Identity(f"{name}-{secrets.token_hex(4)}")


class SeatMetas(list):
    """Each seat's metadata, by seat; `player` is the metadata of the player who made the match."""

    player: tuple = ()


def human_match(queue, game: str, seats: int, variant: str = "") -> tuple[str, SeatMetas]:
    """A match of `seats` human seats; the seat tokens' metadata by seat."""
    me = identity(queue, "host")
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
