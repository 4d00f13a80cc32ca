"""The Movement Segment, section 6, with the movement rules of afflictions (7.3043, 7.3051),
animals (8.43-8.46), movement spells (11.21) and the Star Crest (7.37-7.3721)."""
from __future__ import annotations

import pytest

from shared.engine import MalformedAction, RuleViolation
from shared.hexgrid import distance, neighbours
from shared.wizards import movement
from shared.wizards.boats import water_distances
from shared.wizards.world import world_for
from tests.wizards.scenario import (
    ENGINE,
    animal,
    build,
    chance,
    end,
    hex_of,
    hold_task,
    move,
    moves,
    roll,
    solo,
    wizard_marker,
)


def over(ev):
    """The movement ended: the turn is over (with one player, his next turn has begun) or
    the encounters of the space are being resolved."""
    return any(e["type"] in ("turn_begins", "encounter_due") for e in ev)


def walks(st, seat=0):
    return {to: c for (by, to), c in moves(st, seat).items() if by == "walk"}


def test_terrain_costs():
    """6: PLAINS 1, WOODS 2, MOUNTAINS 2."""
    st = roll(solo("C5", "Center"), 1)
    w = world_for(st)
    one = walks(st)
    assert set(one) == {n for n in neighbours(hex_of(st, "C5", "Center")) if w.kind(n) == "plains"}
    assert all(c == 1 for c in one.values())
    st = roll(solo("C5", "Center"), 2)
    assert walks(st)[hex_of(st, "C5", "A3")] == 2  # woods
    st = roll(solo("C6", "A1"), 2)  # Hillshire: A2 mountains
    assert walks(st)[hex_of(st, "C6", "A2")] == 2


def test_walking_costs_add_up_along_the_cheapest_path():
    """6: points are spent space by space; a move may stop with points left and go on."""
    st = roll(solo("C5", "Center"), 4)
    to = hex_of(st, "C5", "B1")  # plains two steps east over A1 plains
    assert walks(st)[to] == 2
    st, ev = move(st, 0, "walk", to)
    assert st.turn["mp"] == 2 and st.await_["for"] == "move"
    assert all(c <= 2 for c in walks(st).values())


@pytest.mark.parametrize("where,prepare", [
    (("C5", "Center"), None),
    (("C5", "Center"), animal("horse")),  # 8.45: the Horse's points, and the spaces it shies from
    (("E6", "C2"), lambda s: s.boats.append({"id": 9, "at": [0, 15], "rider": None})),  # a Boat as a bridge
])
def test_the_walk_search_gives_each_listed_walk_and_a_route_to_it(where, prepare):
    """6: the one search behind the walks listed and the board queries' paths: the first way it settles
    into a space is the walk listed there, at that cost, and the links back from it enter one neighbouring
    space at a time, never through a Wall, the cost rising all the way."""
    st = roll(solo(*where, prepare=prepare), 6)
    w = world_for(st)
    m = movement.mover(st, 0)
    reached = movement.walk_search(st, w, m)
    first: dict = {}
    for node, (cost, _) in reached.items():
        first.setdefault(node[0], (node, cost))
    assert {h: cost for h, (_, cost) in first.items() if h != m.at} == walks(st)
    for h, (node, cost) in first.items():
        hexes = [m.at] + [n[0] for n in movement.route(reached, node)]
        assert hexes[-1] == h and all(distance(a, b) == 1 and not w.wall_between(a, b)
                                      for a, b in zip(hexes, hexes[1:]))
        costs = [0] + [reached[n][0] for n in movement.route(reached, node)]
        assert costs == sorted(set(costs)) and costs[-1] == cost


def test_towns_and_dwellings_end_movement_with_a_specific_encounter():
    """6 TOWNS and DWELLINGS: on entering, movement ends and a Specific Encounter results (7.2)."""
    st = roll(solo("C5", "A3"), 6, red=1)
    town = hex_of(st, "C5", "B3")
    assert walks(st)[town] == 1
    st, ev = move(st, 0, "walk", town)
    assert over(ev)
    due = next(e for e in ev if e["type"] == "encounter_due")
    assert due["specific"] == [{"kind": "common_folk"}] and due["random"] is False  # 7.1


