"""The four scenarios and the solo game: crystals, and who wins (Scenarios, Winning the Game).

- Battle Royale / Shifting Arena: "The last player with at least one living wizard wins."
- Crystal Sap: "The first player to sap all of his or her crystals wins." Each player's
  starting zone holds a stack with one crystal of every other player's colour.
- Capture the Crystal: "The first player to move his or her crystal off the edge of his or
  her starting zone wins."
- Solo: the player wins by killing all the attacking wizards and loses if they kill all of
  the player's wizards.
Reading (authored): if the last wizards of several players die together, those players
share the last place standing (and share the win when no one is left).

Authored rule, the stalemate (the rulebook prints no end for a match in which nobody acts):
a match ends after QUIET_ROUNDS whole rounds in a row in which no wizard loses a life point and
no crystal is sapped, picked up or carried off, and in any case at the end of round MAX_ROUNDS.
It is decided by what the scenario's own victory values: living wizards first in Battle Royale
and the Shifting Arena ("The last player with at least one living wizard wins"), then the life
points they have left; crystals sapped first in Crystal Sap; a crystal carried first in Capture
the Crystal; sides equal on every count share the win. In the solo game the player has not
done what wins it ("The player wins by killing all the attacking wizards"): the attacking team
holds the arena and the player loses.
"""
from __future__ import annotations

from shared.engine import RuleViolation
from shared.hexgrid import distance
from shared.incantris import match, turns
from shared.incantris.arena import as_hex
from shared.incantris.movement import may_stop
from shared.incantris.state import IncantrisState, Wizard
from shared.incantris.tasks import Clause


def set_crystals(state: IncantrisState, layout: dict) -> None:
    n = len(state.sides)
    colours = [s["team"] for s in state.sides]
    out = []
    if state.scenario == "crystal-sap":
        # "Each player takes one crystal of every other player's color and places them in a
        # stack in his or her starting zone."
        for c in layout["crystals"]:
            zone = c["zone"]
            out.append({"hex": list(c["hex"]), "zone": zone, "colours": [colours[i] for i in range(n) if i != zone]})
    elif state.scenario == "capture-the-crystal":
        for c in layout["crystals"]:
            out.append({"hex": list(c["hex"]), "colour": colours[c["seat"]], "carrier": None})
    state.replace("crystals", out)


# --- Crystal Sap ------------------------------------------------------------------------------
def sap_options(state: IncantrisState) -> list[dict]:
    """"A wizard must be in a hex adjacent to a crystal to sap its energy. A wizard may not
    sap a crystal and cast a spell on the same turn. Wizards may only sap crystals of their
    own color." Reading (authored): one crystal per turn, in place of the turn's spell."""
    if state.scenario != "crystal-sap":
        return []
    t = state.turn
    w = turns.active(state)
    if t is None or w is None or t["ending"] or t["cast"] or t["sapped"] or not match.in_arena(w):
        return []
    if not may_stop(state, w, as_hex(w["hex"])):
        return []
    colour = state.sides[w["side"]]["team"]
    here = as_hex(w["hex"])
    return [{"kind": "sap", "hex": c["hex"]} for c in state.crystals
            if colour in c["colours"] and distance(as_hex(c["hex"]), here) == 1]


def sap(state: IncantrisState, action: dict, ev: list) -> None:
    w = turns.acting(state)
    colour = state.sides[w["side"]]["team"]
    crystals = state.edit("crystals")
    for c in crystals:
        if c["hex"] == list(action["hex"]):
            c["colours"].remove(colour)
    crystals[:] = [c for c in crystals if c["colours"]]
    turns.current(state)["sapped"] = True
    state.stirred = True
    w["sapped"] += 1  # "ward with an additional 1D against all power sources for each crystal"
    state.edit("sides", w["side"])["sapped"] += 1
    match.event(ev, "sap", wizard=w["id"], hex=list(action["hex"]), colour=colour)


def crystals_to_sap(state: IncantrisState) -> int:
    return len(state.sides) - 1


