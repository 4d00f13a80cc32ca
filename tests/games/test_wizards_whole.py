"""Whole Wizards matches served for real, to the end the rules give: a player's client (choosing
with the Wizards policy from its own view and its own legal actions, through the public API)
against AI seats played by the Celery workers; a 4-player match, the solitaire game (Appendix A)
and the partnership game (Appendix B). Each ends by a rule (the Gems delivered, 7.336, or the
Sacred Circle fallen, 12.46), its log ends with the platform's `match_finished` and the dice
reveal, and the dice verifier checks every roll."""
from __future__ import annotations

import json
import random
import time
import uuid

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc

from services.client.reading import all_legal_actions, whole_dice_log
from services.client.session import signed_in
from shared.wizards import policy

# the ends the rules give (shared/wizards/evil.py, gems.py, solitaire.py): 12.46, 7.336, Appendix A's stranding
ENDINGS = ("the Sacred Circle has fallen", "brings the six Sacred Gems to Rüktal", "stranded in the Dragon's Lair",
           "he drowns")


def play_seat(channel, match_id: str, token: str, seat: int, seed: int, timeout_s: float = 400):
    """The seat's client: waits for its turn on the match's events, reads its view and every legal action, lets
    the policy choose among them, and sends the choice where the listing says; returns the final view."""
    board, combat = board_pb2_grpc.BoardStub(channel), combat_pb2_grpc.CombatStub(channel)
    meta, rng = (("x-seat-token", token),), random.Random(seed)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        view = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), metadata=meta, timeout=10)
        if view.status == "finished":
            return view
        if view.to_act != seat:
            stream = board.WatchMatch(board_pb2.WatchMatchRequest(match_id=match_id, from_seq=view.last_seq),
                                      metadata=meta, timeout=10)
            try:
                next(iter(stream), None)  # something happened: look again
            except grpc.RpcError:
                pass
            finally:
                stream.cancel()
            continue
        version, actions = all_legal_actions(board, match_id, meta)
        if version != view.version or not actions:
            continue
        legal = [json.loads(a.action_json) for a in actions]
        pick = actions[legal.index(policy.choose(json.loads(view.view_json), seat, legal, rng))]
        request = common_pb2.ActRequest(match_id=match_id, action_id=str(uuid.uuid4()), expected_version=version,
                                        action_json=pick.action_json)
        try:
            (combat.Resolve if pick.service == "combat" else board.Move)(request, metadata=meta, timeout=10)
        except grpc.RpcError as exc:  # the match moved on meanwhile (another seat's turn ended): list again
            assert exc.code() == grpc.StatusCode.ABORTED, (exc.code(), exc.details())
    raise AssertionError("the match did not finish in time")


@pytest.mark.slow
@pytest.mark.parametrize("variant,seats", [("standard", 4), ("solitaire", 1), ("partnership", 4)])
def test_a_whole_match_against_ai_ends_by_a_rule_and_its_dice_verify(served, variant, seats):
    channel = signed_in(grpc.insecure_channel(served.address))
    made = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(mm.CreateMatchRequest(
        game="wizards", variant=variant,
        seats=[mm.SeatSpec(kind="human", name="you")] + [mm.SeatSpec(kind="ai") for _ in range(seats - 1)]),
        timeout=30)
    final = play_seat(channel, made.match_id, made.seat_tokens[0].token, 0, seed=seats)
    outcome = json.loads(final.outcome_json)
    assert len(outcome["scores"]) == seats and any(words in outcome["summary"] for words in ENDINGS), outcome
    assert json.loads(final.view_json)["phase"] == "over"

    dice = dice_pb2_grpc.DiceStub(channel)
    log = whole_dice_log(dice, made.match_id)[1]  # a long match's log comes in several pages
    assert [e.type for e in log[-2:]] == ["match_finished", "dice_revealed"]
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    verdict = dice.Verify(dice_pb2.VerifyRequest(session_id=made.match_id), timeout=60)
    assert verdict.ok and verdict.rolls_checked > 100, list(verdict.problems)