def test_special_spaces_end_movement():
    """6 SPECIAL SPACES: a Master Sorcerer's Tower Center, Hamdrel's Cottage, the Lair, High Hollow."""
    st = roll(solo("M4", "A1"), 6)
    tower = hex_of(st, "M4", "Center")
    st, ev = move(st, 0, "walk", tower)
    assert over(ev)
    assert next(e for e in ev if e["type"] == "encounter_due")["specific"] == [{"kind": "master_sorcerer"}]
    st = roll(solo("M3", "C3"), 6)
    hollow = hex_of(st, "M3", "B4")
    assert walks(st)[hollow] == 1
    st2, ev = move(st, 0, "walk", hollow)
    assert over(ev)
    assert next(e for e in ev if e["type"] == "encounter_due")["specific"] == [{"kind": "high_hollow"}]


def test_walls_are_impassable_on_foot():
    """6 WALLS: impassable for players that aren't flying or transporting (Torwall's walls)."""
    st = roll(solo("C1", "A1"), 1)
    a2 = hex_of(st, "C1", "A2")
    assert distance(hex_of(st, "C1", "A1"), a2) == 1 and a2 not in walks(st)
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(st, 0, {"kind": "move", "by": "walk", "to": list(a2)})
    assert e.value.rule == "6 Walls"


def test_longrift_gorge_cannot_be_crossed():
    """Appendix C III: the great impassable gorge rends Longrift in two."""
    st = roll(solo("C3", "A6"), 1)
    assert hex_of(st, "C3", "Center") not in walks(st)
    st = roll(solo("C3", "A6"), 6)
    north = {hex_of(st, "C3", lab) for lab in ("C4", "A5", "A6", "C6", "B5", "C5", "B6")}
    south_reached = [h for h in walks(st) if world_for(st).tile_of(h) == "C3" and h not in north]
    # Only by going round through a neighbouring tile: never straight across the gorge.
    for h in south_reached:
        assert walks(st)[h] >= 3


def test_star_crest_needs_a_task_an_event_or_a_re_entry():
    """7.37: the Star Crest may only be entered as part of a Task or Event Card, when transported,
    or on the VERY NEXT turn after leaving it (7.372), one re-entry per visit (7.3721)."""
    crest_of = lambda st: hex_of(st, "E4", "Center")
    st = roll(solo("E4", "A3"), 1)
    assert crest_of(st) not in walks(st)
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(st, 0, {"kind": "move", "by": "walk", "to": list(crest_of(st))})
    assert e.value.rule == "7.37"
    # A Task Marker of his own in the Star Crest directs him there.
    st = roll(solo("E4", "A3", prepare=lambda s: s.task_markers.append(
        {"seat": 0, "task": 1, "step": 0, "at": list(hex_of(s, "E4", "Center"))})), 1)
    assert walks(st)[crest_of(st)] == 1
    # An Event Card's direction: enter, leave, re-enter once on the very next turn, then no more.
    st = roll(solo("E4", "A3", prepare=lambda s: s.players[0].update(star_crest_directed=True)), 1)
    st, ev = move(st, 0, "walk", crest_of(st))
    assert st.players[0]["star_crest"]["visit"] == "initial"
    st = roll(end(st), 1)
    st, _ = move(st, 0, "walk", hex_of(st, "E4", "A3"))  # leaves it
    st = roll(end(st), 1)
    assert crest_of(st) in walks(st)  # 7.372: the very next turn
    st, _ = move(st, 0, "walk", crest_of(st))
    assert st.players[0]["star_crest"]["visit"] == "reentry"
    st = roll(end(st), 1)
    st, _ = move(st, 0, "walk", hex_of(st, "E4", "A3"))
    st = roll(end(st), 1)
    assert crest_of(st) not in walks(st)  # 7.3721: no second re-entry
    # Leaving and waiting a turn loses the re-entry too.
    st = roll(solo("E4", "A3", prepare=lambda s: s.players[0].update(star_crest_directed=True)), 1)
    st, _ = move(st, 0, "walk", crest_of(st))
    st = roll(end(st), 1)
    st, _ = move(st, 0, "walk", hex_of(st, "E4", "A3"))
    st = roll(end(end(roll(end(st), 1))), 1)
    assert crest_of(st) not in walks(st)