# --- Capture the Crystal ----------------------------------------------------------------------
def pick_up_options(state: IncantrisState) -> list[dict]:
    """"A wizard may pick up a crystal by being in a hex adjacent to it. Wizards may only
    pick up crystals of their own color ... may continue movement and may cast spells."""
    if state.scenario != "capture-the-crystal":
        return []
    t = state.turn
    w = turns.active(state)
    if t is None or w is None or t["ending"] or not match.in_arena(w) or w.get("carrying"):
        return []
    colour = state.sides[w["side"]]["team"]
    here = as_hex(w["hex"])
    return [{"kind": "pick-up", "hex": c["hex"]} for c in state.crystals
            if c["colour"] == colour and c["hex"] is not None and distance(as_hex(c["hex"]), here) == 1]


def pick_up(state: IncantrisState, action: dict, ev: list) -> None:
    w = turns.acting(state)
    for c in state.edit("crystals"):
        if c["hex"] == list(action["hex"]):
            c["hex"] = None
            c["carrier"] = w["id"]
            w["carrying"] = c["colour"]
    state.stirred = True
    match.event(ev, "pick-up", wizard=w["id"], hex=list(action["hex"]))


def on_death(state: IncantrisState, w: Wizard, where, ev: list) -> None:
    """Capture: "If a wizard carrying a crystal dies, the crystal remains in the hex where the
    wizard died." Crystal Sap: sapped crystals leave with the dead wizard but still count."""
    if state.scenario == "capture-the-crystal" and w.get("carrying"):
        for c in state.edit("crystals"):
            if c["carrier"] == w["id"]:
                c["carrier"] = None
                c["hex"] = where
        w["carrying"] = None
        match.event(ev, "crystal-dropped", hex=where)


# --- victory ----------------------------------------------------------------------------------
QUIET_ROUNDS = 10  # authored: whole rounds in a row with no life lost and no crystal moved
MAX_ROUNDS = 100  # authored: no match is played past the end of this round


def standing(state: IncantrisState, side: int) -> tuple[int, ...]:
    """What the scenario values, best first, for a side still in the match (the stalemate)."""
    mine = [w for w in match.living(state) if w["side"] == side]
    living, life = len(mine), sum(w["life"] for w in mine)
    if state.scenario == "crystal-sap":
        return (state.sides[side]["sapped"], living, life)
    if state.scenario == "capture-the-crystal":
        return (int(any(w.get("carrying") for w in mine)), living, life)
    return (living, life)


def stalemate(state: IncantrisState) -> str | None:
    """"quiet" or "rounds" when the authored stalemate ends the match now, else None."""
    if state.quiet >= QUIET_ROUNDS:
        return "quiet"
    if state.turn is None and state.round >= MAX_ROUNDS and any(t["t"] == "round" for t in state.queue):
        return "rounds"
    return None


def check_victory(state: IncantrisState, ev: list) -> None:
    if state.phase != "play":
        return
    why = stalemate(state)
    if why is not None:
        alive = match.living_sides(state)
        if state.scenario == "solo":
            held = [0]  # the attacking team holds the arena
        else:
            best = max(standing(state, i) for i in alive)
            held = [i for i in alive if standing(state, i) == best]
        state.phase = "over"
        state.turn = None
        state.result = {"winners": held, "stalemate": why}
        match.event(ev, "stalemate", why=why, rounds=state.round, quiet=state.quiet)
        return  # the platform's match_finished carries the outcome, as for every end
    alive = match.living_sides(state)
    scenario = state.scenario
    winners = None
    if scenario == "solo":
        if 0 not in alive:
            winners = [1]
        elif 1 not in alive:
            winners = [0]
    elif scenario in ("battle-royale", "shifting-arena"):
        if len(alive) <= 1:
            winners = alive or _last_out(state)
    elif scenario == "crystal-sap":
        done = [i for i, s in enumerate(state.sides) if s["sapped"] >= crystals_to_sap(state)]
        if done:
            winners = done
        elif not alive:
            winners = []
    elif scenario == "capture-the-crystal":
        if state.captured is not None:
            winners = [state.captured]
        elif not alive:
            winners = []
    if winners is not None:
        state.phase = "over"
        state.turn = None
        state.result = {"winners": winners}
        # no event: the platform logs the end, with the engine's outcome(), as "match_finished"


