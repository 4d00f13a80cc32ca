"""Resigning (authored: the rulebook prints no resignation; README "Resigning").

A player who resigns is out of the game, and his Wizard becomes a missing Wizard, as the
Variations for 2 and 3 Players set one aside: 'Remove their Cards, their color Pennants,
their color Mover Bases. Leave the Tokens that have the Wizards' power symbols on them.'

* His Pennants leave the Castles they fly on (back to his supply, out of play), so those
  Castles stand empty; with none on the map his score is 0, and he never wins.
* His Character's Mover leaves the map (to the rocky space, where nobody meets it) and
  never moves again; his Character is in no one's way and no Spell of Transformation
  reaches it. Its Home Castle token stays, like any other Character's.
* His Wizard's symbol tokens stay: landing on one is landing on a missing Wizard's
  ('Declare which one of the other ... Characters you will do combat with', among the
  players still in the game; with one left, 'You will battle the other player').
* His turns are passed over and his extra turns dropped; a turn of his under way ends at
  once, and a Ramp token its end would give him is removed from the game ('if one can't be
  used, it is removed from the game'); so is one a Transformation gave him in another's turn.
  A spell another player is using whose only targets were his lapses unused.
* A battle he is fighting is not fought to the end: when he defends, the attacker is its
  victor (the victor's Pennants, the symbol token off the board, his own Ramp token after);
  when he attacks, it ends with his turn.
* During set-up his remaining choices (eliminations, the Wizard he selects) are made for
  him: the first of those still open, in the listed order.
* When one player is left, the game ends and he wins: nobody is left to take a Castle from
  him. Otherwise the game ends as always, when the King steps onto the Tower, and the most
  Pennants win among the players still in it.
"""
from __future__ import annotations

from shared.engine import Event, RuleViolation
from shared.engine.contract import canonical_json
from shared.tower import assembly, pennants, spells
from shared.tower.battle import walkover
from shared.tower.pack import ROCKY
from shared.tower.state import TowerState, playing

RESIGNING = "Resigning (authored)"


def resign(state: TowerState, seat: int, events: list[Event]) -> None:
    """Take `seat` out of the game (a draft: the caller runs the automatic tasks after)."""
    if seat in state.resigned:
        raise RuleViolation(RESIGNING, f"seat {seat} has resigned already")
    state.replace("resigned", state.resigned + [seat])
    events.append({"type": "player_resigned", "seat": seat, "wizard": state.players[seat]["wizard"]})
    player = state.players[seat]
    for territory, square in sorted(state.board.items()):
        if square["pennants"] is not None and square["pennants"]["wizard"] == player["wizard"]:
            pennants.send_home(state, territory, events, "its player resigned")
    if player["at"] != ROCKY:
        events.append({"type": "mover_removed", "seat": seat, "character": player["character"], "from": player["at"]})
        player["at"] = ROCKY
    if len(playing(state)) <= 1:
        state.tasks = []
        state.stage = "over"
        return
    if state.stage != "play":
        return
    turn = state.turn
    turn["extra"] = [x for x in turn["extra"] if x["seat"] != seat]
    if turn["seat"] == seat:
        # his turn ends here: only its end is left (the King's patience, the next seat)
        state.tasks = state.tasks[:1]
        assert state.tasks[0]["task"] == "turn", "a turn's end lies under everything done in it"
        return
    # what he was still to do in another's turn (a Ramp token a Transformation gave
    # him, the flight and battle it led to) is not done
    state.tasks = [t for t in state.tasks if t.get("seat") != seat and t.get("attacker") != seat]
    top = state.tasks[-1]
    if top["task"] == "battle" and top["defender"] == seat:
        walkover(state, top, events)
        return
    if top["task"] == "spell" and not spells.targets(state, top["seat"], top["spell"], top["source"]):
        # the spell had only him to work on (his Pennants, his Character): it lapses unused
        state.tasks.pop()
        events.append({"type": "spell_lapsed", "seat": top["seat"], "spell": top["spell"],
                       "why": "its only targets were the resigned player's"})


def first_choice(state: TowerState, events: list[Event]) -> bool:
    """Make the set-up choice a resigned seat is asked for, if it is asked for one now."""
    if state.stage != "choose" or assembly.chooser(state) not in state.resigned:
        return False
    action = sorted(assembly.choices(state), key=canonical_json)[0]
    events.append({"type": "chosen_for_resigned", "seat": assembly.chooser(state), "action": dict(action)})
    assembly.choose(state, action, events)
    return True
