"""Assembly and Setup, Variation - For 2 Players, Variation - For 3 Players."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from shared.engine import CHANCE, InvalidConfig, MatchConfig, RuleViolation
from shared.engine.playout import sample_chance
from shared.tower.actions import describe
from shared.tower.pack import pack
from shared.tower.policy import choose
from shared.tower.state import TowerState
from tests.tower.scenario import E, act, first_faces, roll

P = pack()


def set_up(seats: int, seed: int, mode: str = "choose") -> tuple[TowerState, list]:
    """Set-up to the first move: chance steps sampled, the seats' choices made at random."""
    rng = random.Random(seed)
    state = E.setup(MatchConfig(seats=seats, options={"setup": mode}))
    requests = []
    while state.stage != "play":
        who = E.actor(state)
        if who == CHANCE:
            request = E.chance_request(state)
            requests.append(request)
            state, _ = E.apply_chance(state, sample_chance(request, rng))
        else:
            state, _ = E.apply(state, who, rng.choice(E.legal_actions(state, who)))
        E.check_invariants(state)
    return state, requests


def first_player(seats: int, seat: int, mode: str = "choose") -> TowerState:
    """Set-up just after 'Pick a player to go first' picked `seat`."""
    state = E.setup(MatchConfig(seats=seats, options={"setup": mode}))
    request = E.chance_request(state)
    assert len(request.pools) == 1 and request.pools[0].faces == tuple(range(seats))
    state, _ = roll(state, [seat])
    return state


def tokens(state: TowerState) -> Counter:
    return Counter(sq["token"]["id"].split(":")[0] for sq in state.board.values() if sq["token"])


@pytest.mark.parametrize("seats,castles", [(4, 24), (3, 23), (2, 22)])
def test_castle_count_per_player_count(seats, castles):
    """Set up the Game 1 / Variations: 24 Castles; 'playing with 23' for 3; '22' for 2."""
    for seed in range(3):
        state, _ = set_up(seats, seed)
        assert sum(sq["castle"] for sq in state.board.values()) == castles
        assert tokens(state)["home"] + tokens(state)["symbol"] == castles


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_castle_tokens_go_on_their_own_terrain_colour(seats):
    """Set up the Game 1: 'green Tokens go in the tree-filled Forests, tan on the Plains...'"""
    state, _ = set_up(seats, 7)
    for t, sq in state.board.items():
        if sq["token"] and sq["castle"]:
            kind, name = sq["token"]["id"].split(":")
            terrain = P.territories[t].terrain
            assert name in [x.split(":")[1] for x in P.castle_tokens_of(terrain)]
            if kind == "home":
                assert P.homes[name].terrain == terrain


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_fifteen_spells_face_down_in_the_remaining_territories(seats):
    """Set up the Game 1: '15 Spell Tokens ... place them in the 15 remaining territories, blank-side-up'."""
    state, _ = set_up(seats, 11)
    spells = [sq for sq in state.board.values() if sq["token"] and sq["token"]["id"].startswith("spell:")]
    assert len(spells) == 15 and not any(sq["castle"] for sq in spells)
    assert all(not sq["token"]["up"] for sq in state.board.values() if sq["token"])