def test_sacred_circle_stones_by_matching_dots():
    """6 SACRED CIRCLE STONES: the Movement Roll must equal the dots of an ADJACENT stone; if not,
    the roll is still used for normal movement."""
    st = roll(solo("M1", "B1"), 1)
    a1 = hex_of(st, "M1", "A1")  # one dot
    assert world_for(st).spaces[a1].dots == 1
    assert moves(st, 0)[("stone", a1)] == 1
    st2, ev = move(st, 0, "stone", a1)
    assert over(ev) and tuple(st2.players[0]["at"]) == a1
    st = roll(solo("M1", "B1"), 2)
    assert ("stone", a1) not in moves(st, 0) and walks(st)  # normal movement instead
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(st, 0, {"kind": "move", "by": "stone", "to": list(a1)})
    assert e.value.rule == "6 Sacred Circle Stones"
    assert a1 not in walks(roll(solo("M1", "B1"), 6))  # stones are never walked into


def test_sacred_circle_center_needs_a_stone_and_ruktal():
    """6 SACRED CIRCLE CENTER: from a Stone, and Rüktal is present on a roll of 1-3."""
    centre = lambda st: hex_of(st, "M1", "Center")
    st = roll(solo("M1", "A1"), 2)
    assert moves(st, 0)[("circle", centre(st))] == 2
    st = roll(solo("M1", "A1"), 4)
    assert ("circle", centre(st)) not in moves(st, 0)
    assert ("stone", hex_of(st, "M1", "A6")) in moves(st, 0)  # A6 has four dots: stone to stone
    st = roll(solo("M1", "B4"), 2)
    assert not any(by == "circle" for by, _ in moves(st, 0))  # not from outside the stones
    st = roll(solo("M1", "Center"), 3)  # out of the Center only onto the stone that matches
    assert {to for by, to in moves(st, 0)} == {hex_of(st, "M1", "A3")}


def test_swimming_takes_the_whole_turn_and_exits_by_terrain():
    """6 WATER-SWIMMING: ONE space; entering takes ALL Movement Points; exit costs the terrain; a player
    may wait in the Water for a good roll; no swimming from Water to Water."""
    st = roll(solo("E5", "B4"), 3)
    water = [n for n in neighbours(hex_of(st, "E5", "B4")) if world_for(st).is_water(n)]
    swims = {to: c for (by, to), c in moves(st, 0).items() if by == "swim"}
    assert set(swims) == set(water) and set(swims.values()) == {3}
    st2, _ = move(st, 0, "walk", hex_of(st, "E5", "A4"))
    assert not any(by == "swim" for by, _ in moves(st2, 0))  # he has moved: not ALL points left
    st, ev = move(st, 0, "swim", water[0])
    assert over(ev) and tuple(st.players[0]["at"]) == water[0] and st.players[0]["swum"] == 1
    st = roll(solo("E5", "B3", prepare=lambda s: s.players[0].update(at=[1, 9])), 1)
    assert walks(st) == {}  # woods and mountains ashore cost 2: he waits in the Water
    assert not any(by == "swim" for by, _ in moves(st, 0))  # never Water to Water
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(st, 0, {"kind": "move", "by": "swim", "to": [1, 8]})
    assert e.value.rule == "6 Water-Swimming"
    st = roll(solo("E5", "B3", prepare=lambda s: s.players[0].update(at=[1, 9])), 2)
    assert {(2, 9), (2, 8)} <= set(walks(st)) and set(walks(st).values()) == {2}
    assert all(distance(h, (1, 9)) == 1 for h in walks(st))  # ashore, and no further: two points spent


def test_boats_are_bridges_as_plains():
    """6 BOARDING A BOAT: a Boat between two land spaces is used as a bridge, as a PLAINS space."""
    def boat(st):
        st.boats = [{"id": 0, "at": [0, 15], "rider": None}]
    st = roll(solo("E6", "C2", prepare=boat), 3)
    across = hex_of(st, "M5", "B6")  # Hamdrel's island, one Water space off Woodland
    assert walks(st)[(0, 15)] == 1 and walks(st)[across] == 1 + 2  # the Boat as Plains, then woods
    st = roll(solo("E6", "C2"), 6)
    assert across not in walks(st)  # no Boat: no way over on foot


def test_one_player_to_a_boat():
    """6: no more than one player may be in the same Boat at the same time."""
    def boat(st):
        st.boats = [{"id": 0, "at": [0, 15], "rider": 1}]
        st.players[1]["at"], st.players[1]["boat"] = [0, 15], 0
    st = roll(build(seats=2, at={0: ("E6", "C2"), 1: ("C5", "A1")}, prepare=boat), 3)
    assert (0, 15) not in walks(st) and hex_of(st, "M5", "B6") not in walks(st)


