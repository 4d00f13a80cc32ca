"""A player's session in a signed cookie: the platform's session credential (a guest's, from
Players.SignInAsGuest), when it was issued, and the seat tokens of the matches the player
started here (the newest few), so a page can rejoin them. Nothing is kept on the server: any
replica reads any cookie signed with the same key.

The cookie is `<base64 payload>.<base64 HMAC-SHA256>`; HttpOnly and SameSite=Lax. A cookie
whose signature does not match is no session (BadSession); one older than the session's life
is an expired one, refused with a message saying so, never half-used."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass, field

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

    def remember(self, match_id: str, seat_token: str) -> None:
        self.seats.pop(match_id, None)
        self.seats[match_id] = seat_token
        while len(self.seats) > SEATS_KEPT:
            self.seats.pop(next(iter(self.seats)))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    def __init__(self, key: bytes, max_age_s: int):
        self.key, self.max_age_s = key, max_age_s

    def _mac(self, payload: str) -> str:
        return _b64(hmac.new(self.key, payload.encode(), hashlib.sha256).digest())

    def dump(self, session: Session) -> str:
        payload = _b64(json.dumps({"t": session.token, "i": session.issued, "n": session.name,
                                   "s": session.seats}, separators=(",", ":")).encode())
        return f"{payload}.{self._mac(payload)}"

    def load(self, cookie: str | None, now: float | None = None) -> Session:
        if not cookie:
            raise BadSession("you are not signed in: sign in as a guest on the lobby page")
        payload, _, mac = cookie.partition(".")
        if not hmac.compare_digest(mac, self._mac(payload)):
            raise BadSession("your session cookie is not one this site signed: sign in again")
        data = json.loads(_unb64(payload))
        session = Session(data["t"], data["i"], data.get("n", ""), dict(data.get("s", {})))
        if (now if now is not None else time.time()) - session.issued > self.max_age_s:
            raise ExpiredSession("your session has expired: sign in as a guest again")
        return session
