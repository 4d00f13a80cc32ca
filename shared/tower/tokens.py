"""What the space you land on does: turn over its Token and act, or fight for its Castle
(How to Play 1-2; What to Do When You Land on Castle Tokens; Home Castles).

Token ids: `symbol:<wizard>`, `home:<Character>`, `spell:<map spell>`, `ramp:<ramp spell>`.

Readings:
* A Token left face up (unusable, or turned over by Revelation) acts on whoever lands
  on it later and can use it (Tokens in Territories and on the Ramp).
* A Castle guarded by a Spell of Protection 'may not be attacked': landing there is
  legal and no battle follows.
* 'you may remove them and replace them with your own color' on your own Home Castle
  held by another colour is offered ('reclaim' or 'leave'); the replacement is clipped to
  your supply, and not offered with an empty supply (there is nothing to replace them with).
* A Home Castle that is not yours gives another turn only 'the first time the Token is
  turned over' by landing. 'you may take another turn instead': the extra turn is granted
  and may be passed, and passing it is declining it (it changes nothing, see turns.py), so
  no separate question is asked.
"""
from __future__ import annotations

from shared.engine import Event
from shared.engine.contract import Action
from shared.tower import battle, pennants, spells
from shared.tower.pack import pack
from shared.tower.state import HomeTask, LandTask, TowerState, character_of, playing
from shared.tower.tasks import Task, grant_extra_turn, pop, push

HOME = "Home Castles"


class Land(Task[LandTask]):
    kind = "land"
    automatic = True

    def run(self, state: TowerState, task: LandTask, events: list[Event]) -> None:
        pop(state, task)
        seat, at = task["seat"], task["at"]
        square = state.board[at]
        token = square["token"]
        if token is not None:
            first = not token["up"]
            if first:
                token = state.edit("board", at)["token"]
                token["up"] = True
                events.append({"type": "token_revealed", "territory": at, "token": token["id"], "by": seat})
            kind, name = token["id"].split(":")
            if kind == "symbol":
                _symbol(state, seat, at, name, events)
            elif kind == "home":
                _home(state, seat, at, name, first, events)
            else:
                spells.take_map_spell(state, seat, at, name, events)
            return
        holder = pennants.holder(state, at)
        mine = state.players[seat]["wizard"]
        if holder is not None and holder != mine:
            if square["protected"]:
                # Spell of Protection: 'No other player may attack that Castle'
                events.append({"type": "castle_protected", "territory": at, "seat": seat})
            else:
                # How to Play 2: 'you MUST do battle with that Character'
                battle.start(state, seat, at, "castle", pennants.seat_of(state, holder), events)


def _symbol(state: TowerState, seat: int, at: str, wizard: str, events: list[Event]) -> None:
    mine = state.players[seat]["wizard"]
    if wizard == mine:
        # 'If it's your own Wizard's Token, remove the Token from the board, and add 1 Pennant'
        if pennants.supply(state, seat) == 0:
            events.append({"type": "token_left_face_up", "territory": at, "token": f"symbol:{wizard}", "seat": seat,
                           "why": "no Pennants left"})
            return
        state.edit("board", at)["token"] = None
        events.append({"type": "token_removed", "territory": at, "token": f"symbol:{wizard}"})
        pennants.place(state, at, seat, 1, events, "own Wizard symbol")
        return
    defender = pennants.seat_of(state, wizard)
    if defender in state.resigned:
        defender = None  # a resigned player's Wizard is a missing Wizard (resigning.py)
    others = [s for s in playing(state) if s != seat]
    if defender is None and len(others) == 1:
        # Variation for 2 Players: 'If you land on a missing Wizard's power Token: You will battle the other player.'
        defender = others[0]
    # 3 players, missing Wizard: defender None, the attacker declares (Variation for 3 Players, 1)
    battle.start(state, seat, at, "symbol", defender, events)


def _home(state: TowerState, seat: int, at: str, character: str, first: bool, events: list[Event]) -> None:
    player = state.players[seat]
    if player["character"] != character:
        if first:
            # 'if it's not your Home Castle, you may take another turn instead'
            grant_extra_turn(state, seat, events, "another Character's Home Castle")
        return
    holder = pennants.holder(state, at)
    if holder is None:
        push(state, {"task": "home", "seat": seat, "at": at, "offer": "add"})
    elif holder == player["wizard"]:
        # 'you may NOT add more of your own Pennants'
        events.append({"type": "home_castle_already_yours", "territory": at, "seat": seat})
    elif pennants.supply(state, seat) > 0:
        # 'you may remove them and replace them with your own color, without doing combat'
        push(state, {"task": "home", "seat": seat, "at": at, "offer": "reclaim"})


class HomeChoice(Task[HomeTask]):
    """The Home Castle of the Character you are: 'Add N Pennants or Go Again' (offer `add`),
    or, when another colour holds it, take it back or leave it (offer `reclaim`)."""

    kind = "home"
    rule = HOME

    def legal(self, state: TowerState, task: HomeTask) -> list[Action]:
        if task["offer"] == "reclaim":
            return [{"kind": "home", "choice": "reclaim"}, {"kind": "home", "choice": "leave"}]
        actions: list[Action] = [{"kind": "home", "choice": "again"}]
        if pennants.supply(state, task["seat"]) > 0:
            actions.append({"kind": "home", "choice": "pennants"})
        return actions

    def apply(self, state: TowerState, task: HomeTask, action: Action, events: list[Event]) -> None:
        pop(state, task)
        seat, at = task["seat"], task["at"]
        if action["choice"] == "again":
            grant_extra_turn(state, seat, events, "Home Castle: Go Again")
            return
        if action["choice"] == "leave":
            events.append({"type": "home_castle_left", "territory": at, "seat": seat,
                           "wizard": pennants.holder(state, at)})
            return
        if action["choice"] == "reclaim":
            n = pennants.count(state, at)
            pennants.send_home(state, at, events, "Home Castle reclaimed by its Character")
            pennants.place(state, at, seat, n, events, "Home Castle reclaimed by its Character")
            return
        home = pack().homes[character_of(state.players[seat])]
        pennants.place(state, at, seat, home.pennants, events, f"{home.name}: Add {home.pennants} Pennants")
