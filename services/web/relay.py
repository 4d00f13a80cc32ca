"""A match's WebSocket, /ws/matches/{match_id}: the page's one line to the match.

To the page, JSON messages:
    {"type": "state", ...}        the match as this seat sees it (services/web/platform.py
                                  match_state): view, whose turn, legal actions; first on
                                  connecting, then again after each burst of events
    {"type": "events", "events"}  the match's events (seq, type, body) as this seat may see them:
                                  on connecting every one so far, then each as it happens
    {"type": "error", "error"}    a refusal (the socket is then closed with code 4400+)
Anyone may open one: with no session, or no seat in the match, the page watches as a spectator.
The page acts through POST /api/matches/{id}/act (the same rules as any client), and the
events it causes come back here like everyone else's.

Events are followed with WatchMatch on a worker thread (the client is blocking), resuming from
the last seq seen when the stream drops; the stream is cancelled when the page goes away."""
from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import urlsplit

import grpc
from starlette.websockets import WebSocket, WebSocketDisconnect

from services.web import metrics
from services.web.following import CLOSED, StreamFollower, next_or_closed
from services.web.platform import Refused, call, match_state, need_match_id
from services.web.sessions import COOKIE, BadSession

CLOSE_CODES = {401: 4401, 403: 4403, 404: 4404}


def event_json(event) -> dict:
    return {"seq": event.seq, "type": event.type, "body": json.loads(event.body_json) if event.body_json else {}}


class Follower(StreamFollower):
    """WatchMatch from `seq` on a thread, each event handed to the loop's queue with the time it
    came (None once the match is over, an RpcError when the stream failed); stop() cancels."""

    def __init__(self, seat, seq: int, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue):
        super().__init__(loop, queue, f"follow-{seat.match_id}")
        self.seat, self.seq = seat, seq

    def open(self):
        from archmage.board.v1 import board_pb2

        request = board_pb2.WatchMatchRequest(match_id=self.seat.match_id, from_seq=self.seq)
        return self.seat.client.board.WatchMatch(request, metadata=self.seat.meta)

    def got(self, event) -> None:
        self.seq = max(self.seq, event.seq)
        self.hand(event)

    def ended(self) -> None:
        self.hand(None)  # the server ended the stream: the match is over

    def wrap(self, item):
        return time.perf_counter(), item


def same_origin(websocket: WebSocket) -> bool:
    """A browser names the page that opens a socket; only this site's pages may open one with the
    player's cookie (another site's page could, since a socket is not held to the same-origin rule)."""
    origin = websocket.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == websocket.headers.get("host")


def watcher(app, cookie: str | None, match_id: str):
    """Who the socket reads the match as: the player's seat when their session holds it; a
    spectator when it does not, or when there is no session at all (anyone may watch, and sees
    only what the platform shows a spectator). A forged or expired cookie is still refused."""
    if not cookie:
        return app.state.platform.seat("", match_id, None)
    session = app.state.signer.load(cookie)
    return app.state.platform.seat(session.token, match_id, session.seats.get(match_id))


async def match_socket(websocket: WebSocket) -> None:
    await websocket.accept()
    app = websocket.app
    follower = None
    metrics.SOCKETS.inc()
    try:
        try:
            if not same_origin(websocket):
                raise Refused(403, "a match socket opens only from this site's own pages")
            match_id = need_match_id(websocket.path_params["match_id"])
            seat = watcher(app, websocket.cookies.get(COOKIE), match_id)
            state = await call(match_state, seat)
        except (Refused, BadSession) as exc:
            status = exc.status if isinstance(exc, Refused) else 401
            metrics.REFUSALS.labels(str(status)).inc()
            await websocket.send_json({"type": "error", "error": getattr(exc, "message", str(exc)), "status": status})
            await websocket.close(CLOSE_CODES.get(status, 4400))
            return
        await websocket.send_json({"type": "state", **state})
        queue: asyncio.Queue = asyncio.Queue()
        follower = Follower(seat, 0, asyncio.get_running_loop(), queue).start()
        closed = asyncio.ensure_future(websocket.receive())  # the page says nothing: only its going away
        while (first := await next_or_closed(queue, closed)) is not CLOSED:
            burst = [first]
            while not queue.empty():
                burst.append(queue.get_nowait())
            events = [event_json(e) for _, e in burst if e is not None and not isinstance(e, Exception)]
            if events:
                metrics.EVENTS_RELAYED.inc(len(events))
                await websocket.send_json({"type": "events", "events": events})
            failed = next((e for _, e in burst if isinstance(e, grpc.RpcError)), None)
            if failed is not None:
                await websocket.send_json({"type": "error", "error": failed.details() or "the match's events stopped"})
                return
            if events and events[-1]["seq"] > state["last_seq"] or any(e is None for _, e in burst):
                state = await call(match_state, seat)
                await websocket.send_json({"type": "state", **state})
                metrics.RELAY_SECONDS.observe(time.perf_counter() - burst[0][0])
    except WebSocketDisconnect:
        return
    finally:
        metrics.SOCKETS.dec()
        if follower is not None:
            follower.stop()
