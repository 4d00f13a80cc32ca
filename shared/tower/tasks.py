"""Turn order and phases as data. The state keeps a stack of tasks (`state.tasks`,
top last): each names what happens next and who decides it. A Task class per kind says
who acts, what they may do and what follows; automatic tasks (the end of a turn,
landing on a space, turning over a Ramp token) run as soon as they reach the top.

    turn     end of a turn: the King's patience, extra turns, next seat   (automatic)
    move     a seat moves or passes                                        (turns.py)
    flight   the Spell of Transport's turn: fly anywhere, or pass          (spells.py)
    land     what the space landed on does                                 (automatic, tokens.py)
    home     Add Pennants or Go Again on your own Home Castle              (tokens.py)
    spell    a spell token's choice: targets, pulls, destinations          (spells.py)
    ramp     turn over a Ramp token taken by the King                      (automatic, spells.py)
    battle   declare, transform, roll, re-roll, resolve                    (battle.py)
"""
from __future__ import annotations

from typing import Any, Generic, Literal, Mapping, Sequence, TypeVar

from shared.engine import ChanceRequest, Event, RuleViolation
from shared.engine.chance import Face
from shared.engine.contract import Action
from shared.tower.state import AnyTask, TowerState

T = TypeVar("T", bound=Mapping[str, Any])  # the kind's task dict (state.py)
Faces = Sequence[Sequence[Face]]


class Task(Generic[T]):
    kind: str = ""
    rule: str = "How to Play"  # the section cited when an action is not allowed here
    automatic: bool = False

    def actor(self, state: TowerState, task: T) -> int:
        return task["seat"]

    def legal(self, state: TowerState, task: T) -> list[Action]:
        return []

    def apply(self, state: TowerState, task: T, action: Action, events: list[Event]) -> None:
        raise NotImplementedError

    def accepts(self, state: TowerState, task: T, action: Action) -> bool:
        """Whether `action` is allowed now. By default: it is one of the listed actions."""
        return action in self.legal(state, task)

    def refuse(self, state: TowerState, task: T, action: Action) -> RuleViolation:
        """The error for an action that is well formed but not allowed here."""
        return RuleViolation(self.rule, f"{action.get('kind')!r} is not one of the choices now")

    def run(self, state: TowerState, task: T, events: list[Event]) -> None:
        """Automatic tasks: do the work (pop self, maybe push more)."""
        raise NotImplementedError

    def request(self, state: TowerState, task: T) -> ChanceRequest | None:
        return None

    def apply_chance(self, state: TowerState, task: T, outcome: Faces, events: list[Event]) -> None:
        raise NotImplementedError


def push(state: TowerState, task: AnyTask) -> None:
    state.tasks.append(task)


def pop(state: TowerState, task: Mapping[str, Any]) -> None:
    top = state.tasks.pop()
    assert top is task, "a task may only pop itself"


def grant_extra_turn(state: TowerState, seat: int, events: list[Event], why: str,
                     by: Literal["walk", "fly"] = "walk") -> None:
    """'take another turn': queued, taken when the current turn ends. `by` is how the
    turn moves: 'walk' (a move as usual) or 'fly' (the Spell of Transport)."""
    state.turn["extra"].append({"seat": seat, "by": by})
    events.append({"type": "extra_turn", "seat": seat, "why": why, "by": by})
