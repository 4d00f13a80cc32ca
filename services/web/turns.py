"""The lobby's one socket for the player's turns, /ws/turns: Matchmaking.WatchMyTurns relayed.

To the page, JSON messages:
    {"type": "ready"}             the stream is followed: the page reads its list of matches now
    {"type": "notice", "kind": "your_turn" | "ended", "match_id", "game", "seat", "version",
     "deadline_ms", "at_ms"}      a notice sent since the page connected (the notices the platform
                                  kept from before are skipped: on "ready" the page reads where each
                                  match stands from GET /api/matches, whose `your_turn` is the platform's)
    {"type": "error", "error"}    a refusal; the socket is then closed (4401: sign in again)

The stream is followed on a worker thread (the client is blocking), resumed after the last
notice seen when it drops, and cancelled when the page goes away. One socket a lobby page."""
from __future__ import annotations

import asyncio
import time

import grpc
from starlette.websockets import WebSocket, WebSocketDisconnect

from services.web import metrics
from services.web.following import CLOSED, StreamFollower, next_or_closed
from services.web.relay import same_origin
from services.web.sessions import COOKIE, BadSession

SLACK_MS = 500  # a notice sent this long before the socket opened is still relayed (clocks apart by a little)


def notice_json(notice) -> dict:
    return {"type": "notice", "kind": notice.kind, "match_id": notice.match_id, "game": notice.game,
            "seat": notice.seat, "version": notice.version, "deadline_ms": notice.deadline_ms, "at_ms": notice.at_ms}


class TurnFollower(StreamFollower):
    """WatchMyTurns on a thread, each notice from `since_ms` on handed to the loop's queue."""

    RETRY_S = 0.5

    def __init__(self, client, since_ms: int, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue):
        super().__init__(loop, queue, "follow-turns")
        self.client, self.since_ms = client, since_ms
        self.after_id = ""

    def open(self):
        from archmage.matchmaking.v1 import matchmaking_pb2 as mm

        return self.client.matchmaking.WatchMyTurns(mm.WatchMyTurnsRequest(after_id=self.after_id),
                                                    metadata=self.client.auth)

    def got(self, notice) -> None:
        self.after_id = notice.id
        if notice.at_ms >= self.since_ms:
            self.hand(notice)


async def turns_socket(websocket: WebSocket) -> None:
    await websocket.accept()
    app = websocket.app
    follower = None
    metrics.SOCKETS.inc()
    try:
        if not same_origin(websocket):
            await websocket.send_json({"type": "error", "error": "the turns socket opens only from this site's own "
                                                                 "pages", "status": 403})
            await websocket.close(4403)
            return
        try:
            session = app.state.signer.load(websocket.cookies.get(COOKIE))
        except BadSession as exc:
            await websocket.send_json({"type": "error", "error": str(exc), "status": 401})
            await websocket.close(4401)
            return
        queue: asyncio.Queue = asyncio.Queue()
        since = int(time.time() * 1000) - SLACK_MS
        follower = TurnFollower(app.state.platform.client(session.token), since, asyncio.get_running_loop(),
                                queue).start()
        await websocket.send_json({"type": "ready"})
        closed = asyncio.ensure_future(websocket.receive())
        while (item := await next_or_closed(queue, closed)) is not CLOSED:
            if isinstance(item, grpc.RpcError):
                status = 401 if item.code() == grpc.StatusCode.UNAUTHENTICATED else 502
                await websocket.send_json({"type": "error", "status": status,
                                           "error": item.details() or "your turns stopped"})
                await websocket.close(4401 if status == 401 else 4400)
                return
            await websocket.send_json(notice_json(item))
    except WebSocketDisconnect:
        return
    finally:
        metrics.SOCKETS.dec()
        if follower is not None:
            follower.stop()
