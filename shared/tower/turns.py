"""A turn: move, act on what you land on, end the turn (How to Play). Play passes to
the left (seat + 1); extra turns ('Go Again', 'take another turn') come first.

Readings: 'move 1, 2 or 3 territories' means a regular turn moves when it can; a seat
with no destination passes so the game goes on. An extra turn is offered ('you may take
another turn'), so it may always be passed: passing it is declining it, and a declined
extra turn changes nothing, not even the King's patience below.

The Wizard King's patience (authored, rules.json `king_patience`, in rounds):
transformations are the game's only clock, so after that many rounds (regular turns of
every seat) in a row without the King climbing he climbs one step at the end of a turn;
a Ramp token on that step leaves the game unused. Extra turns are not counted. Every game
therefore ends."""
from __future__ import annotations

from typing import Literal

from shared.engine import Event, RuleViolation
from shared.engine.contract import Action
from shared.tower import movement, tower
from shared.tower.pack import pack
from shared.tower.state import MoveTask, TowerState, TurnEndTask, character_of
from shared.tower.tasks import Task, pop, push


def begin(state: TowerState, seat: int, extra: bool, events: list[Event],
          by: Literal["walk", "fly"] = "walk") -> None:
    """Start a turn: a move as usual, or a flight (the Spell of Transport's extra turn)."""
    state.turn["seat"] = seat
    push(state, {"task": "turn", "extra": extra})
    if by == "fly":
        push(state, {"task": "flight", "seat": seat})
    else:
        push(state, {"task": "move", "seat": seat, "extra": extra})
    events.append({"type": "turn_started", "seat": seat, "extra": extra, "by": by})


def patience(state: TowerState) -> int:
    """Regular turns in a row without a climb after which the King climbs on his own."""
    return pack().king_patience * state.seats


class TurnEnd(Task[TurnEndTask]):
    kind = "turn"
    automatic = True

    def run(self, state: TowerState, task: TurnEndTask, events: list[Event]) -> None:
        pop(state, task)
        turn = state.turn
        turn["played"] += 1
        if not task["extra"]:
            turn["quiet"] += 1
        if turn["quiet"] >= patience(state):
            token = tower.climb(state, events, "patience")
            if token is not None:
                events.append({"type": "ramp_token_lost", "step": state.king})
        if state.ended:
            return
        if turn["extra"]:
            nxt = turn["extra"].pop(0)
            begin(state, nxt["seat"], True, events, nxt["by"])
        else:
            turn["regular"] = (turn["regular"] + 1) % state.seats
            begin(state, turn["regular"], False, events)


class Move(Task[MoveTask]):
    kind = "move"
    rule = movement.MOVEMENT

    def legal(self, state: TowerState, task: MoveTask) -> list[Action]:
        seat = task["seat"]
        player = state.players[seat]
        paths = movement.reachable(player["at"], character_of(player), movement.occupied(state.players, seat))
        actions: list[Action] = [{"kind": "move", "to": to, "path": path} for to, path in paths.items()]
        if task["extra"] or not actions:
            actions.append({"kind": "pass"})
        return actions

    def accepts(self, state: TowerState, task: MoveTask, action: Action) -> bool:
        # any path the rules allow is accepted, not only the listed one
        if action["kind"] == "move":
            player = state.players[task["seat"]]
            others = movement.occupied(state.players, task["seat"])
            if movement.check_path(player["at"], character_of(player), others, action["path"]) != action["to"]:
                raise RuleViolation(movement.MOVEMENT, "the path does not end at 'to'")
            return True
        return action in self.legal(state, task)

    def refuse(self, state: TowerState, task: MoveTask, action: Action) -> RuleViolation:
        return RuleViolation(movement.MOVEMENT, "you may move up to your allowance; pass only when you cannot move "
                                                "or on an extra turn")

    def apply(self, state: TowerState, task: MoveTask, action: Action, events: list[Event]) -> None:
        seat = task["seat"]
        pop(state, task)
        if action["kind"] == "pass":
            events.append({"type": "passed", "seat": seat})
            return
        player = state.players[seat]
        events.append({"type": "moved", "seat": seat, "character": player["character"], "from": player["at"],
                       "to": action["to"], "path": action["path"]})
        player["at"] = action["to"]
        push(state, {"task": "land", "seat": seat, "at": action["to"]})