def test_a_boat_is_not_moved_the_turn_it_is_boarded_and_sails_after():
    """6: a player may not MOVE a Boat on the same turn that he boards it; afterwards he moves it through Water."""
    def boat(st):
        st.boats = [{"id": 0, "at": [0, 15], "rider": None}]
    st = roll(solo("E6", "C2", prepare=boat), 3)
    st, _ = move(st, 0, "walk", (0, 15))
    assert st.players[0]["boat"] == 0 and st.boats[0]["rider"] == 0
    assert not any(by == "sail" for by, _ in moves(st, 0))
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(st, 0, {"kind": "move", "by": "sail", "to": [0, 16]})
    assert "same turn" in str(e.value)
    st = roll(end(st), 4)
    sails = {to: c for (by, to), c in moves(st, 0).items() if by == "sail"}
    assert sails[(0, 16)] == 1 and all(world_for(st).is_water(h) for h in sails) and max(sails.values()) == 4
    st, _ = move(st, 0, "sail", (0, 18))
    assert st.boats[0]["at"] == [0, 18] and st.players[0]["at"] == [0, 18]
    st, _ = move(st, 0, "walk", hex_of(st, "M5", "B1"))  # steps ashore; the Boat stays
    assert st.boats[0] == {"id": 0, "at": [0, 18], "rider": None} and st.players[0]["boat"] is None


def test_many_boats_in_a_space_and_swimmers_among_them():
    """6: any number of Boats may be in the same space, and players may swim in spaces containing Boats."""
    def boats(st):
        st.boats = [{"id": 0, "at": [0, 15], "rider": None}, {"id": 1, "at": [0, 15], "rider": None}]
    st = roll(solo("E6", "C2", prepare=boats), 4)
    ms = moves(st, 0)
    assert ("swim", (0, 15)) in ms and ("walk", (0, 15)) in ms
    ENGINE.check_invariants(st)


def test_afflicted_players_treat_every_space_as_mountains():
    """7.3043 e / 7.3051 f: Demon Dazed and Dragonbound players treat all spaces, Water too, as MOUNTAINS,
    except any part of the Sacred Circle."""
    dazed = lambda s: s.players[0]["afflictions"].append("demon_dazed")
    st = roll(solo("C5", "Center", prepare=dazed), 1)
    assert walks(st) == {}
    st = roll(solo("C5", "Center", prepare=dazed), 2)
    assert set(walks(st).values()) == {2}
    def boat_dazed(s):
        dazed(s)
        s.boats = [{"id": 0, "at": [0, 15], "rider": None}]
    st = roll(solo("E6", "C2", prepare=boat_dazed), 3)
    assert walks(st)[(0, 15)] == 2  # the Boat, as Mountains
    st = roll(solo("M1", "B1", prepare=dazed), 1)
    assert ("stone", hex_of(st, "M1", "A1")) in moves(st, 0)  # the Sacred Circle keeps its own rule


def test_dragonbound_may_not_enter_star_crest_or_high_hollow():
    """7.3051 g: while affected the player may not enter the Star Crest or High Hollow."""
    def bound(s):
        s.players[0]["afflictions"].append("dragonbound")
        s.players[0]["star_crest_directed"] = True
    st = roll(solo("E4", "A3", prepare=bound), 6)
    assert hex_of(st, "E4", "Center") not in walks(st)
    st = roll(solo("M3", "C3", prepare=bound), 6)
    hollow = hex_of(st, "M3", "B4")
    assert hollow not in walks(st)
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(st, 0, {"kind": "move", "by": "walk", "to": list(hollow)})
    assert e.value.rule == "7.3051 g"


