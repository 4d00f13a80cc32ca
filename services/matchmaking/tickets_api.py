"""Checks on ticket requests, and tickets as the API shows them."""
from __future__ import annotations

import json
import re

from archmage.common.v1 import common_pb2
from archmage.matchmaking.v1 import matchmaking_pb2

from services.core import clocks
from services.core.ai_levels import checked_level
from services.core.errors import BadRequest, PermissionDenied
from services.matchmaking.tickets import TicketRecord
from shared.engine.registry import engine_for, game_names

MAX_RATING = 5000
MAX_WAIT_S = 3600
PLAYER_ID = re.compile(r"[A-Za-z0-9_.@-]{1,64}")


def checked_ticket_request(req, player: str) -> dict:
    """The request's fields, checked, for the calling player; BadRequest names the first thing
    wrong. The rating is not the client's to state: the handler adds the one the platform keeps."""
    if req.game not in game_names():
        raise BadRequest(f"unknown game {req.game!r}; this platform hosts {', '.join(game_names())}")
    engine = engine_for(req.game)
    variant = req.variant or (engine.default_variant(req.seats) if req.seats else engine.variants[0])
    if variant not in engine.variants:
        raise BadRequest(f"{engine.title} has no variant {variant!r}; it has {', '.join(engine.variants)}")
    if req.seats and not engine.min_seats <= req.seats <= engine.max_seats:
        raise BadRequest(f"{engine.title} seats {engine.min_seats} to {engine.max_seats} players, not {req.seats}")
    if req.seats and req.seats not in engine.seat_counts(variant):
        counts = ", ".join(str(n) for n in engine.seat_counts(variant))
        raise BadRequest(f"{engine.title} {variant} is played by {counts} players, not {req.seats}")
    party = list(req.party) or [player]
    if party[0] != player:
        raise PermissionDenied("the first of a party is the player whose credential makes the ticket")
    bad = next((p for p in party if not PLAYER_ID.fullmatch(p)), None)
    if bad is not None:
        raise BadRequest(f"player id {bad[:80]!r} must be 1 to 64 letters, digits or _.@-")
    if len(set(party)) != len(party):
        raise BadRequest("a player appears twice in the party")
    limit = req.seats or max(engine.seat_counts(variant))
    if len(party) > limit:
        raise BadRequest(f"a party of {len(party)} does not fit a match of {limit} seats")
    if req.max_wait_s > MAX_WAIT_S:
        raise BadRequest(f"max_wait_s must be at most {MAX_WAIT_S}, not {req.max_wait_s}")
    if len(req.invite_code) > 64:
        raise BadRequest("an invite code is at most 64 characters")
    control = clocks.from_pb(req.time_control)
    ai_level = checked_level(req.game, req.ai_level, "ai_level")
    return {"game": req.game, "variant": variant, "party": party, "seats": req.seats, "ai_level": ai_level,
            "ai_welcome": req.ai_welcome, "max_wait_s": req.max_wait_s, "invite": req.invite_code,
            "clock": json.dumps(control.to_dict(), sort_keys=True) if control.clocked else ""}


def ticket_pb(t: TicketRecord, now_ms: int, viewer: str) -> matchmaking_pb2.Ticket:
    """The ticket as `viewer` (one of its party) sees it: seat tokens of their own seats only."""
    msg = matchmaking_pb2.Ticket(ticket_id=t.ticket_id, state=t.state, game=t.game, variant=t.variant,
                                 party=list(t.queued.party), waited_ms=max(0, now_ms - t.created_ms),
                                 accepted=list(t.accepted))
    if t.queued.clock:
        msg.time_control.CopyFrom(common_pb2.TimeControl(**json.loads(t.queued.clock)))
    if t.assignment:
        a = t.assignment
        msg.assignment.CopyFrom(matchmaking_pb2.Assignment(
            match_id=a["match_id"], board_addr=a["board_addr"], combat_addr=a["combat_addr"], ai_seats=a["ai_seats"],
            seats=[matchmaking_pb2.AssignedSeat(player=s["player"], seat=s["seat"],
                                                seat_token=s["seat_token"] if s["player"] == viewer else "")
                   for s in a["seats"]]))
    return msg
