"""The matchmaking service's gRPC handlers: direct match creation, tickets, the game list.

Every call made for a player proves that player with a session credential; a ticket
is visible only to its party (anyone else gets the NOT_FOUND of a ticket that does
not exist), and an assignment shows each player the seat token of their own seat."""
from __future__ import annotations

import asyncio
import re
import time

from archmage.matchmaking.v1 import matchmaking_pb2

from services.core import clocks
from services.core.errors import AlreadyExists, BadRequest, NotFound, Precondition, Unauthenticated
from services.core.jsontext import json_object
from services.core.matches import Matches
from services.core.turn_notices import REPAIR_S
from services.matchmaking import metrics as mm_metrics
from services.matchmaking.matchmaker import now_ms
from services.matchmaking.tickets import TicketRecord, TicketStore
from services.matchmaking.tickets_api import checked_ticket_request, ticket_pb
from services.players.credentials import Credentials
from services.players.ratings import Ratings
from services.rpc.edge import current_bearer
from services.rpc.quotas import peer_of
from shared.engine.registry import engine_for, game_names, levels_for

SERVICE = matchmaking_pb2.DESCRIPTOR.services_by_name["Matchmaking"]
MAX_OPTIONS_BYTES = 16_384


def parse_options(options_json: str) -> dict:
    return json_object(options_json, "options_json", MAX_OPTIONS_BYTES) if options_json else {}


FINAL_STATES = ("assigned", "cancelled", "expired")


MAX_MY_MATCHES = 200


WATCH_BLOCK_S = 5.0  # a turn stream waits this long for a notice before it looks at the credential again
NOTICE_ID = re.compile(r"\d{1,20}-\d{1,20}")


def checked_notice_id(after_id: str) -> str:
    """A notice id to resume after ("<ms>-<n>", as TurnNotice.id gives it), or "" for all."""
    if after_id and not NOTICE_ID.fullmatch(after_id):
        raise BadRequest("after_id is a notice's id as TurnNotice.id gives it (like 1764740000000-0), or empty")
    return after_id