def test_unicorn_goes_anywhere_but_the_circle_center_and_water_then_departs():
    """8.43 / 8.431: any space including the Star Crest, except the Center of the Sacred Circle; not Water;
    after this one use the Unicorn departs."""
    st = roll(solo("C5", "Center", prepare=animal("unicorn", 1)), 1)
    w = world_for(st)
    rides = {to for by, to in moves(st, 0) if by == "ride"}
    assert rides == {h for h in w.spaces if h != hex_of(st, "C5", "Center") and w.kind(h) != "circle"}
    assert hex_of(st, "E4", "Center") in rides and hex_of(st, "M6", "Center") in rides
    st, ev = move(st, 0, "ride", hex_of(st, "E4", "Center"))
    assert st.players[0]["animal"] is None and st.players[0]["star_crest"]["visit"] == "initial"
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(roll(solo("C5", "Center", prepare=animal("unicorn", 1)), 1), 0,
                     {"kind": "move", "by": "ride", "to": [1, 9]})
    assert e.value.rule == "8.431"


def test_winged_horse_flies_ten_spaces_for_two_turns():
    """8.44: fly TEN spaces disregarding terrain; may land in the Star Crest; not in the Center of the Sacred
    Circle nor any space of Dragon's Lair; not in Water (8.441); departs after two uses."""
    st = roll(solo("C1", "A1", prepare=animal("winged_horse", 2)), 1)
    w = world_for(st)
    here = hex_of(st, "C1", "A1")
    flights = {to for by, to in moves(st, 0) if by == "fly"}
    in_reach = {h for h in w.spaces if 0 < distance(here, h) <= 10}
    assert flights == {h for h in in_reach if w.kind(h) != "circle" and not w.in_lair(h)}
    assert hex_of(st, "C1", "A2") in flights  # over the wall
    assert hex_of(st, "E4", "Center") in flights
    st, _ = move(st, 0, "fly", hex_of(st, "C5", "A1"))
    st = roll(end(st), 1)
    assert st.players[0]["animal"]["turns"] == 1
    st = end(st)
    assert st.players[0]["animal"] is None


def test_horse_adds_four_and_keeps_away_from_the_circle_star_crest_and_lair():
    """8.45: the Horse adds FOUR to the Movement Roll; it will not enter any part of the Sacred Circle, the
    Star Crest or the Dragon's Lair and leaves a player entering them (its points go with it); 8.452 it leaves
    one who boards a Boat."""
    st = roll(solo("C5", "Center", prepare=animal("horse", 3)), 1)
    assert st.turn["mp"] == 5 and st.turn["bonus"] == 4
    assert max(walks(st).values()) == 5
    st = roll(solo("M1", "B1", prepare=animal("horse", 3)), 1)
    st, ev = move(st, 0, "stone", hex_of(st, "M1", "A1"))
    assert st.players[0]["animal"] is None and any(e["type"] == "animal_departs" for e in ev)
    def horse_boat(s):
        animal("horse", 3)(s)
        s.boats = [{"id": 0, "at": [0, 15], "rider": None}]
    st = roll(solo("E6", "C2", prepare=horse_boat), 2)
    assert walks(st)[(0, 15)] == 5  # boarding: one point, and the Horse's four go with it
    st, ev = move(st, 0, "walk", (0, 15))
    assert st.turn["mp"] == 1 and st.players[0]["animal"] is None and st.players[0]["boat"] == 0


def test_horse_swims_two_spaces_one_a_turn():
    """8.451: a player may swim up to TWO spaces with a Horse at a rate of one space per turn."""
    def horse_in_water(s):
        animal("horse", 3)(s)
        s.players[0]["at"], s.players[0]["swum"] = [1, 8], 1
    st = roll(solo("E5", "B4", prepare=horse_in_water), 1)
    assert ("swim", (1, 7)) in moves(st, 0) or ("swim", (0, 8)) in moves(st, 0)
    def horse_swum_two(s):
        horse_in_water(s)
        s.players[0]["swum"] = 2
    st = roll(solo("E5", "B4", prepare=horse_swum_two), 1)
    assert not any(by == "swim" for by, _ in moves(st, 0))


def test_hound_adds_one_but_not_to_a_boats_movement():
    """8.46: the Hound adds ONE; its benefit does not apply to the Boat's movement; four turns."""
    def hound_in_boat(s):
        animal("hound", 4)(s)
        s.boats = [{"id": 0, "at": [0, 16], "rider": 0}]
        s.players[0]["at"], s.players[0]["boat"] = [0, 16], 0
    st = roll(solo("E6", "C2", prepare=hound_in_boat), 2)
    assert st.turn["mp"] == 3
    sails = {to: c for (by, to), c in moves(st, 0).items() if by == "sail"}
    assert max(sails.values()) == 2
    assert max(walks(st).values()) == 3  # ashore the Hound's point counts
    st = roll(solo("C5", "Center", prepare=animal("hound", 4)), 3)
    for _ in range(4):
        st = roll(end(st), 3)
    assert st.players[0]["animal"] is None