def test_ramp_tokens_on_six_random_steps_spaced_out():
    """Set up the Game 1: 6 'W' tokens 'randomly on any 6 of the Ramp stones (It's more fun if you space
    them out)': one on a random step of each of the Ramp's 6 stretches."""
    seen = set()
    for seed in range(10):
        state, _ = set_up(4, seed)
        steps = sorted(int(s) for s in state.ramp)
        stretch = P.ramp_steps // 6
        assert [(s - 1) // stretch for s in steps] == list(range(6))
        assert sorted(state.ramp.values()) == sorted(P.ramp_tokens())
        seen.add(tuple(steps))
    assert len(seen) > 1, "the steps are random"


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_tower_holds_four_hidden_characters_and_the_empty_chamber_at_the_door(seats):
    """Characters and Character Cards 5-6: 4 inside 'and the empty chamber is at the door'; the
    others dealt one per player."""
    state, _ = set_up(seats, 5)
    chambers = state.tower["chambers"]
    assert len(chambers) == 5 and chambers[state.tower["door"]] is None
    assert sum(c is not None for c in chambers) == 4
    held = [p["character"] for p in state.players]
    assert len(set(held)) == seats and all(h is not None for h in held)
    assert all(p["at"] == "rocky" for p in state.players), "Movers start round the Tower"


def test_deal_and_tower_are_random():
    """Characters 6: 'Shuffle the outside Character Cards, and deal one face down to each player'."""
    deals = {tuple(p["character"] for p in set_up(4, seed)[0].players) for seed in range(8)}
    assert len(deals) > 1


def test_three_players_remove_one_character_with_its_home_castle_and_one_wizard():
    """Variation - For 3 Players: 'Eliminate any 1 Character completely ... and its Home Castle Token';
    'Eliminate one Wizard ... Leave this Wizard's power Tokens in play'."""
    state, _ = set_up(3, 4)
    gone, absent = state.removed["characters"], state.removed["wizards"]
    assert len(gone) == 1 and len(absent) == 1
    ids = [sq["token"]["id"] for sq in state.board.values() if sq["token"]]
    assert f"home:{gone[0]}" not in ids
    assert Counter(i for i in ids if i.startswith("symbol:"))[f"symbol:{absent[0]}"] == 4
    assert absent[0] not in [p["wizard"] for p in state.players]
    everyone = [p["character"] for p in state.players] + [c for c in state.tower["chambers"] if c]
    assert gone[0] not in everyone and len(everyone) == 7


def test_two_players_remove_two_characters_and_two_wizards_symbols_stay():
    """Variation - For 2 Players: 'Eliminate any 2 Characters completely'; 'Eliminate any 2 Wizards ...
    Leave the Tokens that have the Wizards' power symbols on them'."""
    state, _ = set_up(2, 9)
    gone, absent = state.removed["characters"], state.removed["wizards"]
    assert len(set(gone)) == 2 and len(set(absent)) == 2
    ids = [sq["token"]["id"] for sq in state.board.values() if sq["token"]]
    assert Counter(i for i in ids if i.startswith("symbol:")) == {f"symbol:{w}": 4 for w in P.wizard_ids}
    assert not {f"home:{c}" for c in gone} & set(ids)


def test_the_first_player_is_picked_by_a_public_draw_among_the_seats():
    """Set up the Game 7: 'Pick a player to go first. Play passes clockwise, to the left.' The pick is a chance
    step, public, a draw with one face per seat, made first; that seat makes the first move."""
    request = E.chance_request(E.setup(MatchConfig(seats=3)))
    assert not request.secret and request.pools[0].purpose.startswith("Pick a player to go first")
    firsts = {set_up(3, seed)[0].turn["regular"] for seed in range(12)}
    assert firsts == {0, 1, 2}, "any seat may go first"
    for seed in range(4):
        state, _ = set_up(3, seed)
        first = state.turn["regular"]
        assert E.actor(state) == first
        assert state.setup["order"] == [(first - 1) % 3, (first - 2) % 3, first]


def test_two_players_eliminate_two_characters_and_two_wizards_and_select_their_wizards():
    """Variation - For 2 Players: 'Eliminate any 2 Characters completely'; 'Eliminate any 2 Wizards'; 'Each
    player selects one of the remaining Wizards'. The seats choose in turn, the first player last."""
    state = first_player(2, 0)
    assert E.actor(state) == 1, "the set-up choices start with the last player"
    legal = E.legal_actions(state, 1)
    assert {a["character"] for a in legal} == set(P.character_names)
    assert describe({"kind": "eliminate_character", "character": "Ogre"}) == \
        "Eliminate the Ogre from the game, with its Home Castle (Ogre's Hideout)"
    state, events = act(state, 1, {"kind": "eliminate_character", "character": "Dragon"})
    assert events == [{"type": "character_eliminated", "seat": 1, "character": "Dragon"}]
    assert E.actor(state) == 0 and {"kind": "eliminate_character", "character": "Dragon"} not in \
        E.legal_actions(state, 0)
    state, _ = act(state, 0, {"kind": "eliminate_character", "character": "Orc"})
    assert E.actor(state) == 1 and {a["kind"] for a in E.legal_actions(state, 1)} == {"eliminate_wizard"}
    state, _ = act(state, 1, {"kind": "eliminate_wizard", "wizard": "fire"})
    state, _ = act(state, 0, {"kind": "eliminate_wizard", "wizard": "earth"})
    assert E.actor(state) == 1
    assert E.legal_actions(state, 1) == [{"kind": "select_wizard", "wizard": "air"},
                                         {"kind": "select_wizard", "wizard": "water"}]
    state, events = act(state, 1, {"kind": "select_wizard", "wizard": "air"})
    assert [e["type"] for e in events] == ["wizard_selected", "wizard_selected"] and events[1]["last"]
    assert [p["wizard"] for p in state.players] == ["water", "air"]
    assert state.removed == {"characters": ["Dragon", "Orc"], "wizards": ["earth", "fire"]}
    assert E.actor(state) == CHANCE and state.stage == "sites"
    while E.actor(state) == CHANCE:
        state, _ = roll(state, *first_faces(E.chance_request(state)))
    assert E.actor(state) == 0 and state.stage == "play"
    ids = [sq["token"]["id"] for sq in state.board.values() if sq["token"]]
    assert "home:Dragon" not in ids and "home:Orc" not in ids and ids.count("symbol:fire") == 4
    held = [p["character"] for p in state.players] + [c for c in state.tower["chambers"] if c]
    assert "Dragon" not in held and "Orc" not in held


def test_three_players_eliminate_one_character_and_one_wizard_in_turn():
    """Variation - For 3 Players: 'Eliminate any 1 Character'; 'Eliminate one Wizard Card'; 'Each player selects
    one Wizard Card'. The choices go round from the last player; each seat selects once."""
    state = first_player(3, 1)
    assert state.setup["order"] == [0, 2, 1]
    state, _ = act(state, 0, {"kind": "eliminate_character", "character": "Elf"})
    assert E.actor(state) == 2
    state, _ = act(state, 2, {"kind": "eliminate_wizard", "wizard": "water"})
    assert E.actor(state) == 0 and len(E.legal_actions(state, 0)) == 3
    state, _ = act(state, 0, {"kind": "select_wizard", "wizard": "air"})
    state, _ = act(state, 2, {"kind": "select_wizard", "wizard": "fire"})
    assert [p["wizard"] for p in state.players] == ["air", "earth", "fire"] and state.stage == "sites"


def test_four_players_select_their_wizards():
    """The 4 Wizards and Their Pennants: 'Whichever Wizard Card you select, that's the Wizard you'll be'; with 4
    players nothing is eliminated, each seat selects, the last takes the Wizard left."""
    state = first_player(4, 2)
    assert E.actor(state) == 1 and {a["kind"] for a in E.legal_actions(state, 1)} == {"select_wizard"}
    for seat, wizard in ((1, "air"), (0, "earth"), (3, "fire")):
        state, _ = act(state, seat, {"kind": "select_wizard", "wizard": wizard})
    assert [p["wizard"] for p in state.players] == ["earth", "air", "water", "fire"]


def test_a_set_up_choice_must_be_one_still_open():
    """Variation - For 2 Players: a Character already eliminated, or a Wizard before the Characters are done, is
    not a choice; every seat other than the one choosing is refused."""
    state = first_player(2, 0)
    state, _ = act(state, 1, {"kind": "eliminate_character", "character": "Dragon"})
    for action in ({"kind": "eliminate_character", "character": "Dragon"},
                   {"kind": "eliminate_wizard", "wizard": "fire"}):
        with pytest.raises(RuleViolation, match="Variation - For 2 Players"):
            E.apply(state, 0, action)


def test_chance_decides_the_set_up_choices_when_the_match_asks_for_it():
    """Quick games: the match option {"setup": "chance"} lets a public chance step make the eliminations and deal
    the Wizards left to the seats, in no fixed order."""
    picks, deals = set(), set()
    for seed in range(12):
        state, requests = set_up(2, seed, "chance")
        assert [r.secret for r in requests] == [False, False, False, True]
        picks.add(tuple(state.removed["characters"]))
        deals.add(tuple(p["wizard"] for p in state.players))
    assert len(picks) > 1 and len(deals) > 1
    four = {tuple(p["wizard"] for p in set_up(4, seed, "chance")[0].players) for seed in range(8)}
    assert len(four) > 1, "with 4 players too the Wizards are dealt, not handed out in pack order"
    with pytest.raises(InvalidConfig):
        E.setup(MatchConfig(seats=2, options={"setup": "negotiate"}))
    with pytest.raises(InvalidConfig):
        E.setup(MatchConfig(seats=2, options={"colours": "mine"}))


def test_the_ai_makes_the_set_up_choices():
    """The AI seat eliminates a Character whose fights are lopsided (the Orc, whom every other Character outrolls)
    and selects a Wizard; every choice it makes is legal."""
    state = first_player(2, 0)
    pick = choose(E.view(state, 1), 1, E.legal_actions(state, 1), random.Random(0))
    assert pick == {"kind": "eliminate_character", "character": "Orc"}
    state, _ = act(state, 1, pick)
    assert choose(E.view(state, 0), 0, E.legal_actions(state, 0), random.Random(0)) == \
        {"kind": "eliminate_character", "character": "Dragon"}


def test_hidden_placements_are_secret_chance_and_the_rest_public():
    """Set up: tokens face down and the Tower's contents are hidden, so their shuffle is secret."""
    _, requests = set_up(4, 1)
    assert [r.secret for r in requests] == [False, False, True]
    assert any("Tower" in p.purpose for p in requests[2].pools)


@pytest.mark.parametrize("seats", [1, 5])
def test_two_to_four_players(seats):
    """Variation pages: the game is for 2, 3 or 4 players."""
    with pytest.raises(InvalidConfig):
        E.setup(MatchConfig(seats=seats))


def test_play_passes_left_from_the_first_player():
    """How to Play: 'Pick a player to go first. Play passes clockwise, to the left.'"""
    state = first_player(3, 2, "chance")
    while E.actor(state) == CHANCE:
        state, _ = E.apply_chance(state, first_faces(E.chance_request(state)))
    assert E.actor(state) == 2
    state, _ = E.apply(state, 2, E.legal_actions(state, 2)[0])
    while E.actor(state) != 0:
        who = E.actor(state)
        state, _ = E.apply(state, who, E.legal_actions(state, who)[0]) if who >= 0 else \
            E.apply_chance(state, first_faces(E.chance_request(state)))
    assert E.actor(state) == 0
