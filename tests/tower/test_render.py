"""Text for a terminal client: the board from a view, one line per event."""
from __future__ import annotations

import random

from shared.engine import CHANCE, MatchConfig
from shared.engine.playout import sample_chance
from shared.tower.pack import pack
from shared.tower.render import render, render_events
from tests.tower.scenario import E, act, at, blank, castle, ramp, roll, wizard

P = pack()


def test_board_shows_every_territory_the_players_and_the_ramp():
    """Render: the Wizard's Realm with its terrains, caves, rivers, Pennants, Characters and the King's step."""
    state = blank(4, {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"})
    at(state, 0, "thornwood")
    castle(state, "goldmeadow", None, wizard=wizard(state, 1), count=3, protected=True)
    text = render(E.view(state, 0), 0)
    for t in P.territories.values():
        assert t.name in text
    assert "blue x3" in text and "(P)" in text and "@Warrior/red" in text
    assert "step 0 of 18" in text and "<- you" in text and "Reedwater~" in text and "cave" in text
    assert "\x1b[" not in text and "\x1b[" in render(E.view(state, 0), 0, colour=True)


def test_board_never_shows_a_face_down_token():
    """Render draws from the view: face-down tokens are '[castle ?]' / '[spell ?]'."""
    state = blank(4, {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"})
    castle(state, "goldmeadow", "home:Ogre")
    text = render(E.view(state, None), None)
    assert "[castle ?]" in text and "Ogre's Hideout" not in text


def test_events_are_one_line_each_with_the_dice_shown():
    """Render events: battles show both rolls and re-rolls."""
    state = blank(4, {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"})
    at(state, 0, "thornwood")
    castle(state, "goldmeadow", None, wizard=wizard(state, 1), count=2)
    state, e1 = act(state, 0, {"kind": "move", "to": "goldmeadow", "path": [["walk", "goldmeadow"]]})
    state, e2 = act(state, 0, {"kind": "transform", "pulls": 1})
    state, e3 = roll(state, [6, 2, 2, 2], [1, 1, 3])
    state, e4 = act(state, 1, {"kind": "reroll", "dice": [0]})
    state, e5 = roll(state, [4])
    lines = render_events(e1 + e2 + e3 + e4 + e5)
    assert len(lines) == len(e1 + e2 + e3 + e4 + e5) and all("\n" not in line for line in lines)
    text = "\n".join(lines)
    assert "rolls 6 2 2 2 v seat 1 rolls 1 1 3" in text and "re-rolls 1 -> 4" in text
    assert "Warrior goes into the Tower" in text and "the Dragon comes out" in text


def test_every_state_and_event_of_a_game_renders():
    """Render works for every state and event a whole game produces, for seats and spectators."""
    rng = random.Random(4)
    state = E.setup(MatchConfig(seats=3))
    while True:
        who = E.actor(state)
        if who == -2:
            break
        if who == CHANCE:
            state, events = E.apply_chance(state, sample_chance(E.chance_request(state), rng))
        else:
            state, events = E.apply(state, who, rng.choice(E.legal_actions(state, who)))
        assert all(isinstance(line, str) and line for line in render_events(events))
        assert render(E.view(state, rng.choice([None, 0, 1, 2])), None)
    assert "Game over" in render(E.view(state, 0), 0)


def test_the_transport_turn_and_the_home_castle_choice_are_shown():
    """Render: the Spell of Transport's extra turn (fly or pass) and the Home Castle's take-back choice say what
    the seat may do, and their events read as one line each."""
    state = blank(4, {0: "Elf", 1: "Dwarf", 2: "Warrior", 3: "Orc"})
    at(state, 0, "goldmeadow")
    state.edit("board", "foggy-fen")["token"] = {"id": "spell:transport", "up": False}
    castle(state, "thornwood", "home:Elf", up=True, wizard=wizard(state, 2), count=4)
    flight, events = act(state, 0, {"kind": "move", "to": "foggy-fen", "path": [["walk", "foggy-fen"]]})
    assert "Spell of Transport - fly to any space" in render(E.view(flight, 0), 0)
    assert any("extra turn (flying)" in line for line in render_events(events))
    home, _ = act(state, 0, {"kind": "move", "to": "thornwood", "path": [["walk", "thornwood"]]})
    assert "take back your Home Castle" in render(E.view(home, 0), 0)
    _, events = act(home, 0, {"kind": "home", "choice": "leave"})
    assert render_events(events) == [f"Seat 0 leaves the {wizard(state, 2)} Pennants on its Home Castle in Thornwood",
                                     "Seat 1's turn"]


def test_battle_choices_show_the_dice_counts_and_the_odds():
    """Here's How to Do Battle 2: 'check their Character Cards under "Combat Strength" to see how many Dice they
    roll'; 3: 'If you ... don't like the difference in strength ... changing your Character in the Tower'. The
    labels of fight and transform say the dice each side rolls and the chance to win; a transformation's averaged
    over the Characters in the Tower, and where the King climbs."""
    state = blank(4, {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"})
    at(state, 0, "thornwood")
    castle(state, "goldmeadow", None, wizard=wizard(state, 1), count=2)
    ramp(state, {"1": "ramp:power2"})
    state, _ = act(state, 0, {"kind": "move", "to": "goldmeadow", "path": [["walk", "goldmeadow"]]})
    labels = {a["kind"] + str(a.get("pulls", "")): E.label(state, 0, a) for a in E.legal_actions(state, 0)}
    assert labels["fight"].startswith("Fight as the Warrior: your 5 dice against the Dwarf's 3; his 2 Pennants let"
                                      " him re-roll 1 die: you win ")
    assert labels["fight"].endswith("%")
    tower = "one of Dragon, Ogre, Minotaur, Skeleton comes out, rolling 3-4 dice against the Dwarf"
    assert tower in labels["transform1"]
    assert labels["transform2"].endswith("the King climbs to step 1, where a Ramp token waits")
    assert "fight as you are or transform first" in render(E.view(state, 0), 0)


def test_rerolls_name_their_faces_and_each_roll_is_printed_once():
    """Defender's Special Pennant Power: the re-roll choices name the faces they pick up; a battle's roll is printed
    once among the event lines (the result line does not repeat it), and again only beside the re-roll choice."""
    state = blank(4, {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"})
    at(state, 0, "thornwood")
    castle(state, "goldmeadow", None, wizard=wizard(state, 1), count=3)
    state, e1 = act(state, 0, {"kind": "move", "to": "goldmeadow", "path": [["walk", "goldmeadow"]]})
    state, e2 = act(state, 0, {"kind": "fight"})
    state, e3 = roll(state, [5, 4, 1, 1, 1], [3, 2, 1])
    labels = {tuple(a.get("dice", ())): E.label(state, 1, a) for a in E.legal_actions(state, 1)}
    assert labels[(2,)] == "Re-roll die 3 (showing 1)" and labels[(0, 2)] == "Re-roll dice 1, 3 (showing 3 and 1)"
    assert labels[()] == "Keep the dice: you lose the battle"
    assert "seat 1 holds 3 2 1 against 5 4 1 1 1" in render(E.view(state, 1), 1)
    state, e4 = act(state, 1, {"kind": "accept"})
    text = "\n".join(render_events(e1 + e2 + e3 + e4))
    assert text.count("5 4 1 1 1") == 1 and "Seat 0 wins the battle for Goldmeadow" in text