def druid(rank, order="druids"):
    return lambda s: s.players[0].update(order=order, rank=rank)


def test_boat_summoning_brings_a_free_boat_within_range_over_water():
    """11.211-11.2111: on a Coastal space with a Movement Point left, any one unoccupied Boat within range
    (counted over Water only) is placed in a Water space adjacent to the player."""
    def setup(s):
        druid(2)(s)  # Priest: Boat Summoning range 5
        s.boats = [{"id": 0, "at": [0, 18], "rider": None}, {"id": 1, "at": [14, 21], "rider": None}]
    st = roll(solo("E6", "C2", prepare=setup), 2)
    assert {"kind": "cast", "spell": "boat_summoning"} in ENGINE.legal_actions(st, 0)
    assert ENGINE.action_domain({"kind": "cast", "spell": "boat_summoning"}) == "combat"
    st, _ = ENGINE.apply(st, 0, {"kind": "cast", "spell": "boat_summoning"})
    st, ev = chance(st, 3)
    legal = ENGINE.legal_actions(st, 0)
    assert legal and {a["boat"] for a in legal} == {0}  # boat 1 is too far
    assert all(distance(tuple(a["to"]), hex_of(st, "E6", "C2")) == 1 for a in legal)
    st, ev = ENGINE.apply(st, 0, legal[0])
    assert st.boats[0]["at"] == legal[0]["to"] and st.await_["for"] == "move"
    assert {"kind": "cast", "spell": "boat_summoning"} not in ENGINE.legal_actions(st, 0)  # 11.24
    st = roll(solo("C5", "Center", prepare=druid(2)), 2)  # inland: not a Coastal space
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(st, 0, {"kind": "cast", "spell": "boat_summoning"})
    assert e.value.rule == "11.211"


def test_boat_summoning_range_counts_water_spaces_from_the_player_to_the_boat():
    """11.2111: only Water spaces from the player to the Boat are counted, the Boat's own space too: a Priest's
    range of 5 (10.13) reaches a Boat five Water spaces away but not six, and a Boat in range may come to any
    Water space next to him, even one a space farther from it."""
    def setup(s):
        druid(2)(s)
        s.boats = [{"id": 0, "at": [1, 18], "rider": None}, {"id": 1, "at": [2, 18], "rider": None}]
    st = roll(solo("E6", "C2", prepare=setup), 2)
    w = world_for(st)
    targets = [n for n in neighbours(hex_of(st, "E6", "C2")) if w.is_water(n)]
    assert len(targets) == 2
    away = lambda b: sorted(1 + water_distances(w, b)[n] for n in targets)
    assert away((1, 18)) == [5, 6] and away((2, 18)) == [6, 7]
    st, _ = ENGINE.apply(st, 0, {"kind": "cast", "spell": "boat_summoning"})
    st, _ = chance(st, 1)
    legal = ENGINE.legal_actions(st, 0)
    assert {(a["boat"], tuple(a["to"])) for a in legal} == {(0, t) for t in targets}
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(st, 0, {"kind": "summon_boat", "boat": 1, "to": list(targets[0])})
    assert e.value.rule == "11.211"
    # Unlimited range (10.12 Magician): every free Boat that can reach him over Water.
    st = roll(solo("E6", "C2", prepare=lambda s: (setup(s), druid(3, "sorcerers")(s))), 2)
    st, _ = ENGINE.apply(st, 0, {"kind": "cast", "spell": "boat_summoning"})
    st, _ = chance(st, 1)
    assert {a["boat"] for a in ENGINE.legal_actions(st, 0)} == {0, 1}


def test_swiftness_crosses_woods_as_plains_if_it_works():
    """11.212: if it succeeds, Woods (and/or Mountains) cost as Plains for the turn; a 6 fails (11.1)."""
    st = roll(solo("C5", "Center", prepare=druid(3)), 1)  # Mystic: Swiftness, Woods only
    a3 = hex_of(st, "C5", "A3")
    assert a3 not in walks(st)
    ok, _ = ENGINE.apply(st, 0, {"kind": "cast", "spell": "swiftness"})
    ok, _ = chance(ok, 5)
    assert walks(ok)[a3] == 1
    bad, _ = ENGINE.apply(st, 0, {"kind": "cast", "spell": "swiftness"})
    bad, ev = chance(bad, 6)
    assert a3 not in walks(bad) and bad.await_["for"] == "move"  # he may continue his move


