"""Reading a match from a client: its events so far, every legal action across pages, and a
dice log across pages."""
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


def all_legal_actions(board, match_id: str, metadata=(), timeout: float = 10, first_page=None) -> tuple[int, list]:
    """(version, every legal action of the caller's seat), page after page (from `first_page`
    when the caller has it already).

    Page tokens are tied to the match's version: if the match moves on while paging,
    the next page is refused with ABORTED and the caller lists again."""
    from archmage.board.v1 import board_pb2

    actions, token = [], ""
    while True:
        page = first_page or board.ListLegalActions(
            board_pb2.ListLegalActionsRequest(match_id=match_id, page_token=token), metadata=metadata, timeout=timeout)
        first_page = None
        actions += page.actions
        token = page.next_page_token
        if not token:
            return page.version, actions


def whole_dice_log(dice, session_id: str, metadata=(), timeout: float = 30) -> tuple[str, list]:
    """(commitment, every event of the session's log as the caller may read it), page after page."""
    from archmage.dice.v1 import dice_pb2

    events, start = [], 0
    while True:
        page = dice.ExportLog(dice_pb2.ExportLogRequest(session_id=session_id, from_seq=start), metadata=metadata,
                              timeout=timeout)
        events += page.events
        start = page.next_seq
        if not start:
            return page.commitment, events
