"""The Incantris match record as a typed state (shared.engine.state).

Its fields are the record's nouns, each holding JSON-ready data, so a state encodes to the
same bytes as the JSON record did. A step copies only what most steps change: whose turn
it is (`turn`), the wizards (life, hex, turn token, items), the queue of pending steps and
the set-up cursor. The arena (tiles, obstacles, entry points, arms), the sides, the
persistent spells, the crystals and the campaign record are shared with the state a step
starts from, and the few rules that change them do it through `edit` (path copying) or
`replace`. Hexes are [q, r] lists in the state and (q, r) tuples in code.
"""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Required, TypedDict

from shared.engine.state import GameState

HexList = list[int]  # a hex as the state holds it: [q, r]


class Wizard(TypedDict):
    id: str
    side: int  # index into IncantrisState.sides
    type: str  # the wizard type (pack.types): its life, movement, power source, wards, ability
    life: int
    max: int  # starting life points ("Life points cannot exceed the wizard's starting number")
    alive: bool
    hex: HexList | None  # None: dead, not yet placed, or an attacking wizard waiting outside
    done: bool  # the turn token is flipped (activated this round)
    entry: int | None  # solo: the entry point an attacking wizard is posted at
    sapped: int  # Crystal Sap: crystals this wizard sapped (+1D ward each)
    carrying: str | None  # Capture the Crystal: the colour of the crystal carried
    items: list[str]  # campaign items not yet used


class Side(TypedDict):
    """A player's team (or the solo game's attacking team, played by the engine)."""
    seat: int | None  # None: the attacking team
    team: str  # its colour
    auto: bool  # played by the engine (Attacking Wizard Rules)
    zone: int | None  # the tile of its starting zone
    sapped: int  # crystals sapped by its wizards
    kills: int  # wizards of other teams its wizards killed (experience)
    out: int | None  # the turn serial when its last wizard died
    stars: int  # experience stars to spend in the shop


class Turn(TypedDict, total=False):
    """The side to act and, once it has activated one, its wizard's turn."""
    side: Required[int]
    wizard: Required[str | None]
    mp: int  # movement points left
    spent: int  # movement points spent
    moved: bool  # moved before casting (movement may not be split)
    cast: bool  # a spell (or what is used instead of one) this turn
    cast_as: str  # what the turn's spell was: "spell", "cleansing-fire" or "red-potion"
    locked: bool  # moved, then cast: the first movement is over
    halted: bool  # Bear Presence ended the movement
    cancelled: bool  # cancelled one of its persistent spells
    hydra: bool  # its Guardian Hydra cast this turn
    sapped: bool  # sapped a crystal this turn
    boots: bool  # Winged Boots used this turn
    ending: bool  # the turn is ending (what happens at its end is queued)
    start: HexList | None  # where the wizard began the turn (Spectral Rush)
    bound: list[str]  # opposing Shamans the wizard began its turn next to (Bear Presence)
    burned: list[str]  # "<wizard>@q,r": hexes a Blaze bit a wizard in this turn (once per hex)


class Tile(TypedDict):
    tile: str  # T1..T7, H1..H6
    side: str  # A or B
    centre: HexList
    rotation: int  # sixths turned clockwise


class Obstacle(TypedDict):
    kind: str  # tree, low-wall, high-wall
    hexes: list[HexList]


class Effect(TypedDict, total=False):
    """A persistent spell in the arena, keyed "<caster>:<spell>" (one per caster and spell)."""
    id: Required[str]
    spell: Required[str]
    caster: Required[str]
    side: Required[int]  # the caster's side
    since: Required[int]  # the turn serial it was placed on ("on future turns")
    centre: HexList  # an area token (Blaze, Power Circle): this hex and the six round it
    hex: HexList  # a single hex token (Guardian Hydra, Spell Totem)
    hexes: list[HexList]  # a Fog Wall
    wizard: str  # a spell on a wizard (Bane, Entanglement)
    bonus: int  # Blaze cast from inside a Power Circle


class Placement(TypedDict, total=False):
    """Where a persistent spell's token lies (one of these): the Effect fields a cast sets."""
    centre: HexList
    hex: HexList
    hexes: list[HexList]
    wizard: str


class Crystal(TypedDict, total=False):
    """Crystal Sap: a stack with one crystal per colour still to sap; Capture the Crystal: a
    team's crystal, lying on a hex or carried."""
    hex: Required[HexList | None]
    zone: int  # Crystal Sap: the starting zone it stands in
    colours: list[str]  # Crystal Sap: the colours still in the stack
    colour: str  # Capture the Crystal: whose crystal it is
    carrier: str | None  # Capture the Crystal: the wizard carrying it


