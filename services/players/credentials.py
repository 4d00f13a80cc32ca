"""Session credentials: short-lived JWTs signed with Ed25519 (PyJWT, algorithm EdDSA).

Only the process that signs players in holds the private key; anything that checks a
credential needs the public key alone, so no service shares a signing secret. The key
comes from PLAYER_KEY_FILE (a PEM file) when set; otherwise the platform makes one
the first time and keeps it in Redis (`players:signing-key`), so every replica
signs and checks with the same key (see docs/security.md for what that costs).
A credential names its player (`sub`), whether a guest, its own id (`jti`), and expires (`exp`).

Signing out revokes one credential until it would have expired: `revoked:<jti>` in Redis,
with a TTL to match, so every replica refuses it. Checking a credential for a player is
the signature, the expiry, then that one key (one EXISTS); a credential issued before
credentials had ids is known by its SHA-256 instead.
"""
from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from services.core.errors import Unauthenticated

KEY_IN_REDIS = "players:signing-key"
ISSUER = AUDIENCE = "archmage"
METADATA_KEY = "authorization"
REVOKED_SLACK_S = 60  # a revocation outlives its credential this long: replicas' clocks may differ


def revoked_key(jti: str) -> str:
    return f"revoked:{jti}"


@dataclass(frozen=True)
class Player:
    player_id: str
    guest: bool


@dataclass(frozen=True)
class Issued:
    token: str
    expires_at: int


@dataclass(frozen=True)
class Session:
    """A checked credential: whose it is, its id and when it expires."""

    player: Player
    jti: str
    expires_at: int


class Credentials:
    def __init__(self, private_key: Ed25519PrivateKey | None, public_key: Ed25519PublicKey, redis,
                 ttl_s: int = 3600, quotas=None):
        self._private, self.public_key, self.redis, self.ttl_s = private_key, public_key, redis, ttl_s
        self.quotas = quotas  # calls_per_player is counted here, where the player is known for sure

    @classmethod
    async def load(cls, redis, key_file: str = "", ttl_s: int = 3600, quotas=None) -> "Credentials":
        if key_file:
            with open(key_file, "rb") as fh:
                private = serialization.load_pem_private_key(fh.read(), password=None)
        else:
            pem = Ed25519PrivateKey.generate().private_bytes(serialization.Encoding.PEM,
                                                             serialization.PrivateFormat.PKCS8,
                                                             serialization.NoEncryption())
            await redis.set(KEY_IN_REDIS, pem, nx=True)  # the first replica's key wins
            private = serialization.load_pem_private_key(await redis.get(KEY_IN_REDIS), password=None)
        if not isinstance(private, Ed25519PrivateKey):
            raise ValueError("the player signing key must be an Ed25519 private key")
        return cls(private, private.public_key(), redis, ttl_s, quotas)

    def issue(self, player: Player, now: float | None = None) -> Issued:
        if self._private is None:
            raise RuntimeError("this process checks credentials but cannot issue them")
        now = int(now or time.time())
        claims = {"sub": player.player_id, "guest": player.guest, "iat": now, "exp": now + self.ttl_s,
                  "iss": ISSUER, "aud": AUDIENCE, "jti": secrets.token_urlsafe(16)}
        return Issued(jwt.encode(claims, self._private, algorithm="EdDSA"), now + self.ttl_s)

    def verify(self, token: str) -> Session:
        """The session a credential proves by its signature and expiry (not yet whether it was revoked)."""
        try:
            claims = jwt.decode(token, self.public_key, algorithms=["EdDSA"], audience=AUDIENCE, issuer=ISSUER,
                                options={"require": ["sub", "exp", "iat"]})
        except jwt.ExpiredSignatureError:
            raise Unauthenticated("the session credential has expired: sign in again") from None
        except jwt.PyJWTError:
            raise Unauthenticated("the session credential is not valid") from None
        jti = claims.get("jti")
        if not isinstance(jti, str) or not jti:
            jti = "sha256:" + hashlib.sha256(token.encode()).hexdigest()  # issued before credentials had ids
        return Session(Player(str(claims["sub"]), bool(claims.get("guest"))), jti, int(claims["exp"]))

    async def check(self, token: str) -> Session:
        """The session a credential proves: signed, unexpired and not revoked; one call more
        against its player's calls_per_player limit."""
        session = self.verify(token)
        if await self.redis.exists(revoked_key(session.jti)):
            raise Unauthenticated("the session credential was revoked (signed out): sign in again")
        if self.quotas is not None:  # a flood guard: an unreachable counter (its master down) lets the call by
            await self.quotas.guard("calls_per_player", session.player.player_id)
        return session

    async def session(self, header: str | None) -> Session:
        """The session an `authorization: Bearer ...` header proves; Unauthenticated without one."""
        if not header:
            raise Unauthenticated("this call needs a session credential: metadata 'authorization: Bearer <token>'"
                                  " (Players.SignInAsGuest gives one)")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise Unauthenticated("the authorization metadata must read 'Bearer <token>'")
        return await self.check(token.strip())

    async def require(self, header: str | None) -> Player:
        """The player an `authorization: Bearer ...` header proves; Unauthenticated without one."""
        return (await self.session(header)).player

    async def revoke(self, session: Session, now: float | None = None) -> None:
        """Refuse this credential from now on, until it would have expired (and a little after)."""
        left = session.expires_at - int(now or time.time())
        await self.redis.set(revoked_key(session.jti), 1, ex=max(1, left) + REVOKED_SLACK_S)