def test_demon_dazed_casts_movement_spells_on_one_to_three_only():
    """7.3043 b-c: Dazed, only Boat Summoning, Transporting and Escaping, working on 1-3."""
    def dazed_mystic(s):
        druid(3)(s)
        s.players[0]["afflictions"].append("demon_dazed")
    st = roll(solo("E6", "C2", prepare=dazed_mystic), 2)
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(st, 0, {"kind": "cast", "spell": "swiftness"})
    assert e.value.rule == "7.3043 b"
    st, _ = ENGINE.apply(st, 0, {"kind": "cast", "spell": "boat_summoning"})
    st, ev = chance(st, 4)
    assert not next(e for e in ev if e["type"] == "spell_cast")["success"]


def test_transporting_replaces_the_movement_roll():
    """11.213: cast in place of a Movement Roll; if it fails the player may not move; if it succeeds he is
    transported (10.11 Sage: to a Random Space), losing his Animal (8.41)."""
    def sage(s):
        druid(3, "wizards")(s)
        animal("hound", 4)(s)
    st = solo("C5", "Center", prepare=sage)
    assert st.await_ == {"seat": 0, "for": "pre_roll"}
    assert ENGINE.legal_actions(st, 0) == [{"kind": "roll"}, {"kind": "cast", "spell": "transporting", "to": "RANDOM"}]
    failed, _ = ENGINE.apply(st, 0, {"kind": "cast", "spell": "transporting", "to": "RANDOM"})
    failed, ev = chance(failed, 6)
    assert failed.players[0]["at"] == st.players[0]["at"] and over(ev)
    assert not any(e["type"] == "moved" for e in ev)
    ok, _ = ENGINE.apply(st, 0, {"kind": "cast", "spell": "transporting", "to": "RANDOM"})
    ok, _ = chance(ok, 1)
    ok, ev = chance(ok, 3, 4, 5, 6)  # Elven IV, C6
    assert tuple(ok.players[0]["at"]) == hex_of(ok, "E4", "C6")
    assert ok.players[0]["animal"] is None


def test_druids_transport_from_a_stone_with_an_extra_turn():
    """10.13 / 11.2131: a Druid transports FROM a Sacred Circle Stone (Mystic: to a random space in ANY
    Territory he names) and automatically receives ONE extra turn immediately."""
    st = solo("M1", "A2", prepare=druid(3))
    casts = [a for a in ENGINE.legal_actions(st, 0) if a["kind"] == "cast"]
    assert {a["territory"] for a in casts} == set(world_for(st).tiles)
    st, _ = ENGINE.apply(st, 0, {"kind": "cast", "spell": "transporting", "to": "ANY", "territory": "E2"})
    st, _ = chance(st, 2)
    st, ev = chance(st, 1, 1)
    assert tuple(st.players[0]["at"]) == hex_of(st, "E2", "A1")
    assert any(e["type"] == "extra_turn" for e in ev)
    # 11.221: nothing was encountered, so the Mystic's Animal Summoning is offered first
    assert st.await_ == {"seat": 0, "for": "choice"}
    st, more = ENGINE.apply(st, 0, {"kind": "encounter_spell", "spell": "animal_summoning", "cast": False})
    ev = ev + more
    begins = [e for e in ev if e["type"] == "turn_begins"]
    assert begins and begins[-1]["extra"] is True and begins[-1]["day"] == 1
    st2 = solo("C5", "Center", prepare=druid(3))  # off the stones: no Transporting for a Mystic
    assert st2.chance["then"]["do"] == "movement_rolled"


