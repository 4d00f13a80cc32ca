"""Incantris as a GameEngine: who acts, what they may do, and applying it.

The rules live in the modules this one calls; here actions are checked for form, looked
up among the legal ones, and dispatched. Everything in Incantris is public (life points and
wizard boards are "public information"), so every seat's view is the whole state.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from shared.engine import (
    CHANCE,
    TERMINAL,
    ChanceRequest,
    GameEngine,
    MalformedAction,
    MatchConfig,
    NotYourTurn,
    Outcome,
)
from shared.engine.contract import Event, resign_step
from shared.engine.state import tree_copy
from shared.incantris import (
    attack,
    attackers,
    campaign,
    effects,
    flow,
    match,
    play,
    queries,
    resigning,
    scenarios,
    setup,
    shifting,
    spells,
    turns,
)
from shared.incantris.invariants import check
from shared.incantris.pack import load
from shared.incantris.render import describe
from shared.incantris.state import CampaignRecord, IncantrisState
from shared.incantris.tasks import Task

BOARD = {"place", "post", "buy", "ready", "activate", "step", "exit", "pick-up", "end", "boots", "relocate",
         "relocate-stay"}
COMBAT = {"cast", "hydra", "cleanse", "cancel", "sap", "potion", "blaze", "amulet", "coin", "keep", "teleport",
          "reach", "reach-stop", "chain", "chain-stop"}

# every kind of pending step (state.queue's "t"), and the stage of the match when none is queued
TASKS: dict[str, Task] = {t.kind: t for t in (
    attack.Attack(spells.resolve), effects.BlazeBite(), turns.NextTurn(), turns.NewRound(), turns.DrawToken(),
    attackers.AttackingTurn(), spells.TeleportChoice(), spells.PrimalReachChoice(), spells.ScorchingChainChoice(),
    shifting.Relocate(), shifting.Shift())}
STAGES: dict[str, Task] = {t.kind: t for t in (setup.Shop(), setup.Placing(), setup.Posting(), play.SideTurn())}
STAGE_OF_PHASE = {"shop": "shop", "place": "place", "post": "post", "play": "turn"}


def current(state: IncantrisState) -> tuple[Task, Any, Any] | None:
    """The step the match waits on: (its Task, the queued task or None for a stage, what it waits for)."""
    task = flow.front(state)
    if task is not None:
        h = TASKS[task["t"]]
        what = h.waits(state, task)
        if what is not None:
            return h, task, what
    stage = STAGE_OF_PHASE.get(state.phase)
    if stage is None:
        return None
    h = STAGES[stage]
    what = h.waits(state, None)
    return (h, None, what) if what is not None else None


def settle(state: IncantrisState, ev: list) -> None:
    """Run every step that needs nobody, until the match waits for dice or a seat."""
    for _ in range(10_000):
        # a spell with several rolls (Meteor Storm) resolves in full before anyone is declared
        # the winner, so players falling to the same spell fall together
        if not any(t["t"] == "attack" for t in state.queue):
            scenarios.check_victory(state, ev)
        if state.phase == "over":
            state.queue = []
            return
        task = flow.front(state)
        if task is not None:
            h = TASKS[task["t"]]
            if h.waits(state, task) is not None:
                if not _for_resigned(state, ev):
                    return
                continue
            h.run(state, task, ev)
            continue
        if not turns.advance(state, ev) and not _for_resigned(state, ev):
            return
    raise AssertionError("the match does not settle")


# what a resigned seat still asked for a choice takes: the one that ends the step, if any
CLOSING = ("end", "ready", "reach-stop", "chain-stop", "relocate-stay", "exit")


def _for_resigned(state: IncantrisState, ev: list) -> bool:
    """A step that waits on a resigned seat (resigning.py) goes on without it: set-up passes
    to the next player, and a choice still asked of it is made for it (the one that ends the
    step, else the first listed). False when the match waits on someone else."""
    now = current(state)
    if now is None or not isinstance(now[2], tuple) or now[2][1] not in state.resigned:
        return False
    h, task, what = now
    if task is None and state.phase in ("place", "shop"):
        side = setup.side_to_act(state)
        (setup.next_placer if state.phase == "place" else setup.shop_done)(state, side, ev)
        return True
    options = _sorted(h.options(state, task))
    assert options, "a step waiting on a seat offers it a choice"
    pick = next((o for o in options if o["kind"] in CLOSING), options[0])
    match.event(ev, "chosen-for-resigned", seat=what[1], action=pick)
    h.choose(state, flow.front(state) if task is not None else None, pick, ev)
    return True


# kind -> {field: type}; "hex" is [q, r]; optional fields are listed in OPTIONAL
FIELDS: dict[str, dict[str, str]] = {
    "place": {"wizard": "str", "hex": "hex"}, "post": {"wizard": "str", "entry": "int"},
    "buy": {"item": "str", "wizard": "str"}, "ready": {}, "activate": {"wizard": "str"},
    "step": {"to": "hex"}, "exit": {}, "pick-up": {"hex": "hex"}, "end": {}, "boots": {}, "potion": {},
    "cast": {"spell": "str", "target": "target"}, "hydra": {"target": "str"}, "cleanse": {"effect": "str"},
    "cancel": {"effect": "str"}, "sap": {"hex": "hex"}, "blaze": {"burn": "bool"}, "amulet": {"use": "bool"},
    "coin": {"reroll": "bool"}, "keep": {"roll": "int"}, "teleport": {"to": "hex"}, "reach": {"to": "hex"},
    "reach-stop": {}, "chain": {"target": "str"}, "chain-stop": {}, "relocate": {"to": "hex"}, "relocate-stay": {},
}
OPTIONAL: dict[str, dict[str, str]] = {"cast": {"from": "str", "ring": "bool"}, "cleanse": {"from": "str"}}

def _is_hex(v) -> bool:
    return (isinstance(v, (list, tuple)) and len(v) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in v))


def _well_formed(action) -> dict:
    if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
        raise MalformedAction("an action is an object with a string 'kind'")
    kind = action["kind"]
    if kind not in FIELDS:
        raise MalformedAction(f"unknown action kind {kind!r}")
    need, opt = FIELDS[kind], OPTIONAL.get(kind, {})
    for k in action:
        if k != "kind" and k not in need and k not in opt:
            raise MalformedAction(f"{kind}: unexpected field {k!r}")
    out = {"kind": kind}
    for k, t in list(need.items()) + list(opt.items()):
        if k not in action:
            if k in need:
                raise MalformedAction(f"{kind}: missing field {k!r}")
            continue
        v = action[k]
        if t == "str" and not isinstance(v, str):
            raise MalformedAction(f"{kind}.{k} must be a string")
        if t == "bool" and not isinstance(v, bool):
            raise MalformedAction(f"{kind}.{k} must be true or false")
        if t == "int" and (not isinstance(v, int) or isinstance(v, bool)):
            raise MalformedAction(f"{kind}.{k} must be an integer")
        if t == "hex":
            if not _is_hex(v):
                raise MalformedAction(f"{kind}.{k} must be a hex [q, r]")
            v = [int(v[0]), int(v[1])]
        if t == "target":
            if isinstance(v, str):
                pass
            elif _is_hex(v):
                v = [int(v[0]), int(v[1])]
            elif isinstance(v, (list, tuple)) and 1 <= len(v) <= 2 and all(_is_hex(h) for h in v):
                v = [[int(h[0]), int(h[1])] for h in v]
            else:
                raise MalformedAction(f"{kind}.{k} must be a wizard id, a hex or a list of hexes")
        out[k] = v
    return out


def _sorted(actions: list[dict]) -> list[dict]:
    """A stable order: by kind, then by the fields' values."""
    return sorted(actions, key=lambda a: repr(sorted(a.items())))


