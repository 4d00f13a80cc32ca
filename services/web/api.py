"""The JSON routes. Each reads the session first (a missing, forged or expired one is refused
with 401 and a message), checks the request, then makes one call to the platform.

    POST /api/guest                         sign in as a new guest (one click): sets the cookie
    GET  /api/me                            who the cookie says you are
    GET  /api/games                         the games, their seats and variants
    GET  /api/matches                       my matches (ListMyMatches), each saying if it can be rejoined here
    POST /api/matches                       {"game", "variant", "ai"}: a match against AI, you in seat 0
    POST /api/matches/{match_id}/act        {"action", "service", "version", "action_id"}: an offered action
    POST /api/matches/{match_id}/resign     {"action_id"}: resign your seat
    POST /api/matches/{match_id}/query      {"kind", ...}: a read-only board query (Board.Query) for your seat
    POST/GET /api/tickets...                queueing through matchmaking (services/web/queue.py)
    GET  /api/realm/tower                   the Wizard's Realm: territories, rings, rivers, bridges (public content)

A refusal answers {"error": message} with its status; nothing is changed by a refused request."""
from __future__ import annotations

import json
import time
import uuid
from functools import lru_cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse

from services.client import Action, Seat
from services.web import metrics
from services.web.platform import Refused, call, need_match_id
from services.web.sessions import COOKIE, BadSession, Session

AI_SEATS = range(1, 6)


def refusal(exc: Refused | BadSession) -> JSONResponse:
    status = exc.status if isinstance(exc, Refused) else 401
    metrics.REFUSALS.labels(str(status)).inc()
    response = JSONResponse({"error": getattr(exc, "message", str(exc))}, status_code=status)
    if isinstance(exc, BadSession):
        response.delete_cookie(COOKIE)
    return response


def session_of(request: Request) -> Session:
    return request.app.state.signer.load(request.cookies.get(COOKIE))


def with_cookie(request: Request, response, session: Session):
    response.set_cookie(COOKIE, request.app.state.signer.dump(session), max_age=request.app.state.settings.session_s,
                        httponly=True, samesite="lax")
    return response


async def body_of(request: Request) -> dict:
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        raise Refused(400, "the request body is not JSON") from None
    if not isinstance(body, dict):
        raise Refused(400, "the request body must be a JSON object")
    return body


def guarded(handler):
    async def route(request: Request):
        try:
            return await handler(request)
        except (Refused, BadSession) as exc:
            return refusal(exc)
    route.__name__ = handler.__name__
    return route


@guarded
async def guest(request: Request):
    platform = request.app.state.platform
    token = await call(platform.guest)
    metrics.SIGN_INS.inc()
    session = Session(token, time.time(), name="guest")
    return with_cookie(request, JSONResponse({"signed_in": True}), session)


@guarded
async def me(request: Request):
    session = session_of(request)
    left = request.app.state.settings.session_s - (time.time() - session.issued)
    return JSONResponse({"signed_in": True, "name": session.name, "session_left_s": int(left),
                         "ticket": session.ticket or None})


@guarded
async def games(request: Request):
    return JSONResponse({"games": await call(request.app.state.platform.games)})


@guarded
async def my_matches(request: Request):
    session = session_of(request)
    found = await call(request.app.state.platform.my_matches, session.token)
    for match in found:
        match["rejoin"] = match["match_id"] in session.seats
    return JSONResponse({"matches": found})


