"""The combat service's gRPC handlers: battles, spells, encounters, token effects.
Its resolution path is the hot path: timed and counted by game and kind."""
from __future__ import annotations

from archmage.combat.v1 import combat_pb2

from services.core.matches import Matches
from services.rpc.acting import act

SERVICE = combat_pb2.DESCRIPTOR.services_by_name["Combat"]


class CombatHandlers:
    def __init__(self, matches: Matches):
        self.matches = matches

    async def Resolve(self, request, context):
        return await act(self.matches, request, "combat")
