"""The engine contract: what every game implements, in the shape OpenSpiel uses.

A state is a value. `apply` and `apply_chance` return a new state and the events
the step produced; they never mutate their input, never do I/O and never draw a
random number. The one who drives an engine (the match driver in the services,
a test, an AI search) asks `actor(state)` who acts next:

* a seat number (0-based): that seat picks one of `legal_actions(state, seat)`;
* CHANCE: the state waits for the dice in `chance_request(state)`;
* TERMINAL: the match is over and `outcome(state)` says who won.

A seat may also resign at any moment of a match that is not over (`resign`): the
engine decides what follows by its rules (the match ends, or goes on without the seat),
and never asks a resigned seat to act again.

Actions are small JSON objects with a "kind" and the fields that kind needs,
so they travel over gRPC unchanged and read well in an event log. Events are
JSON objects with a "type"; an event with "visible_to" (a list of seats) is
private to those seats, all others are public.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Mapping, Sequence, TypeVar

from shared.engine.chance import ChanceRequest, Face
from shared.engine.errors import MalformedAction, NotYourTurn
from shared.engine.state import canonical_bytes

CHANCE = -1
TERMINAL = -2

S = TypeVar("S")
Action = dict[str, Any]
Event = dict[str, Any]


@dataclass(frozen=True)
class MatchConfig:
    """How a match is set up: the number of seats, the variant (scenario, mode)
    and game-specific options. Engines refuse what they cannot set up with InvalidConfig."""

    seats: int
    variant: str = "standard"
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"seats": self.seats, "variant": self.variant, "options": dict(self.options)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "MatchConfig":
        return cls(int(d["seats"]), str(d.get("variant", "standard")), dict(d.get("options", {})))


@dataclass(frozen=True)
class Outcome:
    """The end of a match: a score per seat and the winning seats (ties share), and the
    seats that resigned, in the order they did (none in most matches)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    summary: str = ""
    resigned: tuple[int, ...] = ()

    def to_dict(self) -> dict:
        d = {"scores": list(self.scores), "winners": list(self.winners), "summary": self.summary}
        if self.resigned:
            d["resigned"] = list(self.resigned)
        return d