@guarded
async def create_match(request: Request):
    session = session_of(request)
    body = await body_of(request)
    game, variant, ai, level = body.get("game"), body.get("variant", ""), body.get("ai", 1), body.get("level", "")
    if not isinstance(game, str) or not game:
        raise Refused(400, "say which game: 'game' is one of the names /api/games lists")
    if not isinstance(variant, str):
        raise Refused(400, "'variant' is a variant's name, or empty for the game's first")
    if not isinstance(level, str):
        raise Refused(400, "'level' is the AI seats' level, one of the game's ai_levels (/api/games)")
    if not isinstance(ai, int) or isinstance(ai, bool) or ai not in AI_SEATS:
        raise Refused(400, f"'ai' is how many AI seats: {AI_SEATS.start} to {AI_SEATS.stop - 1}")
    seat = await call(request.app.state.platform.create, session.token, game, variant, ai, level)
    session.remember(seat.match_id, seat.token)
    return with_cookie(request, JSONResponse({"match_id": seat.match_id, "seat": seat.seat,
                                              "url": f"/match/{seat.match_id}"}, status_code=201), session)


def seat_for(request: Request, session: Session, match_id: str):
    """The player's own seat in the match: acting and resigning need one."""
    token = session.seats.get(match_id)
    if token is None:
        raise Refused(403, f"you hold no seat in match {match_id} (from this browser): you can watch it, not play it")
    return request.app.state.platform.seat(session.token, match_id, token)


async def seated(request: Request) -> tuple[Seat, dict, str]:
    """What acting and resigning read alike: the player's seat in the match, the request's body,
    and its idempotency key (`action_id`, a fresh one when the page sends none)."""
    session = session_of(request)
    match_id = need_match_id(request.path_params["match_id"])
    body = await body_of(request)
    action_id = body.get("action_id") or str(uuid.uuid4())
    if not isinstance(action_id, str) or len(action_id) > 100:
        raise Refused(400, "'action_id' is a string of at most 100 characters")
    return seat_for(request, session, match_id), body, action_id


@guarded
async def act(request: Request):
    seat, body, action_id = await seated(request)
    action, service, version = body.get("action"), body.get("service", "board"), body.get("version")
    if not isinstance(action, dict) or service not in ("board", "combat") or \
            not isinstance(version, int) or isinstance(version, bool):
        raise Refused(400, "an action is {'action': {...}, 'service': 'board' or 'combat', 'version': v}, "
                           "as the page was offered it")
    # the platform rules on it: a stale version is refused (409), a repeated action_id is a replay
    reply = await call(lambda: seat.act(Action(action, "", service), action_id=action_id, expected_version=version))
    return JSONResponse({"version": reply.version, "replayed": reply.replayed, "events": len(reply.events)})


@guarded
async def resign(request: Request):
    seat, _, action_id = await seated(request)
    reply = await call(lambda: seat.resign(action_id))
    return JSONResponse({"version": reply.version, "replayed": reply.replayed})


@lru_cache(maxsize=1)
def query_kinds() -> frozenset[str]:
    """The read-only queries the games' engines answer (each game's queries.py), and the
    platform's own "schema"; the match's game refuses a kind it does not answer."""
    from shared.incantris import queries as incantris
    from shared.tower import queries as tower
    from shared.wizards import queries as wizards

    return frozenset({"schema"}.union(*(set(m.FIELDS) for m in (incantris, tower, wizards))))


@guarded
async def query(request: Request):
    session = session_of(request)
    match_id = need_match_id(request.path_params["match_id"])
    body = await body_of(request)
    kind = body.get("kind")
    if not isinstance(kind, str) or kind not in query_kinds():
        raise Refused(400, f"a query is one of the read-only kinds {', '.join(sorted(query_kinds()))}; "
                           f"not {str(kind)[:40]!r}")
    seat = seat_for(request, session, match_id)
    return JSONResponse(await call(seat.query, body))


@lru_cache(maxsize=1)
def realm_content() -> dict:
    """The Wizard's Realm as the game's content draws it: the same for every match, public."""
    import shared.tower

    realm = json.loads((Path(shared.tower.__file__).parent / "content" / "realm.json").read_text())
    return {"rocky": realm["rocky"], "territories": realm["territories"], "borders": realm["borders"]}


async def realm(request: Request):
    return JSONResponse(realm_content(), headers={"cache-control": "public, max-age=3600"})
