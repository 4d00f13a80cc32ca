"""The matchmaking service's gRPC handlers: direct match creation and the game list."""
from __future__ import annotations

import asyncio

from archmage.matchmaking.v1 import matchmaking_pb2

from services.core.errors import Precondition
from services.core.jsontext import json_object
from services.core.matches import Matches
from services.matchmaking import metrics as mm_metrics
from services.matchmaking.matchmaker import now_ms
from services.matchmaking.tickets import TicketStore
from services.matchmaking.tickets_api import checked_ticket_request, ticket_pb
from shared.engine.registry import engine_for, game_names

SERVICE = matchmaking_pb2.DESCRIPTOR.services_by_name["Matchmaking"]
MAX_OPTIONS_BYTES = 16_384


def parse_options(options_json: str) -> dict:
    return json_object(options_json, "options_json", MAX_OPTIONS_BYTES) if options_json else {}


FINAL_STATES = ("assigned", "cancelled", "expired")


class MatchmakingHandlers:
    def __init__(self, matches: Matches, tickets: TicketStore):
        self.matches = matches
        self.tickets = tickets

    async def CreateTicket(self, request, context):
        fields = checked_ticket_request(request)
        ticket = await self.tickets.create(now_ms=now_ms(), **fields)
        mm_metrics.TICKETS.labels(ticket.game, "created").inc()
        return ticket_pb(ticket, now_ms())

    async def GetTicket(self, request, context):
        return ticket_pb(await self.tickets.get(request.ticket_id), now_ms())

    async def CancelTicket(self, request, context):
        result = await self.tickets.finish(request.ticket_id, "cancelled")
        if result == "cancelled":
            return ticket_pb(await self.tickets.get(request.ticket_id), now_ms())
        if result != "ok":
            raise Precondition(f"the ticket is {result} and can no longer be cancelled"
                               + ("; its assignment follows" if result in ("matching", "assigned") else ""))
        ticket = await self.tickets.get(request.ticket_id)
        mm_metrics.TICKETS.labels(ticket.game, "cancelled").inc()
        return ticket_pb(ticket, now_ms())

    async def WatchTicket(self, request, context):
        """Polls the ticket (cheap: one HGETALL) and sends each change; ends on a final state."""
        last = None
        delay = 0.05
        while True:
            ticket = await self.tickets.get(request.ticket_id)
            if ticket.state != last:
                yield ticket_pb(ticket, now_ms())
                last = ticket.state
                delay = 0.05
            if ticket.state in FINAL_STATES:
                return
            await asyncio.sleep(delay)
            delay = min(0.5, delay * 1.5)

    async def ListQueues(self, request, context):
        out = []
        now = now_ms()
        for queue in await self.tickets.queues():
            depth, oldest = await self.tickets.depth(queue)
            game, variant = queue.split(":", 1)
            out.append(matchmaking_pb2.QueueInfo(game=game, variant=variant, depth=depth,
                                                 oldest_wait_ms=0 if oldest is None else max(0, now - oldest)))
        return matchmaking_pb2.Queues(queues=out)

    async def CreateMatch(self, request, context):
        created = await self.matches.create(request.game, request.variant,
                                            [(s.kind, s.name) for s in request.seats],
                                            parse_options(request.options_json))
        return matchmaking_pb2.CreatedMatch(
            match_id=created.match_id, dice_commitment=created.commitment, version=created.version,
            seat_tokens=[matchmaking_pb2.SeatToken(seat=i, token=t) for i, t in sorted(created.tokens.items())])

    async def ListGames(self, request, context):
        games = []
        for name in game_names():
            try:
                e = engine_for(name)
            except Exception:  # a game whose engine is not installed is not offered
                continue
            games.append(matchmaking_pb2.GameInfo(name=e.name, title=e.title, min_seats=e.min_seats,
                                                  max_seats=e.max_seats, variants=list(e.variants)))
        return matchmaking_pb2.Games(games=games)
