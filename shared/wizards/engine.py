"""WizardsEngine: the Wizards rulebook as a state machine with chance steps.

The flow is data: `state.step` names the next automatic step (setup.STEPS,
turns.STEPS). After every action or chance outcome the engine settles the state,
running steps until one waits for a seat (`state.await_`) or for dice
(`state.chance`), or the match is over. Actions and chance outcomes are
dispatched by kind to small functions that change the step's draft, `state.successor()`
(the small fields most steps change are copied, the rest shared until `edit`ed: state.py).

Encounters, Tasks and spells resolve on the resolution stack (resolution.py). A player who
delivers the six Sacred Gems to Rüktal wins (13, 7.336: gems.py); the Evil attack of Day 14
(section 12) is evil.py, and the Sacred Circle's fall ends the match with every player losing
(12.46); the solitaire game has its own losing (Appendix A: solitaire.py), the partnership game
its partners (Appendix B: partnership.py). MatchConfig.options["days"], off by default, ends a
match after that many days with no winner (evil.time_is_up).

Variants (SEAT_COUNTS): "standard" for 2-6, "solitaire" for 1 (Appendix A), "partnership" for
FOUR or SIX (Appendix B). A configuration is set up as asked or refused (InvalidConfig): a one-seat
"standard" match is refused, never set up as the solitaire game; a client naming no variant gets
`default_variant(seats)`.
"""
from __future__ import annotations

from typing import Sequence

from shared.engine import (
    CHANCE,
    TERMINAL,
    ChanceRequest,
    GameEngine,
    InvalidConfig,
    MalformedAction,
    MatchConfig,
    NotYourTurn,
    Outcome,
    RuleViolation,
)
from shared.engine.contract import resign_step
from shared.engine.state import tree_copy
from shared.wizards import evil, handlers, invariants, lair, partnership, queries, resolution, setup, turns, withdrawal
from shared.wizards.dice import request_of
from shared.wizards.pack import pack
from shared.wizards.placement import legal_placements
from shared.wizards.state import DEFAULT_DAYS, WizardsState, awaited, new_state
from shared.wizards.views import view as redact

STEPS = {**setup.STEPS, **turns.STEPS, **evil.STEPS}
CHANCE_HANDLERS = {**setup.CHANCE, **turns.CHANCE}
ACTIONS = {**setup.ACTIONS, **turns.ACTIONS, **{k: resolution.act_choice for k in resolution.CHOICE_KINDS}}
LEGAL = {**setup.LEGAL, **turns.LEGAL, "place_tile": legal_placements}

# What a seat may do while the state awaits it for each purpose, and the rule that says so.
ALLOWED = {
    "set_aside_tower": ({"set_aside_tower"}, "Appendix A 1"),
    "place_tile": ({"place_tile", "choose_tile", "choose_spot"}, "3.21"),
    "choose_colour": ({"choose_colour"}, "3.7"),
    "pre_roll": ({"roll", "cast"}, "5.1"),
    "move": ({"move", "cast", "end_move"}, "6"),
    "summon_boat": ({"summon_boat"}, "11.211"),
    "choice": (resolution.CHOICE_KINDS, "5.2"),
}
# spells and every choice made in an encounter are served by the combat service
COMBAT_KINDS = {"cast", "summon_boat"} | resolution.CHOICE_KINDS
assert handlers.REGISTERED
VARIANTS = ("standard", "solitaire", "partnership")
# The seats each variant is played by: the solitaire game by one (Appendix A), the
# partnership game by FOUR or SIX (Appendix B), the standard game by two to six. A
# configuration outside these is refused, never turned into another variant.
SEAT_COUNTS = {"standard": (2, 3, 4, 5, 6), "solitaire": (1,), "partnership": (4, 6)}


SEAT_REFUSALS = {
    "standard": "the standard game is played by 2-6 players, not {seats}; one player plays variant 'solitaire' "
                "(Appendix A)",
    "solitaire": "the solitaire game (Appendix A) has one player, not {seats}",
    "partnership": "the partnership game (Appendix B) is played by FOUR or SIX players, not {seats}",
}


