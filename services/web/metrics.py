"""The web service's Prometheus figures (docs/metrics.md lists them with the platform's).
Labels are bounded: route templates ("/api/matches/{match_id}/act", never an id), status codes."""
from __future__ import annotations

import time

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match

_WEB = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

REQUESTS = Counter("archmage_web_requests_total", "HTTP requests answered, by route template and status",
                   ["route", "status"])
REQUEST_SECONDS = Histogram("archmage_web_request_seconds", "Time to answer an HTTP request, by route template",
                            ["route"], buckets=_WEB)
SOCKETS = Gauge("archmage_web_match_sockets", "Match pages connected over a WebSocket now")
EVENTS_RELAYED = Counter("archmage_web_events_relayed_total", "Match events sent to pages")
RELAY_SECONDS = Histogram("archmage_web_relay_seconds", "From a match event read off WatchMatch to the page's "
                          "state (view and legal actions) sent after it", buckets=_WEB)
SIGN_INS = Counter("archmage_web_guest_sign_ins_total", "Guests signed in from the lobby")
REFUSALS = Counter("archmage_web_refusals_total", "Requests refused with a message, by HTTP status", ["status"])


def route_of(scope) -> str:
    for route in scope["app"].routes if "app" in scope else ():
        if route.matches(scope)[0] == Match.FULL:
            return getattr(route, "path", "other")
    return "unmatched"


class MetricsMiddleware:
    """Counts and times every HTTP request by its route template (pure ASGI: streaming-safe)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started, status = time.perf_counter(), [500]

        async def sending(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = route_of(scope)
            REQUESTS.labels(route, str(status[0])).inc()
            REQUEST_SECONDS.labels(route).observe(time.perf_counter() - started)


async def metrics(request: Request) -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
