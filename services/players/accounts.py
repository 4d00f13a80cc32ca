"""Player accounts in Redis: sign-up and sign-in by name and password, and guests.

`player:<id>` is a hash: kind (account or guest), created, and for an account its
password as an argon2id hash (argon2-cffi; the plain password is never stored).
A guest is made on the spot with a random id and expires GUEST_TTL_S after its last
sign-in or refresh; an account stays.
"""
from __future__ import annotations

import asyncio
import re
import secrets
import time

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from services.core.errors import AlreadyExists, BadRequest, Unauthenticated
from services.players.credentials import Player

NAME = re.compile(r"[A-Za-z0-9_.-]{3,32}")
RESERVED = ("guest-", "ai")
GUEST_TTL_S = 30 * 24 * 3600
_hasher = PasswordHasher()  # argon2id with the library's RFC 9106 low-memory profile


def _dummy_hash() -> str:
    if not hasattr(_dummy_hash, "value"):
        _dummy_hash.value = _hasher.hash(secrets.token_hex(16))
    return _dummy_hash.value


def player_key(player_id: str) -> str:
    return f"player:{player_id}"


class Accounts:
    def __init__(self, redis):
        self.redis = redis

    async def sign_up(self, name: str, password: str) -> Player:
        if not NAME.fullmatch(name) or name.lower().startswith(RESERVED):
            raise BadRequest("a name is 3 to 32 letters, digits or _.- and does not start with 'guest-' or 'ai'")
        if not 10 <= len(password) <= 256:
            raise BadRequest("a password is 10 to 256 characters")
        hashed = await asyncio.to_thread(_hasher.hash, password)  # ~50 ms of CPU: off the event loop
        if not await self.redis.hsetnx(player_key(name), "password", hashed):
            raise AlreadyExists("that name is taken")
        await self.redis.hset(player_key(name), mapping={"kind": "account", "created": int(time.time())})
        return Player(name, False)

    async def sign_in(self, name: str, password: str) -> Player:
        stored = await self.redis.hget(player_key(name), "password") if NAME.fullmatch(name) else None
        try:
            # an unknown name costs the same hash check, so timing does not tell which names exist
            await asyncio.to_thread(_hasher.verify, stored.decode() if stored else _dummy_hash(), password)
            if stored is None:
                raise VerificationError()
        except (VerificationError, InvalidHashError):
            raise Unauthenticated("no player with that name and password") from None
        return Player(name, False)

    async def guest(self) -> Player:
        player_id = f"guest-{secrets.token_hex(8)}"
        await self.redis.hset(player_key(player_id), mapping={"kind": "guest", "created": int(time.time())})
        await self.redis.expire(player_key(player_id), GUEST_TTL_S)
        return Player(player_id, True)

    async def exists(self, player_id: str) -> bool:
        return bool(await self.redis.exists(player_key(player_id)))

    async def touch(self, player: Player) -> None:
        if player.guest:
            await self.redis.expire(player_key(player.player_id), GUEST_TTL_S)
