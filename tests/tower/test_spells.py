"""The Powers of the Spell Tokens on the Map and on the Ramp."""
from __future__ import annotations

import pytest

from shared.engine import RuleViolation
from shared.tower.pack import pack
from shared.tower.state import TowerState
from tests.tower.scenario import E, act, at, blank, castle, ramp, roll, spell, top, types, wizard

P = pack()
CHARS = {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"}  # the Tower: Dragon, Ogre, Minotaur, Skeleton


def step(to: str) -> dict:
    return {"kind": "move", "to": to, "path": [["walk", to]]}


def game() -> TowerState:
    state = blank(4, CHARS)
    at(state, 0, "thornwood")
    return state


def cast_map_spell(state: TowerState, name: str) -> tuple[TowerState, list]:
    spell(state, "goldmeadow", name)
    return act(state, 0, step("goldmeadow"))


# --- map spells --------------------------------------------------------------------------
def test_revelation_turns_over_two_tokens_and_goes_again():
    """Spell of Revelation: 'Turn over any 2 additional Tokens and go again.'"""
    state = game()
    castle(state, "eagle-spire", f"symbol:{wizard(state, 0)}")
    castle(state, "grimstone", "home:Dwarf")
    spell(state, "owlwood", "transport")
    new, events = cast_map_spell(state, "revelation")
    assert top(new)["spell"] == "revelation"
    assert {a["territory"] for a in E.legal_actions(new, 0)} == {"eagle-spire", "grimstone", "owlwood"}
    new, _ = act(new, 0, {"kind": "reveal", "territory": "eagle-spire"})
    assert new.board["eagle-spire"]["token"]["up"] and E.actor(new) == 0
    new, events = act(new, 0, {"kind": "reveal", "territory": "owlwood"})
    assert new.board["owlwood"]["token"]["up"] and not new.board["grimstone"]["token"]["up"]
    assert new.board["goldmeadow"]["token"] is None, "used: removed from the board"
    assert top(new) == {"task": "move", "seat": 0, "extra": True}


def test_revelation_tokens_may_be_used_if_reached():
    """Spell of Revelation: 'You may use either token you revealed if you can reach it and if you can make
    use of it.'"""
    state = game()
    castle(state, "foggy-fen", f"symbol:{wizard(state, 0)}")
    new, _ = cast_map_spell(state, "revelation")
    new, _ = act(new, 0, {"kind": "reveal", "territory": "foggy-fen"})  # the only face-down token left
    assert top(new)["extra"] is True
    new, _ = act(new, 0, step("foggy-fen"))
    assert new.board["foggy-fen"]["pennants"]["count"] == 1


def test_revelation_with_nothing_face_down_stays_face_up():
    """Tokens in Territories: a Token you cannot use stays face up; Revelation needs tokens to turn over."""
    state = game()
    new, events = cast_map_spell(state, "revelation")
    assert new.board["goldmeadow"]["token"] == {"id": "spell:revelation", "up": True} and E.actor(new) == 1


def test_transformation_changes_another_players_character_who_moves_the_king():
    """Spell of Transformation: 'Take another player's Character ... and change it in the Tower.' 'The player
    with the newly-changed Character now moves the Wizard King one space up the Ramp.'"""
    state = game()
    new, _ = cast_map_spell(state, "transformation")
    legal = E.legal_actions(new, 0)
    assert {(a["seat"], a["pulls"]) for a in legal} == {(s, k) for s in (1, 2, 3) for k in (1, 2)}
    new, events = act(new, 0, {"kind": "transform_other", "seat": 2, "pulls": 2})
    assert new.players[2]["character"] == "Ogre"  # the ring from the door: Dragon, Ogre, ...
    assert new.players[2]["at"] == state.players[2]["at"], "put back in the location marked"
    assert new.king == 1 and "Elf" in new.tower["chambers"]


def test_transformation_target_acts_on_the_ramp_token():
    """Spell of Transformation: 'If he lands on a Ramp Token, the newly-changed character acts on its
    instructions.'"""
    state = game()
    castle(state, "frostpeak", None, wizard=wizard(state, 2), count=1)
    ramp(state, {"1": "ramp:power2"})
    new, _ = cast_map_spell(state, "transformation")
    new, events = act(new, 0, {"kind": "transform_other", "seat": 2, "pulls": 1})
    assert "ramp_token_revealed" in types(events)
    assert E.actor(new) == 2 and top(new)["spell"] == "power2"
    new, _ = act(new, 2, {"kind": "power", "territory": "frostpeak"})
    assert new.board["frostpeak"]["pennants"]["count"] == 3 and E.actor(new) == 1


def test_protection_goes_beside_a_castle_with_your_pennants():
    """Spell of Protection: 'Place next to a Castle with one or more of your own Pennants.'"""
    state = game()
    castle(state, "frostpeak", None, wizard=wizard(state, 0), count=2)
    castle(state, "grimstone", None, wizard=wizard(state, 1), count=2)
    new, _ = cast_map_spell(state, "protection")
    assert E.legal_actions(new, 0) == [{"kind": "protect", "territory": "frostpeak"}]
    with pytest.raises(RuleViolation, match="Spell of Protection"):
        act(new, 0, {"kind": "protect", "territory": "grimstone"})
    new, _ = act(new, 0, {"kind": "protect", "territory": "frostpeak"})
    assert new.board["frostpeak"]["protected"] and new.board["goldmeadow"]["token"] is None


def test_protection_not_on_home_castles_nor_twice():
    """Spell of Protection: 'MAY NOT be placed on the same space with a Home Castle or on any space that
    already has a Spell of Protection on it.'; with no such Castle it stays face up."""
    state = game()
    castle(state, "frostpeak", None, wizard=wizard(state, 0), count=2, protected=True)
    castle(state, "grimstone", "home:Warrior", up=True, wizard=wizard(state, 0), count=3)
    new, events = cast_map_spell(state, "protection")
    assert new.board["goldmeadow"]["token"] == {"id": "spell:protection", "up": True}
    assert "token_left_face_up" in types(events)


def test_protection_without_pennants_stays_face_up():
    """Spell of Protection: 'If you have no Pennants on the board, you may not use this Token; leave it face
    up on the space until another player lands on it.'"""
    new, _ = cast_map_spell(game(), "protection")
    assert new.board["goldmeadow"]["token"]["up"] and E.actor(new) == 1


def test_move_a_protection_from_one_castle_to_another():
    """Move a Spell of Protection: 'Take any Spell of Protection Token and move it from one Castle to
    another.' Once placed it moves only so (Spell of Protection)."""
    state = game()
    castle(state, "frostpeak", None, wizard=wizard(state, 1), count=2, protected=True)
    castle(state, "grimstone", None, wizard=wizard(state, 0), count=1)
    castle(state, "stormhorn", "home:Dwarf", up=True, wizard=wizard(state, 1), count=3)
    new, _ = cast_map_spell(state, "move_protection")
    assert E.legal_actions(new, 0) == [{"kind": "move_protection", "from": "frostpeak", "to": "grimstone"}]
    new, _ = act(new, 0, {"kind": "move_protection", "from": "frostpeak", "to": "grimstone"})
    assert new.board["grimstone"]["protected"] and not new.board["frostpeak"]["protected"]


def test_move_a_protection_needs_a_protection_on_the_board():
    """Tokens in Territories: with no Protection to move the Token stays face up."""
    new, _ = cast_map_spell(game(), "move_protection")
    assert new.board["goldmeadow"]["token"]["up"]


def test_transport_flies_anywhere_and_regular_rules_apply():
    """Spell of Transport: 'take another turn by flying to any space of your choice ... you may do battle if
    you land on a Castle already controlled by another player.'"""
    state = game()
    at(state, 1, "raven-tor")
    castle(state, "greyfang", None, wizard=wizard(state, 1), count=1)
    new, events = cast_map_spell(state, "transport")
    assert new.board["goldmeadow"]["token"] is None, "used: removed from the board"
    assert top(new) == {"task": "flight", "seat": 0} and E.actor(new) == 0
    assert [e for e in events if e["type"] == "turn_started"][-1] == {"type": "turn_started", "seat": 0,
                                                                      "extra": True, "by": "fly"}
    legal = E.legal_actions(new, 0)
    dests = {a["to"] for a in legal if a["kind"] == "fly"}
    assert dests == set(P.territory_ids) - {"goldmeadow", "raven-tor"}
    assert {"kind": "pass"} in legal and all(E.action_domain(a) == "board" for a in legal)
    with pytest.raises(RuleViolation, match="Spell of Transport"):
        act(new, 0, {"kind": "fly", "to": "raven-tor"})
    new, events = act(new, 0, {"kind": "fly", "to": "greyfang"})
    assert new.players[0]["at"] == "greyfang" and top(new)["task"] == "battle"


def test_transport_is_another_turn_that_may_be_passed():
    """Spell of Transport: 'This Token allows you to take another turn by flying' - an extra turn, which like
    every extra turn may be passed (turns.py); like every turn it counts for the King's patience."""
    state = game()
    state.turn["quiet"] = 3
    new, _ = cast_map_spell(state, "transport")
    assert new.turn["quiet"] == 4, "the regular turn that found the token counts"
    passed, events = act(new, 0, {"kind": "pass"})
    assert passed.players[0]["at"] == "goldmeadow" and E.actor(passed) == 1
    assert passed.turn["quiet"] == 5 and "passed" in types(events)
    with pytest.raises(RuleViolation):
        act(new, 0, {"kind": "move", "to": "foggy-fen", "path": [["walk", "foggy-fen"]]})


def test_power_adds_one_pennant_even_to_a_protected_castle():
    """Spell of Power: 'Add 1 Pennant to one of your Castles ...' 'You may add a Pennant to a Castle
    protected by a Spell of Protection.'"""
    state = game()
    castle(state, "frostpeak", None, wizard=wizard(state, 0), count=2, protected=True)
    new, _ = cast_map_spell(state, "power")
    new, _ = act(new, 0, {"kind": "power", "territory": "frostpeak"})
    assert new.board["frostpeak"]["pennants"]["count"] == 3


def test_power_without_pennants_stays_face_up():
    """Spell of Power: 'If you have no Pennants yet, this does you no good; leave the Token face up.'"""
    new, events = cast_map_spell(game(), "power")
    assert new.board["goldmeadow"]["token"]["up"] and "token_left_face_up" in types(events)


# --- Ramp spells, reached through the Battle Sequence --------------------------------------------
def battle_then(state: TowerState, token: str) -> tuple[TowerState, list]:
    """Seat 0 attacks seat 1's Castle on Goldmeadow, transforms (King to step 1, which holds `token`),
    wins the battle, then turns the Ramp token over."""
    castle(state, "goldmeadow", None, wizard=wizard(state, 1), count=1)
    ramp(state, {"1": token})
    state, _ = act(state, 0, step("goldmeadow"))
    state, _ = act(state, 0, {"kind": "transform", "pulls": 1})  # becomes the Dragon: 4 dice v the Dwarf's 3
    return roll(state, [6, 6, 6, 6], [1, 1, 1])


def test_conquer_a_castle_replaces_all_pennants():
    """Conquer a Castle: 'Replace all Pennants on another's Castle with your own.'"""
    state = game()
    castle(state, "frostpeak", None, wizard=wizard(state, 2), count=4)
    castle(state, "grimstone", None, wizard=wizard(state, 3), count=2, protected=True)
    castle(state, "stormhorn", "home:Elf", up=True, wizard=wizard(state, 2), count=3)
    new, events = battle_then(state, "ramp:conquer")
    assert E.legal_actions(new, 0) == [{"kind": "conquer", "territory": "frostpeak"}], \
        "not protected Castles nor Home Castles (reading in spells.py)"
    new, _ = act(new, 0, {"kind": "conquer", "territory": "frostpeak"})
    assert new.board["frostpeak"]["pennants"] == {"wizard": wizard(state, 0), "count": 4}
    assert new.players[2]["supply"] == 25 - 3


def test_conquer_a_castle_with_nothing_to_conquer_leaves_the_game():
    """Conquer a Castle: 'If no one else has any yet, you cannot use this Token. Remove it from the game.'"""
    new, events = battle_then(game(), "ramp:conquer")
    assert "ramp_token_discarded" in types(events) and E.actor(new) == 1


def test_self_transformation_transforms_and_moves_the_king_again():
    """Spell of Self-Transformation: 'Go to the Tower and transform yourself. Move the Wizard King pawn again.'"""
    new, _ = battle_then(game(), "ramp:self_transformation")
    assert E.legal_actions(new, 0) == [{"kind": "transform", "pulls": 1}, {"kind": "transform", "pulls": 2}]
    before = new.players[0]["character"]
    new, events = act(new, 0, {"kind": "transform", "pulls": 2})
    assert new.players[0]["character"] != before and new.king == 2


def test_ramp_power_adds_two_pennants():
    """Spell of Power (Ramp): 'Add 2 Pennants to a Castle that already has at least one.'"""
    new, _ = battle_then(game(), "ramp:power2")  # the battle won seat 0 one Pennant on Goldmeadow
    new, _ = act(new, 0, {"kind": "power", "territory": "goldmeadow"})
    assert new.board["goldmeadow"]["pennants"]["count"] == 3


def test_ramp_power_without_pennants_leaves_the_game():
    """Spell of Power (Ramp): 'If you don't have any yet, you may not make use of this Token. Remove it.'"""
    state = game()
    castle(state, "goldmeadow", None, wizard=wizard(state, 1), count=1)
    ramp(state, {"1": "ramp:power2"})
    state, _ = act(state, 0, step("goldmeadow"))
    state, _ = act(state, 0, {"kind": "transform", "pulls": 1})
    new, events = roll(state, [1, 1, 1, 1], [6, 6, 6])  # the attack fails: still no Pennants
    assert "ramp_token_discarded" in types(events) and "ramp:power2" not in new.ramp.values()


def test_ramp_protection_on_a_castle_of_your_choice():
    """Spell of Protection (Ramp): 'Place the Token next to a Castle of your choice to protect it from attack.'"""
    state = game()
    castle(state, "frostpeak", None, wizard=wizard(state, 2), count=4)
    new, _ = battle_then(state, "ramp:protection")
    assert {a["territory"] for a in E.legal_actions(new, 0)} == {"frostpeak", "goldmeadow"}
    new, _ = act(new, 0, {"kind": "protect", "territory": "goldmeadow"})
    assert new.board["goldmeadow"]["protected"]


@pytest.mark.parametrize("token,terrains", [("ramp:transport_swamp_forest", {"Swamp", "Forest"}),
                                            ("ramp:transport_mountain_plain", {"Mountains", "Plains"})])
def test_ramp_transport_to_its_two_terrains(token, terrains):
    """Spell of Transport - Swamp or Forest / Mountain or Plain: 'Move to a Swamp or Forest of your choice.
    All regular rules apply, including Combat.'"""
    state = game()
    new, _ = battle_then(state, token)
    dests = {a["to"] for a in E.legal_actions(new, 0)}
    assert dests and all(P.territories[t].terrain in terrains for t in dests)
    assert dests == {t for t in P.territory_ids if P.territories[t].terrain in terrains} - {
        p["at"] for p in new.players}
    assert {"kind": "pass"} not in E.legal_actions(new, 0), "'All Ramp Tokens must be used immediately'"
    target = sorted(dests)[0]
    castle(new, target, None, wizard=wizard(state, 3), count=1)
    new, _ = act(new, 0, {"kind": "fly", "to": target})
    assert top(new)["task"] == "battle" and top(new)["defender"] == 3


def test_revelation_never_turns_over_ramp_tokens():
    """Spell of Revelation: 'Turn over any 2 additional Tokens ... You may use either token you revealed if you can
    reach it.' Reading (spells.py): only map tokens can be reached, so Ramp tokens stay W side up on their steps
    until the King takes them (The Wizard King's Ramp)."""
    state = game()
    castle(state, "eagle-spire", f"symbol:{wizard(state, 0)}")
    ramp(state, {"2": "ramp:conquer", "5": "ramp:power2"})
    new, _ = cast_map_spell(state, "revelation")
    assert E.legal_actions(new, 0) == [{"kind": "reveal", "territory": "eagle-spire"}]
    for bad in ("2", "5", "ramp"):
        with pytest.raises(RuleViolation, match="Spell of Revelation"):
            act(new, 0, {"kind": "reveal", "territory": bad})
    new, events = act(new, 0, {"kind": "reveal", "territory": "eagle-spire"})
    assert new.ramp == {"2": "ramp:conquer", "5": "ramp:power2"}
    assert E.view(new, 0)["ramp"] == {"2": "W", "5": "W"}
    assert not any(e.get("token", "").startswith("ramp:") for e in events)


def test_self_transformation_that_finds_another_ramp_token_acts_on_it_too():
    """Spell of Self-Transformation: 'transform yourself. Move the Wizard King pawn again.' A King who lands on
    another Ramp token hands it to the one who transformed (The Wizard King's Ramp), to be used at once."""
    new, _ = battle_then(game(), "ramp:self_transformation")
    new.edit("ramp")["2"] = "ramp:power2"  # the next step holds another Ramp token
    new, events = act(new, 0, {"kind": "transform", "pulls": 1})
    assert new.king == 2 and "ramp_token_revealed" in types(events) and new.ramp == {}
    assert top(new)["spell"] == "power2" and E.actor(new) == 0


def test_conquer_a_castle_is_clipped_to_the_supply():
    """Conquer a Castle with Equipment (25 per colour): all the other colour's Pennants go home and the conqueror
    puts on as many of his own as he has left."""
    state = game()
    castle(state, "frostpeak", None, wizard=wizard(state, 2), count=4)
    castle(state, "grimstone", None, wizard=wizard(state, 0), count=23)
    new, _ = battle_then(state, "ramp:conquer")  # the battle puts seat 0's last Pennant but one on Goldmeadow
    assert new.players[0]["supply"] == 1
    new, _ = act(new, 0, {"kind": "conquer", "territory": "frostpeak"})
    assert new.board["frostpeak"]["pennants"] == {"wizard": wizard(state, 0), "count": 1}
    assert new.players[2]["supply"] == 25


def test_ramp_tokens_must_be_used_at_once():
    """Tokens in Territories and on the Ramp: 'All Ramp Tokens must be used immediately' - no pass, no
    putting off; the seat who holds it chooses only among its uses."""
    state = game()
    castle(state, "frostpeak", None, wizard=wizard(state, 2), count=4)
    new, _ = battle_then(state, "ramp:protection")
    assert all(a["kind"] == "protect" for a in E.legal_actions(new, 0))
    with pytest.raises(RuleViolation):
        act(new, 0, {"kind": "pass"})


def test_conquer_a_castle_never_takes_a_protected_castle():
    """Reading (spells.py): Spell of Protection: 'No other player may attack that Castle as long as this Token
    protects it'; the Ramp's: 'to protect it from attack'. Conquer a Castle seizes another's Castle without a
    battle, the strongest attack there is; the one thing the rulebook allows on a protected Castle is named: 'You
    may add a Pennant to a Castle protected by a Spell of Protection' (Spell of Power). With only protected
    Castles to take, the token cannot be used and leaves the game."""
    state = game()
    castle(state, "grimstone", None, wizard=wizard(state, 3), count=2, protected=True)
    new, events = battle_then(state, "ramp:conquer")
    assert "ramp_token_discarded" in types(events)
    assert new.board["grimstone"]["pennants"] == {"wizard": wizard(state, 3), "count": 2}


def test_ramp_protection_only_on_a_castle_with_pennants():
    """Reading (spells.py): Spell of Protection (Ramp): 'Place the Token next to a Castle of your choice to protect
    it from attack' - any Castle someone holds, another's included; never one without Pennants: nobody holds it, so
    there is nothing to protect, and a face-down token there may be a Home Castle, where a Protection 'MAY NOT be
    placed' (Home Castles: 'Home Castles may NOT have Spell of Protection Tokens placed on them')."""
    state = game()
    castle(state, "frostpeak", None, wizard=wizard(state, 2), count=4)
    castle(state, "grimstone", "home:Ogre")  # face down, no Pennants
    castle(state, "stormhorn")  # empty
    new, _ = battle_then(state, "ramp:protection")
    assert {a["territory"] for a in E.legal_actions(new, 0)} == {"frostpeak", "goldmeadow"}
