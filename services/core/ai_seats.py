"""The AI workers' own credential: one key from which every AI seat's token is derived.

An AI seat's token reads like any seat token, "<match>.<seat>.<secret>", with the secret
HMAC-SHA256(AI key, "<match>|<seat>") in urlsafe base64. The match stores only its hash,
as it does for every seat; the AI worker derives the token itself when it plays a turn,
so neither the match record nor the Celery message holds one. Whoever holds the key can
act for every AI seat, and only for AI seats: human seats' tokens are random. (A human seat
out of time that its match hands to a stand-in AI accepts its derived token too, while the
stand-in plays it: services/core/clocks.py.)

The key comes from AI_KEY_FILE (a mounted secret, read by the processes that create
matches and by the AI workers) when set; otherwise the first process to need it makes
one and keeps it in Redis (`ai:seat-key`, SET NX), so every replica and worker derives
the same tokens, the way the players' signing key is handled (see docs/security.md).
Matches created before this scheme keep their AI tokens in the record (`ai_tokens`) and
go on using them until they end.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from services.core.config import ConfigError

KEY_IN_REDIS = "ai:seat-key"
MIN_KEY_BYTES = 32


def derive(key: bytes, match_id: str, seat: int) -> str:
    """The seat token of AI seat `seat` of match `match_id`."""
    mac = hmac.new(key, f"{match_id}|{seat}".encode(), hashlib.sha256).digest()
    return f"{match_id}.{seat}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"


def key_id(key: bytes) -> str:
    """A short fingerprint of the key that tells two keys apart and reveals nothing of either."""
    return hmac.new(key, b"archmage ai key id", hashlib.sha256).hexdigest()[:16]


def read_key_file(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            key = fh.read().strip()
    except OSError as exc:
        raise ConfigError(f"AI_KEY_FILE names {path!r}, which cannot be read: {exc.strerror or exc}") from None
    if len(key) < MIN_KEY_BYTES:
        raise ConfigError(f"AI_KEY_FILE {path!r} holds {len(key)} bytes; the AI key needs at least {MIN_KEY_BYTES}"
                          " (make one with: openssl rand -hex 32)")
    return key


def _fresh() -> bytes:
    return secrets.token_hex(MIN_KEY_BYTES).encode()


async def load(store, key_file: str = "") -> bytes:
    """The AI key: from `key_file`, else the one the match store keeps (made now if there is
    none; the first process's key wins). `store` is a MatchStore (services/core/store_contract.py)."""
    if key_file:
        return read_key_file(key_file)
    return await store.keep_first(KEY_IN_REDIS, _fresh())


def load_sync(redis, key_file: str = "") -> bytes:
    """`load` for a blocking Redis client (the Celery worker's)."""
    if key_file:
        return read_key_file(key_file)
    redis.set(KEY_IN_REDIS, _fresh(), nx=True)
    return redis.get(KEY_IN_REDIS)
