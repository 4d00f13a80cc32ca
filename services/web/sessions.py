"""A player's session in a signed cookie: the platform's session credential (a guest's, from
Players.SignInAsGuest), when it was issued, and the seat tokens of the matches the player
started here or was seated in by matchmaking (the newest few), so a page can rejoin them, and
the ticket it is queued with. Nothing is kept on the server: any
replica reads any cookie signed with the same key.

The cookie is a JWT signed with HMAC-SHA256 (PyJWT, as the platform's own credentials are JWTs),
HttpOnly and SameSite=Lax; its `iat` is when the session was issued and `exp` when it ends. A
cookie whose signature does not match is no session (BadSession); one past its end is an
expired one, refused with a message saying so, never half-used."""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field

import jwt

COOKIE = "archmage_session"
SEATS_KEPT = 12  # the matches a cookie remembers (a seat token is ~60 bytes: the cookie stays under 1 KiB)


class BadSession(Exception):
    """No usable session: missing, forged or expired. The message is for the player."""


class ExpiredSession(BadSession):
    pass


@dataclass
class Session:
    token: str  # the platform's session credential
    issued: float
    name: str = ""
    seats: dict[str, str] = field(default_factory=dict)  # match id -> seat token, oldest first
    ticket: str = ""  # the matchmaking ticket the player queued from this browser, until it ends

    def remember(self, match_id: str, seat_token: str) -> None:
        self.seats.pop(match_id, None)
        self.seats[match_id] = seat_token
        while len(self.seats) > SEATS_KEPT:
            self.seats.pop(next(iter(self.seats)))


class Signer:
    def __init__(self, key: bytes, max_age_s: int):
        # the HMAC key: SHA-256 of the secret, so a WEB_SECRET of any allowed length is a full 32 bytes
        self.key, self.max_age_s = hashlib.sha256(key).digest(), max_age_s

    def dump(self, session: Session) -> str:
        claims = {"t": session.token, "iat": session.issued, "exp": session.issued + self.max_age_s,
                  "n": session.name, "s": session.seats, "q": session.ticket}
        return jwt.encode(claims, self.key, algorithm="HS256")

    def load(self, cookie: str | None, now: float | None = None) -> Session:
        if not cookie:
            raise BadSession("you are not signed in: sign in as a guest on the lobby page")
        try:
            data = jwt.decode(cookie, self.key, algorithms=["HS256"], options={"verify_exp": False,
                                                                              "require": ["t", "iat", "exp"]})
        except jwt.InvalidTokenError:
            raise BadSession("your session cookie is not one this site signed: sign in again") from None
        if (now if now is not None else time.time()) >= data["exp"]:
            raise ExpiredSession("your session has expired: sign in as a guest again")
        return Session(data["t"], data["iat"], data.get("n", ""), dict(data.get("s", {})),
                       str(data.get("q", "")))
