"""Combat (Here's How to Do Battle; Battle Sequence; Defender's Special Pennant Power).

Stages of a battle task: `declare` (3 players, a missing Wizard's symbol: the attacker
names his opponent) -> `ready` (the attacker fights or transforms first) -> `roll`
(chance: both pools) -> `reroll` (the defender's home advantage) -> `reroll_roll`
(chance) -> resolved.

Readings (rules.json `battle` holds the authored values):
* The Battle Sequence is kept by the engine: transform, the King climbs and a Ramp token
  he lands on is taken, battle, then the token is acted on. Because the engine always
  moves the King, he is never 'forgotten', and the defender's right to call off a battle
  after a forgotten King can never arise, so it is not offered.
* Highest single die wins; ties look down the sorted dice; a side with a die left when
  the other has run out wins; a tie on every die goes to the defender.
* Re-rolls ('Re-roll 1 Die up to 2 more times, or re-roll 2 Dice'): 'single' re-rolls one
  chosen die again and again (the same die), 'multi' re-rolls up to N chosen dice once; the
  defender may stop at any time ('accept'). The same die, because with any die at each re-roll
  two re-rolls in a row would always be at least as good as two dice at once, and the 'or'
  would offer no choice.
* Victory: the victor places 1 Pennant (a Warrior beating a Skeleton places 2). A
  winning attacker first sends the defender's Pennants home; a symbol Token leaves the
  board after its battle.
"""
from __future__ import annotations

from itertools import combinations
from typing import Literal

from shared.engine import CHANCE, ChanceRequest, DicePool, Event, RuleViolation
from shared.engine.contract import Action
from shared.tower import pennants, tower
from shared.tower.pack import pack
from shared.tower.state import BattleTask, Dice, TowerState, character_of, playing
from shared.tower.tasks import Faces, Task, pop, push

BATTLE = "Here's How to Do Battle"
REROLL = "Defender's Special Pennant Power"


def start(state: TowerState, attacker: int, at: str, kind: Literal["castle", "symbol"], defender: int | None,
          events: list[Event]) -> None:
    push(state, {"task": "battle", "attacker": attacker, "defender": defender, "at": at, "kind": kind,
                 "stage": "declare" if defender is None else "ready", "ramp": None, "dice": None, "reroll": None})
    events.append({"type": "battle_started", "attacker": attacker, "defender": defender, "territory": at, "kind": kind})


def final_battle_under_way(state: TowerState) -> bool:
    """The King reached the Tower during this battle's transformation: 'wage the final
    battle before you count up your Pennants' (Winning the Game)."""
    if not state.ended or not state.tasks:
        return False
    top = state.tasks[-1]
    return top["task"] == "battle" and top["stage"] in ("roll", "reroll", "reroll_roll")


def dice_counts(attacker_character: str, defender_character: str) -> tuple[int, int]:
    """Combat Strength: how many dice each side rolls against that opponent."""
    table = pack().dice
    return table[attacker_character][defender_character], table[defender_character][attacker_character]


def winner(attacker_dice: list[int], defender_dice: list[int]) -> str:
    """'The player with the single highest Die wins the battle. In the case of a tie, look
    at the second highest (or the third, etc.)'."""
    a, d = sorted(attacker_dice, reverse=True), sorted(defender_dice, reverse=True)
    for x, y in zip(a, d):
        if x != y:
            return "attacker" if x > y else "defender"
    return "attacker" if len(a) > len(d) else "defender"


def defender_pennants(state: TowerState, task: BattleTask) -> int:
    """Pennants of the defender's colour on the Castle fought for: his re-roll power."""
    if task["kind"] != "castle" or task["defender"] is None:
        return 0
    wizard = state.players[task["defender"]]["wizard"]
    return pennants.count(state, task["at"]) if pennants.holder(state, task["at"]) == wizard else 0


def reroll_choices(state: TowerState, task: BattleTask) -> list[Action]:
    rr, dice = task["reroll"], task["dice"]
    assert rr is not None and dice is not None, "re-rolls come after the dice"
    n = len(dice["defender"])
    choices: list[Action] = [{"kind": "accept"}]
    if rr["die"] is not None:  # single mode under way: the same die again
        if rr["single"] > 0:
            choices.append({"kind": "reroll", "dice": [rr["die"]]})
        return choices
    if rr["single"] > 0:
        choices += [{"kind": "reroll", "dice": [i]} for i in range(n)]
    for size in range(2, min(rr["multi"], n) + 1):
        choices += [{"kind": "reroll", "dice": list(c)} for c in combinations(range(n), size)]
    return choices


def _defender(task: BattleTask) -> int:
    defender = task["defender"]
    assert defender is not None, "the defender is declared before the battle goes on"
    return defender


