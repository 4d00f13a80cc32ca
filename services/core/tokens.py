"""Bearer tokens (seat tokens, dice-session tokens): stored only as hashes, compared in
constant time."""
from __future__ import annotations

import hashlib
import hmac


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: bytes | str | None) -> bool:
    if not stored_hash:
        return False
    stored = stored_hash.decode() if isinstance(stored_hash, bytes) else stored_hash
    return hmac.compare_digest(hash_token(token), stored)
