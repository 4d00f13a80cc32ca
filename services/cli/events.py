"""Reading a match's event stream from a client."""
from __future__ import annotations


def events_between(board, match_id: str, after: int, last: int, metadata=(), timeout: float = 30) -> list:
    """The events with seq in (after, last], as the caller may see them.

    WatchMatch stays open while a match runs, so a client that wants "the log so far"
    reads up to the newest seq it knows of (GetMatch's last_seq) and hangs up."""
    from archmage.board.v1 import board_pb2

    if last <= after:
        return []
    stream = board.WatchMatch(board_pb2.WatchMatchRequest(match_id=match_id, from_seq=after), metadata=metadata,
                              timeout=timeout)
    out = []
    for event in stream:
        out.append(event)
        if event.seq >= last:
            stream.cancel()
            break
    return out
