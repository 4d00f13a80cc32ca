"""The shape of a Wizards state and the small accessors every rule module uses.

Why typed: a step used to copy the whole state (a JSON round trip) before changing it.
`WizardsState` is a slotted dataclass (shared/engine/state.py) whose fields are the
game's nouns; a step's draft (`state.successor()`) copies only the small fields most
steps change (`HOT`) and shares the rest with the state it came from. Each field holds
JSON-ready data described by the TypedDicts below, so `encode` gives the canonical JSON
of the same dict as before, byte for byte. Hexes are [q, r] lists in the state and
(q, r) tuples in rule code.

Adding a field: declare it on `WizardsState` (with its TypedDict if it is a new noun),
give it its starting value in `new_state`, and put it in `HOT` only if most steps
change it and it is small. A field that is absent from older states' JSON until a
rule sets it goes in `OPTIONAL` (None is then left out of the JSON).

Changing a field that is not HOT (tiles, decks, discards, gem_boxes, ...): it is
shared with the state the step started from, so never change it in place directly.
Either ask for the container you change, `state.edit("decks", "event").pop(0)` or
`state.edit("tiles", "placed").append(...)` (the path is copied once per step, the
rest stays shared), or give the field a new value, `state.replace("dragon", ls(h))`.
Numbers, strings, booleans and None are simply assigned (`state.step = "movement"`).
HOT fields (players, turn, ...) are the draft's own: change them in place freely.
(Boats are not HOT: a Boat moves in few steps, and copying ten of them costs as much
as copying the players: `state.edit("boats", boat_id)["rider"] = seat`.)
The engine contract's tests replay every step and fail if a step changes its input.

Everything a later rule needs has its place from the start: decks, Gem boxes, Wizard
markers, Task and Demon markers, the Calendar, Completion and Thwart markers, each
player's Order, Rank, points, afflictions, Animal, Event cards, Lair Time, Star Crest
visits and secret records (14.3).
"""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, NotRequired, Protocol, Self, TypedDict, overload

from shared.engine.state import GameState
from shared.hexgrid import Hex

POINT_TYPES = ("knowledge", "perception", "power")
AFFLICTIONS = ("demon_dazed", "dragonbound")
DEFAULT_DAYS: int | None = None  # no time limit: the match ends by a rule (12.46, 13); options["days"] sets one

At = list[int]  # a space of the board as [q, r]


class Config(TypedDict):
    seats: int
    variant: str
    options: dict[str, Any]


class Animal(TypedDict):
    kind: str  # dragon, unicorn, winged_horse, horse, hound, dove (8.4)
    turns: int  # uses left
    since: int  # the player's turns_taken when it came


class HeldEvent(TypedDict):
    card: int
    days: int | None  # days left for a card that lasts (8.51 MOVEMENT), else None


class StarCrest(TypedDict):
    visit: str | None  # "initial" | "reentry" (7.37-7.3721)
    left_turn: int | None  # the turn he left it on (7.372)


class Player(TypedDict):
    seat: int
    colour: str | None
    at: At | None
    boat: int | None  # the Boat he is in
    order: str | None  # "wizards" | "sorcerers" | "druids" (3.73: none at start)
    rank: int
    rank_day: int | None
    points: dict[str, int]  # POINT_TYPES
    afflictions: list[str]  # AFFLICTIONS
    animal: Animal | None
    events: list[HeldEvent]  # held Event Cards
    tasks: list[dict[str, Any]]  # held Task Cards: {"card", ...}
    gems: dict[str, str]  # secret Gem Record (14.25, 14.3): High Wizard -> gem
    secret_record: dict[str, Any]  # secret Secret Wizard Record (14.26)
    false_wizard: Any  # secret (7.3263, 11.233)
    lair_time: int | None  # the Calendar day his Lair Time Marker is on (12.511)
    star_crest: StarCrest
    star_crest_directed: bool
    turns_taken: int
    extra_turns: int
    lost_turns: int
    trap: dict[str, Any] | None  # a Trap holding him (8.3): {"roll_to_leave": [faces], ...}
    swum: int  # Water spaces entered swimming in a row (8.451)
    visited: list[str]  # Territories (tile ids) he has been in
    task_history: list[dict[str, Any]]  # 14.24: Tasks completed or become impossible
    space_encounters: dict[str, int]  # 7.6: encounters per space of the tile he is on ("q,r" -> n)
    hamdrel: dict[str, int]  # 7.354: {"visits", "turns"}
    detained: At | None  # 7.301 3: the space he must stay in on his next turn
    stranded: dict[str, Any] | None  # 7.3031: {"asked": days played} once he has asked for help;
    # solitaire (Appendix A): {"alone": where, "at": [q, r]} while he is stranded
    dragon_again: bool  # 7.305 5: he stays in the Lair's Center to meet the Dragon on his next turn
    dispel_tried: list[At]  # 11.24: spaces whose Demons he has cast Demon Dispelling against


