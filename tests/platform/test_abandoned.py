"""Abandoned matches (services/core/deadlines.py, Matches.abandon): a match with human seats
where no human acted for ABANDON_AFTER_S ends as abandoned, once however many sweepers race,
with its dice revealed so it still verifies, unrated, and its players told; a human action
puts it off; a match of AI seats alone is never abandoned. The tests sweep by hand at a time
of their choosing (the server's own sweeper would act an hour from now)."""
from __future__ import annotations

import asyncio
import json
import time

import grpc
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc
from archmage.players.v1 import players_pb2, players_pb2_grpc

from services.core.store import DEADLINES_KEY, match_key
from tests.platform.test_turn_notices import act, notices
from tests.support.server import ServerThread
from tests.trust.support import identity

AFTER_S = 3600


def _match(channel, me, seats=("human", "ai")):
    made = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(
        mm.CreateMatchRequest(game="race", seats=[mm.SeatSpec(kind=k) for k in seats]), metadata=me.meta)
    return made.match_id, {t.seat: t.token for t in made.seat_tokens}


def _events(channel, match_id):
    return [(e.type, json.loads(e.body_json)) for e in board_pb2_grpc.BoardStub(channel).WatchMatch(
        board_pb2.WatchMatchRequest(match_id=match_id), timeout=10)]


def test_a_match_nobody_human_played_for_too_long_ends_abandoned_once_and_verifies(own_redis):
    with ServerThread(own_redis, abandon_after_s=AFTER_S) as server:
        ch = grpc.insecure_channel(server.address)
        me = identity(ch)
        match_id, _ = _match(ch, me)
        r, matches = server.platform.redis, server.platform.matches
        server.run(r.hset(match_key(match_id), "rated", 1))  # it would change ratings if it were played out
        mark = server.run(r.zscore(DEADLINES_KEY, match_id))
        assert abs(mark - (time.time() + AFTER_S)) < 30  # marked from its creation
        assert server.run(matches.sweep_deadlines(now=time.time() + AFTER_S / 2)) == 0  # not yet

        async def racing():
            return await asyncio.gather(*(matches.sweep_deadlines(now=time.time() + AFTER_S + 60) for _ in range(4)))
        assert sum(server.run(racing())) == 1

        view = board_pb2_grpc.BoardStub(ch).GetMatch(board_pb2.GetMatchRequest(match_id=match_id))
        assert view.status == "abandoned"
        events = _events(ch, match_id)  # the stream ends: the match is over
        kinds = [k for k, _ in events]
        assert kinds[-2:] == ["abandoned", "dice_revealed"] and kinds.count("abandoned") == 1
        assert events[-2][1]["after_s"] == AFTER_S and events[-2][1]["idle_s"] >= AFTER_S
        verdict = dice_pb2_grpc.DiceStub(ch).Verify(dice_pb2.VerifyRequest(session_id=match_id))
        assert verdict.ok and verdict.revealed, list(verdict.problems)
        rating = players_pb2_grpc.PlayersStub(ch).GetRating(players_pb2.GetRatingRequest(game="race"),
                                                            metadata=me.meta)
        assert rating.matches == 0  # abandoned matches are not rated
        told = notices(matchmaking_pb2_grpc.MatchmakingStub(ch), me, 2)
        assert [(n.kind, n.match_id) for n in told] == [("your_turn", match_id), ("ended", match_id)]
        assert server.run(r.zscore(DEADLINES_KEY, match_id)) is None
        listed = matchmaking_pb2_grpc.MatchmakingStub(ch).ListMyMatches(mm.ListMyMatchesRequest(), metadata=me.meta)
        assert [(m.match_id, m.status, m.your_turn) for m in listed.matches] == [(match_id, "abandoned", False)]


def test_a_human_action_puts_it_off_and_ai_seats_alone_are_never_abandoned(own_redis):
    with ServerThread(own_redis, abandon_after_s=AFTER_S) as server:
        ch = grpc.insecure_channel(server.address)
        me = identity(ch)
        match_id, tokens = _match(ch, me, ("human", "human"))
        r, matches = server.platform.redis, server.platform.matches
        server.run(r.hset(match_key(match_id), mapping={"created": int(time.time()) - 2 * AFTER_S,
                                                        "touched": int(time.time()) - 2 * AFTER_S}))
        act(ch, match_id, tokens[0])  # a human acts now: two hours of idleness before it no longer count
        touched = int(server.run(r.hget(match_key(match_id), "touched")))
        assert abs(touched - time.time()) < 30
        assert server.run(matches.sweep_deadlines(now=time.time() + AFTER_S - 60)) == 0  # the old mark was due
        assert server.run(r.zscore(DEADLINES_KEY, match_id)) == touched + AFTER_S  # moved on from the action
        view = board_pb2_grpc.BoardStub(ch).GetMatch(board_pb2.GetMatchRequest(match_id=match_id))
        assert view.status == "active"
        assert server.run(matches.sweep_deadlines(now=touched + AFTER_S + 1)) == 1  # then idle too long: over
        assert [k for k, _ in _events(ch, match_id)][-2:] == ["abandoned", "dice_revealed"]

        robots = matchmaking_pb2_grpc.MatchmakingStub(ch).CreateMatch(mm.CreateMatchRequest(
            game="race", seats=[mm.SeatSpec(kind="ai")] * 2), metadata=me.meta).match_id
        assert server.run(r.zscore(DEADLINES_KEY, robots)) is None  # the AI plays it to its end

        orphan, _ = _match(ch, me)  # a match ended otherwise (cancelled) takes its mark with it
        assert server.run(r.zscore(DEADLINES_KEY, orphan)) is not None
        assert server.run(matches.cancel(orphan, "no players came"))
        assert server.run(r.zscore(DEADLINES_KEY, orphan)) is None
