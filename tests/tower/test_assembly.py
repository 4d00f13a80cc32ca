"""Assembly and Setup, Variation - For 2 Players, Variation - For 3 Players."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from shared.engine import CHANCE, InvalidConfig, MatchConfig
from shared.engine.playout import sample_chance
from shared.tower.pack import pack
from shared.tower.state import TowerState
from tests.tower.scenario import E, first_faces

P = pack()


def set_up(seats: int, seed: int) -> tuple[dict, list]:
    rng = random.Random(seed)
    state = E.setup(MatchConfig(seats=seats))
    requests = []
    while E.actor(state) == CHANCE:
        request = E.chance_request(state)
        requests.append(request)
        state, _ = E.apply_chance(state, sample_chance(request, rng))
    E.check_invariants(state)
    return state, requests


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


def test_which_characters_and_wizards_leave_is_decided_by_chance():
    """Variations: 'Eliminate any 2 Characters' - the pick is a public chance step."""
    picks = {tuple(set_up(2, seed)[0].removed["characters"]) for seed in range(10)}
    assert len(picks) > 1
    state = E.setup(MatchConfig(seats=2))
    request = E.chance_request(state)
    assert not request.secret and any("Character" in p.purpose for p in request.pools)


def test_hidden_placements_are_secret_chance_and_the_rest_public():
    """Set up: tokens face down and the Tower's contents are hidden, so their shuffle is secret."""
    _, requests = set_up(4, 1)
    assert [r.secret for r in requests] == [False, True]
    assert any("Tower" in p.purpose for p in requests[1].pools)


@pytest.mark.parametrize("seats", [1, 5])
def test_two_to_four_players(seats):
    """Variation pages: the game is for 2, 3 or 4 players."""
    with pytest.raises(InvalidConfig):
        E.setup(MatchConfig(seats=seats))


def test_first_player_is_seat_zero_and_play_passes_left():
    """How to Play: 'Pick a player to go first. Play passes clockwise, to the left.'"""
    state = E.setup(MatchConfig(seats=3))
    while E.actor(state) == CHANCE:
        state, _ = E.apply_chance(state, first_faces(E.chance_request(state)))
    assert E.actor(state) == 0
    state, _ = E.apply(state, 0, E.legal_actions(state, 0)[0])
    while E.actor(state) != 1:
        who = E.actor(state)
        state, _ = E.apply(state, who, E.legal_actions(state, who)[0]) if who >= 0 else \
            E.apply_chance(state, first_faces(E.chance_request(state)))
    assert E.actor(state) == 1
