"""Knowing when it is your turn, across matches (services/core/turn_notices.py): one stream per
signed-in player (Matchmaking.WatchMyTurns) of "your_turn" when a seat of theirs comes to act
and "ended" when a match of theirs ends; resumable after the last notice's id, each notice
sent once however often it is tried, and a notice lost after its commit repaired when the
player connects."""
from __future__ import annotations

import uuid

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc

from services.core.turn_notices import marks_key, stream_key
from tests.trust.support import identity


def notices(queue, me, count: int, after_id: str = "", timeout: float = 20) -> list:
    """The next `count` notices of the player's stream (then the stream is let go)."""
    stream = queue.WatchMyTurns(mm.WatchMyTurnsRequest(after_id=after_id), metadata=me.meta, timeout=timeout)
    try:
        return [next(stream) for _ in range(count)]
    finally:
        stream.cancel()


def nothing_more(queue, me, after_id: str) -> None:
    with pytest.raises(grpc.RpcError) as waited:
        notices(queue, me, 1, after_id, timeout=1.5)
    assert waited.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED, waited.value.details()


def act(channel, match_id: str, token: str, kind: str = "roll") -> None:
    """One action of the seat holding `token` in a Race match, sent where its listing says."""
    meta = (("x-seat-token", token),)
    legal = board_pb2_grpc.BoardStub(channel).ListLegalActions(
        board_pb2.ListLegalActionsRequest(match_id=match_id), metadata=meta)
    pick = next(a for a in legal.actions if kind in a.action_json)
    request = common_pb2.ActRequest(match_id=match_id, action_id=uuid.uuid4().hex, action_json=pick.action_json)
    send = combat_pb2_grpc.CombatStub(channel).Resolve if pick.service == "combat" \
        else board_pb2_grpc.BoardStub(channel).Move
    send(request, metadata=meta)


@pytest.fixture
def three(raw_channel):
    """A new player with three Race matches of two human seats each (both theirs)."""
    me, queue = identity(raw_channel), matchmaking_pb2_grpc.MatchmakingStub(raw_channel)
    made = [queue.CreateMatch(mm.CreateMatchRequest(game="race", seats=[mm.SeatSpec(kind="human")] * 2),
                              metadata=me.meta) for _ in range(3)]
    tokens = [{t.seat: t.token for t in m.seat_tokens} for m in made]
    return me, queue, [m.match_id for m in made], tokens


def test_the_turn_stream_across_three_matches_resumed_after_a_disconnect(raw_channel, three):
    me, queue, ids, tokens = three
    first = notices(queue, me, 3)  # each match begins with seat 0's turn
    assert {(n.kind, n.match_id, n.seat, n.version) for n in first} == {("your_turn", m, 0, 1) for m in ids}
    assert all(n.game == "race" and n.deadline_ms == 0 and n.at_ms > 0 for n in first)
    nothing_more(queue, me, first[-1].id)

    act(raw_channel, ids[0], tokens[0][0])  # seat 1's turn begins in two matches while nobody watches
    act(raw_channel, ids[1], tokens[1][0], "hide")
    later = notices(queue, me, 2, after_id=first[-1].id)  # resumed: the new ones, none seen again
    assert [(n.kind, n.match_id, n.seat) for n in later] == [("your_turn", ids[0], 1), ("your_turn", ids[1], 1)]
    assert all(n.version > 1 for n in later)
    nothing_more(queue, me, later[-1].id)
    again = notices(queue, me, 5)  # from the start: every notice kept, in order, once each
    assert [n.id for n in again] == [n.id for n in first + later]


def test_a_match_that_ends_sends_one_ended_notice(raw_channel, three):
    me, queue, ids, tokens = three
    seen = notices(queue, me, 3)
    board = board_pb2_grpc.BoardStub(raw_channel)
    board.Resign(board_pb2.ResignRequest(match_id=ids[2], action_id="gg"), metadata=(("x-seat-token", tokens[2][0]),))
    ended = notices(queue, me, 1, after_id=seen[-1].id)[0]
    assert (ended.kind, ended.match_id) == ("ended", ids[2])  # the player holds both seats: one notice
    nothing_more(queue, me, ended.id)


