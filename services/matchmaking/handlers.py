"""The matchmaking service's gRPC handlers: direct match creation and the game list."""
from __future__ import annotations

import json

from archmage.matchmaking.v1 import matchmaking_pb2

from services.core.errors import BadRequest
from services.core.matches import Matches
from shared.engine.registry import engine_for, game_names

SERVICE = matchmaking_pb2.DESCRIPTOR.services_by_name["Matchmaking"]
MAX_OPTIONS_BYTES = 16_384


def parse_options(options_json: str) -> dict:
    if not options_json:
        return {}
    if len(options_json) > MAX_OPTIONS_BYTES:
        raise BadRequest(f"options_json is at most {MAX_OPTIONS_BYTES} bytes")
    try:
        options = json.loads(options_json)
    except ValueError:
        raise BadRequest("options_json is not JSON") from None
    if not isinstance(options, dict):
        raise BadRequest("options_json must be a JSON object")
    return options


class MatchmakingHandlers:
    def __init__(self, matches: Matches):
        self.matches = matches

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
