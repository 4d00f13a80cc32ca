"""What a match hides stays hidden on every read path, for every game: GetMatch,
ListLegalActions, WatchMatch and every Dice RPC show a seat or a spectator only what the
game's own view shows them, until the match ends. (Query answers from the engine's view
for the caller's seat; each engine's query tests check what it reveals.)"""
from __future__ import annotations

import json
import random
import uuid

import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc

from services.client.reading import all_legal_actions
from shared.engine.registry import engine_for
from tests.trust.support import human_match

GAMES = [("tower", "", 2), ("incantris", "battle-royale", 2), ("wizards", "", 2), ("race", "secret-start", 2)]


def play_some(ch, match_id, metas, steps: int, seed: int) -> None:
    board, combat = board_pb2_grpc.BoardStub(ch), combat_pb2_grpc.CombatStub(ch)
    rng = random.Random(seed)
    for _ in range(steps):
        view = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id))
        if view.status != "active" or view.to_act < 0:
            return
        _, actions = all_legal_actions(board, match_id, metas[view.to_act])
        if not actions:
            return
        pick = rng.choice(actions)
        request = common_pb2.ActRequest(match_id=match_id, action_id=str(uuid.uuid4()), action_json=pick.action_json)
        (combat.Resolve if pick.service == "combat" else board.Move)(request, metadata=metas[view.to_act])


def events(stream, upto):
    out = []
    for e in stream:
        out.append((e.seq, e.type, e.body_json, e.hash))
        if e.seq >= upto:
            stream.cancel()
            break
    return out


@pytest.mark.parametrize("game, variant, seats", GAMES)
def test_every_read_path_hides_what_the_rules_hide(platform, raw_channel, game, variant, seats):
    ch = raw_channel
    board, dice = board_pb2_grpc.BoardStub(ch), dice_pb2_grpc.DiceStub(ch)
    match_id, metas = human_match(ch, game, seats, variant=variant)
    play_some(ch, match_id, metas, steps=12, seed=seats)
    rec = platform.run(platform.platform.matches.load(match_id))
    if rec.finished:
        pytest.skip("the match ended within the steps played; nothing is hidden any more")
    engine = engine_for(game)
    readers = [(None, ())] + [(seat, metas[seat]) for seat in range(seats)]
    for seat, meta in readers:
        view = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), metadata=meta)
        assert json.loads(view.view_json) == json.loads(json.dumps(engine.view(rec.state, seat), sort_keys=True))
        if seat is not None:
            _, legal = all_legal_actions(board, match_id, meta)
            mine = {json.dumps(a, sort_keys=True) for a in engine.legal_actions(rec.state, seat)}
            assert {a.action_json for a in legal} == mine  # nothing about another seat's options
        watched = events(board.WatchMatch(board_pb2.WatchMatchRequest(match_id=match_id), metadata=meta,
                                          timeout=10), rec.seq)
        exported = [(e.seq, e.type, e.body_json, e.hash) for e in dice.ExportLog(
            dice_pb2.ExportLogRequest(session_id=match_id), metadata=meta).events]
        assert exported == watched, f"ExportLog and WatchMatch differ for seat {seat}"
        for _, kind, body_json, _ in watched:
            body = json.loads(body_json)
            if kind == "roll" and body.get("secret"):
                assert all(r == "?" for p in body["pools"] for r in p["results"])
            if "visible_to" in body:
                assert seat in body["visible_to"]
            assert kind != "dice_revealed"
        session = dice.GetSession(dice_pb2.GetSessionRequest(session_id=match_id), metadata=meta)
        assert not session.seed and not session.token and not session.revealed
        verdict = dice.Verify(dice_pb2.VerifyRequest(session_id=match_id), metadata=meta)
        assert not verdict.ok and verdict.rolls_checked == 0  # no roll can be recomputed before the reveal
