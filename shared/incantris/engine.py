"""Incantris as a GameEngine: who acts, what they may do, and applying it.

The rules live in the modules this one calls; here actions are checked for form, looked
up among the legal ones, and dispatched. Everything in Incantris is public (life points and
wizard boards are "public information"), so every seat's view is the whole state.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from shared.engine import (
    CHANCE,
    TERMINAL,
    ChanceRequest,
    GameEngine,
    MalformedAction,
    MatchConfig,
    NotYourTurn,
    Outcome,
    RuleViolation,
)
from shared.engine.state import tree_copy
from shared.incantris import (  # noqa: F401
    attack,
    attackers,
    campaign,
    casting,
    effects,
    flow,
    match,
    queries,
    scenarios,
    setup,
    shifting,
    spells,
    turns,
    walking,
)
from shared.incantris.arena import as_hex
from shared.incantris.invariants import check
from shared.incantris.movement import Ground
from shared.incantris.pack import load
from shared.incantris.state import CampaignRecord, IncantrisState

BOARD = {"place", "post", "buy", "ready", "activate", "step", "exit", "pick-up", "end", "boots", "relocate",
         "relocate-stay"}
COMBAT = {"cast", "hydra", "cleanse", "cancel", "sap", "potion", "blaze", "amulet", "coin", "keep", "teleport",
          "reach", "reach-stop", "chain", "chain-stop"}

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

RULE_OF = {
    "place": "Set Up", "post": "1-Player Set Up", "buy": "Experience", "ready": "Experience",
    "activate": "Sequence of Play", "step": "Movement & Terrain", "exit": "Capture the Crystal",
    "pick-up": "Capture the Crystal", "end": "Sequence of Play", "boots": "Experience", "potion": "Experience",
    "cast": "Casting Spells", "hydra": "Guardian Hydra", "cleanse": "Cleansing Fire",
    "cancel": "Casting Spells (persistent spells)", "sap": "Crystal Sap", "blaze": "Blaze",
    "amulet": "Experience", "coin": "Experience", "keep": "Experience", "teleport": "Teleport",
    "reach": "Primal Reach", "reach-stop": "Primal Reach", "chain": "Scorching Chain",
    "chain-stop": "Scorching Chain", "relocate": "Shifting Arena", "relocate-stay": "Shifting Arena",
}


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
        ev: list = []
        flow.settle(state, ev)
        return state

    def actor(self, state: IncantrisState) -> int:
        if state.phase == "over":
            return TERMINAL
        w = flow.waiting(state)
        if w is not None:
            _, _, what = w
            if what == "chance":
                return CHANCE
            if what is not None:
                return what[1]
        if state.phase in ("shop", "place", "post"):
            return self._seat(state, setup.side_to_act(state))
        t = state.turn
        if t is None:
            return TERMINAL
        return self._seat(state, t["side"])

    def _seat(self, state: IncantrisState, side: int) -> int:
        seat = state.sides[side]["seat"]
        assert seat is not None, "the engine plays the attacking team: it never waits for it"
        return seat

    def chance_request(self, state: IncantrisState) -> ChanceRequest | None:
        w = flow.waiting(state)
        if w is None or w[2] != "chance" or state.phase == "over":
            return None
        handler, task, _ = w
        return handler.chance(state, task)

    def legal_actions(self, state: IncantrisState, seat: int) -> list[dict]:
        if self.actor(state) != seat or seat < 0:
            return []
        return _sorted(self._options(state, None))

    def _options(self, state: IncantrisState, kind: str | None, spell: str | None = None) -> list[dict]:
        """The legal actions of the acting seat (only those of `kind`, when given)."""
        def want(*kinds):
            return kind is None or kind in kinds

        w = flow.waiting(state)
        if w is not None and w[2] is not None:
            handler, task, _ = w
            return handler.options(state, task)
        phase = state.phase
        if phase == "shop":
            return campaign.shop_options(state, setup.side_to_act(state))
        if phase == "place":
            return setup.place_options(state, setup.side_to_act(state))
        if phase == "post":
            return setup.post_options(state)
        t = state.turn
        if t is None:
            return []
        if t["wizard"] is None:
            return [{"kind": "activate", "wizard": wid} for wid in turns.waiting_wizards(state, t["side"])]
        if t["ending"]:
            return []
        wiz = turns.acting(state)
        out: list[dict] = []
        if want("step", "exit"):
            out += walking.step_options(state)
        here = as_hex(wiz["hex"])
        g = Ground(state)
        if here not in g.arena.whole or not g.may_stop(wiz, here):
            return [a for a in out if a["kind"] in ("step", "exit")]  # still moving through
        if want("cast"):
            out += casting.cast_options(state, spell)
        if want("hydra"):
            out += casting.hydra_options(state)
        if want("cleanse"):
            out += self._cleanse_options(state)
        if want("cancel") and not t["cancelled"]:
            out += effects.cancel_options(state, wiz)
        if want("sap"):
            out += scenarios.sap_options(state)
        if want("pick-up"):
            out += scenarios.pick_up_options(state)
        if want("potion", "boots"):
            out += campaign.item_options(state)
        out.append({"kind": "end"})
        return [a for a in out if kind is None or a["kind"] == kind]

    def _cleanse_options(self, state: IncantrisState) -> list[dict]:
        wiz = turns.active(state)
        if wiz is None or match.ability(wiz) != "cleansing-fire" or not casting.may_cast(state):
            return []
        out = []
        for via, h in casting.origins(state, wiz):
            for eid in effects.cleanse_targets(state, wiz, h):
                a = {"kind": "cleanse", "effect": eid}
                if via:
                    a["from"] = via
                out.append(a)
        return out

    def apply(self, state: IncantrisState, seat: int, action: dict) -> tuple[IncantrisState, list[dict]]:
        action = _well_formed(action)
        who = self.actor(state)
        if who == TERMINAL:
            raise NotYourTurn("the match is over")
        if who != seat:
            raise NotYourTurn(f"seat {seat} may not act now")
        kind = action["kind"]
        narrow = kind if kind not in ("reach-stop", "chain-stop", "relocate-stay") else None
        if action not in self._options(state, narrow, action.get("spell") if kind == "cast" else None):
            raise RuleViolation(RULE_OF[kind], self._why(state, action))
        s = state.successor()
        ev: list = []
        self._dispatch(s, action, ev)
        flow.settle(s, ev)
        return s, ev

    def _why(self, state: IncantrisState, action: dict) -> str:
        kind = action["kind"]
        t = state.turn
        if kind == "cast":
            wiz = turns.active(state)
            if wiz is not None and action["spell"] not in casting.match_spells(wiz):
                return f"{wiz['id']} has no spell {action['spell']!r} on its reference board"
            if t and (t.get("cast") or t.get("sapped")):
                return "a wizard may only cast a single spell per turn (and not on a turn it saps a crystal)"
            return "the target is not valid, out of range or out of line of sight"
        if kind == "step":
            return ("that hex cannot be entered now (terrain, obstacle, opposing wizard, Bear Presence, "
                    "movement points or split movement)")
        return f"{kind} is not allowed now"

    def _dispatch(self, s: IncantrisState, action: dict, ev: list) -> None:
        kind = action["kind"]
        w = flow.waiting(s)
        if w is not None and w[2] is not None:
            handler, task, _ = w
            handler.choose(s, task, action, ev)
            return
        phase = s.phase
        if phase == "shop":
            side = setup.side_to_act(s)
            if kind == "buy":
                campaign.buy(s, side, action, ev)
            else:
                setup.shop_done(s, side, ev)
            return
        if phase == "place":
            setup.place(s, setup.side_to_act(s), action, ev)
            return
        if phase == "post":
            setup.post(s, action, ev)
            return
        if kind == "activate":
            turns.activate(s, action["wizard"], ev)
            return
        wiz = turns.acting(s)
        if kind == "step":
            walking.step(s, wiz, as_hex(action["to"]), walking.step_cost(s, wiz, as_hex(action["to"])), ev)
        elif kind == "exit":
            walking.exit_arena(s, wiz, ev)
        elif kind == "cast":
            casting.cast(s, action, ev)
        elif kind == "hydra":
            casting.hydra(s, action, ev)
        elif kind == "cleanse":
            turns.used_cast(s)
            match.event(ev, "cleansing-fire", wizard=wiz["id"], effect=action["effect"])
            effects.remove(s, action["effect"], "Cleansing Fire", ev)
        elif kind == "cancel":
            turns.current(s)["cancelled"] = True
            effects.remove(s, action["effect"], "cancelled by its caster", ev)
        elif kind == "sap":
            scenarios.sap(s, action, ev)
        elif kind == "pick-up":
            scenarios.pick_up(s, action, ev)
        elif kind == "potion":
            campaign.potion(s, ev)
        elif kind == "boots":
            campaign.boots(s, ev)
        elif kind == "end":
            turns.end_turn(s, ev)

    def apply_chance(self, state: IncantrisState, outcome: Sequence[Sequence]) -> tuple[IncantrisState, list[dict]]:
        faces = self.checked_outcome(state, outcome)
        s = state.successor()
        ev: list = []
        handler, task, _ = flow.waiting(s)
        handler.roll(s, task, faces, ev)
        flow.settle(s, ev)
        return s, ev

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
        if state.scenario == "solo":
            won = 1 in winners
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
        if state.campaign is not None:
            record = campaign.updated_record(state)
            return CampaignOutcome(tuple(record["awarded"]), seat_winners, summary, record)
        return Outcome(tuple(scores), seat_winners, summary)

    def action_domain(self, action: dict) -> str:
        return "combat" if isinstance(action, dict) and action.get("kind") in COMBAT else "board"

    def describe(self, action: dict) -> str:
        from shared.incantris.render import describe

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
