"""What happens next: a queue of pending steps that wait for dice, for a seat's choice, or
run by themselves.

Rules that interrupt a turn (Retribution as a wizard leaves a hex, Blaze as one enters,
the dice of a spell, the choices a spell leaves to its caster, the tile shift at the end
of a round) become tasks in `state.queue`. The front task decides who acts: CHANCE
for dice, a seat for a choice, nobody for a step the engine runs itself. Tasks spawned
while resolving one go to the front, so effects resolve depth first, in rulebook order.

Each task kind registers a handler with:
    waits(state, task)  -> "chance" | ("seat", seat) | None
    chance(state, task) -> ChanceRequest          (when waiting for dice)
    options(state, task) -> list[action]          (when waiting for a seat)
    choose(state, task, action, ev)               (the seat's pick, one of options)
    roll(state, task, outcome, ev)                (the dice)
    run(state, task, ev)                          (a step with no one to wait for)
"""
from __future__ import annotations

from typing import Protocol

from shared.incantris.state import IncantrisState, Task

HANDLERS: dict[str, "Handler"] = {}


class Handler(Protocol):
    def waits(self, state: IncantrisState, task: Task): ...


def handles(kind: str):
    def register(cls):
        HANDLERS[kind] = cls()
        return cls

    return register


def push_front(state: IncantrisState, *tasks: Task) -> None:
    state.queue[0:0] = list(tasks)


def push_back(state: IncantrisState, task: Task) -> None:
    state.queue.append(task)


def pop(state: IncantrisState) -> Task:
    return state.queue.pop(0)


def front(state: IncantrisState) -> Task | None:
    return state.queue[0] if state.queue else None


def waiting(state: IncantrisState):
    """(handler, task, what it waits for) of the front task, or None if the queue is empty."""
    task = front(state)
    if task is None:
        return None
    h = HANDLERS[task["t"]]
    return h, task, h.waits(state, task)


def settle(state: IncantrisState, ev: list) -> None:
    """Run every step that needs nobody, until the match waits for dice or a seat."""
    from shared.incantris import scenarios, turns

    for _ in range(10_000):
        # a spell with several rolls (Meteor Storm) resolves in full before anyone is declared
        # the winner, so players falling to the same spell fall together
        if not any(t["t"] == "attack" for t in state.queue):
            scenarios.check_victory(state, ev)
        if state.phase == "over":
            state.queue = []
            return
        w = waiting(state)
        if w is not None:
            handler, task, what = w
            if what is not None:
                return
            handler.run(state, task, ev)
            continue
        if not turns.advance(state, ev):
            return
    raise AssertionError("the match does not settle")
