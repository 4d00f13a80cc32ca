"""Placing the tiles: 3.2-3.23 and the room rule."""
from __future__ import annotations

import random

import pytest

from shared.engine import MalformedAction, NotYourTurn, RuleViolation
from shared.hexgrid import distance
from shared.wizards.geometry import board, free_cells
from shared.wizards.pack import pack
from shared.wizards.placement import allowed_centers, placed_centers, tiles_to_place
from shared.wizards.world import world_for
from tests.wizards.scenario import ENGINE, config


def dealt(seats: int, rolls=None) -> dict:
    """Set-up up to the first placement: decks (identity shuffle), dealer roll, deal."""
    s = ENGINE.setup(config(seats))
    s, _ = ENGINE.apply_chance(s, [[1]] * len(s.chance["request"]["pools"]))
    rolls = rolls or [[6, 6]] + [[1, 1]] * (seats - 1)
    s, _ = ENGINE.apply_chance(s, rolls)
    s, _ = ENGINE.apply_chance(s, [[1]] * len(s.chance["request"]["pools"]))
    return s


def place_by_the_list(s, seat: int, rng: random.Random):
    """Take listed steps (tile, spot, turn) until a tile is placed; the state after it."""
    while True:
        s, events = ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat)))
        if any(e["type"] == "tile_placed" for e in events):
            return s


def chosen(s, seat: int, tile: str | None = None):
    """The state once the seat has chosen a tile (the first of his hand by default)."""
    s, _ = ENGINE.apply(s, seat, {"kind": "choose_tile", "tile": tile or s.tiles["hands"][seat][0]})
    return s


def first_tile_at(s: dict, seat: int, at, rotation: int = 0) -> dict:
    """The action placing the first tile of the seat's hand with its Center at `at`."""
    return {"kind": "place_tile", "tile": s.tiles["hands"][seat][0], "at": list(at), "rotation": rotation}


def test_tiles_dealt_clockwise_from_the_dealers_left_as_evenly_as_possible():
    """3.2: the high roller deals the tiles in a clockwise rotation, as evenly as possible."""
    s = dealt(4)
    assert s.dealer == 0
    hands = s.tiles["hands"]
    assert [len(h) for h in hands] == [4, 5, 5, 4]  # seats 1 and 2, left of the dealer, get the extra
    assert sorted(t for h in hands for t in h) == sorted(pack().tile_ids)
    assert "C1" in hands[1]  # the first card of the (identity) shuffle goes to the dealer's left


def test_placement_starts_left_of_the_dealer_and_goes_clockwise():
    """3.21: starting with the player on the dealer's left, one tile at a time, clockwise."""
    s = dealt(3, rolls=[[1, 1], [6, 6], [2, 2]])
    assert s.dealer == 1
    order = []
    rng = random.Random(3)
    while s.step == "place_tiles" and s.await_:
        seat = s.await_["seat"]
        order.append(seat)
        s = place_by_the_list(s, seat, rng)
    assert order == [2, 0, 1] * 6
    assert tiles_to_place(s) == 0


def test_a_player_places_only_his_own_tiles():
    """3.21: players place the tiles that they possess."""
    s = dealt(2)
    seat = s.await_["seat"]
    other = s.tiles["hands"][1 - seat][0]
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(s, seat, {"kind": "place_tile", "tile": other, "at": list(board().centers[0]), "rotation": 0})
    assert e.value.rule == "3.21"
    with pytest.raises(NotYourTurn):
        ENGINE.apply(s, 1 - seat, {"kind": "place_tile", "tile": other, "at": list(board().centers[0]), "rotation": 0})


def test_every_tile_hex_covers_a_board_hex():
    """3.22: each hexagon on the tile must FULLY COVER one Game Board Water hexagon."""
    s = dealt(2)
    seat = s.await_["seat"]
    tile = s.tiles["hands"][seat][0]
    edge = board().order[0]  # the board's corner: the tile would hang off
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(s, seat, {"kind": "place_tile", "tile": tile, "at": list(edge), "rotation": 0})
    assert e.value.rule == "3.22"


