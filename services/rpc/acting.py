"""One action through the match driver, shared by Board.Move and Combat.Resolve."""
from __future__ import annotations

from archmage.common.v1 import common_pb2

from services.core.matches import Matches
from services.rpc.edge import current_claim
from services.rpc.replies import event_pb


async def act(matches: Matches, request, domain: str) -> common_pb2.ActResponse:
    result = await matches.act(request.match_id, current_claim(), request.action_id, request.expected_version,
                               request.action_json, domain)
    return common_pb2.ActResponse(version=result.version, events=[event_pb(e) for e in result.events],
                                  replayed=result.replayed)