class IncantrisEngine(GameEngine[IncantrisState]):
    name = "incantris"
    title = "Incantris"
    min_seats = 1
    max_seats = 4
    variants = setup.VARIANTS

    # --- set-up and turn structure ---------------------------------------------------------
    def setup(self, config: MatchConfig) -> IncantrisState:
        state = setup.new_state(config)
        settle(state, [])
        return state

    def seat_counts(self, variant: str) -> tuple[int, ...]:
        return setup.seat_counts(variant)

    def actor(self, state: IncantrisState) -> int:
        if state.phase == "over":
            return TERMINAL
        now = current(state)
        if now is None:
            return TERMINAL
        what = now[2]
        if what == "chance":
            return CHANCE
        assert isinstance(what, tuple) and what[1] is not None, "the engine plays the attacking team"
        return what[1]

    def chance_request(self, state: IncantrisState) -> ChanceRequest | None:
        now = current(state)
        if now is None or now[2] != "chance" or state.phase == "over":
            return None
        handler, task, _ = now
        return handler.chance(state, task)

    def legal_actions(self, state: IncantrisState, seat: int) -> list[dict]:
        if self.actor(state) != seat or seat < 0:
            return []
        now = current(state)
        assert now is not None
        handler, task, _ = now
        return _sorted(handler.options(state, task))

    def apply(self, state: IncantrisState, seat: int, action: dict) -> tuple[IncantrisState, list[dict]]:
        action = _well_formed(action)
        who = self.actor(state)
        if who == TERMINAL:
            raise NotYourTurn("the match is over")
        if who != seat:
            raise NotYourTurn(f"seat {seat} may not act now")
        now = current(state)
        assert now is not None
        handler, task, _ = now
        if not handler.accepts(state, task, action):
            raise handler.refuse(state, task, action)
        s = state.successor()
        ev: list = []
        handler.choose(s, flow.front(s) if task is not None else None, action, ev)
        settle(s, ev)
        return s, ev

    def apply_chance(self, state: IncantrisState, outcome: Sequence[Sequence]) -> tuple[IncantrisState, list[dict]]:
        faces = self.checked_outcome(state, outcome)
        s = state.successor()
        ev: list = []
        now = current(s)
        assert now is not None and now[2] == "chance"
        handler, task, _ = now
        handler.roll(s, task, faces, ev)
        settle(s, ev)
        return s, ev

    def resign(self, state: IncantrisState, seat: int) -> tuple[IncantrisState, list[Event]]:
        return resign_step(self, state, seat, resigning.resign, settle)

    # --- reading -------------------------------------------------------------------------------
    def view(self, state: IncantrisState, seat: int | None) -> dict:
        v = tree_copy(state.to_json())
        v["viewer"] = seat
        return v

    def query(self, state: IncantrisState, seat: int | None, query: dict) -> dict:
        # answered from the seat's view: an answer can use only what that seat may see
        return queries.answer(self.view(state, seat), seat, query)

    def outcome(self, state: IncantrisState) -> Outcome | None:
        if state.phase != "over":
            return None
        n = state.seats
        winners = match.winners(state)
        seats = [state.sides[i]["seat"] for i in winners]
        seat_winners = tuple(sorted(x for x in seats if x is not None))
        gone = tuple(state.resigned)
        if state.scenario == "solo":
            won = 1 in winners
            if gone:
                return Outcome((0,), (), "the player resigned: the attacking team holds the arena", gone)
            if (state.result.get("stalemate") if state.result else None):
                return Outcome((0,), (), "the attacking team holds the arena: a stalemate, and the player loses")
            return Outcome((1 if won else 0,), (0,) if won else (), "the player defeats the attacking team" if won
                           else "the attacking team defeats the player")
        scenario = state.scenario
        if scenario == "crystal-sap":
            scores = [s["sapped"] for s in state.sides]
        elif scenario == "capture-the-crystal":
            scores = [1 if i in winners else 0 for i in range(n)]
        else:
            places = scenarios.places(state)
            scores = [n - p for p in places]
        teams = ", ".join(state.sides[i]["team"] for i in winners)
        summary = f"{scenario}: " + (f"{teams} won" if winners else "no winner")
        why = (state.result.get("stalemate") if state.result else None)
        if why:
            summary += (" at a stalemate (" + (f"{scenarios.QUIET_ROUNDS} quiet rounds" if why == "quiet"
                        else f"round {scenarios.MAX_ROUNDS} ended") + ")")
        if gone:
            summary += " (" + ", ".join(state.sides[i]["team"] for i, s in enumerate(state.sides)
                                        if s["seat"] in gone) + " resigned)"
        if state.campaign is not None:
            record = campaign.updated_record(state)
            return CampaignOutcome(tuple(record["awarded"]), seat_winners, summary, gone, record)
        return Outcome(tuple(scores), seat_winners, summary, gone)

    def action_domain(self, action: dict) -> str:
        return "combat" if isinstance(action, dict) and action.get("kind") in COMBAT else "board"

    def describe(self, action: dict) -> str:
        return describe(action)

    def check_invariants(self, state: IncantrisState) -> None:
        check(state)

    # --- bytes ------------------------------------------------------------------------------------
    def encode(self, state: IncantrisState) -> bytes:
        return state.encode()

    def decode(self, data: bytes) -> IncantrisState:
        return IncantrisState.decode(data)


@dataclass(frozen=True)
class CampaignOutcome(Outcome):
    """A campaign game's outcome: scores are the victory points this game awarded, and
    `campaign` is the record to pass as options["campaign"] to the next game."""

    campaign: CampaignRecord | None = None

    def to_dict(self) -> dict:
        d = super().to_dict()
        d["campaign"] = self.campaign
        return d


load()  # validate the content pack when the engine is first imported
