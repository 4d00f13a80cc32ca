"""The Spell tokens on the map and on the Ramp (The Powers of the Spell Tokens on the
Map / on the Ramp). A spell is usable when it has at least one target; a map spell that
is not stays face up for another player, a Ramp spell that is not leaves the game
(Tokens in Territories and on the Ramp). Used map tokens leave the board, except
Protection, which stays beside the Castle it guards.

Readings (each tested):
* Revelation turns over 2 face-down tokens on the map (as many as are left if fewer),
  then its user goes again; with none face down it cannot be used. 'any 2 additional
  Tokens' are map tokens only, never the Ramp's: 'You may use either token you revealed
  if you can reach it', and only map tokens can be reached; a Ramp token is turned over
  only by the one who takes it when the King lands on its step (Battle Sequence 4).
* Transformation: its user picks the other player and the pulls; the changed player's
  Character acts on a Ramp token the King lands on.
* Protection goes on a Castle holding Pennants (the map token: your own Pennants; the
  Ramp token: 'a Castle of your choice', anyone's), never a Home Castle nor a Castle already
  protected. Not on a Castle without Pennants: nobody holds it, so there is nothing to
  'protect ... from attack', and its face-down token may be a Home Castle, where a
  Protection 'MAY NOT be placed'. Move a Protection moves one to another such Castle.
* Conquer a Castle may not take a protected Castle or a Home Castle: both 'may not be
  attacked', and seizing a Castle is the strongest attack there is. The rulebook names the
  one effect a protected Castle allows ('You may add a Pennant to a Castle protected by a
  Spell of Protection'), and it is not Conquer.
* Transport: 'take another turn by flying to any space of your choice': the token gives
  an extra turn (taken when this one ends) whose move is a flight to any territory but
  your own and those with a Character on them (the rocky space is never re-entered).
  Like every extra turn it may be passed. The Ramp Transports ('Move to a Swamp or Forest
  of your choice') are not another turn: the flight is made at once, as a Ramp token
  'must be used immediately', and keeps to their two terrains.
* Power adds 1 (map) or 2 (Ramp) to a Castle already holding your Pennants, protected
  ones included, and needs a Pennant left in your supply.
"""
from __future__ import annotations

from typing import Literal

from shared.engine import Event, RuleViolation
from shared.engine.contract import Action
from shared.tower import pennants, tower
from shared.tower.movement import occupied
from shared.tower.pack import pack
from shared.tower.state import FlightTask, RampTask, SpellTask, TowerState, playing
from shared.tower.tasks import Task, grant_extra_turn, pop, push

Source = Literal["map", "ramp"]

SECTION = {
    ("map", "revelation"): "Spell of Revelation",
    ("map", "transformation"): "Spell of Transformation",
    ("map", "protection"): "Spell of Protection",
    ("map", "move_protection"): "Move a Spell of Protection",
    ("map", "transport"): "Spell of Transport",
    ("map", "power"): "Spell of Power",
    ("ramp", "conquer"): "Conquer a Castle",
    ("ramp", "self_transformation"): "Spell of Self-Transformation",
    ("ramp", "power2"): "Spell of Power (Ramp)",
    ("ramp", "protection"): "Spell of Protection (Ramp)",
    ("ramp", "transport_swamp_forest"): "Spell of Transport-Swamp or Forest",
    ("ramp", "transport_mountain_plain"): "Spell of Transport-Mountain or Plain",
}


def _guardable(state: TowerState, t: str) -> bool:
    square = state.board[t]
    return bool(square["pennants"]) and not pennants.is_home(square) and not square["protected"]


def _flights(state: TowerState, seat: int, terrains: tuple[str, ...] | None) -> list[Action]:
    p = pack()
    taken = occupied(state.players)  # every Character's territory, the flyer's own included
    return [{"kind": "fly", "to": t} for t in p.territory_ids
            if t not in taken and (terrains is None or p.territories[t].terrain in terrains)]


def targets(state: TowerState, seat: int, spell: str, source: Source) -> list[Action]:
    """Every way to use the spell now; empty when it cannot be used."""
    p = pack()
    mine = state.players[seat]["wizard"]
    held = pennants.castles_held(state)
    own = [t for t in held if pennants.holder(state, t) == mine]
    if spell == "revelation":
        return [{"kind": "reveal", "territory": t} for t, sq in sorted(state.board.items())
                if sq["token"] is not None and not sq["token"]["up"]]
    if spell == "transformation":
        return [{"kind": "transform_other", "seat": o, "pulls": k}
                for o in playing(state) if o != seat for k in p.pulls]
    if spell == "self_transformation":
        return [{"kind": "transform", "pulls": k} for k in p.pulls]
    if spell == "protection":
        pool = own if source == "map" else held
        return [{"kind": "protect", "territory": t} for t in pool if _guardable(state, t)]
    if spell == "move_protection":
        guarded = [t for t, sq in sorted(state.board.items()) if sq["protected"]]
        return [{"kind": "move_protection", "from": a, "to": b}
                for a in guarded for b in held if b != a and _guardable(state, b)]
    if spell in ("power", "power2"):
        if pennants.supply(state, seat) == 0:
            return []
        return [{"kind": "power", "territory": t} for t in own]
    if spell == "conquer":
        if pennants.supply(state, seat) == 0:
            return []
        return [{"kind": "conquer", "territory": t} for t in held
                if pennants.holder(state, t) != mine and not state.board[t]["protected"]
                and not pennants.is_home(state.board[t])]
    if spell == "transport":
        return _flights(state, seat, None)
    if spell in ("transport_swamp_forest", "transport_mountain_plain"):
        return _flights(state, seat, tuple(p.ramp_spells[spell]["terrains"]))
    raise ValueError(f"unknown spell {spell!r}")