class Battle(Task[BattleTask]):
    kind = "battle"
    rule = BATTLE

    def actor(self, state: TowerState, task: BattleTask) -> int:
        stage = task["stage"]
        if stage in ("roll", "reroll_roll"):
            return CHANCE
        return _defender(task) if stage == "reroll" else task["attacker"]

    def legal(self, state: TowerState, task: BattleTask) -> list[Action]:
        stage = task["stage"]
        if stage == "declare":
            return [{"kind": "declare", "seat": s} for s in playing(state) if s != task["attacker"]]
        if stage == "ready":
            return [{"kind": "fight"}] + [{"kind": "transform", "pulls": k} for k in pack().pulls]
        if stage == "reroll":
            return reroll_choices(state, task)
        return []

    def refuse(self, state: TowerState, task: BattleTask, action: Action) -> RuleViolation:
        if task["stage"] == "reroll":
            return RuleViolation(REROLL, "re-rolls are limited by the Pennants on the Castle "
                                         f"({defender_pennants(state, task)}); see the listed choices")
        if task["stage"] == "declare":
            return RuleViolation("Variation - For 3 Players", "declare one of the other two players")
        return RuleViolation(BATTLE, f"{action.get('kind')!r} is not a choice at this point of the battle")

    def apply(self, state: TowerState, task: BattleTask, action: Action, events: list[Event]) -> None:
        kind = action["kind"]
        if kind == "declare":
            task["defender"] = action["seat"]
            task["stage"] = "ready"
            events.append({"type": "opponent_declared", "attacker": task["attacker"], "defender": action["seat"]})
        elif kind == "fight":
            task["stage"] = "roll"
        elif kind == "transform":
            # Battle Sequence: 1) transform; 2) move the King and take a Token; 3) battle; 4) act on the Token
            token = tower.transform(state, task["attacker"], action["pulls"], events, "attacker's transformation")
            if token is not None:
                task["ramp"] = token
                events.append({"type": "ramp_token_taken", "seat": task["attacker"], "step": state.king})
            task["stage"] = "roll"
        elif kind == "accept":
            self._resolve(state, task, events)
        elif kind == "reroll":
            rr = task["reroll"]
            assert rr is not None, "re-rolls come after the dice"
            if len(action["dice"]) == 1 and rr["single"] > 0:
                rr["die"] = action["dice"][0]
                rr["single"] -= 1
                rr["multi"] = 0
            else:
                rr["single"] = rr["multi"] = 0
            task["chosen"] = action["dice"]
            task["stage"] = "reroll_roll"

    def request(self, state: TowerState, task: BattleTask) -> ChanceRequest:
        faces = pack().die_faces
        if task["stage"] == "roll":
            a, d = self.counts(state, task)
            return ChanceRequest((DicePool("attacker's battle dice", a, faces),
                                  DicePool("defender's battle dice", d, faces)))
        return ChanceRequest((DicePool("defender's re-roll", len(task["chosen"]), faces),))

    def apply_chance(self, state: TowerState, task: BattleTask, outcome: Faces, events: list[Event]) -> None:
        if task["stage"] == "roll":
            rolled: Dice = {"attacker": [int(f) for f in outcome[0]], "defender": [int(f) for f in outcome[1]]}
            task["dice"] = rolled
            events.append({"type": "battle_dice", "attacker": task["attacker"], "defender": task["defender"],
                           "attacker_dice": rolled["attacker"], "defender_dice": rolled["defender"]})
            single, multi = pack().reroll_allowance(defender_pennants(state, task))
            if single or multi:
                task["reroll"] = {"single": single, "multi": multi, "die": None}
                task["stage"] = "reroll"
            else:
                self._resolve(state, task, events)
            return
        assert task["dice"] is not None and task["reroll"] is not None, "re-rolls come after the dice"
        dice = task["dice"]["defender"]
        old = [dice[i] for i in task["chosen"]]
        for i, face in zip(task["chosen"], outcome[0]):
            dice[i] = int(face)
        events.append({"type": "battle_reroll", "defender": task["defender"], "dice": task["chosen"], "was": old,
                       "now": list(outcome[0]), "defender_dice": list(dice)})
        del task["chosen"]
        if task["reroll"]["single"] > 0 and task["reroll"]["die"] is not None:
            task["stage"] = "reroll"
        else:
            self._resolve(state, task, events)

    def counts(self, state: TowerState, task: BattleTask) -> tuple[int, int]:
        players = state.players
        return dice_counts(character_of(players[task["attacker"]]), character_of(players[_defender(task)]))

    def _resolve(self, state: TowerState, task: BattleTask, events: list[Event]) -> None:
        pop(state, task)
        dice = task["dice"]
        assert dice is not None, "a battle is resolved after the dice"
        side = winner(dice["attacker"], dice["defender"])
        attacker, defender = task["attacker"], _defender(task)
        won, lost = (attacker, defender) if side == "attacker" else (defender, attacker)
        events.append({"type": "battle_won", "winner": won, "loser": lost, "side": side, "territory": task["at"],
                       "attacker_dice": dice["attacker"], "defender_dice": dice["defender"]})
        victory(state, task, side, events)


def walkover(state: TowerState, task: BattleTask, events: list[Event]) -> None:
    """The defender resigned before the battle was decided: it is not fought, and the
    attacker is its victor (resigning.py)."""
    pop(state, task)
    events.append({"type": "battle_walkover", "winner": task["attacker"], "loser": _defender(task),
                   "territory": task["at"]})
    victory(state, task, "attacker", events)


def victory(state: TowerState, task: BattleTask, side: str, events: list[Event]) -> None:
    """Victory: the victor's Pennants, the symbol token off the board, then the Ramp token."""
    attacker, defender = task["attacker"], _defender(task)
    won, lost = (attacker, defender) if side == "attacker" else (defender, attacker)
    players = state.players
    win_char, lose_char = character_of(players[won]), character_of(players[lost])
    n = pack().characters[win_char].victory_pennants.get(lose_char, pack().victory_pennants)
    at = task["at"]
    if task["kind"] == "symbol":
        square = state.edit("board", at)
        token = square["token"]["id"]
        square["token"] = None
        events.append({"type": "token_removed", "territory": at, "token": token})
    elif side == "attacker":
        pennants.send_home(state, at, events, "Castle lost in battle")
    pennants.place(state, at, won, n, events, "victor of the battle")
    # Battle Sequence 4: turn over the Ramp token and follow its orders
    if task["ramp"] is not None:
        push(state, {"task": "ramp", "seat": task["attacker"], "token": task["ramp"]})
