"""`python -m services.web.main`: the web service on uvicorn, at WEB_HOST:WEB_PORT.

Why Starlette on uvicorn: the service is a thin relay (a few JSON routes, static files, one
WebSocket per match page), and Starlette gives exactly those pieces with no ORM, templating or
settings framework to carry; uvicorn is the ASGI server it is made for, with WebSockets built
in. Both are small pure-Python packages from the registry, nothing to build or fetch at run time."""
from __future__ import annotations

import logging
import sys

import uvicorn
from prometheus_client import start_http_server

from services.core.config import ConfigError
from services.web.app import build_app
from services.web.settings import WebSettings


def main() -> int:
    try:
        settings = WebSettings.from_env()
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO)
    if settings.metrics_port:
        start_http_server(settings.metrics_port, addr=settings.host)
    print(f"web          http://{settings.host}:{settings.port}/ (platform {settings.platform_addr})", flush=True)
    uvicorn.run(build_app(settings), host=settings.host, port=settings.port, log_level="warning",
                ws="websockets-sansio", timeout_graceful_shutdown=3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
