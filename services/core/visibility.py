"""What a seat may read of a match's log while the match runs.

Private events (with "visible_to") are shown only to their seats; the faces of
secret rolls (which decided hidden things) only once the match is over. In a log of
chain version 2 (shared/eventlog.py) a hidden event is shown as its public form,
{"redacted": true, "sealed": <commitment>} or the roll with its results "?" and the
commitment, which is exactly what its hash covers: every reader can check the whole
chain up to its head at any time. An event shown in full to a seat that may read it
carries the salt that opens its commitment. In a log of chain version 1 a hidden event
is shown as {"redacted": true} and keeps its hash, which then covers the hidden body.
"""
from __future__ import annotations

import json

from shared.canonical import canonical
from shared.eventlog import CHAIN_VERSION, LoggedEvent, Sealer, is_private


def sealer_for(session_id: str, rec: dict) -> Sealer | None:
    """The sealer of a match's (or dice session's) log, None for a log of chain version 1."""
    chain = rec.get("chain")
    if chain is None or int(chain) < CHAIN_VERSION or not rec.get("seed"):
        return None
    seed = rec["seed"]
    return Sealer(bytes.fromhex(seed.decode() if isinstance(seed, bytes) else seed), session_id)


def redact(event: LoggedEvent, seat: int | None, finished: bool, sealer: Sealer | None = None) -> LoggedEvent:
    if sealer is not None:
        return _sealed_view(event, seat, finished, sealer)
    if finished:
        return event
    body = json.loads(event.body_json)
    if "visible_to" in body and (seat is None or seat not in body["visible_to"]):
        return LoggedEvent(event.seq, event.type, canonical({"redacted": True}), event.prev_hash, event.hash)
    if event.type == "roll" and body.get("secret"):
        for pool in body["pools"]:
            pool["results"] = ["?"] * len(pool["results"])
        return LoggedEvent(event.seq, event.type, canonical(body), event.prev_hash, event.hash)
    return event


def _sealed_view(event: LoggedEvent, seat: int | None, finished: bool, sealer: Sealer) -> LoggedEvent:
    if '"visible_to"' not in event.body_json and '"secret":true' not in event.body_json:
        return event  # the common case, without parsing the body
    body = json.loads(event.body_json)
    if not is_private(event.type, body):
        return event
    if finished or ("visible_to" in body and seat is not None and seat in body["visible_to"]):
        return sealer.opened(event)
    return sealer.public(event)
