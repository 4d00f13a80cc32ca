"""The hash chain of a match's event log (docs/fairness.md, "The event chain").

Every event carries the hash of the one before it, so removing, editing or
reordering any event breaks the chain:

    hash(n) = SHA-256(prev_hash || "\\n" || seq || "\\n" || type || "\\n" || chained body)

as lowercase hex, over UTF-8, with seq in decimal and the first event's prev_hash 64
zeros. The chained body of a public event is its canonical JSON (shared/canonical.py).

Chain version 2 (a log whose "dice_committed" body says "chain": 2) seals its private
events: an event with "visible_to" (only those seats may read it), and a "roll" with
"secret": true (its faces decided something hidden), enter the chain through a
commitment, so anyone can check the whole chain while the match runs:

    salt   = HMAC-SHA256(seed, "seal" 0x00 session_id 0x00 seq)        32 bytes
    sealed = SHA-256(salt || canonical body)                           lowercase hex
    chained body = canonical({"redacted": true, "sealed": sealed})     for "visible_to"
                 = canonical(body with every pool's results "?", plus "sealed": sealed)
                                                                        for a secret roll

A reader who may not see the body is given the chained body itself; a reader who may
is given the body and its salt, and computes the chained body. The salts come from the
dice seed, so once the seed is revealed (the match has ended) every private body is
shown and anyone can check it against its commitment. Logs of chain version 1 (no
"chain" in "dice_committed") chained every body as itself; they still verify once
their match has ended.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any

from shared.canonical import canonical

GENESIS = "0" * 64
CHAIN_VERSION = 2

__all__ = ["CHAIN_VERSION", "GENESIS", "LoggedEvent", "Sealer", "canonical", "chain_hash", "chained_body",
           "is_private", "is_public_form", "link", "public_form", "seal_salt", "sealed_digest"]


def chain_hash(prev_hash: str, seq: int, type_: str, body_json: str) -> str:
    return hashlib.sha256(f"{prev_hash}\n{seq}\n{type_}\n{body_json}".encode()).hexdigest()


def is_private(type_: str, body: Any) -> bool:
    """Whether a chain-2 event is sealed: read only by some seats, or a secret roll."""
    if not isinstance(body, dict):
        return False
    return "visible_to" in body or (type_ == "roll" and body.get("secret") is True)


def is_public_form(type_: str, body: Any) -> bool:
    """Whether a chain-2 body is the public form of a sealed event (what its hash covers)."""
    if not isinstance(body, dict) or not isinstance(body.get("sealed"), str):
        return False
    if type_ == "roll" and body.get("secret") is True:
        return True
    return body.get("redacted") is True and len(body) == 2


def seal_salt(seed: bytes, session_id: str, seq: int) -> str:
    """The salt of event `seq`'s commitment, as hex: secret until the seed is revealed."""
    return hmac.new(seed, b"seal\x00" + session_id.encode() + b"\x00" + str(seq).encode(), hashlib.sha256).hexdigest()


def sealed_digest(salt_hex: str, body_json: str) -> str:
    return hashlib.sha256(bytes.fromhex(salt_hex) + body_json.encode()).hexdigest()


def public_form(type_: str, body: dict, sealed: str) -> dict:
    """What everyone may read of a sealed event, and what its hash covers."""
    if "visible_to" in body:
        return {"redacted": True, "sealed": sealed}
    shown = json.loads(json.dumps(body))
    for pool in shown.get("pools", []):
        pool["results"] = ["?"] * len(pool.get("results", []))
    shown["sealed"] = sealed
    return shown


def chained_body(type_: str, body_json: str, salt_hex: str) -> str:
    """The chained body of a sealed event given in full with its salt."""
    return canonical(public_form(type_, json.loads(body_json), sealed_digest(salt_hex, body_json)))


@dataclass(frozen=True)
class LoggedEvent:
    """One event as stored or shown: position, type, body, its link in the chain and, for a
    sealed event shown in full, the salt of its commitment ("" otherwise)."""

    seq: int
    type: str
    body_json: str
    prev_hash: str
    hash: str
    salt: str = ""

    @property
    def body(self) -> dict:
        return json.loads(self.body_json)

    def to_dict(self) -> dict:
        d = {"seq": self.seq, "type": self.type, "body": self.body_json, "prev": self.prev_hash, "hash": self.hash}
        if self.salt:
            d["salt"] = self.salt
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "LoggedEvent":
        return cls(int(d["seq"]), d["type"], d["body"], d["prev"], d["hash"], d.get("salt", ""))


@dataclass(frozen=True)
class Sealer:
    """Seals the private events of one chain-2 log: the salts come from its dice seed."""

    seed: bytes
    session_id: str

    def salt(self, seq: int) -> str:
        return seal_salt(self.seed, self.session_id, seq)

    def public(self, event: LoggedEvent) -> LoggedEvent:
        """The event as a reader who may not see its body reads it (its hash still checks)."""
        salt = self.salt(event.seq)
        body = chained_body(event.type, event.body_json, salt)
        return LoggedEvent(event.seq, event.type, body, event.prev_hash, event.hash)

    def opened(self, event: LoggedEvent) -> LoggedEvent:
        """The event in full, with the salt that opens its commitment."""
        return LoggedEvent(event.seq, event.type, event.body_json, event.prev_hash, event.hash,
                           self.salt(event.seq))


def link(events: list[tuple[str, dict]], last_seq: int, head: str, sealer: Sealer | None = None
         ) -> list[LoggedEvent]:
    """Chain new (type, body) events after the event `last_seq` whose hash is `head`; with a
    sealer (a chain-2 log), private events are chained through their commitments. The events
    returned hold the full bodies (what is stored) and no salt."""
    out = []
    for i, (type_, body) in enumerate(events, start=1):
        seq = last_seq + i
        body_json = canonical(body)
        chained = body_json
        if sealer is not None and is_private(type_, body):
            chained = chained_body(type_, body_json, sealer.salt(seq))
        h = chain_hash(head, seq, type_, chained)
        out.append(LoggedEvent(seq, type_, body_json, head, h))
        head = h
    return out
