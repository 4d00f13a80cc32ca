"""Resigning (authored: the rulebook prints no resignation; README "Resigning").

A player who resigns is eliminated, as a player whose wizards are all dead is: every
living wizard of his team leaves the arena ("When a wizard reaches zero life points, he or
she is dead and is removed from the arena. The wizard's corresponding turn token is also
removed from play"), with no experience to anyone (nobody killed them), and his team is out.
"Players with dead wizards must skip turns if other players still have wizards to activate
in a round": the others play on.

* Battle Royale and the Shifting Arena: "The last player with at least one living wizard
  wins", so the match ends when one team is left, as it does after any death.
* Crystal Sap and Capture the Crystal: the others race on for the crystals; when one team
  is left it wins (nobody is left to race).
* The solo game: the player's wizards are gone, so "they kill all of the player's wizards"
  holds and the attacking team wins.
* A resigned player takes the last place and never shares a win (scenarios.places).
* His turn under way ends at once; while the match is set up, placing (or the shop) goes on
  to the next player.
"""
from __future__ import annotations

from shared.engine import RuleViolation
from shared.incantris import match, setup, turns, wounds
from shared.incantris.state import IncantrisState

RESIGNING = "Resigning (authored)"


def resign(state: IncantrisState, seat: int, ev: list) -> None:
    """Eliminate `seat`'s team (a draft: the engine settles it after)."""
    if seat in state.resigned:
        raise RuleViolation(RESIGNING, f"seat {seat} has resigned already")
    sides = [i for i, s in enumerate(state.sides) if s["seat"] == seat]
    state.resigned = state.resigned + [seat]
    match.event(ev, "player-resigned", seat=seat, sides=sides)
    for w in [w for w in match.living(state) if w["side"] in sides]:
        wounds.kill(state, w, None, ev)
    for side in sides:
        if state.sides[side]["out"] is None:  # a team with no wizard left to kill (all dead already)
            state.edit("sides", side)["out"] = state.serial
    t = state.turn
    if t is not None and t["side"] in sides and not t.get("ending"):
        turns.end_turn(state, ev)
    if state.phase in ("shop", "place") and state.setup is not None and state.setup["side"] in sides:
        if state.phase == "shop":
            setup.shop_done(state, state.setup["side"], ev)
        else:
            setup.next_placer(state, state.setup["side"], ev)
    left = match.living_sides(state)
    if len(left) <= 1 and state.phase != "over":
        state.phase = "over"
        state.turn = None
        state.queue = []
        state.setup = None
        state.result = {"winners": left}
