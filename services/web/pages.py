"""The HTML pages: the lobby (/), a match (/match/{match_id}) and a finished match's replay
(/replay/{match_id}, open to anyone). Each is a small static
document whose plain JS modules (static/) do the rest over /api and the match's WebSocket;
no build step, nothing fetched from outside: the pages work offline on loopback."""
from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse

STATIC = Path(__file__).parent / "static"


async def lobby(request: Request):
    return FileResponse(STATIC / "lobby.html")


async def match(request: Request):
    return FileResponse(STATIC / "match.html")


async def replay(request: Request):
    return FileResponse(STATIC / "replay.html")