class WizardsEngine(GameEngine[WizardsState]):
    name = "wizards"
    title = "Wizards"
    min_seats = 1
    max_seats = 6
    variants = VARIANTS

    # --- set-up and turn structure ----------------------------------------------------
    def setup(self, config: MatchConfig) -> WizardsState:
        if not self.min_seats <= config.seats <= self.max_seats:
            raise InvalidConfig(f"Wizards is played by 1-6 players, not {config.seats}")
        if config.variant not in VARIANTS:
            raise InvalidConfig(f"unknown variant {config.variant!r}; Wizards has {', '.join(VARIANTS)}")
        if config.seats not in SEAT_COUNTS[config.variant]:
            raise InvalidConfig(SEAT_REFUSALS[config.variant].format(seats=config.seats))
        options = dict(config.options)
        days = options.get("days", DEFAULT_DAYS)
        if days is not None and (type(days) is not int or days < 1):
            raise InvalidConfig("options.days (a time limit) must be a whole number of days, at least 1")
        removed = options.get("removed_tiles")
        if removed is not None and (type(removed) is not int or not 0 <= removed <= 6):
            raise InvalidConfig("options.removed_tiles (solitaire difficulty) must be 0-6 (Appendix A 3)")
        unknown = set(options) - {"days", "removed_tiles"}
        if unknown:
            raise InvalidConfig(f"unknown options {sorted(unknown)}")
        pack()  # load and validate the content pack once, up front
        state = new_state(config.seats, config.variant, options, days)
        events: list = []
        settle(state, events)
        return state

    def seat_counts(self, variant: str) -> tuple[int, ...]:
        return SEAT_COUNTS.get(variant, ())

    def default_variant(self, seats: int) -> str:
        """A client naming no variant: one seat is the solitaire game (Appendix A), more the standard game."""
        return "solitaire" if seats == 1 else "standard"

    def action_visible_to(self, state: WizardsState, seat: int, action: dict) -> list[int] | None:
        # Appendix B: partners exchange Gems secretly; the action names the Gem's High Wizard
        return partnership.action_visible_to(state, seat, action)

    def actor(self, state: WizardsState) -> int:
        if state.phase == "over":
            return TERMINAL
        if state.chance is not None:
            return CHANCE
        return awaited(state)["seat"]

    def chance_request(self, state: WizardsState) -> ChanceRequest | None:
        return request_of(state) if state.phase != "over" else None

    def legal_actions(self, state: WizardsState, seat: int) -> list[dict]:
        if state.phase == "over" or state.chance is not None or awaited(state)["seat"] != seat:
            return []
        return LEGAL[awaited(state)["for"]](state, seat)

    def apply(self, state: WizardsState, seat: int, action: dict) -> tuple[WizardsState, list[dict]]:
        if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
            raise MalformedAction("an action is an object with a 'kind'")
        kind = action["kind"]
        if kind not in ACTIONS:
            raise MalformedAction(f"unknown action kind {kind!r}")
        if type(seat) is not int or self.actor(state) != seat:
            raise NotYourTurn(f"seat {seat} may not act now")
        allowed, rule = ALLOWED[awaited(state)["for"]]
        if kind not in allowed:
            waiting_for = awaited(state)["for"].replace("_", " ")
            raise RuleViolation(rule, f"{kind} is not possible now: the game waits for {waiting_for}")
        new = state.successor()
        new.await_ = None
        events: list = []
        ACTIONS[kind](new, seat, tree_copy(action), events)  # the state keeps no part of the caller's action
        settle(new, events)
        return new, events

    def apply_chance(self, state: WizardsState, outcome: Sequence[Sequence]) -> tuple[WizardsState, list[dict]]:
        faces = self.checked_outcome(state, outcome)
        request = self.chance_request(state)
        new = state.successor()
        assert request is not None and new.chance is not None  # checked_outcome: the state waits for dice
        then = new.chance["then"]
        new.chance = None
        dice = {"type": "dice", "for": then["do"], "secret": request.secret,
                "rolls": [{"purpose": p.purpose, "faces": list(f)} for p, f in zip(request.pools, faces)]}
        if request.secret:
            dice["visible_to"] = []  # secret rolls are shown to seats only when the match ends
        events: list = [dice]
        CHANCE_HANDLERS[then["do"]](new, then, faces, events)
        settle(new, events)
        return new, events

    def resign(self, state: WizardsState, seat: int) -> tuple[WizardsState, list[dict]]:
        return resign_step(self, state, seat, withdrawal.withdraw, settle)

    # --- reading --------------------------------------------------------------------------
    def view(self, state: WizardsState, seat: int | None) -> dict:
        return redact(state, seat)

    def query(self, state: WizardsState, seat: int | None, query: dict) -> dict:
        # answered from the seat's view: an answer can use only what that seat may see (14.3)
        return queries.answer(self.view(state, seat), seat, query)

    def outcome(self, state: WizardsState) -> Outcome | None:
        r = state.result
        if state.phase != "over" or r is None:
            return None
        return Outcome(tuple(r["scores"]), tuple(r["winners"]), r["summary"], tuple(state.resigned))

    def action_domain(self, action: dict) -> str:
        return "combat" if isinstance(action, dict) and action.get("kind") in COMBAT_KINDS else "board"

    def describe(self, action: dict) -> str:
        return describe(action)

    def check_invariants(self, state: WizardsState) -> None:
        invariants.check(state)

    # --- bytes ------------------------------------------------------------------------------
    def encode(self, state: WizardsState) -> bytes:
        return state.encode()

    def decode(self, data: bytes) -> WizardsState:
        return WizardsState.decode(data)


