"""Where the match driver gets its dice: in process, or from the dice service.

Both compute the same faces (a roll is a pure function of seed, match and nonce),
so the choice is a matter of cost: a gRPC hop costs ~0.3 ms of CPU, the HMAC ~2 µs.
"""
from __future__ import annotations

from typing import Protocol, Sequence

import grpc

from services.core.dice_sessions import MAX_DICE_PER_CALL, MAX_FACES, DiceSessions, PoolSpec, SessionInfo
from services.core.errors import BadRequest, LimitExceeded


class DiceSource(Protocol):
    async def create_session(self, match_id: str) -> SessionInfo: ...

    async def draw(self, match_id: str, token: str, rec: dict, first_nonce: int,
                   pools: Sequence[PoolSpec]) -> tuple[list[list], list[list[int]]]: ...


class InProcessDice:
    """The dice service's own code, run inside the caller: no hop."""

    def __init__(self, sessions: DiceSessions):
        self.sessions = sessions

    async def create_session(self, match_id: str) -> SessionInfo:
        return await self.sessions.create(match_id, owned_by_match=True)

    async def draw(self, match_id, token, rec, first_nonce, pools):
        # the record was just loaded by the driver; its cursor is checked by the commit
        return DiceSessions.compute(match_id, rec, first_nonce, pools)


class RemoteDice:
    """The dice service over gRPC (DICE_MODE=service)."""

    def __init__(self, channel: grpc.aio.Channel):
        from archmage.dice.v1 import dice_pb2, dice_pb2_grpc

        self.pb = dice_pb2
        self.stub = dice_pb2_grpc.DiceStub(channel)

    async def create_session(self, match_id: str) -> SessionInfo:
        s = await self.stub.CreateSession(self.pb.CreateSessionRequest(session_id=match_id, owned_by_match=True))
        return SessionInfo(s.session_id, s.commitment, s.next_nonce, s.revealed, "", 0, True, s.token)

    async def draw(self, match_id, token, rec, first_nonce, pools):
        req = self.pb.DrawRequest(session_id=match_id, token=token, first_nonce=first_nonce,
                                  pools=[pool_to_proto(self.pb, p) for p in pools])
        reply = await self.stub.Draw(req)
        faces = [[_face_back(p, f) for f in r.faces] for p, r in zip(pools, reply.results)]
        return faces, [list(r.nonces) for r in reply.results]


def pool_to_proto(pb, p: PoolSpec):
    if all(isinstance(f, int) for f in p.faces) and list(p.faces) == list(range(1, len(p.faces) + 1)):
        return pb.Pool(purpose=p.purpose, count=p.count, sides=len(p.faces))
    return pb.Pool(purpose=p.purpose, count=p.count, faces=[str(f) for f in p.faces])


MAX_FACES_PER_CALL = 100_000


def pools_from_proto(pools) -> list[PoolSpec]:
    """The pools a request asks for, their sizes checked before any face list is built."""
    dice = sum(p.count for p in pools)
    if dice > MAX_DICE_PER_CALL:
        raise LimitExceeded(f"at most {MAX_DICE_PER_CALL} dice per call, asked for {dice}")
    faces = sum(len(p.faces) or min(p.sides, MAX_FACES + 1) for p in pools)
    if faces > MAX_FACES_PER_CALL:
        raise LimitExceeded(f"at most {MAX_FACES_PER_CALL} faces over all the pools of a call, asked for {faces}")
    return [pool_from_proto(p) for p in pools]


def pool_from_proto(p) -> PoolSpec:
    """The pool a request asks for; `sides` and `count` are checked before any face is built."""
    if p.count > MAX_DICE_PER_CALL:
        raise LimitExceeded(f"at most {MAX_DICE_PER_CALL} dice per call, asked for {p.count}")
    if p.faces:
        return PoolSpec(p.purpose, p.count, tuple(p.faces))
    if not 2 <= p.sides <= MAX_FACES:
        raise BadRequest(f"pool {p.purpose!r}: a die needs 2 to {MAX_FACES} sides, not {p.sides}")
    return PoolSpec(p.purpose, p.count, tuple(range(1, p.sides + 1)))


def _face_back(pool: PoolSpec, text: str):
    for f in pool.faces:
        if str(f) == text:
            return f
    raise ValueError(f"the dice service answered {text!r}, not a face of {pool.purpose!r}")