class GameEngine(ABC, Generic[S]):
    """One game's rules. Subclasses hold no per-match data: everything is in the state."""

    name: ClassVar[str]  # short id used in APIs and metric labels, e.g. "tower"
    title: ClassVar[str]  # the game's printed name
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    variants: ClassVar[tuple[str, ...]] = ("standard",)

    # --- set-up and turn structure -------------------------------------------------
    @abstractmethod
    def setup(self, config: MatchConfig) -> S:
        """The state before anything happens; usually CHANCE (shuffles, deals)."""

    @abstractmethod
    def actor(self, state: S) -> int:
        """The seat to act, CHANCE or TERMINAL."""

    @abstractmethod
    def chance_request(self, state: S) -> ChanceRequest | None:
        """The dice the state waits for when actor() is CHANCE, else None."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every action the seat may take now, in a stable sorted order; [] if none."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        """Validate and apply. Raises NotYourTurn, MalformedAction or RuleViolation."""

    @abstractmethod
    def apply_chance(self, state: S, outcome: Sequence[Sequence[Face]]) -> tuple[S, list[Event]]:
        """Continue with the faces rolled for chance_request(state), pool by pool."""

    @abstractmethod
    def resign(self, state: S, seat: int) -> tuple[S, list[Event]]:
        """The seat gives up, whoever is to act: the match ends where the game's rules leave
        nothing else (with two players the other one wins), or goes on without the seat, which
        is never asked to act again and cannot win. Like apply, it returns a new state and the
        events, running on until a seat or chance must act. Raises NotYourTurn when the
        match is over, RuleViolation when the seat has resigned already, MalformedAction for a
        seat the match does not have."""

    # --- reading --------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict:
        """What `seat` may see (None: a spectator), as JSON-ready data."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once actor() is TERMINAL, else None."""

    def checked_outcome(self, state: S, outcome: Sequence[Sequence[Face]]) -> list[list[Face]]:
        """The faces handed to apply_chance, checked against the pending request and copied
        as lists; WrongChanceOutcome if the state waits for no dice or these do not answer."""
        from shared.engine.errors import WrongChanceOutcome

        request = self.chance_request(state)
        if request is None:
            raise WrongChanceOutcome(f"this {self.title} state is not waiting for dice")
        request.check(outcome)
        return [list(faces) for faces in outcome]

    def query(self, state: S, seat: int | None, query: dict) -> dict:
        """Answer a read-only question about the board for `seat` (None: a spectator):
        paths, line of sight, range, movement costs, what a client needs to draw its
        choices. Answers may use only what that seat can see. Engines add their kinds;
        an unknown kind raises MalformedAction."""
        from shared.engine.errors import MalformedAction

        raise MalformedAction(f"{self.title} answers no query of kind {query.get('kind')!r}")

    def action_domain(self, action: Action) -> str:
        """Which service owns this kind of action: "board" (map and movement) or
        "combat" (battles, spells, encounters). Engines override for their kinds."""
        return "board"

    def describe(self, action: Action) -> str:
        """A one-line label for a person choosing among legal actions."""
        return " ".join(f"{k}={v}" for k, v in sorted(action.items()))

    def label(self, state: S, seat: int, action: Action) -> str:
        """The label `seat` sees for one of its legal actions now. By default describe(action);
        an engine whose labels need the position (the odds of a battle, the faces of the dice)
        overrides it, using only what that seat may see."""
        return self.describe(action)

    def check_invariants(self, state: S) -> None:
        """Raise AssertionError if the state breaks an invariant of the game."""

    # --- configurations ----------------------------------------------------------------
    def seat_counts(self, variant: str) -> tuple[int, ...]:
        """The numbers of seats `variant` is played by (setup refuses others with InvalidConfig)."""
        return tuple(range(self.min_seats, self.max_seats + 1))

    def default_variant(self, seats: int) -> str:
        """The variant a match of `seats` gets when its client names none."""
        return self.variants[0]

    def step_bound(self, config: MatchConfig) -> int | None:
        """The most steps (actions and chance steps, set-up included) a match of `config` can take,
        however it is played, when the rules put a bound on it; None: the game promises none."""
        return None

    def action_visible_to(self, state: S, seat: int, action: Action) -> list[int] | None:
        """The seats that may read this action in the match's log, when it is private
        (a secret exchange between two seats); None: public, like most actions."""
        return None

    # --- bytes ------------------------------------------------------------------------
    @abstractmethod
    def encode(self, state: S) -> bytes:
        """Exact serialisation: decode(encode(s)) == s."""

    @abstractmethod
    def decode(self, data: bytes) -> S:
        """Inverse of encode."""


def resign_step(engine: GameEngine, state: Any, seat: Any, rule, settle) -> tuple[Any, list[Event]]:
    """A game's `resign` on a typed state (one with `seats` and `successor()`): the refusals every
    game makes alike (a match that is over, a seat it has not), then on a successor the game's
    own `rule(state, seat, events)` and `settle(state, events)` (running on until a seat or
    chance must act)."""
    if engine.actor(state) == TERMINAL:
        raise NotYourTurn("the match is over")
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise MalformedAction(f"this match has seats 0 to {state.seats - 1}, not {seat!r}")
    new = state.successor()
    events: list[Event] = []
    rule(new, seat, events)
    settle(new, events)
    return new, events


def canonical_json(value: Any) -> bytes:
    """JSON with sorted keys and no spaces, UTF-8: equal values give equal bytes (the
    recipe of `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`,
    written by orjson; tests/engine/test_state.py holds them equal)."""
    return canonical_bytes(value)
