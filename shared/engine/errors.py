"""Domain errors raised by engines. Services translate them once, at the edge.

    EngineError
    ├── MalformedAction      the action is not well formed (unknown kind, bad field)
    ├── InvalidConfig        a match configuration the game cannot set up
    ├── NotYourTurn          the seat may not act now
    ├── RuleViolation        well formed, but a rule forbids it; `rule` names the section
    └── WrongChanceOutcome   a chance outcome that does not answer the pending request
"""
from __future__ import annotations


class EngineError(Exception):
    """Base of every error an engine raises on purpose."""


class MalformedAction(EngineError):
    """The action cannot be read: unknown kind, missing or mistyped field."""


class InvalidConfig(EngineError):
    """The match configuration (seat count, variant, options) is not playable."""


class NotYourTurn(EngineError):
    """The seat asked to act while another seat (or chance) is to act."""


class RuleViolation(EngineError):
    """A rule of the rulebook forbids the action.

    `rule` cites the rulebook section ("Movement on the Board", "7.37") so a
    player reads why; services put it in the status message."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{message} [rule: {rule}]")
        self.rule = rule
        self.detail = message


class WrongChanceOutcome(EngineError):
    """The dice handed to apply_chance do not match the pending ChanceRequest."""
