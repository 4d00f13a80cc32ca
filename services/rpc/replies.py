"""Reply messages several services send alike."""
from __future__ import annotations

from archmage.common.v1 import common_pb2


def event_pb(e) -> common_pb2.Event:
    """One logged event (shared.eventlog.LoggedEvent) as the API sends it."""
    return common_pb2.Event(seq=e.seq, type=e.type, body_json=e.body_json, prev_hash=e.prev_hash, hash=e.hash,
                            salt=e.salt)