class Entry(TypedDict):
    """Solo: an entry point of the attacking wizards, next to the arena hexes they step into."""
    at: HexList
    hexes: list[HexList]


class Shift(TypedDict):
    """Shifting Arena: the arm to try first next round, and how many turn each round."""
    next: int
    per_round: int


class Setup(TypedDict):
    side: int  # the side placing, posting or shopping


class Result(TypedDict, total=False):
    winners: Required[list[int]]  # sides
    stalemate: str  # how a match with no end by its scenario ended (scenarios.py): "quiet" or "rounds"


class CampaignRecord(TypedDict, total=False):
    """MatchConfig.options["campaign"]; the outcome's record adds awarded (and at the end
    complete and champions)."""
    game: Required[int]
    vp: Required[list[int]]
    stars: Required[list[int]]
    items: dict[str, list[str]]
    awarded: list[int]
    complete: bool
    champions: list[int]


class Roll(TypedDict, total=False):
    """Casting or ward dice: nD+k as {dice, plus}, or an attacking wizard's {fixed} count."""
    dice: int
    plus: int
    fixed: int


class Plan(TypedDict, total=False):
    """An attacking wizard's turn (attackers.plan): the hexes to enter, and whom to cast on."""
    path: Required[list[HexList]]
    spell: str
    wands: int
    target: str


# A pending step of the queue (flow); "t" is its kind and the rest depends on it:
#   next, round                   the turn passes on / a new round begins
#   draw: side                    solo: draw the attacking turn token
#   auto: wizard, stage, plan     an attacking wizard's turn
#   attack: spell, by, side, source, target, cast, ward, stages, rolls, second (+ bonus, hit, target_hex)
#   blaze: effect, target         a Blaze may bite
#   teleport / shove: by, side, target (+ steps)
#   chain: by, side, from, from_side, hit, bonus
#   relocate: what, id, side, arms; shift: arms     Shifting Arena
Task = TypedDict("Task", {
    "t": Required[str],
    "side": int, "wizard": str, "stage": str, "plan": Plan,
    "spell": str, "by": str | None, "source": str, "target": str, "cast": Roll, "ward": Roll | None,
    "stages": list[str], "rolls": dict[str, list[str]], "second": dict[str, list[str]],
    "bonus": int, "hit": list[str], "target_hex": HexList | None,
    "effect": str, "steps": int, "from": HexList | None, "from_side": int,
    "what": str, "id": str, "arms": list[int],
}, total=False)


@dataclasses.dataclass(slots=True, eq=True)
class IncantrisState(GameState):
    HOT: ClassVar[frozenset[str]] = frozenset({"turn", "wizards", "queue", "setup"})
    # a match stored before the stalemate rule counts its quiet rounds from the upgrade
    ADDED: ClassVar[dict[str, Any]] = {"quiet": 0, "stirred": False, "resigned": []}

    variant: str
    seats: int
    scenario: str
    layout: str  # the layout id in the content pack
    tiles: list[Tile]
    obstacles: list[Obstacle]
    sides: list[Side]
    wizards: dict[str, Wizard]
    effects: dict[str, Effect]
    crystals: list[Crystal]
    entries: list[Entry]
    arms: list[list[int]]  # Shifting Arena: tile indices that turn together
    shift: Shift | None
    phase: str  # shop, place, post, play, over
    setup: Setup | None
    round: int
    serial: int  # turns begun so far
    turn: Turn | None
    queue: list[Task]
    result: Result | None
    captured: int | None  # Capture the Crystal: the side that carried its crystal off
    campaign: CampaignRecord | None
    used_items: list[list[str]]  # [wizard, item] in the order used
    quiet: int  # whole rounds in a row in which no wizard lost life and no crystal moved (the stalemate)
    stirred: bool  # this round a wizard lost life or a crystal was sapped, picked up or carried off
    resigned: list[int]  # the seats that resigned, in the order they did (resigning.py)

    @classmethod
    def of_view(cls, view: dict[str, Any]) -> IncantrisState:
        """The state a seat's view shows (everything in Incantris is public: a view is the
        whole state and who views it), sharing the view's data."""
        return cls.from_json({k: v for k, v in view.items() if k != "viewer"})