def test_specific_encounter_spaces_stop_movement():
    """7.2 with 7 i-k: other players (both Rank ONE or higher), Demons and the Dragon stop a player;
    7.312: his own Task Marker does not (passing is ignoring it), but ending on it is an encounter."""
    def scene(rank):
        def prep(s):
            for p in s.players:
                p["order"], p["rank"] = ("sorcerers", rank) if rank else (None, 0)
            s.players[1]["at"] = list(hex_of(s, "C5", "A1"))
        return prep
    st = roll(build(seats=2, at={0: ("C5", "Center"), 1: ("C5", "A1")}, prepare=scene(1)), 3)
    b1 = hex_of(st, "C5", "B1")
    assert hex_of(st, "C5", "A1") in walks(st) and walks(st).get(b1) != 2  # not through the other player
    st = roll(build(seats=2, at={0: ("C5", "Center"), 1: ("C5", "A1")}, prepare=scene(0)), 3)
    assert walks(st)[b1] == 2  # Rank 0: no Player Encounter, he walks on
    st = roll(solo("C5", "Center", prepare=lambda s: s.demons.append(list(hex_of(s, "C5", "A1")))), 3)
    assert walks(st).get(hex_of(st, "C5", "B1")) != 2
    st = roll(solo("C5", "Center", prepare=lambda s: s.replace("dragon", list(hex_of(s, "C5", "A1")))), 3)
    assert walks(st).get(hex_of(st, "C5", "B1")) != 2
    # 7 b and c: a High Wizard's marker and a Secret Wizard's stop him too
    st = roll(solo("C5", "Center", prepare=lambda s: wizard_marker(s, next(iter(s.wizard_markers)), "C5", "A1")), 3)
    assert hex_of(st, "C5", "A1") in walks(st) and walks(st).get(hex_of(st, "C5", "B1")) != 2
    secret = lambda s: s.secret_wizards.append({"letter": "A", "at": list(hex_of(s, "C5", "A1"))})
    st = roll(solo("C5", "Center", prepare=secret), 3)
    assert hex_of(st, "C5", "A1") in walks(st) and walks(st).get(hex_of(st, "C5", "B1")) != 2
    assert walks(roll(solo("C5", "Center"), 3))[hex_of(st, "C5", "B1")] == 2  # the way on, with nothing there
    def marker(s):
        s.players[0].update(order="wizards", rank=1)
        hold_task(s, 0, 5, at={0: ("C5", "A1")})
    st = roll(solo("C5", "Center", prepare=marker), 3)
    assert walks(st)[hex_of(st, "C5", "B1")] == 2
    st, ev = move(st, 0, "walk", hex_of(st, "C5", "A1"))
    st, ev = ENGINE.apply(st, 0, {"kind": "end_move"})
    assert next(e for e in ev if e["type"] == "encounter_due")["specific"] == [{"kind": "task_marker", "tasks": [5]}]


def test_movement_event_cards_change_the_roll_and_terrain():
    """8.51 MOVEMENT: cards add to the Movement Roll or cross terrain as Plains for some days (authored
    floor: a penalty never takes the last point)."""
    boots = lambda s: s.players[0]["events"].append({"card": 30, "days": 3})  # Seven-League Boots: +2
    st = roll(solo("C5", "Center", prepare=boots), 1)
    assert st.turn["mp"] == 3
    ankle = lambda s: s.players[0]["events"].append({"card": 33, "days": 3})  # Sprained Ankle: -2
    assert roll(solo("C5", "Center", prepare=ankle), 2).turn["mp"] == 1
    path = lambda s: s.players[0]["events"].append({"card": 31, "days": 4})  # Woodsman's Path
    st = roll(solo("C5", "Center", prepare=path), 1)
    assert walks(st)[hex_of(st, "C5", "A3")] == 1


def test_moves_list_their_costs_and_refuse_wrong_ones():
    """The board service shows destinations with costs; a move must match what it costs."""
    st = roll(solo("C5", "Center"), 2)
    legal = [a for a in ENGINE.legal_actions(st, 0) if a["kind"] == "move"]
    assert all(set(a) == {"kind", "by", "to", "cost"} for a in legal)
    a = legal[0]
    with pytest.raises(RuleViolation):
        ENGINE.apply(st, 0, dict(a, cost=a["cost"] + 1))
    for bad in ({"kind": "move"}, {"kind": "move", "by": "hop", "to": [1, 1]},
                {"kind": "move", "by": "walk", "to": [1]}, {"kind": "move", "by": "walk", "to": [1, 2], "cost": "x"},
                {"kind": "move", "by": "walk", "to": [1, 2], "x": 1}):
        with pytest.raises(MalformedAction):
            ENGINE.apply(st, 0, bad)
    with pytest.raises(RuleViolation):
        ENGINE.apply(st, 0, {"kind": "move", "by": "walk", "to": [400, 400]})