class Boat(TypedDict):
    id: int
    at: At
    rider: int | None  # the seat in it
    demon: NotRequired[bool]  # 12.141: a Demon placed on its rider stays in the Boat until dispelled


class Placement(TypedDict):
    tile: str
    at: At  # the tile's Center
    rotation: int  # sixth-turns clockwise
    by: int  # the seat that placed it
    face_down: bool  # solitaire: placed face down (Appendix A 5)


class Tiles(TypedDict):
    hands: list[list[str]]  # per seat, the tiles dealt and not yet placed (3.2)
    placed: list[Placement]  # in the order laid; a placement never changes once laid
    stack: list[str]  # solitaire: the face-down stack (Appendix A 4)
    removed: list[str]  # solitaire: removed unseen (Appendix A 3)
    aside: list[str]  # solitaire: set aside (Appendix A 1)
    selected: NotRequired[dict[str, Any]]  # the placement being chosen step by step: {"tile", "at"}
    face_down: bool
    placer: int | None  # the seat to place next
    remove_count: NotRequired[int]  # solitaire: how many tiles are removed (Appendix A 3)


# "task" and "event": card numbers; "wizard": card ids. Keyed by deck name, read as data (decks.py).
Decks = dict[str, list[Any]]


class Calendar(TypedDict):
    day: int  # 1-14 (12.3)
    fortnight: int
    days_played: int


class Turn(TypedDict):
    """Whose turn; once it begins (turns.fresh_turn) everything the turn has done."""
    seat: int
    extra: bool
    number: NotRequired[int]
    roll: NotRequired[dict[str, int] | None]  # {"white", "red"} (5.1)
    mp: NotRequired[int]  # Movement Points left
    bonus: NotRequired[int]  # of those, the Animal's (8.45, 8.46)
    moved: NotRequired[bool]
    ended: NotRequired[bool]
    boarded: NotRequired[int | None]  # the Boat boarded this turn
    swiftness: NotRequired[list[str]]  # terrains crossed as Plains (11.212)
    cast: NotRequired[list[str]]  # Movement Spells attempted (11.24)
    arrived: NotRequired[bool]  # entered a space this turn (7.6)
    summon: NotRequired[list[list[Any]] | None]  # Boat Summoning choices: [boat id, [q, r]]
    lost: NotRequired[bool]  # a turn lost (8.3, 7.304 1)
    detained: NotRequired[bool]  # a turn he must stay and meet the Common Folk again (7.301 3)
    dragon_again: NotRequired[bool]  # 7.305 5: a turn spent meeting the Dragon again, not moving


Await = TypedDict("Await", {"seat": int, "for": str})  # the seat the state waits for, and for what


class Chance(TypedDict):
    request: dict[str, Any]  # ChanceRequest.to_dict()
    then: dict[str, Any]  # {"do": handler name, ...its arguments}


class TaskMarker(TypedDict):
    seat: int
    at: At
    task: int
    step: int  # the requirement of the Task Card it marks


class SecretWizard(TypedDict):
    letter: str
    at: NotRequired[At | None]
    wizard: NotRequired[str]  # the High Wizard behind the marker: secret (7.302 6)


class Result(TypedDict, total=False):
    scores: list[int]
    winners: list[int]
    summary: str
    reason: str  # why the match ended: "gems delivered (7.336)", "the Sacred Circle has fallen (12.46)", ...
    days: int  # days played when it ended


