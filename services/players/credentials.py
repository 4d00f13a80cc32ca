"""Session credentials: short-lived JWTs signed with Ed25519 (PyJWT, algorithm EdDSA).

Only the process that signs players in holds the private key; anything that checks a
credential needs the public key alone, so no service shares a signing secret. The key
comes from PLAYER_KEY_FILE (a PEM file) when set; otherwise the platform makes one
the first time and keeps it in Redis (`players:signing-key`), so every replica
signs and checks with the same key (see docs/security.md for what that costs).
A credential names its player (`sub`), whether a guest, and expires (`exp`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from services.core.errors import Unauthenticated

KEY_IN_REDIS = "players:signing-key"
ISSUER = AUDIENCE = "archmage"
METADATA_KEY = "authorization"


@dataclass(frozen=True)
class Player:
    player_id: str
    guest: bool


@dataclass(frozen=True)
class Issued:
    token: str
    expires_at: int


class Credentials:
    def __init__(self, private_key: Ed25519PrivateKey | None, public_key: Ed25519PublicKey, ttl_s: int = 3600):
        self._private, self.public_key, self.ttl_s = private_key, public_key, ttl_s

    @classmethod
    async def load(cls, redis, key_file: str = "", ttl_s: int = 3600) -> "Credentials":
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
        return cls(private, private.public_key(), ttl_s)

    def issue(self, player: Player, now: float | None = None) -> Issued:
        if self._private is None:
            raise RuntimeError("this process checks credentials but cannot issue them")
        now = int(now or time.time())
        claims = {"sub": player.player_id, "guest": player.guest, "iat": now, "exp": now + self.ttl_s,
                  "iss": ISSUER, "aud": AUDIENCE}
        return Issued(jwt.encode(claims, self._private, algorithm="EdDSA"), now + self.ttl_s)

    def verify(self, token: str) -> Player:
        try:
            claims = jwt.decode(token, self.public_key, algorithms=["EdDSA"], audience=AUDIENCE, issuer=ISSUER,
                                options={"require": ["sub", "exp", "iat"]})
        except jwt.ExpiredSignatureError:
            raise Unauthenticated("the session credential has expired: sign in again") from None
        except jwt.PyJWTError:
            raise Unauthenticated("the session credential is not valid") from None
        return Player(str(claims["sub"]), bool(claims.get("guest")))

    def require(self, header: str | None) -> Player:
        """The player an `authorization: Bearer ...` header proves; Unauthenticated without one."""
        if not header:
            raise Unauthenticated("this call needs a session credential: metadata 'authorization: Bearer <token>'"
                                  " (Players.SignInAsGuest gives one)")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise Unauthenticated("the authorization metadata must read 'Bearer <token>'")
        return self.verify(token.strip())
