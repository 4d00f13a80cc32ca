"""What a pending step is, and the clause that forbids an action it does not allow.

The match waits on one step at a time: the front of `state.queue` (a roll of the casting
dice, a choice a spell leaves to its caster, the tile shift at the end of a round) or, with
nothing queued, the stage of the match (the shop, placing, posting, the side's turn). Each
kind of step is a `Task` object; the engine keeps them in its `TASKS` table, keyed by kind,
and routes every question to the step under way:

    waits(state, task)   -> "chance" | ("seat", seat) | None (None: it runs by itself)
    chance(state, task)  -> ChanceRequest            (when waiting for dice)
    options(state, task) -> list[action]             (when waiting for a seat)
    choose(state, task, action, ev)                  (the seat's pick, one of options)
    refuse(state, task, action) -> RuleViolation     (an action it does not allow: the exact clause)
    roll(state, task, outcome, ev)                   (the dice)
    run(state, task, ev)                             (a step with no one to wait for)

A refusal names its section (`RuleViolation.rule`) and quotes the sentence of the rulebook
that forbids the action (or the README reading that fills it, marked "reading").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.engine import ChanceRequest, RuleViolation
from shared.incantris.state import IncantrisState


@dataclass(frozen=True)
class Clause:
    """One sentence of the rulebook (or a reading of the package README) and its section."""

    section: str
    text: str
    reading: bool = False

    def violated(self, detail: str) -> RuleViolation:
        source = "reading" if self.reading else "rulebook"
        return RuleViolation(self.section, f'{detail} ({source}: "{self.text}")')


NOT_NOW = Clause("Sequence of Play", "On a turn, a player may activate only one of his or her wizards.")


class Task:
    kind: str = ""
    rule: Clause = NOT_NOW  # the clause cited when an action is not one this step allows

    def waits(self, state: IncantrisState, task: Any) -> Any:
        return None

    def chance(self, state: IncantrisState, task: Any) -> ChanceRequest:
        raise NotImplementedError

    def options(self, state: IncantrisState, task: Any) -> list[dict]:
        return []

    def choose(self, state: IncantrisState, task: Any, action: dict, ev: list) -> None:
        raise NotImplementedError

    def accepts(self, state: IncantrisState, task: Any, action: dict) -> bool:
        return action in self.options(state, task)

    def refuse(self, state: IncantrisState, task: Any, action: dict) -> RuleViolation:
        return self.rule.violated(f"{action.get('kind')!r} is not one of the choices now")

    def roll(self, state: IncantrisState, task: Any, outcome, ev: list) -> None:
        raise NotImplementedError

    def run(self, state: IncantrisState, task: Any, ev: list) -> None:
        raise NotImplementedError
