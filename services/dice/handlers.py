"""The dice service's gRPC handlers: validate, call DiceSessions, encode."""
from __future__ import annotations

from archmage.dice.v1 import dice_pb2

from services.core.dice_sessions import DiceSessions, SessionInfo
from services.core.dicesource import pools_from_proto
from services.core.errors import BadRequest
from services.rpc.edge import current_claim
from services.rpc.quotas import peer_of
from services.rpc.replies import event_pb

SERVICE = dice_pb2.DESCRIPTOR.services_by_name["Dice"]
EXPORT_PAGE_BYTES = 1 << 20  # an ExportLog page: well under any client's 4 MiB message limit
EXPORT_SLICE = 500  # events read from the log at a time while a page fills


def _session(info: SessionInfo) -> dice_pb2.Session:
    return dice_pb2.Session(session_id=info.session_id, commitment=info.commitment, token=info.token,
                            next_nonce=info.next_nonce, revealed=info.revealed, seed=info.seed_hex,
                            client_seeds=info.client_seeds, owned_by_match=info.owned_by_match)


def _results(pools, faces, nonces) -> dice_pb2.RollResponse:
    return dice_pb2.RollResponse(results=[
        dice_pb2.PoolResult(purpose=p.purpose, faces=[str(f) for f in fs], nonces=ns)
        for p, fs, ns in zip(pools, faces, nonces)])


def _need(session_id: str) -> str:
    if not session_id:
        raise BadRequest("session_id is required")
    return session_id


class DiceHandlers:
    def __init__(self, sessions: DiceSessions, quotas=None):
        self.sessions = sessions
        self.quotas = quotas

    async def CreateSession(self, request, context):
        if self.quotas is not None:
            await self.quotas.hit("dice_sessions_per_peer", peer_of(context))
        return _session(await self.sessions.create(request.session_id, request.owned_by_match))

    async def GetSession(self, request, context):
        return _session(await self.sessions.get(_need(request.session_id)))

    async def AddClientSeed(self, request, context):
        return _session(await self.sessions.add_client_seed(_need(request.session_id), request.client_seed,
                                                            current_claim()))

    async def Roll(self, request, context):
        pools = pools_from_proto(request.pools)
        faces, nonces = await self.sessions.roll(_need(request.session_id), request.token, pools)
        return _results(pools, faces, nonces)

    async def Draw(self, request, context):
        pools = pools_from_proto(request.pools)
        faces, nonces = await self.sessions.draw(_need(request.session_id), request.token, request.first_nonce, pools)
        return _results(pools, faces, nonces)

    async def Reveal(self, request, context):
        return _session(await self.sessions.reveal(_need(request.session_id), request.token))

    async def Verify(self, request, context):
        v = await self.sessions.verify(_need(request.session_id))
        return dice_pb2.VerifyResponse(ok=v.ok, rolls_checked=v.rolls_checked, events_checked=v.events_checked,
                                       problems=v.problems, chain_ok=v.chain_ok, revealed=v.revealed, head=v.head,
                                       head_seq=v.head_seq, chain_version=v.chain_version)

    async def ExportLog(self, request, context):
        """A page of about EXPORT_PAGE_BYTES from `from_seq`, read from the log a slice at a time
        (never the whole log for each page)."""
        session_id, claim = _need(request.session_id), current_claim()
        page, size, after = [], 0, max(0, request.from_seq - 1)
        while True:
            commitment, events = await self.sessions.export(session_id, claim, after, EXPORT_SLICE)
            for e in events:
                if page and size >= EXPORT_PAGE_BYTES:
                    return dice_pb2.ExportLogResponse(commitment=commitment, events=page, next_seq=e.seq)
                pb = event_pb(e)
                page.append(pb)
                size += pb.ByteSize()
            if len(events) < EXPORT_SLICE:
                return dice_pb2.ExportLogResponse(commitment=commitment, events=page, next_seq=0)
            after = events[-1].seq
