"""Stubs for a stranger on the network (no credential) shared by the trust tests."""
from __future__ import annotations

import pytest
from archmage.matchmaking.v1 import matchmaking_pb2_grpc
from archmage.players.v1 import players_pb2_grpc


@pytest.fixture
def players(raw_channel):
    return players_pb2_grpc.PlayersStub(raw_channel)


@pytest.fixture
def queue(raw_channel):
    return matchmaking_pb2_grpc.MatchmakingStub(raw_channel)
