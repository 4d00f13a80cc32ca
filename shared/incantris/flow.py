"""The queue of pending steps (`state.queue`).

Rules that interrupt a turn (Retribution as a wizard leaves a hex, Blaze as one enters,
the dice of a spell, the choices a spell leaves to its caster, the tile shift at the end
of a round) become tasks in `state.queue`: dicts whose "t" names their kind (the engine's
`TASKS` table holds the Task object of each kind, tasks.py). The front task decides who acts.
Tasks spawned while resolving one go to the front, so effects resolve depth first, in
rulebook order. This module only keeps the queue; it imports no rule.
"""
from __future__ import annotations

from shared.incantris.state import IncantrisState, Task


def push_front(state: IncantrisState, *tasks: Task) -> None:
    state.queue[0:0] = list(tasks)


def push_back(state: IncantrisState, task: Task) -> None:
    state.queue.append(task)


def pop(state: IncantrisState) -> Task:
    return state.queue.pop(0)


def front(state: IncantrisState) -> Task | None:
    return state.queue[0] if state.queue else None
