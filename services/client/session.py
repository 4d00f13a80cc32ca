"""Signing in from a client: a session credential, and a channel that sends it on every call.

    channel = signed_in(grpc.insecure_channel(addr))      # a guest made on the spot
    channel = signed_in(raw, token=my_token)              # a credential you already hold

The credential goes as metadata "authorization: Bearer <token>"; seat tokens are still
sent per call ("x-seat-token"), as they prove a seat, not a player.
"""
from __future__ import annotations

import collections

import grpc


def sign_in_as_guest(channel, timeout: float = 10):
    from archmage.players.v1 import players_pb2, players_pb2_grpc

    return players_pb2_grpc.PlayersStub(channel).SignInAsGuest(players_pb2.GuestRequest(), timeout=timeout)


def bearer(token: str) -> tuple:
    return (("authorization", f"Bearer {token}"),)


class _Details(collections.namedtuple("_Details", "method timeout metadata credentials wait_for_ready compression"),
               grpc.ClientCallDetails):
    pass


class _Bearer(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
    def __init__(self, token: str):
        self.metadata = bearer(token)

    def _with_token(self, details):
        metadata = list(details.metadata or ())
        if not any(k == "authorization" for k, _ in metadata):  # a credential given for one call wins
            metadata += self.metadata
        return _Details(details.method, details.timeout, metadata, details.credentials,
                        getattr(details, "wait_for_ready", None), getattr(details, "compression", None))

    def intercept_unary_unary(self, continuation, details, request):
        return continuation(self._with_token(details), request)

    def intercept_unary_stream(self, continuation, details, request):
        return continuation(self._with_token(details), request)


def signed_in(channel, token: str = ""):
    """`channel` sending a session credential on every call: `token`, or a new guest's."""
    token = token or sign_in_as_guest(channel).token
    wrapped = grpc.intercept_channel(channel, _Bearer(token))
    wrapped.token = token
    return wrapped