def test_tiles_may_not_overlap():
    """3.22: tiles may not be placed such that they overlap each other."""
    s = dealt(2)
    seat = s.await_["seat"]
    c = board().cells[5]
    s, _ = ENGINE.apply(s, seat, first_tile_at(s, seat, c))
    other = s.await_["seat"]
    near = next(h for h in board().centers if 0 < distance(h, c) <= 4)
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(s, other, first_tile_at(s, other, near, rotation=3))
    assert e.value.rule == "3.22"
    spots = [a for a in ENGINE.legal_actions(chosen(s, other), other) if a["kind"] == "choose_spot"]
    assert spots and all(distance(tuple(a["at"]), c) > 4 for a in spots)


def test_any_position_and_any_of_six_orientations():
    """3.23: anywhere on the board, at any angle, terrain side up - chosen as a tile of his hand, then
    where its Center goes, then its turn; or all three at once."""
    s = dealt(2)
    seat = s.await_["seat"]
    hand = s.tiles["hands"][seat]
    assert ENGINE.legal_actions(s, seat) == [{"kind": "choose_tile", "tile": t} for t in hand]
    s1 = chosen(s, seat, hand[1])
    spots = [a for a in ENGINE.legal_actions(s1, seat) if a["kind"] == "choose_spot"]
    assert [tuple(a["at"]) for a in spots] == allowed_centers(s)
    assert s1.tiles["selected"] == {"tile": hand[1], "at": None} and ENGINE.view(s1, 1 - seat)["tiles"]["selected"]
    rng = random.Random(1)
    for spot in rng.sample(spots, 10):  # every listed spot and turn is accepted
        s2, _ = ENGINE.apply(s1, seat, spot)
        turns = [a for a in ENGINE.legal_actions(s2, seat) if a["kind"] == "place_tile"]
        assert [(a["tile"], a["at"], a["rotation"]) for a in turns] == [(hand[1], spot["at"], k) for k in range(6)]
        s3, _ = ENGINE.apply(s2, seat, rng.choice(turns))
        assert s3.tiles["placed"][-1]["tile"] == hand[1] and "selected" not in s3.tiles
    again, _ = ENGINE.apply(s2, seat, {"kind": "choose_tile", "tile": hand[0]})  # choosing again starts over
    assert again.tiles["selected"] == {"tile": hand[0], "at": None}
    with pytest.raises(RuleViolation):
        ENGINE.apply(s, seat, {"kind": "choose_spot", "at": spots[0]["at"]})  # a tile first
    with pytest.raises(MalformedAction):
        ENGINE.apply(s, seat, {"kind": "place_tile", "tile": hand[0], "at": spots[0]["at"], "rotation": 6})
    with pytest.raises(MalformedAction):
        ENGINE.apply(s, seat, {"kind": "place_tile", "tile": hand[0], "at": "here", "rotation": 0})
    direct, _ = ENGINE.apply(s, seat, {"kind": "place_tile", "tile": hand[0], "at": spots[0]["at"], "rotation": 2})
    assert direct.tiles["placed"][-1]["rotation"] == 2  # the three choices at once


def test_a_placement_must_leave_room_for_the_tiles_to_come():
    """3.21 (authored room rule): every tile must get placed, so a placement leaving fewer free
    reserve cells than tiles still to place is refused, and never listed."""
    s = dealt(2)
    b = board()
    while True:
        seat = s.await_["seat"]
        free = free_cells(placed_centers(s))
        if len(free) == tiles_to_place(s):
            break
        # Greedily waste room: the allowed centre touching the most free cells.
        best = max(allowed_centers(s), key=lambda c: (len(b.cells_hit[c] & free), c))
        s, _ = ENGINE.apply(s, seat, first_tile_at(s, seat, best))
    seat = s.await_["seat"]
    free = free_cells(placed_centers(s))
    wasteful = [c for c in b.centers if len(b.cells_hit[c] & free) >= 2
                and all(distance(c, p) > 4 for p in placed_centers(s))]
    assert wasteful, "expected an open centre touching two free cells"
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(s, seat, first_tile_at(s, seat, wasteful[0]))
    assert e.value.rule == "3.21"
    spots = [a for a in ENGINE.legal_actions(chosen(s, seat), seat) if a["kind"] == "choose_spot"]
    assert spots and all(len(b.cells_hit[tuple(a["at"])] & free) <= 1 for a in spots)
    rng = random.Random(0)  # and the set-up can always be finished
    while s.step == "place_tiles" and s.await_:
        seat = s.await_["seat"]
        s = place_by_the_list(s, seat, rng)
    assert tiles_to_place(s) == 0 and len(s.tiles["placed"]) == 18