def _last_out(state: IncantrisState) -> list[int]:
    # a side that resigned never shares the last place standing (resigning.py)
    sides = [(i, s) for i, s in enumerate(state.sides) if s["seat"] is None or s["seat"] not in state.resigned]
    outs = [s["out"] for _, s in sides if s["out"] is not None]
    last = max(outs) if outs else None
    return [i for i, s in sides if s["out"] == last and last is not None]


def places(state: IncantrisState) -> list[int]:
    """Place of each side (1 = best) by how long its wizards lasted; ties share a place."""
    n = len(state.sides)
    winners = set(state.result["winners"]) if state.result else set()

    ended = bool(state.result and state.result.get("stalemate"))

    def key(i) -> tuple:
        s = state.sides[i]
        if i in winners:
            return (2,)
        if s["seat"] is not None and s["seat"] in state.resigned:
            return (-1,)  # a player who resigned takes the last place (resigning.py)
        if s["out"] is not None:
            return (0, s["out"])
        # still in the match: at a stalemate ranked by what the scenario values
        return (1,) + (standing(state, i) if ended else ())

    keys = [key(i) for i in range(n)]
    return [1 + sum(1 for k in keys if k > keys[i]) for i in range(n)]


# --- refusals ------------------------------------------------------------------------------------------
SAP_NEXT = Clause("Crystal Sap", "A wizard must be in a hex adjacent to a crystal to sap its energy.")
SAP_OWN = Clause("Crystal Sap", "Wizards may only sap crystals of their own color.")
SAP_CAST = Clause("Crystal Sap", "A wizard may not sap a crystal and cast a spell on the same turn.")
SAP_ONE = Clause("Crystal Sap", "one crystal a turn, in place of the turn's spell", reading=True)
PICK_NEXT = Clause("Capture the Crystal", "A wizard may pick up a crystal by being in a hex adjacent to it.")
PICK_OWN = Clause("Capture the Crystal", "Wizards may only pick up crystals of their own color.")
NO_CRYSTALS = Clause("Scenarios", "Unless otherwise specified, all scenarios are played according to the rules "
                                  "specified above")


def refuse_sap(state: IncantrisState, action: dict) -> RuleViolation:
    w = turns.acting(state)
    t = turns.current(state)
    if state.scenario != "crystal-sap":
        return NO_CRYSTALS.violated(f"there are no crystals to sap in {state.scenario}")
    if t["sapped"]:
        return SAP_ONE.violated(f"{w['id']} sapped a crystal this turn")
    if t["cast"]:
        return SAP_CAST.violated(f"{w['id']} cast this turn")
    stack = next((c for c in state.crystals if c["hex"] == list(action["hex"])), None)
    if stack is None:
        return SAP_NEXT.violated(f"no crystal stands on {action['hex']}")
    if state.sides[w["side"]]["team"] not in stack["colours"]:
        return SAP_OWN.violated(f"no {state.sides[w['side']]['team']} crystal is left on {action['hex']}")
    if distance(as_hex(stack["hex"]), as_hex(w["hex"])) != 1:
        return SAP_NEXT.violated(f"{w['id']} is not next to {action['hex']}")
    return SAP_NEXT.violated(f"{w['id']} is passing through its hex")


def refuse_pick_up(state: IncantrisState, action: dict) -> RuleViolation:
    w = turns.acting(state)
    if state.scenario != "capture-the-crystal":
        return NO_CRYSTALS.violated(f"there are no crystals to pick up in {state.scenario}")
    if w.get("carrying"):
        return PICK_NEXT.violated(f"{w['id']} carries a crystal already")
    c = next((c for c in state.crystals if c["hex"] == list(action["hex"])), None)
    if c is None:
        return PICK_NEXT.violated(f"no crystal lies on {action['hex']}")
    if c["colour"] != state.sides[w["side"]]["team"]:
        return PICK_OWN.violated(f"the crystal on {action['hex']} is {c['colour']}")
    return PICK_NEXT.violated(f"{w['id']} is not next to {action['hex']}")