def test_notices_lost_after_their_commit_are_repaired_when_the_player_connects(raw_channel, three, platform):
    me, queue, ids, tokens = three
    act(raw_channel, ids[0], tokens[0][0])
    before = notices(queue, me, 4)
    r = platform.platform.redis
    platform.run(r.delete(stream_key(me.player), marks_key(me.player)))  # as if the committers had died
    repaired = notices(queue, me, 3)
    assert {(n.match_id, n.seat, n.version) for n in repaired} == \
        {(n.match_id, n.seat, n.version) for n in before if not (n.match_id == ids[0] and n.seat == 0)}
    nothing_more(queue, me, repaired[-1].id)


def test_a_notice_is_sent_once_however_often_it_is_tried(platform, three):
    me, _, ids, _ = three
    notices_ = platform.platform.matches.notices
    send = lambda version: platform.run(notices_.send(me.player, "your_turn", ids[0], "race", 0, version))
    assert send(1) is None  # creation sent it already
    assert send(7) is not None and send(7) is None and send(5) is None  # never again, never an older one
    platform.run(notices_.send(me.player, "ended", ids[0], "race", 0, 9))
    assert send(12) is None  # nothing after the end


def test_the_stream_needs_a_credential_and_a_well_formed_offset(raw_channel):
    queue = matchmaking_pb2_grpc.MatchmakingStub(raw_channel)
    with pytest.raises(grpc.RpcError) as anonymous:
        next(queue.WatchMyTurns(mm.WatchMyTurnsRequest(), timeout=5))
    assert anonymous.value.code() == grpc.StatusCode.UNAUTHENTICATED
    me = identity(raw_channel)
    with pytest.raises(grpc.RpcError) as bad:
        next(queue.WatchMyTurns(mm.WatchMyTurnsRequest(after_id="$"), metadata=me.meta, timeout=5))
    assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "after_id" in bad.value.details()


def test_the_client_and_the_terminal_follow_the_turns(raw_channel, three, platform):
    """services/client Client.turns() and `archmage turns`, one line a notice."""
    import os
    import subprocess

    from services.client import Client
    from tests.support.terminal import ROOT, archmage_command

    me, _, ids, _ = three
    token = dict(me.meta)["authorization"].split(" ", 1)[1]
    seen = list(Client(raw_channel, token).turns(idle_s=1.5))
    assert [(n.kind, n.match_id) for n in seen] == [("your_turn", m) for m in ids]
    assert list(Client(raw_channel, token).turns(after_id=seen[0].id, idle_s=1.5)) == seen[1:]

    path = os.pathsep.join([str(ROOT), str(ROOT / "build" / "proto"), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "ARCHMAGE_ADDR": platform.address, "ARCHMAGE_TOKEN": token, "PYTHONPATH": path}
    out = subprocess.run([archmage_command(), "turns", "--idle", "2", "--after", seen[0].id], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stdout.splitlines() if "your turn in" in line]
    assert [line.split("match ")[1].split(" ")[0] for line in lines] == ids[1:], out.stdout
    assert all(f"[{n.id}]" in out.stdout for n in seen[1:])


def test_a_clocked_turn_notice_carries_the_turn_s_deadline(raw_channel):
    from archmage.common.v1 import common_pb2 as cp

    me, queue = identity(raw_channel), matchmaking_pb2_grpc.MatchmakingStub(raw_channel)
    made = queue.CreateMatch(mm.CreateMatchRequest(game="race", seats=[mm.SeatSpec(kind="human")] * 2,
                                                   time_control=cp.TimeControl(mode="turn", turn_s=60)),
                             metadata=me.meta)
    notice, = notices(queue, me, 1)
    view = board_pb2_grpc.BoardStub(raw_channel).GetMatch(board_pb2.GetMatchRequest(match_id=made.match_id),
                                                          metadata=(("x-seat-token", made.seat_tokens[0].token),))
    assert notice.deadline_ms == view.deadline_ms and 50_000 < notice.deadline_ms - notice.at_ms <= 60_000
