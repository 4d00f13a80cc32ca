"""A turn: move, act on what you land on, end the turn (How to Play). Play passes to
the left (seat + 1); extra turns ('Go Again', 'take another turn') come first.

Readings: 'move 1, 2 or 3 territories' means a regular turn moves when it can; a seat
with no destination passes so the game goes on. An extra turn is offered ('you may take
another turn'), so it may always be passed: passing it is declining it.

The Wizard King's patience (authored, rules.json `king_patience`, in rounds) is a safety
net, not the clock. 'This is the game's timer ... moves up one step every time the Tower
is used': the players' transformations move the King. Only when that many rounds of turns
(king_patience x seats turns, extra turns counted) go by without any climb does he climb
one step on his own at the end of a turn. A Ramp token on that step is not thrown away:
the seat whose turn it was takes it, as if he had moved the King, and must use it at once
or it leaves the game ('All Ramp Tokens must be used immediately; if one can't be used,
it is removed from the game'). Then play goes on as the turn's end would have.

Every turn counts towards the wait, extra ones too, so a chain of extra turns (a Home
Castle's 'Go Again' again and again) cannot hold the King back; every game therefore ends
within `step_bound(seats)` steps.
"""
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
    """Turns in a row without a climb after which the King climbs on his own."""
    return pack().king_patience * state.seats


# The most steps (actions and chance steps) a game can take, and why. Set-up: the first player's
# draw, at most 2 x 2 eliminations and 4 Wizard selections, the sites and the secret shuffle.
# A turn: one move, then at most one landing, and the longest landing is a battle: declare,
# fight or transform, the dice, and re-rolls (one die up to 4 times: a choice and a roll each),
# then keeping the dice, 13 steps in all. A Ramp token adds at most one spell choice and the
# landing of its flight, another 13, and there are 6 of them. A climb comes at least every
# patience(state) turns and the 19th ends the game (the King steps onto the Tower).
SETUP_STEPS = 1 + 4 + 4 + 2
TURN_STEPS = 1 + 13
RAMP_TOKEN_STEPS = 1 + 13


def step_bound(seats: int) -> int:
    """An upper bound on the steps of any game with `seats` players (the property tests check it)."""
    p = pack()
    turns = (p.ramp_steps + 1) * p.king_patience * seats
    return SETUP_STEPS + turns * TURN_STEPS + len(p.ramp_tokens()) * RAMP_TOKEN_STEPS


class TurnEnd(Task[TurnEndTask]):
    kind = "turn"
    automatic = True

    def run(self, state: TowerState, task: TurnEndTask, events: list[Event]) -> None:
        pop(state, task)
        turn = state.turn
        if not task.get("settled"):
            turn["played"] += 1
            turn["quiet"] += 1
            if turn["quiet"] >= patience(state):
                token = tower.climb(state, events, "patience")
                if token is not None:
                    # the seat whose turn it was takes the Ramp token and uses it now; then the turn ends
                    push(state, {"task": "turn", "extra": task["extra"], "settled": True})
                    events.append({"type": "ramp_token_taken", "seat": turn["seat"], "step": state.king})
                    push(state, {"task": "ramp", "seat": turn["seat"], "token": token})
                    return
        if state.ended:
            return
        # a resigned seat's turns are passed over, its extra turns dropped (resigning.py)
        turn["extra"] = [x for x in turn["extra"] if x["seat"] not in state.resigned]
        if turn["extra"]:
            nxt = turn["extra"].pop(0)
            begin(state, nxt["seat"], True, events, nxt["by"])
        else:
            turn["regular"] = next_playing(state, turn["regular"])
            begin(state, turn["regular"], False, events)


def next_playing(state: TowerState, seat: int) -> int:
    """The seat on the left of `seat` still in the game (play passes to the left)."""
    for k in range(1, state.seats + 1):
        nxt = (seat + k) % state.seats
        if nxt not in state.resigned:
            return nxt
    raise AssertionError("no seat is left in the game")


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
