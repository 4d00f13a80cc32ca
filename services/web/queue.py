"""Queueing through matchmaking from the lobby: the player's own ticket, as JSON routes.

    POST /api/tickets                       {"game", "variant", "seats", "ai_welcome", "max_wait_s",
                                             "invite_code"}: queue (Matchmaking.CreateTicket)
    GET  /api/tickets/{ticket_id}           the ticket now (GetTicket); once assigned, the seat the
                                            assignment hands this player is remembered in the session
                                            (as a match started here is) and the match page's url answered
    POST /api/tickets/{ticket_id}/cancel    leave the queue (CancelTicket); a ticket being matched
                                            already is refused (409) and its assignment arrives instead

The page polls GET once a second rather than following WatchTicket over a socket: the seat token
the assignment brings must reach the session cookie, and only an HTTP answer can set a cookie (a
socket's handshake is over by then). GetTicket answers the time waited each time, so the page's
clock is the platform's; a queue's states change rarely and a poll is one small read.

A ticket the caller is not in is NOT_FOUND on the platform; here it is a 404 that names nothing
(not the ticket, not whether it exists)."""
from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse

from services.web.api import body_of, guarded, session_of, with_cookie
from services.web.platform import Refused, call

NO_TICKET = "no such ticket of yours"
BEING_MATCHED = ("your ticket is being matched already: a match is being made for it, so it cannot be "
                 "cancelled now; its seat arrives in a moment instead")
ENDED = ("assigned", "cancelled", "expired")


def ticket_json(ticket) -> dict:
    out = {"ticket_id": ticket.ticket_id, "state": ticket.state, "game": ticket.game, "variant": ticket.variant,
           "waited_ms": ticket.waited_ms}
    if ticket.state == "assigned":
        a = ticket.assignment
        mine = next((s for s in a.seats if s.seat_token), None)
        out["assignment"] = {"match_id": a.match_id, "ai_seats": a.ai_seats, "players": len(a.seats),
                             "seat": mine.seat if mine else None, "url": f"/match/{a.match_id}"}
    return out


def need_ticket_id(ticket_id: str) -> str:
    if not (0 < len(ticket_id) <= 100 and all(c.isalnum() or c in "-_:" for c in ticket_id)):
        raise Refused(404, NO_TICKET)
    return ticket_id


def ticket_call(platform, token: str, rpc: str, request):
    client = platform.client(token)
    return getattr(client.matchmaking, rpc)(request, metadata=client.auth, timeout=platform.timeout)


async def on_ticket(request: Request, rpc: str):
    from archmage.matchmaking.v1 import matchmaking_pb2 as mm

    session = session_of(request)
    ticket_id = need_ticket_id(request.path_params["ticket_id"])
    try:
        ticket = await call(ticket_call, request.app.state.platform, session.token, rpc,
                            mm.TicketRef(ticket_id=ticket_id))
    except Refused as exc:
        if exc.status == 404:
            raise Refused(404, NO_TICKET) from None
        if exc.status == 409 and rpc == "CancelTicket" and "matching" in exc.message:
            raise Refused(409, BEING_MATCHED) from None  # else the platform's own words (assigned, expired)
        raise
    return session, ticket


def settled(request: Request, session, ticket) -> JSONResponse:
    """The ticket's answer; an assigned one's seat goes into the session, an ended one leaves it."""
    if ticket.state == "assigned":
        mine = next((s for s in ticket.assignment.seats if s.seat_token), None)
        if mine is not None:
            session.remember(ticket.assignment.match_id, mine.seat_token)
    if ticket.state in ENDED and session.ticket == ticket.ticket_id:
        session.ticket = ""
    return with_cookie(request, JSONResponse(ticket_json(ticket)), session)


@guarded
async def create(request: Request):
    from archmage.matchmaking.v1 import matchmaking_pb2 as mm

    session = session_of(request)
    body = await body_of(request)
    game, variant, invite = body.get("game"), body.get("variant", ""), body.get("invite_code", "")
    seats, wait, ai = body.get("seats", 0), body.get("max_wait_s", 30), body.get("ai_welcome", False)
    level = body.get("ai_level", "")
    if not isinstance(level, str):
        raise Refused(400, "'ai_level' is the level of the AI that fills the match, one of the game's ai_levels")
    if not isinstance(game, str) or not game:
        raise Refused(400, "say which game: 'game' is one of the names /api/games lists")
    if not isinstance(variant, str) or not isinstance(invite, str):
        raise Refused(400, "'variant' and 'invite_code' are strings (empty: the game's first; no invite)")
    for name, value in (("seats", seats), ("max_wait_s", wait)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise Refused(400, f"'{name}' is a whole number, 0 or more")
    if not isinstance(ai, bool):
        raise Refused(400, "'ai_welcome' is true or false: may AI fill the match")
    ticket = await call(ticket_call, request.app.state.platform, session.token, "CreateTicket",
                        mm.CreateTicketRequest(game=game, variant=variant, seats=seats, ai_welcome=ai,
                                               max_wait_s=wait, invite_code=invite, ai_level=level))
    session.ticket = ticket.ticket_id
    response = settled(request, session, ticket)
    response.status_code = 201
    return response


@guarded
async def get(request: Request):
    return settled(request, *await on_ticket(request, "GetTicket"))


@guarded
async def cancel(request: Request):
    return settled(request, *await on_ticket(request, "CancelTicket"))
