"""Provably fair dice: the arithmetic, shared by the dice service, the match driver
and the verifier, so all three compute the same faces. docs/fairness.md is the
specification, with test vectors (docs/fairness-vectors.json).

* A session has a secret 32-byte seed; its commitment is SHA-256(seed) as lowercase
  hex, published before any roll.
* Die number n (its nonce, 0, 1, 2, ... never skipped) is drawn from
  HMAC-SHA256(key=seed, message=UTF-8 of "<session>|<n>|<client digest>"), n in
  decimal. The 32-byte MAC is read as eight big-endian 32-bit words; the first word
  below limit = 2**32 - (2**32 mod faces) is taken modulo the face count (rejection
  sampling: no modulo bias). If all eight are rejected, block b = 1, 2, ... is
  HMAC-SHA256(seed, message || "|" || b), read the same way, until a word is taken.
* Client seeds, accepted only after the commitment, fold into the client digest:
  digest' = hex(SHA-256(UTF-8 of digest || 0x00 || client_seed)), where digest is the
  previous digest as 64 lowercase hex characters (the empty string before any client
  seed), and the 0x00 byte separates it from the client seed.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Sequence

SEED_BYTES = 32


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def fold_client_seed(digest: str, client_seed: str) -> str:
    return hashlib.sha256((digest + "\x00" + client_seed).encode()).hexdigest()


def face_index(seed: bytes, session_id: str, nonce: int, client_digest: str, faces: int) -> int:
    """The index (0..faces-1) of die `nonce`'s face, uniform and reproducible."""
    if faces < 1:
        raise ValueError("a die needs at least one face")
    limit = (1 << 32) - ((1 << 32) % faces)
    message = f"{session_id}|{nonce}|{client_digest}".encode()
    block = 0
    while True:
        block_message = message if block == 0 else message + b"|" + str(block).encode()
        digest = hmac.new(seed, block_message, hashlib.sha256).digest()
        for i in range(0, 32, 4):
            word = int.from_bytes(digest[i : i + 4], "big")
            if word < limit:
                return word % faces
        block += 1


def roll_pools(seed: bytes, session_id: str, first_nonce: int, client_digest: str,
               pools: Sequence[tuple[int, Sequence]]) -> tuple[list[list], list[list[int]]]:
    """Roll pools given as (count, faces), consuming nonces from first_nonce in order.

    Returns the faces and the nonce of every die, pool by pool."""
    faces_out: list[list] = []
    nonces_out: list[list[int]] = []
    nonce = first_nonce
    for count, faces in pools:
        faces_out.append([faces[face_index(seed, session_id, nonce + i, client_digest, len(faces))]
                          for i in range(count)])
        nonces_out.append(list(range(nonce, nonce + count)))
        nonce += count
    return faces_out, nonces_out