def settle(state: WizardsState, events: list) -> None:
    """Run automatic steps until the state waits for a seat or for dice, or is over."""
    for _ in range(10_000):
        if state.phase == "over" or state.chance is not None:
            return
        if state.await_ is not None:
            if state.await_["seat"] not in state.resigned:
                return
            _for_withdrawn(state, events)
            continue
        if state.interrupts:
            interrupt = state.interrupts.pop(0)
            if interrupt["do"] == "dragon_return":  # 8.421
                lair.ask_dragon_move(state, "8.421", state.step)
            continue
        STEPS[state.step](state, events)
    raise AssertionError(f"the flow did not settle at step {state.step}")


# what a player who withdrew still asked for a choice takes: the one that ends the step, if any
CLOSING = ("end_move", "roll", "decline", "pass", "done", "stop")


def _for_withdrawn(state: WizardsState, events: list) -> None:
    """A choice asked of a player who withdrew (withdrawal.py) is made for him."""
    waiting = awaited(state)
    legal = LEGAL[waiting["for"]](state, waiting["seat"])
    assert legal, "a seat awaited has a choice"
    pick = next((a for a in legal if a["kind"] in CLOSING), legal[0])
    events.append({"type": "chosen_for_withdrawn", "seat": waiting["seat"], "action": tree_copy(pick)})
    state.await_ = None
    ACTIONS[pick["kind"]](state, waiting["seat"], tree_copy(pick), events)


def describe(action: dict) -> str:
    """A short label for a person choosing among legal actions."""
    kind = action.get("kind")
    if kind in resolution.LABELS:
        return resolution.LABELS[kind](action)
    if kind == "choose_tile":
        tile = action.get("tile")
        return f"lay {pack().tiles[tile]['name'] if isinstance(tile, str) and tile in pack().tiles else tile} next"
    if kind == "choose_spot":
        return f"centre the tile on {action.get('at')}"
    if kind == "place_tile":
        tile = action.get("tile")
        name = (pack().tiles[tile]["name"] if isinstance(tile, str) and tile in pack().tiles
                else "the next face-down tile")
        return f"place {name} centred at {action.get('at')} turned {action.get('rotation')}/6"
    if kind == "move":
        return f"{action.get('by')} to {action.get('to')} ({action.get('cost')} MP)"
    if kind == "cast":
        target = action.get("territory") or action.get("to")
        where = f" to {target}" if target else ""
        return f"cast {str(action.get('spell')).replace('_', ' ')}{where}"
    if kind == "summon_boat":
        return f"bring Boat {action.get('boat')} to {action.get('to')}"
    if kind == "choose_colour":
        return f"take the {action.get('colour')} Playing Piece"
    if kind == "set_aside_tower":
        tile = action.get("tile")
        return f"set aside {pack().tiles[tile]['name'] if isinstance(tile, str) and tile in pack().tiles else tile}"
    if kind == "end_move":
        return "end movement"
    if kind == "roll":
        return "roll for movement"
    return " ".join(f"{k}={v}" for k, v in sorted(action.items()))
