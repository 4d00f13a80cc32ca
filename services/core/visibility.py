"""What a seat may read of a match's log while the match runs.

Private events (with "visible_to") are shown only to their seats; the faces of
secret rolls (which decided hidden things) only once the match is over. A redacted
event keeps its seq and hash, so a reader still sees that nothing is missing.
"""
from __future__ import annotations

import json

from shared.eventlog import LoggedEvent


def redact(event: LoggedEvent, seat: int | None, finished: bool) -> LoggedEvent:
    if finished:
        return event
    body = json.loads(event.body_json)
    if "visible_to" in body and (seat is None or seat not in body["visible_to"]):
        return LoggedEvent(event.seq, event.type, json.dumps({"redacted": True}), event.prev_hash, event.hash)
    if event.type == "roll" and body.get("secret"):
        for pool in body["pools"]:
            pool["results"] = ["?"] * len(pool["results"])
        return LoggedEvent(event.seq, event.type, json.dumps(body, sort_keys=True), event.prev_hash, event.hash)
    return event