@dataclasses.dataclass(slots=True, eq=True)
class WizardsState(GameState):
    HOT: ClassVar[frozenset[str]] = frozenset(
        {"turn", "await_", "chance", "interrupts", "pending", "players", "calendar",
         # small, and changed by encounters in many places: markers, Demons, Wizard Cards kept aside
         "task_markers", "demons", "wizard_markers", "secret_wizards", "wizard_aside", "aside_for", "discards",
         "out_of_play"})
    # Fields left out of the JSON while None: absent from a state until a rule sets them.
    OPTIONAL: ClassVar[tuple[str, ...]] = ("dealer_contenders", "chooser", "starter")
    # a match stored before players could withdraw has none withdrawn
    ADDED: ClassVar[dict[str, Any]] = {"resigned": []}

    game: str
    config: Config
    seats: int
    solitaire: bool
    days_limit: int | None  # options["days"]: the match ends after that many days; None: no time limit
    phase: str  # "setup" | "play" | "over"
    step: str  # the next automatic step (setup.STEPS, turns.STEPS)
    chance: Chance | None  # the dice the state waits for
    await_: Await | None  # "await" in the JSON
    interrupts: list[dict[str, Any]]  # what must happen at once mid-move: {"do": "dragon_return"} (8.421)
    pending: list[dict[str, Any]]  # the resolution stack of encounters, Tasks and spells (resolution.py)
    dealer: int | None
    decks: Decks
    discards: Decks
    wizard_aside: list[str]
    aside_for: dict[str, list[str]]  # 8.74: the cards in wizard_aside kept for each marker ("Ishkatar", "secret:A")
    gem_boxes: dict[str, str]  # High Wizard -> the Gem Card face down in his box (3.11)
    wizard_markers: dict[str, At | None]  # High Wizard -> where his marker is (None: in its box, 3.12)
    secret_wizards: list[SecretWizard]
    tiles: Tiles
    boats: list[Boat]
    dragon: At | None
    demons: list[At]
    task_markers: list[TaskMarker]
    calendar: Calendar
    completion: int  # Tasks completed in the game (9.01, 12.21)
    thwart: str  # the Thwart Marker's box: "takeover" | "thwarted" (3.6, 12.21)
    thwarts: int  # thwarts banked, one for every TEN Tasks completed (12.22)
    out_of_play: dict[str, list[int]]  # Task Cards taken out of play (12.44)
    taken: list[str]  # Territories lost to Evil (12.4)
    players: list[Player]
    turn: Turn | None
    result: Result | None
    resigned: list[int]  # the seats whose players withdrew, in the order they did (withdrawal.py)
    dealer_contenders: list[int] | None = None  # 3.2: the tied high rollers rolling again
    chooser: int | None = None  # 3.7: the seat choosing a colour
    starter: int | None = None  # 3.71: the seat rolling for a start space

    def to_json(self) -> dict:
        out = {name: getattr(self, name) for name in _NAMES}
        out["await"] = out.pop("await_")
        for name in self.OPTIONAL:
            if out[name] is None:
                del out[name]
        return out

    @classmethod
    def from_json(cls, data: dict) -> Self:
        data = dict(data)
        if "await" in data:
            data["await_"] = data.pop("await")
        for name in cls.OPTIONAL:
            data.setdefault(name, None)
        return super(WizardsState, cls).from_json(data)


_NAMES = tuple(f.name for f in dataclasses.fields(WizardsState))


class Board(Protocol):
    """What the movement and encounter rules read of a state (movement.py, encounters.py,
    world.py): a WizardsState, or a seat's view read as one (queries.Seen), so that a board
    query is answered by the very rules that list the moves."""

    @property
    def players(self) -> list[Player]: ...
    @property
    def turn(self) -> Turn | None: ...
    @property
    def boats(self) -> list[Boat]: ...
    @property
    def dragon(self) -> At | None: ...
    @property
    def demons(self) -> list[At]: ...
    @property
    def task_markers(self) -> list[TaskMarker]: ...
    @property
    def wizard_markers(self) -> dict[str, At | None]: ...
    @property
    def secret_wizards(self) -> list[SecretWizard]: ...
    @property
    def tiles(self) -> Tiles: ...
    @property
    def taken(self) -> list[str]: ...


@overload
def hx(v: At | Hex) -> Hex: ...
@overload
def hx(v: None) -> None: ...
def hx(v: At | Hex | None) -> Hex | None:
    """A space as rule code holds it, (q, r), from the state's [q, r]."""
    return None if v is None else (v[0], v[1])


@overload
def ls(h: Hex) -> At: ...
@overload
def ls(h: None) -> None: ...
def ls(h: Hex | None) -> At | None:
    """A space as the state holds it, [q, r]."""
    return None if h is None else [h[0], h[1]]