def take_map_spell(state: TowerState, seat: int, at: str, spell: str, events: list[Event]) -> None:
    """Landing on a face-up map Spell: 'obey it if you can'; if not, it stays face up."""
    if not targets(state, seat, spell, "map"):
        events.append({"type": "token_left_face_up", "territory": at, "token": f"spell:{spell}", "seat": seat,
                       "why": "cannot be used now"})
        return
    state.edit("board", at)["token"] = None
    events.append({"type": "spell_cast", "seat": seat, "spell": spell, "source": "map", "territory": at})
    if spell == "transport":
        grant_extra_turn(state, seat, events, "Spell of Transport: fly to any space", by="fly")
        return
    task: SpellTask = {"task": "spell", "seat": seat, "spell": spell, "source": "map"}
    if spell == "revelation":
        task["left"] = 2
    push(state, task)


def after_transformation(state: TowerState, seat: int, token: str | None, events: list[Event]) -> None:
    """The King landed on a Ramp token: the transformed Character acts on it now."""
    if token is not None:
        events.append({"type": "ramp_token_taken", "seat": seat, "step": state.king})
        push(state, {"task": "ramp", "seat": seat, "token": token})


class RampToken(Task[RampTask]):
    """Turn over a Ramp token and follow its orders, or remove it if it cannot be used."""

    kind = "ramp"
    automatic = True

    def run(self, state: TowerState, task: RampTask, events: list[Event]) -> None:
        pop(state, task)
        seat, spell = task["seat"], task["token"].split(":")[1]
        events.append({"type": "ramp_token_revealed", "seat": seat, "token": task["token"]})
        if seat in state.resigned:  # taken at the end of a resigned player's turn: nobody uses it
            events.append({"type": "ramp_token_discarded", "seat": seat, "token": task["token"],
                           "why": "its player resigned"})
            return
        if not targets(state, seat, spell, "ramp"):
            events.append({"type": "ramp_token_discarded", "seat": seat, "token": task["token"],
                           "why": "cannot be used now"})
            return
        push(state, {"task": "spell", "seat": seat, "spell": spell, "source": "ramp"})


class Flight(Task[FlightTask]):
    """The extra turn the Spell of Transport gives: fly to any space of your choice, where
    all regular rules apply, or pass it up like any extra turn."""

    kind = "flight"
    rule = SECTION[("map", "transport")]

    def legal(self, state: TowerState, task: FlightTask) -> list[Action]:
        return _flights(state, task["seat"], None) + [{"kind": "pass"}]

    def refuse(self, state: TowerState, task: FlightTask, action: Action) -> RuleViolation:
        return RuleViolation(self.rule, "fly to a space with no Character on it, other than your own, or pass")

    def apply(self, state: TowerState, task: FlightTask, action: Action, events: list[Event]) -> None:
        pop(state, task)
        seat = task["seat"]
        if action["kind"] == "pass":
            events.append({"type": "passed", "seat": seat})
            return
        fly(state, seat, action["to"], "transport", events)


def fly(state: TowerState, seat: int, to: str, spell: str, events: list[Event]) -> None:
    """A Transport's flight: the Character is set down on `to`, which it lands on."""
    player = state.players[seat]
    events.append({"type": "flew", "seat": seat, "from": player["at"], "to": to, "spell": spell})
    player["at"] = to
    push(state, {"task": "land", "seat": seat, "at": to})


class SpellChoice(Task[SpellTask]):
    kind = "spell"

    def legal(self, state: TowerState, task: SpellTask) -> list[Action]:
        return targets(state, task["seat"], task["spell"], task["source"])

    def refuse(self, state: TowerState, task: SpellTask, action: Action) -> RuleViolation:
        return RuleViolation(SECTION[(task["source"], task["spell"])],
                             f"{action.get('kind')!r} with these targets is not a use of this spell now")

    def apply(self, state: TowerState, task: SpellTask, action: Action, events: list[Event]) -> None:
        seat, spell, kind = task["seat"], task["spell"], action["kind"]
        if kind == "reveal":
            t = action["territory"]
            token = state.edit("board", t)["token"]
            token["up"] = True
            events.append({"type": "token_revealed", "territory": t, "token": token["id"], "by": seat,
                           "spell": "revelation"})
            task["left"] -= 1
            if task["left"] == 0 or not targets(state, seat, spell, "map"):
                pop(state, task)
                grant_extra_turn(state, seat, events, "Spell of Revelation: go again")
            return
        pop(state, task)
        if kind == "transform_other":
            # 'Take another player's Character ... and change it in the Tower'
            token = tower.transform(state, action["seat"], action["pulls"], events, "Spell of Transformation")
            after_transformation(state, action["seat"], token, events)
        elif kind == "transform":
            token = tower.transform(state, seat, action["pulls"], events, "Spell of Self-Transformation")
            after_transformation(state, seat, token, events)
        elif kind == "protect":
            state.edit("board", action["territory"])["protected"] = True
            events.append({"type": "protection_placed", "territory": action["territory"], "seat": seat})
        elif kind == "move_protection":
            state.edit("board", action["from"])["protected"] = False
            state.edit("board", action["to"])["protected"] = True
            events.append({"type": "protection_moved", "from": action["from"], "to": action["to"], "seat": seat})
        elif kind == "power":
            n = 2 if spell == "power2" else 1
            pennants.place(state, action["territory"], seat, n, events, SECTION[(task["source"], spell)])
        elif kind == "conquer":
            t = action["territory"]
            n = pennants.count(state, t)
            pennants.send_home(state, t, events, "Conquer a Castle")
            pennants.place(state, t, seat, n, events, "Conquer a Castle")
        elif kind == "fly":
            fly(state, seat, action["to"], spell, events)
