"""A scripted player: reads its legal actions through the public API and picks one."""
from __future__ import annotations

import random
import time
import uuid

from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2


class ScriptedClient:
    """A player that reads its legal actions and picks one, seeded, through the public API."""

    def __init__(self, channel, match_id: str, token: str, seed: int = 0):
        self.board = board_pb2_grpc.BoardStub(channel)
        self.combat = combat_pb2_grpc.CombatStub(channel)
        self.match_id, self.meta = match_id, (("x-seat-token", token),)
        self.rng = random.Random(seed)
        self.actions_taken = 0

    def view(self):
        return self.board.GetMatch(board_pb2.GetMatchRequest(match_id=self.match_id), metadata=self.meta, timeout=10)

    def play_until_over(self, seat: int, timeout_s: float = 240) -> board_pb2.MatchView:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            view = self.view()
            if view.status == "finished":
                return view
            if view.to_act != seat:
                time.sleep(0.02)
                continue
            legal = self.board.ListLegalActions(board_pb2.ListLegalActionsRequest(match_id=self.match_id),
                                                metadata=self.meta, timeout=10)
            if not legal.actions or legal.version != view.version:
                continue
            pick = self.rng.choice(list(legal.actions))
            request = common_pb2.ActRequest(match_id=self.match_id, action_id=str(uuid.uuid4()),
                                            expected_version=legal.version, action_json=pick.action_json)
            (self.combat.Resolve if pick.service == "combat" else self.board.Move)(request, metadata=self.meta,
                                                                                   timeout=10)
            self.actions_taken += 1
        raise AssertionError("the match did not finish in time")