def new_player(seat: int) -> Player:
    return {
        "seat": seat,
        "colour": None,
        "at": None,
        "boat": None,
        "order": None,
        "rank": 0,
        "rank_day": None,
        "points": {t: 0 for t in POINT_TYPES},
        "afflictions": [],
        "animal": None,  # {"kind", "turns", "since"}
        "events": [],  # held Event Cards: {"card", "days"}
        "tasks": [],  # the Task Record (14.24, public): tasks held, see taskmarkers.py
        "task_history": [],  # 14.24: Tasks completed or become impossible: {"card", "mandatory", "status", "day"}
        "gems": {},  # secret Gem Record (14.25, 14.3): High Wizard -> gem
        "secret_record": {},  # secret Secret Wizard Record (14.26)
        "false_wizard": None,  # secret (7.3263, 11.233)
        "lair_time": None,  # the Calendar day his Lair Time Marker is on (12.511)
        "star_crest": {"visit": None, "left_turn": None},
        "star_crest_directed": False,
        "turns_taken": 0,
        "extra_turns": 0,
        "lost_turns": 0,
        "trap": None,  # {"rule", "lose_turns": n | "roll_to_leave": [5, 6]} (8.3, 8.51)
        "stranded": None,  # {"asked": days played} once a stranded player asks for help (7.3031)
        "dragon_again": False,  # 7.305 5: he stays in the Lair's Center to meet the Dragon on his next turn
        "dispel_tried": [],  # spaces whose Demons he has cast Demon Dispelling against (11.24)
        "swum": 0,
        "visited": [],
        "space_encounters": {},  # 7.6: encounters per space of the tile he is on ("q,r" -> n)
        "hamdrel": {"visits": 0, "turns": 0},  # 7.354
        "detained": None,  # 7.301 3: the space he must stay in on his next turn
    }


def new_state(seats: int, variant: str, options: dict, days: int | None) -> WizardsState:
    return WizardsState(
        game="wizards",
        config={"seats": seats, "variant": variant, "options": options},
        seats=seats,
        solitaire=variant == "solitaire",  # Appendix A: only when asked for (engine.setup checks the seats)
        days_limit=days,
        phase="setup",
        step="shuffle_decks",
        chance=None,
        await_=None,
        interrupts=[],
        pending=[],
        dealer=None,
        decks={"task": [], "event": [], "wizard": []},
        discards={"task": [], "event": [], "wizard": []},
        wizard_aside=[],
        aside_for={},
        gem_boxes={},
        wizard_markers={},
        secret_wizards=[],
        tiles={"hands": [[] for _ in range(seats)], "placed": [], "stack": [], "removed": [], "aside": [],
               "face_down": False, "placer": None},
        boats=[],
        dragon=None,
        demons=[],
        task_markers=[],
        calendar={"day": 1, "fortnight": 1, "days_played": 0},
        completion=0,
        thwart="takeover",
        thwarts=0,
        out_of_play={"task": []},
        taken=[],
        players=[new_player(s) for s in range(seats)],
        turn=None,
        result=None,
        resigned=[],
    )


def player(state: Board, seat: int) -> Player:
    return state.players[seat]


def current_turn(state: Board) -> Turn:
    """The turn being played (from 3.74 until the match ends)."""
    turn = state.turn
    assert turn is not None, "no turn is being played"
    return turn


def awaited(state: WizardsState) -> Await:
    """What the state waits for from a seat (when it waits for no dice and is not over)."""
    waiting = state.await_
    assert waiting is not None, "the state waits for no seat"
    return waiting


def position(p: Player) -> Hex:
    """The space a player stands in (every player is on the board once play begins, 3.71)."""
    at = p["at"]
    assert at is not None, f"seat {p['seat']} is not on the board yet"
    return (at[0], at[1])


def afflicted(p: Player) -> bool:
    return bool(p["afflictions"])


def free_boat_at(state: Board, h: Hex) -> Boat | None:
    """An unoccupied Boat in a Water space (6: no more than one player per Boat)."""
    for b in state.boats:
        if hx(b["at"]) == h and b["rider"] is None:
            return b
    return None


def next_seat(state: WizardsState, seat: int) -> int:
    """Clockwise: the seat on a player's left (3.74)."""
    return (seat + 1) % state.seats


def prior_day(day: int) -> int:
    """The Calendar day before `day`; the Calendar runs 1-14 and round again (12.3)."""
    return 14 if day == 1 else day - 1


def partner_of(state: WizardsState, seat: int) -> int | None:
    """Appendix B: the Telepathic Partner of a seat in the partnership game (seats 0 and 1,
    2 and 3, 4 and 5: each pair sits side by side); None in the other games."""
    if state.config["variant"] != "partnership":
        return None
    return seat ^ 1
