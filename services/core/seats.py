"""Seat tokens: issued once at match creation, stored hashed, sent as metadata.

A token reads "<match id>.<seat>.<secret>", so the edge can tell which match and
seat it claims before loading anything; the secret's hash proves it.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass

from services.core.errors import PermissionDenied, Unauthenticated
from services.core.tokens import token_matches

METADATA_KEY = "x-seat-token"


@dataclass(frozen=True)
class SeatClaim:
    match_id: str
    seat: int
    token: str


def issue(match_id: str, seat: int) -> str:
    return f"{match_id}.{seat}.{secrets.token_urlsafe(24)}"


def parse(token: str) -> SeatClaim:
    parts = token.split(".")
    if len(parts) != 3 or not parts[1].isdigit() or not parts[0] or len(token) > 200:
        raise Unauthenticated("the seat token is malformed")
    return SeatClaim(parts[0], int(parts[1]), token)


def check(claim: SeatClaim | None, match_id: str, token_hashes: list[str]) -> int:
    """The seat the claim proves for this match; raises if it proves none."""
    if claim is None:
        raise Unauthenticated(f"this call needs a seat token in metadata {METADATA_KEY!r}")
    if claim.match_id != match_id:
        raise PermissionDenied("the seat token belongs to another match")
    if not 0 <= claim.seat < len(token_hashes) or not token_matches(claim.token, token_hashes[claim.seat]):
        raise Unauthenticated("the seat token is not valid for this match")
    return claim.seat


