"""The hash chain of a match's event log, and the events the dice write into it.

Every event carries the hash of the one before it, so removing, editing or
reordering any event breaks the chain:

    hash(n) = SHA-256(prev_hash || "\\n" || seq || "\\n" || type || "\\n" || body)

where body is the event's canonical JSON and the first event's prev_hash is 64 zeros.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

GENESIS = "0" * 64


def canonical(body: Any) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(prev_hash: str, seq: int, type_: str, body_json: str) -> str:
    return hashlib.sha256(f"{prev_hash}\n{seq}\n{type_}\n{body_json}".encode()).hexdigest()


@dataclass(frozen=True)
class LoggedEvent:
    """One event as stored: position, type, canonical body and its link in the chain."""

    seq: int
    type: str
    body_json: str
    prev_hash: str
    hash: str

    @property
    def body(self) -> dict:
        return json.loads(self.body_json)

    def to_dict(self) -> dict:
        return {"seq": self.seq, "type": self.type, "body": self.body_json, "prev": self.prev_hash, "hash": self.hash}

    @classmethod
    def from_dict(cls, d: dict) -> "LoggedEvent":
        return cls(int(d["seq"]), d["type"], d["body"], d["prev"], d["hash"])


def link(events: list[tuple[str, dict]], last_seq: int, head: str) -> list[LoggedEvent]:
    """Chain new (type, body) events after the event `last_seq` whose hash is `head`."""
    out = []
    for i, (type_, body) in enumerate(events, start=1):
        body_json = canonical(body)
        h = chain_hash(head, last_seq + i, type_, body_json)
        out.append(LoggedEvent(last_seq + i, type_, body_json, head, h))
        head = h
    return out
