"""The board service's gRPC handlers: map and movement actions, and the read side
of every match (views, legal actions, the event stream)."""
from __future__ import annotations

import json

from archmage.board.v1 import board_pb2
from archmage.common.v1 import common_pb2

from services.core import clocks
from services.core.errors import BadRequest, Conflict
from services.core.matches import Matches, now_ms, parse_action
from services.rpc.acting import act
from services.rpc.edge import current_claim
from services.rpc.replies import event_pb
from shared.engine import jsonschemas
from shared.engine.registry import engine_for

SERVICE = board_pb2.DESCRIPTOR.services_by_name["Board"]


MAX_PAGE = 5000


def page_start(token: str, version: int, total: int) -> int:
    """Where a page token says to start; a token from another version of the match is stale."""
    if not token:
        return 0
    try:
        token_version, start = (int(x) for x in token.split(":"))
    except ValueError:
        raise BadRequest("page_token is not one this service gave") from None
    if token_version != version:
        raise Conflict(f"the match moved on (version {version}); list its actions again")
    if not 0 <= start <= total:
        raise BadRequest("page_token is not one this service gave")
    return start


def need_match(match_id: str) -> str:
    if not match_id:
        raise BadRequest("match_id is required")
    return match_id


class BoardHandlers:
    def __init__(self, matches: Matches):
        self.matches = matches

    async def GetMatch(self, request, context):
        rec = await self.matches.load(need_match(request.match_id))
        seat = self.matches.seat_of(rec, current_claim())
        engine = engine_for(rec.game)
        outcome = engine.outcome(rec.state) if rec.finished else None
        view = board_pb2.MatchView(
            match_id=rec.match_id, game=rec.game, variant=rec.config.variant, version=rec.version,
            status=rec.status, to_act=engine.actor(rec.state),
            seats=[common_pb2.Seat(index=s.index, kind=s.kind, name=s.name, level=s.level) for s in rec.seats],
            your_seat=-1 if seat is None else seat,
            view_json=json.dumps(engine.view(rec.state, seat), sort_keys=True),
            outcome_json=json.dumps(outcome.to_dict()) if outcome else "",
            dice_commitment=rec.commitment, last_seq=rec.seq, server_time_ms=now_ms())
        clock = rec.clock
        if clock is not None:
            view.time_control.CopyFrom(common_pb2.TimeControl(**clock["control"]))
            if not rec.finished:
                view.deadline_ms = clocks.deadline_ms(clock) or 0
            view.clocks.extend(common_pb2.SeatClock(
                seat=i, remaining_ms=clocks.remaining_ms(clock, i, view.server_time_ms) if not rec.finished
                else clock["left"][i], stand_in=str(i) in clock["stand_in"], running=clock["running"] == i
                and not rec.finished) for i in range(len(rec.seats)))
        return view

    async def ListLegalActions(self, request, context):
        if request.page_size > MAX_PAGE:
            raise BadRequest(f"page_size is at most {MAX_PAGE}")
        rec, seat, actions = await self.matches.legal_actions(need_match(request.match_id), current_claim())
        start = page_start(request.page_token, rec.version, len(actions))
        end = start + (request.page_size or MAX_PAGE)
        return board_pb2.LegalActions(
            version=rec.version, seat=seat, total=len(actions),
            next_page_token=f"{rec.version}:{end}" if end < len(actions) else "",
            actions=[board_pb2.LegalAction(action_json=json.dumps(a, sort_keys=True), label=label, service=domain)
                     for a, label, domain in actions[start:end]])

    async def WatchMatch(self, request, context):
        async for event in self.matches.watch(need_match(request.match_id), current_claim(), request.from_seq):
            yield event_pb(event)

    async def Query(self, request, context):
        query = parse_action(request.query_json, "query_json")  # the same shape: an object with a "kind"
        rec = await self.matches.load(need_match(request.match_id))
        seat = self.matches.seat_of(rec, current_claim())
        if query.get("kind") == "schema":  # answered by the platform, the same for every game
            answer = schema_answer(rec.game, query)
        else:
            answer = engine_for(rec.game).query(rec.state, seat, query)
        return board_pb2.QueryReply(version=rec.version, answer_json=json.dumps(answer, sort_keys=True))

    async def Move(self, request, context):
        return await act(self.matches, request, "board")

    async def Resign(self, request, context):
        result = await self.matches.resign(request.match_id, current_claim(), request.action_id,
                                           request.expected_version)
        return common_pb2.ActResponse(version=result.version, events=[event_pb(e) for e in result.events],
                                      replayed=result.replayed)


def schema_answer(game: str, query: dict) -> dict:
    """{"kind": "schema"}: the JSON Schemas of the match's game (shared/engine/jsonschemas.py);
    with "part", that one only."""
    extra = set(query) - {"kind", "part"}
    if extra:
        raise BadRequest(f"schema takes no field {sorted(extra)}")
    every = jsonschemas.schemas(game)
    part = query.get("part")
    if part is None:
        return {"game": game, "schemas": every}
    if part not in every:
        raise BadRequest(f"schema parts are {', '.join(every)}; not {part!r}")
    return {"game": game, "schemas": {part: every[part]}}
