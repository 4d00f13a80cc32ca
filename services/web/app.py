"""Wiring: the routes, the platform connection, the cookie signer and the metrics, in one app.

    from services.web.app import build_app
    app = build_app(WebSettings.from_env())      # an ASGI app: uvicorn serves it (services/web/main.py)
"""
from __future__ import annotations

from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from services.web import api, metrics, pages, queue, relay, replay, rulehelp, turns
from services.web.platform import Platform
from services.web.sessions import Signer
from services.web.settings import WebSettings


async def healthz(request):
    return PlainTextResponse("ok")


def build_app(settings: WebSettings, platform: Platform | None = None) -> Starlette:
    @asynccontextmanager
    async def lifespan(app):
        yield
        app.state.platform.close()

    app = Starlette(routes=[
        Route("/", pages.lobby),
        Route("/match/{match_id}", pages.match),
        Route("/replay/{match_id}", pages.replay),
        Route("/api/guest", api.guest, methods=["POST"]),
        Route("/api/me", api.me),
        Route("/api/games", api.games),
        Route("/api/matches", api.my_matches, methods=["GET"]),
        Route("/api/matches", api.create_match, methods=["POST"]),
        Route("/api/matches/{match_id}/act", api.act, methods=["POST"]),
        Route("/api/matches/{match_id}/resign", api.resign, methods=["POST"]),
        Route("/api/matches/{match_id}/query", api.query, methods=["POST"]),
        Route("/api/realm/tower", api.realm),
        Route("/api/rules/{game}", rulehelp.rules),
        Route("/api/tickets", queue.create, methods=["POST"]),
        Route("/api/tickets/{ticket_id}", queue.get),
        Route("/api/tickets/{ticket_id}/cancel", queue.cancel, methods=["POST"]),
        Route("/api/replay/{match_id}", replay.replay),
        WebSocketRoute("/ws/matches/{match_id}", relay.match_socket),
        WebSocketRoute("/ws/turns", turns.turns_socket),
        Route("/metrics", metrics.metrics),
        Route("/healthz", healthz),
        Mount("/static", StaticFiles(directory=pages.STATIC), name="static"),
    ], middleware=[Middleware(metrics.MetricsMiddleware)], lifespan=lifespan)
    app.state.settings = settings
    app.state.platform = platform or Platform(settings.platform_addr, settings.combat_addr, settings.call_timeout_s,
                                              settings.board_addr, settings.tls)
    app.state.signer = Signer(settings.secret, settings.session_s)
    return app