class MatchmakingHandlers:
    def __init__(self, matches: Matches, tickets: TicketStore, credentials: Credentials, ratings: Ratings,
                 quotas=None):
        self.matches = matches
        self.tickets = tickets
        self.credentials = credentials
        self.ratings = ratings
        self.quotas = quotas

    async def _count(self, what: str, player: str, context) -> None:
        """One more of `what` (matches, tickets) for this player and this peer."""
        if self.quotas is not None:
            if player:
                await self.quotas.hit(f"{what}_per_player", player)
            await self.quotas.hit(f"{what}_per_peer", peer_of(context))

    async def _player(self) -> str:
        return (await self.credentials.require(current_bearer())).player_id

    async def _ticket_of(self, ticket_id: str, player: str, accepted_only: bool = False) -> TicketRecord:
        """The ticket if `player` is in its party; otherwise the NOT_FOUND of a missing ticket."""
        ticket = await self.tickets.get(ticket_id)
        if player not in (ticket.accepted if accepted_only else ticket.queued.party):
            raise NotFound("no such ticket (it may have expired)")
        return ticket

    async def CreateTicket(self, request, context):
        player = await self._player()
        fields = checked_ticket_request(request, player)
        await self._count("tickets", player, context)
        ratings = [(await self.ratings.get(fields["game"], p)).rating for p in fields["party"]]
        ticket = await self.tickets.create(now_ms=now_ms(), rating=round(sum(ratings) / len(ratings)), **fields)
        mm_metrics.TICKETS.labels(ticket.game, "created").inc()
        return ticket_pb(ticket, now_ms(), player)

    async def AcceptTicket(self, request, context):
        player = await self._player()
        ticket = await self._ticket_of(request.ticket_id, player)
        result = await self.tickets.accept(ticket.ticket_id, player)
        if result == "busy":
            raise AlreadyExists("you already have an active ticket; cancel it first")
        if result != "ok":
            raise Precondition(f"the ticket is {result}: it takes no more acceptances")
        return ticket_pb(await self.tickets.get(ticket.ticket_id), now_ms(), player)

    async def GetTicket(self, request, context):
        player = await self._player()
        return ticket_pb(await self._ticket_of(request.ticket_id, player), now_ms(), player)

    async def CancelTicket(self, request, context):
        player = await self._player()
        await self._ticket_of(request.ticket_id, player, accepted_only=True)
        result = await self.tickets.finish(request.ticket_id, "cancelled")
        if result == "cancelled":
            return ticket_pb(await self.tickets.get(request.ticket_id), now_ms(), player)
        if result != "ok":
            raise Precondition(f"the ticket is {result} and can no longer be cancelled"
                               + ("; its assignment follows" if result in ("matching", "assigned") else ""))
        ticket = await self.tickets.get(request.ticket_id)
        mm_metrics.TICKETS.labels(ticket.game, "cancelled").inc()
        return ticket_pb(ticket, now_ms(), player)

    async def WatchTicket(self, request, context):
        """Polls the ticket (cheap: one HGETALL) and sends each change; ends on a final state."""
        player = await self._player()
        await self._ticket_of(request.ticket_id, player)
        last = None
        delay = 0.05
        while True:
            ticket = await self.tickets.get(request.ticket_id)
            if (ticket.state, ticket.accepted) != last:
                yield ticket_pb(ticket, now_ms(), player)
                last = (ticket.state, ticket.accepted)
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
        """The caller plays every human seat (a match with human seats needs a credential)."""
        seats = [(s.kind, s.name) for s in request.seats]
        if any(s.level and s.kind != "ai" for s in request.seats):
            raise BadRequest("a level is an AI seat's: a human seat plays at its player's own")
        control = clocks.from_pb(request.time_control)
        player = await self._player() if any(kind == "human" for kind, _ in seats) else ""
        await self._count("matches", player, context)
        created = await self.matches.create(request.game, request.variant, seats,
                                            parse_options(request.options_json),
                                            players=[player if kind == "human" else "" for kind, _ in seats],
                                            time_control=control, levels=[s.level for s in request.seats])
        return matchmaking_pb2.CreatedMatch(
            match_id=created.match_id, dice_commitment=created.commitment, version=created.version,
            seat_tokens=[matchmaking_pb2.SeatToken(seat=i, token=t) for i, t in sorted(created.tokens.items())])

    async def ListMyMatches(self, request, context):
        if request.limit > MAX_MY_MATCHES:
            raise BadRequest(f"limit is at most {MAX_MY_MATCHES}")
        player = await self._player()
        out = []
        for rec in await self.matches.matches_of(player, request.limit or 20):
            mine = [s.index for s in rec.seats if s.player == player]
            to_act = engine_for(rec.game).actor(rec.state)
            clock = rec.clock
            deadline = (clocks.deadline_ms(clock) or 0) if clock is not None and not rec.finished else 0
            out.append(matchmaking_pb2.MyMatch(match_id=rec.match_id, game=rec.game, variant=rec.config.variant,
                                               status=rec.status, rated=rec.raw.get("rated") == b"1", seats=mine,
                                               to_act=to_act, your_turn=not rec.finished and to_act in mine,
                                               deadline_ms=deadline))
        # the matches waiting on the caller first, the soonest deadline first (no clock after every
        # clock); the rest as they were, newest first (a stable sort keeps that order within each)
        out.sort(key=lambda m: (not m.your_turn, m.deadline_ms or float("inf")) if m.your_turn else (True, 0))
        return matchmaking_pb2.MyMatches(matches=out)

    async def WatchMyTurns(self, request, context):
        """The player's turn notices after `after_id`, then live (services/core/turn_notices.py):
        lost ones repaired on connecting and every REPAIR_S; ends when the credential expires."""
        session = await self.credentials.session(current_bearer())
        player, after = session.player.player_id, checked_notice_id(request.after_id)
        notices = self.matches.notices
        if notices is None:
            raise Precondition("this server sends no turn notices")
        await self.matches.repair_notices(player)
        repaired = time.monotonic()
        while True:
            left_s = session.expires_at - time.time()
            if left_s <= 0:
                raise Unauthenticated("the session credential has expired: sign in again and resume after the "
                                      f"last notice's id ({after or 'none yet'})")
            for notice in await notices.read(player, after, int(min(WATCH_BLOCK_S, left_s) * 1000)):
                after = notice.id
                yield matchmaking_pb2.TurnNotice(**notice.__dict__)
            if time.monotonic() - repaired > REPAIR_S:
                await self.matches.repair_notices(player)
                repaired = time.monotonic()

    async def ListGames(self, request, context):
        games = []
        for name in game_names():
            try:
                e = engine_for(name)
            except Exception:  # a game whose engine is not installed is not offered
                continue
            games.append(matchmaking_pb2.GameInfo(name=e.name, title=e.title, min_seats=e.min_seats,
                                                  max_seats=e.max_seats, variants=list(e.variants),
                                                  ai_levels=levels_for(name)))
        return matchmaking_pb2.Games(games=games)
