"""How to Play 1-2, What to Do When You Land on Castle Tokens, Home Castles,
Tokens in Territories and on the Ramp."""
from __future__ import annotations

import pytest

from shared.engine import RuleViolation
from shared.tower.state import TowerState
from tests.tower.scenario import E, act, at, blank, castle, spell, top, types, wizard

CHARS = {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"}


def step(to: str) -> dict:
    return {"kind": "move", "to": to, "path": [["walk", to]]}


def game(seats: int = 4, chars=None) -> TowerState:
    state = blank(seats, chars or {s: c for s, c in CHARS.items() if s < seats})
    at(state, 0, "thornwood")  # Thornwood touches Goldmeadow and Eagle Spire
    return state


def test_own_wizard_symbol_adds_a_pennant_and_leaves_the_board():
    """How to Play 1: 'If it's your own Wizard's Token, remove the Token from the board, and add 1 Pennant
    to the Castle!'"""
    state = game()
    castle(state, "goldmeadow", f"symbol:{wizard(state, 0)}")
    new, events = act(state, 0, step("goldmeadow"))
    square = new.board["goldmeadow"]
    assert square["token"] is None and square["pennants"] == {"wizard": wizard(state, 0), "count": 1}
    assert new.players[0]["supply"] == 24
    assert "token_revealed" in types(events) and E.actor(new) == 1


def test_no_pennant_left_means_the_own_symbol_stays_face_up():
    """Equipment: 25 Pennants per colour - you cannot place what you do not have; a Token you cannot use
    stays face up (Tokens in Territories and on the Ramp)."""
    state = game()
    castle(state, "eagle-spire", None, wizard=wizard(state, 0), count=25)
    castle(state, "goldmeadow", f"symbol:{wizard(state, 0)}")
    new, _ = act(state, 0, step("goldmeadow"))
    assert new.board["goldmeadow"]["token"] == {"id": f"symbol:{wizard(state, 0)}", "up": True}
    assert new.board["goldmeadow"]["pennants"] is None


def test_another_wizards_symbol_means_battle_with_that_player():
    """How to Play 1: 'If it's another Wizard's Token, you MUST do battle with the player who is that Wizard.'"""
    state = game()
    castle(state, "goldmeadow", f"symbol:{wizard(state, 2)}")
    new, events = act(state, 0, step("goldmeadow"))
    battle = top(new)
    assert (battle["task"], battle["attacker"], battle["defender"], battle["kind"]) == ("battle", 0, 2, "symbol")
    assert E.legal_actions(new, 0)[0] == {"kind": "fight"}


def test_two_players_a_missing_wizards_symbol_means_battle_with_the_other_player():
    """Variation - For 2 Players, Game Play 1: 'If you land on a missing Wizard's power Token: You will
    battle the other player.'"""
    state = game(2)
    missing = state.removed["wizards"][0]
    castle(state, "goldmeadow", f"symbol:{missing}")
    new, _ = act(state, 0, step("goldmeadow"))
    assert (top(new)["task"], top(new)["defender"]) == ("battle", 1)


def test_three_players_declare_whom_to_fight_for_a_missing_wizards_symbol():
    """Variation - For 3 Players, Game Play 1: 'Declare which one of the other two Characters you will do
    combat with.'"""
    state = game(3)
    missing = state.removed["wizards"][0]
    castle(state, "goldmeadow", f"symbol:{missing}")
    new, _ = act(state, 0, step("goldmeadow"))
    assert top(new)["stage"] == "declare"
    assert E.legal_actions(new, 0) == [{"kind": "declare", "seat": 1}, {"kind": "declare", "seat": 2}]
    new, events = act(new, 0, {"kind": "declare", "seat": 2})
    assert top(new)["defender"] == 2 and top(new)["stage"] == "ready"


def test_own_home_castle_add_the_printed_pennants():
    """Home Castles: 'add the number of Pennants stated on that Token' - Warrior's Keep: Add 3 Pennants."""
    state = game()
    castle(state, "goldmeadow", "home:Warrior")
    new, _ = act(state, 0, step("goldmeadow"))
    assert E.legal_actions(new, 0) == [{"kind": "home", "choice": "again"}, {"kind": "home", "choice": "pennants"}]
    new, _ = act(new, 0, {"kind": "home", "choice": "pennants"})
    assert new.board["goldmeadow"]["pennants"]["count"] == 3
    assert new.board["goldmeadow"]["token"] == {"id": "home:Warrior", "up": True}, "the Token stays"
    assert E.actor(new) == 1, "'places 4 Pennants on that Castle, and ends his turn'"


def test_own_home_castle_or_go_again():
    """Home Castles: 'Warrior's Keep ... Add 3 Pennants or Go Again'."""
    state = game()
    castle(state, "goldmeadow", "home:Warrior")
    new, _ = act(state, 0, step("goldmeadow"))
    new, events = act(new, 0, {"kind": "home", "choice": "again"})
    assert new.board["goldmeadow"]["pennants"] is None
    assert E.actor(new) == 0 and top(new) == {"task": "move", "seat": 0, "extra": True}
    assert {"kind": "pass"} in E.legal_actions(new, 0)


def test_printed_pennants_are_clipped_to_the_supply():
    """Equipment: 25 per colour - a Home Castle adds what is left when fewer remain."""
    state = game()
    castle(state, "eagle-spire", None, wizard=wizard(state, 0), count=23)
    castle(state, "goldmeadow", "home:Warrior")
    new, _ = act(state, 0, step("goldmeadow"))
    new, events = act(new, 0, {"kind": "home", "choice": "pennants"})
    assert new.board["goldmeadow"]["pennants"]["count"] == 2 and new.players[0]["supply"] == 0


def test_another_characters_home_castle_turned_over_gives_another_turn():
    """Home Castles: 'If the Elf lands on the Ogre's Hideout, the Elf cannot place any Pennants on the Castle,
    nor does he attack it: instead, he takes another turn.'"""
    state = game(chars={0: "Elf", 1: "Dwarf", 2: "Warrior", 3: "Orc"})
    castle(state, "goldmeadow", "home:Ogre")
    new, events = act(state, 0, step("goldmeadow"))
    assert "extra_turn" in types(events) and new.board["goldmeadow"]["pennants"] is None
    assert E.actor(new) == 0 and top(new)["extra"] is True


def test_another_characters_home_castle_gives_another_turn_only_the_first_time():
    """Home Castles: 'The first time the Token is turned over, if it's not your Home Castle, you may take
    another turn instead.'"""
    state = game(chars={0: "Elf", 1: "Dwarf", 2: "Warrior", 3: "Orc"})
    castle(state, "goldmeadow", "home:Ogre", up=True)
    new, events = act(state, 0, step("goldmeadow"))
    assert "extra_turn" not in types(events) and E.actor(new) == 1


def test_own_home_castle_again_adds_no_more_pennants():
    """Home Castles: 'If you become that same Character again later ... you may NOT add more of your own Pennants'."""
    state = game()
    castle(state, "goldmeadow", "home:Warrior", up=True, wizard=wizard(state, 0), count=3)
    new, events = act(state, 0, step("goldmeadow"))
    assert new.board["goldmeadow"]["pennants"]["count"] == 3 and E.actor(new) == 1
    assert "home_castle_already_yours" in types(events)


def elf_camp_held_by_green(supply: int = 25) -> TowerState:
    """Seat 0, the Elf, lands on the Elf Camp (Thornwood) holding 4 of seat 2's Pennants."""
    state = game(chars={0: "Elf", 1: "Dwarf", 2: "Warrior", 3: "Orc"})
    at(state, 0, "goldmeadow")
    castle(state, "thornwood", "home:Elf", up=True, wizard=wizard(state, 2), count=4)
    if supply < 25:
        castle(state, "frostpeak", None, wizard=wizard(state, 0), count=25 - supply)
    new, events = act(state, 0, step("thornwood"))
    assert "battle_started" not in types(events), "Home Castles are never attacked"
    return new


def test_own_home_castle_held_by_another_colour_is_replaced_without_combat():
    """Home Castles: 'The Red Wizard's Elf Mover lands on the Elf camp that has 4 of the Green Wizard's
    Pennants. The Red Wizard player gives back the 4 green Pennants and replaces them with 4 of his own.'"""
    state = elf_camp_held_by_green()
    assert E.actor(state) == 0
    assert E.legal_actions(state, 0) == [{"kind": "home", "choice": "leave"}, {"kind": "home", "choice": "reclaim"}]
    new, events = act(state, 0, {"kind": "home", "choice": "reclaim"})
    assert new.board["thornwood"]["pennants"] == {"wizard": wizard(state, 0), "count": 4}
    assert new.players[2]["supply"] == 25 and new.players[0]["supply"] == 21
    assert "battle_started" not in types(events) and E.actor(new) == 1


def test_taking_back_your_home_castle_is_a_choice():
    """Home Castles: 'if another player's color Pennants are on it, you MAY remove them and replace them with
    your own color' - the player may also leave them where they are."""
    state = elf_camp_held_by_green()
    new, events = act(state, 0, {"kind": "home", "choice": "leave"})
    assert new.board["thornwood"]["pennants"] == {"wizard": wizard(state, 2), "count": 4}
    assert new.players[0]["supply"] == 25 and "home_castle_left" in types(events) and E.actor(new) == 1
    with pytest.raises(RuleViolation, match="Home Castles"):
        act(state, 0, {"kind": "home", "choice": "pennants"})


def test_taking_back_your_home_castle_is_clipped_to_the_supply():
    """Home Castles with Equipment (25 per colour): the replacement places what is left in the supply; with
    none left there is nothing to replace them with, so nothing is offered."""
    state = elf_camp_held_by_green(supply=2)
    new, _ = act(state, 0, {"kind": "home", "choice": "reclaim"})
    assert new.board["thornwood"]["pennants"] == {"wizard": wizard(state, 0), "count": 2}
    assert new.players[2]["supply"] == 25
    empty = elf_camp_held_by_green(supply=0)
    assert E.actor(empty) == 1 and empty.board["thornwood"]["pennants"]["wizard"] == wizard(state, 2)


def test_home_castles_are_never_attacked():
    """Combat: 'The only exception is when it's another Character's Home Castle, since these are never attacked.'"""
    state = game()
    castle(state, "goldmeadow", "home:Elf", up=True, wizard=wizard(state, 2), count=3)
    new, events = act(state, 0, step("goldmeadow"))
    assert "battle_started" not in types(events) and E.actor(new) == 1
    assert new.board["goldmeadow"]["pennants"]["wizard"] == wizard(state, 2)


def test_a_castle_with_another_players_pennants_means_battle():
    """How to Play 2: 'If you land on a Castle that already has another player's Pennants, you MUST do battle
    with that Character to determine Castle ownership.'"""
    state = game()
    castle(state, "goldmeadow", None, wizard=wizard(state, 3), count=2)
    new, _ = act(state, 0, step("goldmeadow"))
    assert (top(new)["task"], top(new)["defender"], top(new)["kind"]) == ("battle", 3, "castle")


def test_own_castle_is_no_battle():
    """How to Play 2: only another player's Pennants call for battle."""
    state = game()
    castle(state, "goldmeadow", None, wizard=wizard(state, 0), count=2)
    new, events = act(state, 0, step("goldmeadow"))
    assert "battle_started" not in types(events) and E.actor(new) == 1


def test_a_protected_castle_may_be_landed_on_but_not_attacked():
    """Spell of Protection: 'No other player may attack that Castle as long as this Token protects it.'
    Reading: landing there is allowed; no battle follows (tokens.py)."""
    state = game()
    castle(state, "goldmeadow", None, wizard=wizard(state, 3), count=2, protected=True)
    assert "goldmeadow" in {a.get("to") for a in E.legal_actions(state, 0)}
    new, events = act(state, 0, step("goldmeadow"))
    assert "castle_protected" in types(events) and "battle_started" not in types(events)
    assert new.board["goldmeadow"]["pennants"]["wizard"] == wizard(state, 3)


def test_a_token_that_cannot_be_used_stays_face_up_for_another_player():
    """Tokens in Territories and on the Ramp: 'If you uncover a Token on the board you cannot use immediately,
    leave it face up where you found it. Any player who can use this Token may claim it by landing on it'."""
    state = game()
    spell(state, "goldmeadow", "power")
    castle(state, "frostpeak", None, wizard=wizard(state, 1), count=1)
    new, events = act(state, 0, step("goldmeadow"))  # seat 0 has no Pennants: Power does him no good
    assert new.board["goldmeadow"]["token"] == {"id": "spell:power", "up": True}
    assert "token_left_face_up" in types(events)
    assert E.actor(new) == 1
    at(new, 0, "thornwood")  # seat 0 has walked on; seat 1 comes from Mossy Hollow, beside Goldmeadow
    at(new, 1, "mossy-hollow")
    new, _ = act(new, 1, step("goldmeadow"))
    assert E.actor(new) == 1 and top(new) == {"task": "spell", "seat": 1, "spell": "power", "source": "map"}
    new, _ = act(new, 1, {"kind": "power", "territory": "frostpeak"})
    assert new.board["frostpeak"]["pennants"]["count"] == 2 and new.board["goldmeadow"]["token"] is None
