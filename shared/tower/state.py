"""The state of a Tower of the Wizard King match, typed: one field per noun of the game,
each holding the JSON data it always held (so `encode` writes the same bytes as before).

A step copies only what it changes (shared/engine/state.py). Copied for every step (HOT):
`players`, `turn` and `tasks`, small and changed by nearly every step (a move, a Pennant,
whose turn it is, the task stack). Shared until a rule changes them, and then changed only
through `state.edit(...)` or `state.replace(...)`: the `board` (most of the bytes; a step
changes one or two Territories of it), the `tower` and the `ramp` (changed by a
transformation or a climb), and what set-up fixes once (`setup`, `removed`, `sites`). The other
fields are numbers, strings and booleans: setting one never touches another state.
"""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Literal, NotRequired, TypedDict

from shared.engine.state import GameState

Stage = Literal["first", "removals", "choose", "sites", "secret", "play", "over"]
SetupMode = Literal["choose", "chance"]


class Removed(TypedDict):
    """What the Variations for 2 and 3 players take out of the game (set-up, public)."""

    characters: list[str]
    wizards: list[str]


class Setup(TypedDict):
    """Who makes the set-up choices (assembly.py): `mode` 'choose' (the seats) or 'chance'
    (the match option for quick games), the seats in the order they choose, and how many
    eliminations have been made."""

    mode: SetupMode
    order: list[int]
    made: int


class Player(TypedDict):
    """A seat: its Wizard (None until it is selected), its Character (None until
    the deal), where the Character stands and the Pennants left in the supply."""

    wizard: str | None
    character: str | None
    at: str  # a territory id, or the rocky space
    supply: int


def character_of(player: Player) -> str:
    """The player's Character; dealt in every state of play."""
    character = player["character"]
    assert character is not None, "the Characters are not dealt yet"
    return character


def wizard_of(player: Player) -> str:
    """The player's Wizard; known in every state of play."""
    wizard = player["wizard"]
    assert wizard is not None, "the Wizards are not taken yet"
    return wizard


class Tower(TypedDict):
    """The Wizard's Tower: the ring of chambers (None: empty) and the chamber at the door."""

    chambers: list[str | None]
    door: int


class Token(TypedDict):
    """A token on a territory: `symbol:<wizard>`, `home:<Character>`, `spell:<map spell>`."""

    id: str
    up: bool


class Pennants(TypedDict):
    """The Pennants flying on a Castle: one colour at a time."""

    wizard: str
    count: int


class Territory(TypedDict):
    """What lies on one territory of the map (the map itself is pack.Territory)."""

    castle: bool
    token: Token | None
    pennants: Pennants | None
    protected: bool  # a Spell of Protection beside the Castle


class ExtraTurn(TypedDict):
    """An extra turn owed, taken when the current turn ends: walking or flying."""

    seat: int
    by: Literal["walk", "fly"]


class Turn(TypedDict):
    seat: int  # whose turn it is
    regular: int  # the seat of the regular turn (extra turns come between)
    extra: list[ExtraTurn]
    played: int  # turns played, extra ones included
    quiet: int  # turns in a row without the King climbing (his patience)


# --- the task stack (tasks.py): one shape per kind ------------------------------------
class TurnEndTask(TypedDict):
    task: Literal["turn"]
    extra: bool
    settled: NotRequired[bool]  # counted already: the King's patience climb gave a Ramp token first


class MoveTask(TypedDict):
    task: Literal["move"]
    seat: int
    extra: bool


class FlightTask(TypedDict):
    task: Literal["flight"]
    seat: int


class LandTask(TypedDict):
    task: Literal["land"]
    seat: int
    at: str


class HomeTask(TypedDict):
    task: Literal["home"]
    seat: int
    at: str
    offer: Literal["add", "reclaim"]


class SpellTask(TypedDict):
    task: Literal["spell"]
    seat: int
    spell: str
    source: Literal["map", "ramp"]
    left: NotRequired[int]  # Revelation: tokens still to turn over


class RampTask(TypedDict):
    task: Literal["ramp"]
    seat: int
    token: str  # `ramp:<ramp spell>`


class Dice(TypedDict):
    attacker: list[int]
    defender: list[int]


class Reroll(TypedDict):
    """The defender's re-rolls left: one die `single` times, or `multi` dice once."""

    single: int
    multi: int
    die: int | None  # the die being re-rolled again and again (single mode)


class BattleTask(TypedDict):
    task: Literal["battle"]
    attacker: int
    defender: int | None  # None until declared (3 players, a missing Wizard's symbol)
    at: str
    kind: Literal["castle", "symbol"]
    stage: Literal["declare", "ready", "roll", "reroll", "reroll_roll"]
    ramp: str | None  # the Ramp token the attacker's transformation took
    dice: Dice | None
    reroll: Reroll | None
    chosen: NotRequired[list[int]]  # the dice being re-rolled


AnyTask = TurnEndTask | MoveTask | FlightTask | LandTask | HomeTask | SpellTask | RampTask | BattleTask


@dataclasses.dataclass(slots=True, eq=True)
class TowerState(GameState):
    HOT: ClassVar[frozenset[str]] = frozenset({"players", "turn", "tasks"})
    # a match stored before the seats made the set-up choices is past its set-up
    ADDED: ClassVar[dict[str, Any]] = {"setup": {"mode": "chance", "order": [], "made": 0}, "resigned": []}

    seats: int
    stage: Stage
    setup: Setup
    removed: Removed
    players: list[Player]
    tower: Tower
    king: int  # the Wizard King's step on the Ramp of Time (past the last: on the Tower)
    ramp: dict[str, str | None]  # step -> its Ramp token (None until placed face down)
    board: dict[str, Territory]  # territory id -> what lies there
    sites: list[str]  # the territories with Castles
    turn: Turn
    tasks: list[AnyTask]  # top last
    ended: bool  # the King has reached the top of the Tower
    resigned: list[int]  # the seats that resigned, in the order they did (resigning.py)


def playing(state: "TowerState") -> list[int]:
    """The seats still in the game: every seat but those that resigned."""
    return [s for s in range(state.seats) if s not in state.resigned]
