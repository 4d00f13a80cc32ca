"""Channels to the platform with gRPC's own retry policy (service config): a call that may
be repeated without changing its effect is retried on UNAVAILABLE, with exponential
back-off and jitter, up to five attempts in all. CANCELLED is retried too: a server that is
stopping answers the calls it took but had not yet handed to a handler with it
(grpc/grpc#41785), and none of them ran; a call the client cancels itself is never retried.

Idempotent here: every read, the event and ticket streams (retried only before their first
message), and Move/Resolve, whose client-chosen action id makes a repeat a replay. Calls
that create (CreateMatch, CreateTicket, CreateSession, Roll) or change once (CancelTicket,
Reveal, AddClientSeed) are not retried: their caller decides."""
from __future__ import annotations

import json

import grpc

IDEMPOTENT = {
    "archmage.board.v1.Board": ("GetMatch", "ListLegalActions", "WatchMatch", "Query", "Move"),
    "archmage.combat.v1.Combat": ("Resolve",),
    "archmage.matchmaking.v1.Matchmaking": ("ListGames", "GetTicket", "WatchTicket", "ListQueues"),
    "archmage.dice.v1.Dice": ("GetSession", "Draw", "Verify", "ExportLog"),
    "grpc.health.v1.Health": ("Check",),
}
RETRY_POLICY = {"maxAttempts": 5, "initialBackoff": "0.1s", "maxBackoff": "2s", "backoffMultiplier": 2,
                "retryableStatusCodes": ["UNAVAILABLE", "CANCELLED"]}
SERVICE_CONFIG = json.dumps({"methodConfig": [{
    "name": [{"service": service, "method": method} for service, methods in IDEMPOTENT.items() for method in methods],
    "retryPolicy": RETRY_POLICY,
}]})
OPTIONS = [("grpc.enable_retries", 1), ("grpc.service_config", SERVICE_CONFIG)]


def channel(addr: str, options=()) -> grpc.Channel:
    """A blocking channel to addr that retries idempotent calls (see above)."""
    return grpc.insecure_channel(addr, options=OPTIONS + list(options))


def aio_channel(addr: str, options=()) -> grpc.aio.Channel:
    """The same for grpc.aio (service-to-service calls)."""
    return grpc.aio.insecure_channel(addr, options=OPTIONS + list(options))
