"""Combat: Here's How to Do Battle, Battle Sequence, Defender's Special Pennant Power."""
from __future__ import annotations

import pytest

from shared.engine import CHANCE, TERMINAL, NotYourTurn, RuleViolation
from shared.tower.battle import winner
from shared.tower.pack import pack
from shared.tower.state import TowerState
from tests.tower.scenario import E, act, at, blank, castle, ramp, roll, same, top, types, wizard

P = pack()
CHARS = {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"}  # the Tower from the door: Dragon, Ogre, Minotaur, Skeleton
STEP = {"kind": "move", "to": "goldmeadow", "path": [["walk", "goldmeadow"]]}


def attack(defender_pennants: int = 1, chars=CHARS, defender: int = 1) -> TowerState:
    """Seat 0 (at Thornwood) lands on seat `defender`'s Castle on Goldmeadow."""
    state = blank(4, chars)
    at(state, 0, "thornwood")
    castle(state, "goldmeadow", None, wizard=wizard(state, defender), count=defender_pennants)
    state, _ = act(state, 0, STEP)
    assert top(state)["stage"] == "ready"
    return state


def fight(state: TowerState) -> TowerState:
    return act(state, 0, {"kind": "fight"})[0]


def test_dice_from_the_combat_strength_table():
    """Here's How to Do Battle 2: 'check their Character Cards under "Combat Strength" to see how many Dice they
    roll against that particular opponent' - the Warrior rolls 5 against the Dwarf's 3."""
    state = fight(attack())
    assert E.actor(state) == CHANCE
    pools = E.chance_request(state).pools
    assert [(p.count, p.faces) for p in pools] == [(5, (1, 2, 3, 4, 5, 6)), (3, (1, 2, 3, 4, 5, 6))]
    assert not E.chance_request(state).secret, "battle dice are seen by all"


@pytest.mark.parametrize("a,d,won", [
    ([6, 1], [5, 5], "attacker"),          # the single highest die
    ([6, 4, 1], [6, 3, 3], "attacker"),    # tie on the highest: look at the second
    ([6, 3], [6, 4], "defender"),
    ([5, 5, 2], [5, 5], "attacker"),       # all compared dice tie: a die left over wins
    ([4, 4], [4, 4, 1], "defender"),
    ([3, 2, 2], [2, 3, 2], "defender"),    # a tie on every die: the defender holds
])
def test_highest_die_wins_ties_look_further_down(a, d, won):
    """Combat 3 (Short Rules): 'The player with the single highest Die wins the battle. In the case of a tie,
    look at the second highest (or the third, etc.).' Authored: a full tie goes to the defender."""
    assert winner(a, d) == won


def test_attacker_who_wins_takes_the_castle_with_one_pennant():
    """How to Play 2: 'Place the winner's Pennants in the Castle'; authored (rules.json castle_victory): the
    defender's Pennants go home and the victor places 1."""
    state = fight(attack(defender_pennants=1))
    new, events = roll(state, [6, 1, 1, 1, 1], [5, 4, 3])
    assert new.board["goldmeadow"]["pennants"] == {"wizard": wizard(state, 0), "count": 1}
    assert new.players[1]["supply"] == 25 and E.actor(new) == 1


def test_defender_who_wins_keeps_the_castle_and_places_one_more():
    """How to Play 2: 'Place the winner's Pennants in the Castle' (authored reading: the victor places 1)."""
    state = fight(attack(defender_pennants=1))
    new, events = roll(state, [3, 1, 1, 1, 1], [5, 4, 3])
    assert new.board["goldmeadow"]["pennants"] == {"wizard": wizard(state, 1), "count": 2}


def test_full_tie_holds_for_the_defender():
    """Combat 3, authored (RULE-GAPS: a tie on every compared die): equal pools that tie everywhere - defender."""
    chars = {0: "Ogre", 1: "Warrior", 2: "Elf", 3: "Orc"}  # 4 dice each way
    state = fight(attack(chars=chars))
    assert [p.count for p in E.chance_request(state).pools] == [4, 4]
    new, events = roll(state, [5, 2, 2, 1], [2, 5, 1, 2])
    assert new.board["goldmeadow"]["pennants"]["wizard"] == wizard(state, 1)


def test_warrior_defeating_a_skeleton_places_two_pennants():
    """Characters and Character Cards: the Warrior is 'able to place 2 Pennants on a Castle when defeating a
    Skeleton'."""
    chars = {0: "Warrior", 1: "Skeleton", 2: "Elf", 3: "Orc"}
    state = fight(attack(chars=chars))
    assert [p.count for p in E.chance_request(state).pools] == [2, 5], "afraid of Skeletons: 2 dice v 5"
    new, _ = roll(state, [6, 6], [5, 5, 5, 5, 5])
    assert new.board["goldmeadow"]["pennants"] == {"wizard": wizard(state, 0), "count": 2}


def test_symbol_battle_victor_owns_the_castle_with_one_pennant():
    """How to Play 1: 'The victor takes ownership of that Castle and places 1 Pennant of his Wizard's color.'"""
    for attacker_roll, owner in (([6, 6, 6, 6, 6], 0), ([1, 1, 1, 1, 1], 1)):
        state = blank(4, CHARS)
        at(state, 0, "thornwood")
        castle(state, "goldmeadow", f"symbol:{wizard(state, 1)}")
        state, _ = act(state, 0, STEP)
        state = fight(state)
        new, _ = roll(state, attacker_roll, [5, 5, 5])
        assert new.board["goldmeadow"]["token"] is None
        assert new.board["goldmeadow"]["pennants"] == {"wizard": wizard(state, owner), "count": 1}


def test_attacker_may_transform_before_battle():
    """Attacker's Special Transformation Power: 'you have the option of changing your Character in the Tower
    before you battle' - into the empty chamber, 1 or 2 pulls, the one at the door comes out."""
    for pulls, becomes in ((1, "Dragon"), (2, "Ogre")):
        state = attack()
        new, events = act(state, 0, {"kind": "transform", "pulls": pulls})
        assert new.players[0]["character"] == becomes
        assert "Warrior" in new.tower["chambers"] and new.tower["chambers"][new.tower["door"]] is None
        assert new.king == 1, "move the Wizard pawn one step up the Ramp"
        assert [p.count for p in E.chance_request(new).pools] == [P.dice[becomes]["Dwarf"], P.dice["Dwarf"][becomes]]


def test_battle_sequence_transform_king_token_battle_then_token():
    """Battle Sequence: '1) Transform; 2) move Wizard pawn and take Token if there is one; 3) battle; then 4)
    turn over and act on the Token.'"""
    state = attack()
    ramp(state, {"1": "ramp:power2"})
    new, events = act(state, 0, {"kind": "transform", "pulls": 1})
    assert types(events) == ["transformed", "king_climbed", "ramp_token_taken"]
    assert new.ramp == {} and top(new)["ramp"] == "ramp:power2"
    assert E.view(new, 0)["tasks"][-1]["ramp"] == "W", "held W-side-up until after the battle"
    new, events = roll(new, [6, 6, 6, 6], [1, 1, 1])
    order = types(events)
    assert order.index("battle_won") < order.index("ramp_token_revealed")
    assert top(new)["spell"] == "power2" and E.actor(new) == 0


def test_the_king_is_always_moved_so_the_defender_never_calls_off():
    """Battle Sequence note: 'If the Attacker ... forgets to move the Wizard King ... the Defender has the choice
    of either calling off the battle'. The engine moves the King itself (battle.py), so after a transformation
    the dice come next and no call-off is ever offered; 'The Attacker may never call off a battle.'"""
    state = attack()
    assert {a["kind"] for a in E.legal_actions(state, 0)} == {"fight", "transform"}
    new, _ = act(state, 0, {"kind": "transform", "pulls": 1})
    assert new.king == state.king + 1 and E.actor(new) == CHANCE
    with pytest.raises(NotYourTurn):
        act(state, 1, {"kind": "fight"})


def test_no_transformation_once_the_dice_are_rolled():
    """Battle Sequence: the transformation comes before the battle."""
    state = fight(attack(defender_pennants=2))
    new, _ = roll(state, [1, 1, 1, 1, 1], [6, 6, 6])
    with pytest.raises(NotYourTurn):
        act(new, 0, {"kind": "transform", "pulls": 1})
    with pytest.raises(RuleViolation):
        act(new, 1, {"kind": "transform", "pulls": 1})


def test_one_pennant_gives_the_defender_no_reroll():
    """Defender's Special Pennant Power: '1 Pennant - No advantage: roll only once'."""
    state = fight(attack(defender_pennants=1))
    new, events = roll(state, [6, 1, 1, 1, 1], [1, 1, 1])
    assert "battle_won" in types(events)


def test_two_pennants_reroll_one_die():
    """Defender's Special Pennant Power: '2 Pennants - Re-roll 1 Die'."""
    state = fight(attack(defender_pennants=2))
    new, _ = roll(state, [5, 1, 1, 1, 1], [4, 2, 1])
    assert E.actor(new) == 1
    assert same(E.legal_actions(new, 1), [{"kind": "accept"}] + [{"kind": "reroll", "dice": [i]} for i in range(3)])
    with pytest.raises(RuleViolation, match="Pennant"):
        act(new, 1, {"kind": "reroll", "dice": [0, 1]})
    new, _ = act(new, 1, {"kind": "reroll", "dice": [2]})
    assert [p.count for p in E.chance_request(new).pools] == [1]
    new, events = roll(new, [6])
    assert events[0]["defender_dice"] == [4, 2, 6]
    assert new.board["goldmeadow"]["pennants"]["wizard"] == wizard(new, 1)


def test_three_pennants_reroll_one_die_twice_more_or_two_dice():
    """Defender's Special Pennant Power: '3 Pennants - Re-roll 1 Die up to 2 more times, or re-roll 2 Dice'."""
    state = fight(attack(defender_pennants=3))
    new, _ = roll(state, [5, 1, 1, 1, 1], [4, 2, 1])
    legal = E.legal_actions(new, 1)
    assert {"kind": "reroll", "dice": [0, 2]} in legal and not any(len(a.get("dice", [])) == 3 for a in legal)
    once, _ = act(new, 1, {"kind": "reroll", "dice": [1]})
    once, _ = roll(once, [3])
    assert same(E.legal_actions(once, 1), [{"kind": "accept"}, {"kind": "reroll", "dice": [1]}]), "the same die again"
    twice, _ = act(once, 1, {"kind": "reroll", "dice": [1]})
    twice, events = roll(twice, [2])
    assert "battle_won" in types(events), "two more times, then live or die by the roll"
    pair, _ = act(new, 1, {"kind": "reroll", "dice": [1, 2]})
    pair, events = roll(pair, [1, 1])
    assert "battle_won" in types(events), "two dice once"


@pytest.mark.parametrize("pennants,times", [(4, 3), (5, 4), (9, 4)])
def test_four_and_five_pennants(pennants, times):
    """Defender's Special Pennant Power: '4 Pennants - Re-roll 1 Die up to 3 more times, or re-roll 3 Dice;
    5 Pennants - up to 4 more times, or 4 Dice' (more than 5 count as 5)."""
    chars = {0: "Elf", 1: "Dragon", 2: "Warrior", 3: "Orc"}  # the Dragon defends with 5 dice v the Elf's 2
    state = fight(attack(defender_pennants=pennants, chars=chars))
    new, _ = roll(state, [6, 6], [1, 1, 1, 1, 1])
    biggest = max(len(a["dice"]) for a in E.legal_actions(new, 1) if a["kind"] == "reroll")
    assert biggest == times
    for _ in range(times):
        new, events = act(new, 1, {"kind": "reroll", "dice": [0]})
        new, events = roll(new, [1])
    assert "battle_won" in types(events)


def test_victory_pennants_are_clipped_to_the_supply():
    """Equipment: 25 per colour - a victor with no Pennants left places none; the Castle is lost all the same."""
    state = blank(4, CHARS)
    at(state, 0, "thornwood")
    castle(state, "frostpeak", None, wizard=wizard(state, 0), count=25)
    castle(state, "goldmeadow", None, wizard=wizard(state, 1), count=1)
    state, _ = act(state, 0, STEP)
    state = fight(state)
    new, _ = roll(state, [6, 6, 6, 6, 6], [1, 1, 1])
    assert new.board["goldmeadow"]["pennants"] is None and new.players[1]["supply"] == 25


def test_final_battle_when_the_king_reaches_the_tower():
    """Winning the Game: 'The game ends when the Wizard King makes the final step ... If game play calls for one
    final battle at this time ... wage the final battle before you count up your Pennants.'"""
    state = attack()
    state.king = P.ramp_steps
    new, events = act(state, 0, {"kind": "transform", "pulls": 1})
    assert new.ended and E.actor(new) == CHANCE
    new, events = roll(new, [6, 6, 6, 6], [1, 1, 1])
    assert E.actor(new) == TERMINAL and E.outcome(new) is not None
    assert E.outcome(new).scores[0] == 1 and E.outcome(new).winners == (0,)


def test_the_final_battle_keeps_the_defenders_rerolls():
    """Winning the Game: 'wage the final battle before you count up your Pennants' - the whole battle, the
    Defender's Special Pennant Power included, before the count."""
    state = attack(defender_pennants=2)
    state.king = P.ramp_steps
    new, _ = act(state, 0, {"kind": "transform", "pulls": 1})  # the Dragon: 4 dice v the Dwarf's 3
    new, events = roll(new, [6, 2, 2, 2], [5, 1, 1])
    assert E.actor(new) == 1 and E.outcome(new) is None, "the defender may still re-roll"
    new, _ = act(new, 1, {"kind": "reroll", "dice": [1]})
    new, events = roll(new, [6])
    assert E.actor(new) == TERMINAL and E.outcome(new).scores[1] == 3, "the defender held and placed one more"


def test_three_players_transform_then_fight_the_declared_opponent():
    """Variation - For 3 Players: '1. Declare which one of the other two Characters you will do combat with.
    2. ... enter the Tower and change yourself ... 3. If you changed, upon leaving the Tower, move the Wizard King
    pawn, then do battle with the Character you selected in Step #1.'"""
    state = blank(3, {0: "Warrior", 1: "Dwarf", 2: "Elf"})
    at(state, 0, "thornwood")
    castle(state, "goldmeadow", f"symbol:{state.removed['wizards'][0]}")
    state, _ = act(state, 0, STEP)
    assert {a["kind"] for a in E.legal_actions(state, 0)} == {"declare"}, "declare first, then the Tower"
    state, _ = act(state, 0, {"kind": "declare", "seat": 2})
    new, events = act(state, 0, {"kind": "transform", "pulls": 1})
    assert types(events)[:2] == ["transformed", "king_climbed"] and new.king == 1
    became = new.players[0]["character"]
    assert [p.count for p in E.chance_request(new).pools] == [P.dice[became]["Elf"], P.dice["Elf"][became]]
    new, _ = roll(new, [1] * P.dice[became]["Elf"], [6] * P.dice["Elf"][became])
    assert new.board["goldmeadow"]["pennants"] == {"wizard": wizard(new, 2), "count": 1}


def test_two_players_transform_then_fight_the_other_player():
    """Variation - For 2 Players: 'If you changed, upon leaving the Tower, move the Wizard King pawn, then do
    battle' with the other player, over a missing Wizard's power Token."""
    state = blank(2, {0: "Warrior", 1: "Dwarf"})
    at(state, 0, "thornwood")
    castle(state, "goldmeadow", f"symbol:{state.removed['wizards'][1]}")
    state, _ = act(state, 0, STEP)
    new, events = act(state, 0, {"kind": "transform", "pulls": 2})
    assert types(events)[:2] == ["transformed", "king_climbed"] and top(new)["defender"] == 1
    became = new.players[0]["character"]
    new, _ = roll(new, [6] * P.dice[became]["Dwarf"], [1] * P.dice["Dwarf"][became])
    assert new.board["goldmeadow"] == {"castle": True, "token": None, "protected": False,
                                          "pennants": {"wizard": wizard(new, 0), "count": 1}}


def test_warrior_defending_against_a_skeleton_places_two_pennants():
    """Characters and Character Cards: the Warrior places '2 Pennants on a Castle when defeating a Skeleton' -
    defending as well as attacking."""
    chars = {0: "Skeleton", 1: "Warrior", 2: "Elf", 3: "Orc"}
    state = fight(attack(chars=chars))
    assert [p.count for p in E.chance_request(state).pools] == [5, 2]
    new, _ = roll(state, [2, 2, 2, 1, 1], [6, 1])
    assert new.board["goldmeadow"]["pennants"] == {"wizard": wizard(state, 1), "count": 3}


def test_no_rerolls_in_a_battle_for_a_symbol():
    """Defender's Special Pennant Power: 'If you are defending a Castle with your color Pennants on it' - a
    Wizard's symbol Token has none, so the dice decide at once."""
    state = blank(4, CHARS)
    at(state, 0, "thornwood")
    castle(state, "goldmeadow", f"symbol:{wizard(state, 1)}")
    state, _ = act(state, 0, STEP)
    state = fight(state)
    new, events = roll(state, [6, 1, 1, 1, 1], [1, 1, 1])
    assert "battle_won" in types(events) and E.actor(new) == 1


def test_a_victor_with_no_pennants_left_leaves_the_castle_empty():
    """Equipment (25 per colour) with How to Play 1: the victor of a battle for a symbol 'places 1 Pennant' -
    with none left in his supply he places none; the Token is used all the same and the Castle stands empty
    (README, Pennant supply)."""
    state = blank(4, CHARS)
    at(state, 0, "thornwood")
    castle(state, "frostpeak", None, wizard=wizard(state, 0), count=25)
    castle(state, "goldmeadow", f"symbol:{wizard(state, 1)}")
    state, _ = act(state, 0, STEP)
    state = fight(state)
    new, events = roll(state, [6, 6, 6, 6, 6], [1, 1, 1])
    assert new.board["goldmeadow"]["token"] is None and new.board["goldmeadow"]["pennants"] is None
    placed = [e for e in events if e["type"] == "pennants_placed"][-1]
    assert (placed["wanted"], placed["count"]) == (1, 0)


def test_one_die_up_to_n_more_times_is_the_same_die():
    """Reading (battle.py): '3 Pennants - Re-roll 1 Die up to 2 more times, or re-roll 2 Dice'. 'Re-roll 1 Die up
    to 2 more times' is the one chosen die rolled again and again: were any die allowed each time, two re-rolls one
    after the other would always be at least as good as 're-roll 2 Dice' at once, and the rulebook's alternative
    would be no choice at all. So after the first re-roll only that die may be rolled again."""
    state = fight(attack(defender_pennants=3))
    new, _ = roll(state, [5, 4, 1, 1, 1], [4, 3, 1])
    once, _ = act(new, 1, {"kind": "reroll", "dice": [2]})
    once, _ = roll(once, [2])  # 4 3 2 still loses to 5 4 1 1 1; the 4 would be the die to try now, but it may not
    assert same(E.legal_actions(once, 1), [{"kind": "accept"}, {"kind": "reroll", "dice": [2]}])
    with pytest.raises(RuleViolation, match="Pennant"):
        act(once, 1, {"kind": "reroll", "dice": [1]})
