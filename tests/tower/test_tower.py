"""The Wizard's Tower - To Experience Its Power; The Wizard King's Ramp; Winning the Game; and the
authored Wizard King's patience."""
from __future__ import annotations

from shared.engine import TERMINAL
from shared.tower import tower
from shared.tower.pack import pack
from shared.tower.state import TowerState
from tests.tower.scenario import E, act, at, blank, castle, ramp, spell, types, wizard

P = pack()
CHARS = {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"}  # the Tower from the door: Dragon, Ogre, Minotaur, Skeleton


def test_the_ring_turns_one_chamber_per_pull():
    """The Wizard's Tower 2-4: into the empty chamber, 'pull the lever down once or twice (you decide)', the
    Character at the door comes out; the ring keeps its order, so what comes out depends on all that went before."""
    state = blank(4, CHARS)
    one = state.successor()
    tower.transform(one, 0, 1, [], "test")
    assert one.players[0]["character"] == "Dragon"
    assert one.tower["chambers"] == ["Warrior", None, "Ogre", "Minotaur", "Skeleton"]
    tower.transform(one, 0, 1, [], "test")
    assert one.players[0]["character"] == "Ogre", "the Dragon went in at the door; the next one comes out"
    two = state.successor()
    tower.transform(two, 0, 2, [], "test")
    assert two.players[0]["character"] == "Ogre"
    tower.transform(two, 1, 2, [], "test")
    assert two.players[1]["character"] == "Skeleton"
    for s in (one, two):
        E.check_invariants(s)


def test_every_transformation_moves_the_king_one_step():
    """The Wizard King's Ramp: 'moves up one step every time the Tower is used to change a Character'."""
    state = blank(4, CHARS)
    events: list = []
    for n in range(1, 4):
        tower.transform(state, n % 4, 1, events, "test")
        assert state.king == n and state.turn["quiet"] == 0
    assert types(events).count("king_climbed") == 3


def test_the_game_ends_when_the_king_steps_from_the_last_step_onto_the_tower():
    """Winning the Game: 'The game ends when the Wizard King makes the final step from the Ramp of Time onto the
    top of the Tower.' The Wizard with the most Pennants on his Castles wins."""
    state = blank(4, CHARS)
    at(state, 0, "thornwood")
    castle(state, "frostpeak", None, wizard=wizard(state, 2), count=5)
    castle(state, "grimstone", None, wizard=wizard(state, 0), count=3)
    spell(state, "goldmeadow", "transformation")
    state.king = P.ramp_steps - 1
    new, _ = act(state, 0, {"kind": "move", "to": "goldmeadow", "path": [["walk", "goldmeadow"]]})
    new, events = act(new, 0, {"kind": "transform_other", "seat": 1, "pulls": 1})
    assert new.king == P.ramp_steps and E.actor(new) != TERMINAL, "on the last step: not yet"
    new.edit("board", "eagle-spire")["token"] = {"id": "spell:transformation", "up": True}
    at(new, 1, "thornwood")
    new, _ = act(new, 1, {"kind": "move", "to": "eagle-spire", "path": [["walk", "eagle-spire"]]})
    new, events = act(new, 1, {"kind": "transform_other", "seat": 3, "pulls": 2})
    assert E.actor(new) == TERMINAL and E.outcome(new) is not None
    result = E.outcome(new)
    assert result.scores == (3, 0, 5, 0) and result.winners == (2,)
    assert E.legal_actions(new, 0) == []


def test_tied_scores_share_the_throne():
    """Winning the Game: 'The Wizard player with the most Pennants on all his Castles is the victor'; equal
    most share the win."""
    state = blank(2, {0: "Warrior", 1: "Elf"})
    castle(state, "frostpeak", None, wizard=wizard(state, 0), count=2)
    castle(state, "grimstone", None, wizard=wizard(state, 1), count=2)
    state.stage, state.tasks, state.king, state.ended = "over", [], P.ramp_steps + 1, True
    assert E.outcome(state).winners == (0, 1) and "tie" in E.outcome(state).summary


def play_turns(state: TowerState, n: int) -> tuple[TowerState, list]:
    """n turns in which nobody transforms: each seat walks to its first listed destination."""
    events: list = []
    for _ in range(n):
        seat = E.actor(state)
        state, ev = act(state, seat, E.legal_actions(state, seat)[0])
        events += ev
    return state, events


def test_the_king_climbs_on_his_own_after_six_quiet_rounds_and_the_ramp_token_is_kept():
    """Authored (rules.json king_patience, RULE-GAPS 'keep the game playable'), a safety net under 'This is the
    game's timer': after 6 rounds of turns without a climb the King climbs a step. The Ramp token on that step is
    not thrown away ('All Ramp Tokens must be used immediately; if one can't be used, it is removed from the
    game'): the seat whose turn it was takes it and uses it, then play goes on."""
    assert P.king_patience == 6
    state = blank(4, CHARS)
    castle(state, "frostpeak", None, wizard=wizard(state, 3), count=2)
    ramp(state, {"1": "ramp:power2", "5": "ramp:conquer"})
    wait = P.king_patience * 4
    new, events = play_turns(state, wait - 1)
    assert new.king == 0 and new.turn["quiet"] == wait - 1
    last = E.actor(new)
    assert last == 3
    new, events = play_turns(new, 1)
    climbed = [e for e in events if e["type"] == "king_climbed"]
    assert new.king == 1 and climbed[0]["cause"] == "patience" and new.turn["quiet"] == 0
    assert {"type": "ramp_token_taken", "seat": 3, "step": 1} in events
    assert "ramp_token_lost" not in types(events) and new.ramp == {"5": "ramp:conquer"}
    assert E.actor(new) == 3 and E.legal_actions(new, 3) == [{"kind": "power", "territory": "frostpeak"}]
    new, events = act(new, 3, {"kind": "power", "territory": "frostpeak"})
    assert new.board["frostpeak"]["pennants"]["count"] == 4
    assert E.actor(new) == 0 and "turn_started" in types(events), "then the next seat's turn, as usual"
    assert new.turn["quiet"] == 0 and new.turn["played"] == wait


def test_a_ramp_token_the_patience_climb_finds_unusable_leaves_the_game():
    """Tokens in Territories and on the Ramp: 'if one can't be used, it is removed from the game' - Spell of Power
    (Ramp) with no Pennants on the board."""
    state = blank(2, {0: "Warrior", 1: "Dwarf"})
    ramp(state, {"1": "ramp:power2"})
    new, events = play_turns(state, P.king_patience * 2)
    assert new.king == 1 and "ramp_token_discarded" in types(events) and new.ramp == {}
    assert E.actor(new) == 0


def test_the_kings_patience_is_counted_in_rounds_whatever_the_number_of_players():
    """Authored king_patience: 6 rounds are 12 turns with 2 players, 18 with 3."""
    for seats, chars in ((2, {0: "Warrior", 1: "Dwarf"}), (3, {0: "Warrior", 1: "Dwarf", 2: "Elf"})):
        new, _ = play_turns(blank(seats, chars), P.king_patience * seats - 1)
        assert new.king == 0
        new, _ = play_turns(new, 1)
        assert new.king == 1


def test_extra_turns_count_for_the_kings_patience():
    """Home Castles: 'you may take another turn instead'. Every turn, taken or passed, extra ones too, counts for
    the authored patience, so no chain of extra turns (a Home Castle's 'Go Again' again and again) holds the
    clock back."""
    state = blank(4, {0: "Elf", 1: "Dwarf", 2: "Warrior", 3: "Orc"})
    at(state, 0, "thornwood")
    castle(state, "goldmeadow", "home:Ogre")
    castle(state, "eagle-spire", "home:Minotaur")
    state.turn["quiet"] = 5
    new, _ = act(state, 0, {"kind": "move", "to": "goldmeadow", "path": [["walk", "goldmeadow"]]})
    assert new.turn["quiet"] == 6 and E.actor(new) == 0, "the regular turn counts; the extra turn is next"
    passed, events = act(new, 0, {"kind": "pass"})
    assert passed.turn["quiet"] == 7 and E.actor(passed) == 1 and "passed" in types(events)
    taken, _ = act(new, 0, {"kind": "move", "to": "foggy-fen", "path": [["walk", "foggy-fen"]]})
    assert taken.turn["quiet"] == 7 and E.actor(taken) == 1


def test_a_transformation_resets_the_kings_patience():
    """The Wizard King's Ramp: a transformation moves the King, so the waiting starts again."""
    state = blank(4, CHARS)
    new, _ = play_turns(state, 5)
    tower.transform(new, 0, 1, [], "test")
    assert new.turn["quiet"] == 0
    new, _ = play_turns(new, P.king_patience * 4 - 1)
    assert new.king == 1
