"""The contract every game engine implements, and the pieces engines share.

    from shared.engine import GameEngine, Actor, ChanceRequest, DicePool, RuleViolation
"""
from shared.engine.chance import ChanceRequest, DicePool, apply_shuffle, d6, d8, shuffle_request
from shared.engine.contract import CHANCE, TERMINAL, Event, GameEngine, MatchConfig, Outcome
from shared.engine.errors import (
    EngineError,
    InvalidConfig,
    MalformedAction,
    NotYourTurn,
    RuleViolation,
    WrongChanceOutcome,
)

__all__ = [
    "CHANCE", "TERMINAL", "ChanceRequest", "DicePool", "EngineError", "Event", "GameEngine",
    "InvalidConfig", "MalformedAction", "MatchConfig", "NotYourTurn", "Outcome", "RuleViolation",
    "WrongChanceOutcome", "apply_shuffle", "d6", "d8", "shuffle_request",
]