def test_placement_lists_stay_short_with_the_largest_hand():
    """3.21-3.23 listed step by step: with a hand of nine tiles no step lists more than a few hundred
    actions (one list of every placement would hold some 25,000)."""
    s = dealt(2)
    seat = s.await_["seat"]
    assert len(s.tiles["hands"][seat]) == 9
    s1 = chosen(s, seat)
    spot = next(a for a in ENGINE.legal_actions(s1, seat) if a["kind"] == "choose_spot")
    s2, _ = ENGINE.apply(s1, seat, spot)
    sizes = [len(ENGINE.legal_actions(x, seat)) for x in (s, s1, s2)]
    assert sizes[0] == 9 and sizes[2] == 6 + 9 and max(sizes) <= 600


def test_each_listed_placement_has_its_own_values():
    """3.21-3.23 as legal actions: every placement is listed with its own [q, r], so a caller that changes one
    action (or keeps it after placing) changes no other action and no later listing."""
    s = dealt(3)
    seat = s.await_["seat"]
    s = chosen(s, seat)
    legal = [a for a in ENGINE.legal_actions(s, seat) if a["kind"] == "choose_spot"]
    ats = [a["at"] for a in legal]
    assert len({id(at) for at in ats}) == len(ats)
    before = [list(at) for at in ats]
    legal[0]["at"][0] += 100
    assert [a["at"] for a in legal[1:]] == before[1:]
    assert ENGINE.legal_actions(s, seat)[0]["at"] == before[0]
    s2, _ = ENGINE.apply(s, seat, ENGINE.legal_actions(s, seat)[0])
    s2, _ = ENGINE.apply(s2, seat, ENGINE.legal_actions(s2, seat)[0])
    s2.edit("tiles", "placed", 0, "at")[0] += 1  # nor is the placed tile's 'at' shared with a listing
    assert ENGINE.legal_actions(s, seat)[0]["at"] == before[0]


def test_a_client_sees_the_cells_a_chosen_tile_would_cover_before_placing_it():
    """3.21-3.23 previewed (Board.Query tile_cells): the 19 hexes of a tile of his hand at a spot and a
    turn, with their terrain, and whether the spot is open; another player's tile is not his to read."""
    s = dealt(2)
    seat = s.await_["seat"]
    tile = s.tiles["hands"][seat][0]
    spot = allowed_centers(s)[0]
    answer = ENGINE.query(s, seat, {"kind": "tile_cells", "tile": tile, "at": list(spot), "rotation": 2})
    assert answer["open"] and len(answer["cells"]) == 19
    terrain = {k: v["kind"] for k, v in pack().tiles[tile]["spaces"].items()}
    assert {c["label"]: c["kind"] for c in answer["cells"]} == terrain
    s2, _ = ENGINE.apply(s, seat, {"kind": "place_tile", "tile": tile, "at": list(spot), "rotation": 2})
    laid = world_for(s2)
    assert all(laid.hex_of[(tile, c["label"])] == tuple(c["at"]) for c in answer["cells"])
    other = s.tiles["hands"][1 - seat][0]
    with pytest.raises(MalformedAction):
        ENGINE.query(s, seat, {"kind": "tile_cells", "tile": other, "at": list(spot), "rotation": 0})
    blocked = ENGINE.query(s2, 1 - seat, {"kind": "tile_cells", "at": list(spot), "rotation": 0})
    assert not blocked["open"] and blocked["rule"] == "3.22" and "kind" not in blocked["cells"][0]
