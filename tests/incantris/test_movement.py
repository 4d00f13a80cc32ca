"""Movement & Terrain, Obstacles, Bear Presence, Water Walk, Shadow Dance, split movement."""
from __future__ import annotations

import pytest

from shared.engine import RuleViolation
from shared.engine.state import tree_copy
from shared.hexgrid import neighbours
from shared.incantris.arena import arena_of

from .support import BOTH, WAND, E, act, arrange, begin, game, kinds, roll, steps

RED_SHAMAN, RED_DRUID, RED_SORC = "red-shaman", "red-druid", "red-sorceress"
BLUE_AK, BLUE_SW, BLUE_SORC = "blue-arcane-knight", "blue-shadow-weaver", "blue-sorcerer"


def turn_of(wid, at, centre=None, **kw):
    s = arrange(game(), at, **kw)
    if centre:
        s.edit("tiles")[0] = {"tile": centre[:2], "side": centre[2], "centre": [0, 0], "rotation": 0}
    return begin(s, wid)


def walk(s, *path):
    for h in path:
        s, _ = act(s, {"kind": "step", "to": list(h)})
    return s


def test_open_ground_costs_one_point_each():
    """"it costs one movement point to move from the hex the wizard is in to an adjacent hex";
    a wizard may spend up to its movement points (Shadow Weaver: 5)."""
    s = turn_of(BLUE_SW, {BLUE_SW: (-3, 0), RED_DRUID: (0, -6)})
    s = walk(s, (-2, 0), (-1, 0), (0, 0), (1, 0), (2, 0))
    assert s.turn["mp"] == 0 and steps(s) == set()
    with pytest.raises(RuleViolation) as e:
        act(s, {"kind": "step", "to": [3, 0]})
    assert e.value.rule == "Movement & Terrain"


def test_streams_cost_two_and_leaving_them_one():
    """Stream: "A wizard must expend two movement points to enter a stream hex. If a wizard does
    not have at least two movement points remaining, he or she cannot enter the hex. However,
    it only costs one movement point to move from a stream hex into an open ground hex." """
    s = turn_of(RED_SORC, {RED_SORC: (2, -1), BLUE_SW: (0, -6)}, centre="T1B")
    s = walk(s, (2, 0))
    assert s.turn["mp"] == 2
    s = walk(s, (2, 1))
    assert s.turn["mp"] == 1
    assert (1, 0) not in steps(s) and (3, 0) not in steps(s)  # streams, one point left
    assert (1, 1) in steps(s)


def test_the_bridge_is_open_ground():
    s = turn_of(RED_SORC, {RED_SORC: (0, -1), BLUE_SW: (0, -6)}, centre="T1B")
    s = walk(s, (0, 0))
    assert s.turn["mp"] == 3


def test_ocean_is_impassable_but_water_walk_crosses_it():
    """Ocean: "Wizards may not enter, pass through, or otherwise occupy ocean hexes." Water Walk:
    streams as open ground, ocean as streams."""
    s = turn_of(RED_SORC, {RED_SORC: (0, -2), BLUE_SW: (0, -6)}, centre="T3B")
    assert (0, -1) not in steps(s) and (1, -1) not in steps(s)
    s = turn_of(RED_DRUID, {RED_DRUID: (0, -2), BLUE_SW: (0, -6)}, centre="T3B")
    s = walk(s, (0, -1))
    assert s.turn["mp"] == 3
    s = turn_of(RED_DRUID, {RED_DRUID: (2, -1), BLUE_SW: (0, -6)}, centre="T1B")
    s = walk(s, (2, 0))
    assert s.turn["mp"] == 4


@pytest.mark.parametrize("obstacle", ["tree", "low-wall", "high-wall"])
def test_obstacles_are_impassable(obstacle):
    """"Hexes that contain obstacles are always impassable." """
    s = arrange(game(), {RED_SORC: (0, 0), BLUE_SW: (0, -6)})
    s.replace("obstacles", [{"kind": obstacle, "hexes": [[1, 0]]}])
    assert (1, 0) not in steps(begin(s, RED_SORC))


def test_opposing_wizards_block_team_mates_are_passed_through():
    """"The hexes occupied by wizards of opposing teams are impassable. Wizards may freely move
    through the hexes occupied by wizards on their team, but two wizards may never occupy the
    same hex at the end of movement." """
    s = turn_of(RED_SORC, {RED_SORC: (0, 0), BLUE_SW: (1, 0), RED_DRUID: (0, 1)})
    assert (1, 0) not in steps(s)
    assert (0, 1) in steps(s)
    s = walk(s, (0, 1))
    assert "end" not in kinds(s) and "cast" not in kinds(s)  # still passing through
    with pytest.raises(RuleViolation):
        act(s, {"kind": "end"})
    s = walk(s, (0, 2))
    assert "end" in kinds(s)


def test_a_team_mate_cannot_be_entered_without_points_to_leave():
    s = turn_of(RED_SORC, {RED_SORC: (0, 0), RED_DRUID: (1, 0), BLUE_SW: (0, -6)})
    s = walk(s, (-1, 0), (0, 0), (-1, 0))
    assert s.turn["mp"] == 1
    assert (0, 0) in steps(s)
    s = walk(s, (0, 0))
    assert (1, 0) not in steps(s)  # no point left to move on from the Druid's hex


def test_partial_hexes_are_never_entered():
    """"Wizards may not enter, pass through or stop in partial hexes." """
    s = arrange(game(), {RED_SORC: (0, 0), BLUE_SW: (0, -6)})
    s.replace("tiles", tree_copy(s.tiles[:1]))  # a lone tile: its rim is partial
    s.wizards[RED_SORC]["hex"] = [3, 0]
    s.wizards[BLUE_SW]["hex"] = [-3, 0]
    s = begin(s, RED_SORC)
    a = arena_of(s.tiles)
    assert all(h in a.whole for h in steps(s))
    assert (4, 0) not in steps(s) and (4, -1) not in steps(s)


def test_movement_may_not_be_split_around_a_spell():
    """"Movement may not be "split" before and after spell casting." """
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), BLUE_SW: (4, 0)})
    s = walk(s, (1, 0))
    s, _ = act(s, {"kind": "cast", "spell": "tempest", "target": BLUE_SW})
    s, _ = roll(s, [WAND, WAND], [BOTH, BOTH])
    assert steps(s) == set() and "end" in kinds(s)


def test_cast_then_move():
    """"The active wizard may move and cast a spell or cast a spell and then move." """
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), BLUE_SW: (3, 0)})
    s, _ = act(s, {"kind": "cast", "spell": "tempest", "target": BLUE_SW})
    s, _ = roll(s, [WAND, WAND], [BOTH, BOTH])
    assert steps(s)
    s = walk(s, (-1, 0), (-2, 0))
    assert s.turn["mp"] == 3


def test_shadow_dance_moves_cast_moves_within_five_points():
    """Shadow Dance: "may move, cast a spell, and then move again so long as he expends no more
    than five movement points in total on the turn"."""
    s = turn_of(BLUE_SW, {BLUE_SW: (0, 0), RED_DRUID: (0, -6)})
    s = walk(s, (1, 0), (2, 0))
    s, _ = act(s, {"kind": "cast", "spell": "gloom-strike", "target": RED_DRUID})
    s, _ = roll(s, [WAND, WAND], [BOTH, BOTH])
    s = walk(s, (3, 0), (4, 0), (5, 0))
    assert s.turn["spent"] == 5 and steps(s) == set()


def test_shadow_dance_caps_the_split_at_five_even_with_more_points():
    s = turn_of(BLUE_SW, {BLUE_SW: (0, 0), RED_DRUID: (0, -6)})
    s.wizards[BLUE_SW]["items"] = ["winged-boots"]
    s, _ = act(s, {"kind": "boots"})
    assert s.turn["mp"] == 6
    s = walk(s, (1, 0))
    s, _ = act(s, {"kind": "cast", "spell": "gloom-strike", "target": RED_DRUID})
    s, _ = roll(s, [WAND, WAND], [BOTH, BOTH])
    s = walk(s, (2, 0), (3, 0), (4, 0), (5, 0))
    assert s.turn["spent"] == 5 and s.turn["mp"] == 1 and steps(s) == set()


def test_movement_points_return_each_turn():
    """"Movement points return to full at the start of the wizard's turn." """
    s = turn_of(RED_SORC, {RED_SORC: (0, 0), BLUE_SW: (0, -6)})
    s = walk(s, (1, 0), (2, 0))
    s, _ = act(s, {"kind": "end"})
    s, _ = act(s, {"kind": "activate", "wizard": BLUE_SW})
    s, _ = act(s, {"kind": "end"})
    s, _ = act(s, {"kind": "activate", "wizard": RED_SORC})
    assert s.turn["mp"] == 4


def test_bear_presence_stops_an_opposing_wizard():
    """Bear Presence: "Wizards from opposing teams must immediately stop and end their movement
    upon entering a hex adjacent to the Shaman." """
    s = turn_of(BLUE_SW, {BLUE_SW: (0, 0), RED_SHAMAN: (3, 0)})
    s, ev = act(s, {"kind": "step", "to": [1, 0]})
    s, ev = act(s, {"kind": "step", "to": [2, 0]})
    assert "bear-presence" in [e["type"] for e in ev]
    assert steps(s) == set() and s.turn["mp"] == 3


def test_bear_presence_spares_the_shamans_team():
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), RED_SHAMAN: (3, 0), BLUE_SW: (0, -6)})
    s = walk(s, (1, 0), (2, 0))
    assert steps(s)


def test_starting_next_to_the_shaman_no_direct_step_to_another_adjacent_hex():
    """"An opposing wizard who begins his or her turn adjacent to the Shaman may not move directly
    into another hex adjacent to him." FAQ 1: he may move "out and around"."""
    s = turn_of(BLUE_SW, {BLUE_SW: (1, 0), RED_SHAMAN: (0, 0)})
    ring = set(neighbours((0, 0)))
    assert not (steps(s) & ring)
    s = walk(s, (2, 0), (2, -1))
    assert (1, -1) in steps(s)  # back next to him, out and around
    s = walk(s, (1, -1))
    assert steps(s) == set()


def test_the_direct_step_ban_binds_only_a_wizard_that_began_its_turn_next_to_the_shaman():
    """Bear Presence: "An opposing wizard who *begins his or her turn* adjacent to the Shaman may
    not move directly into another hex adjacent to him." A wizard that began its turn away and
    is teleported next to him in the middle of it may step to another hex next to him (and, by
    the first sentence, stops there)."""
    s = turn_of(BLUE_SW, {BLUE_SW: (0, 0), RED_SHAMAN: (5, 0)})
    s, _ = act(s, {"kind": "cast", "spell": "teleport", "target": BLUE_SW})  # on itself: automatic
    s, _ = act(s, {"kind": "teleport", "to": [4, 0]})
    assert s.wizards[BLUE_SW]["hex"] == [4, 0] and s.turn["bound"] == []
    assert (5, -1) in steps(s) and (4, 1) in steps(s)
    s, ev = act(s, {"kind": "step", "to": [5, -1]})
    assert "bear-presence" in [e["type"] for e in ev] and steps(s) == set()


def test_a_wizard_that_began_next_to_the_shaman_stays_bound_after_a_teleport():
    """The same sentence the other way: the wizard that began its turn next to the Shaman is
    bound for the whole turn, wherever a Teleport puts it next to him again."""
    s = turn_of(BLUE_SW, {BLUE_SW: (1, 0), RED_SHAMAN: (0, 0)})
    assert s.turn["bound"] == [RED_SHAMAN]
    s, _ = act(s, {"kind": "cast", "spell": "teleport", "target": BLUE_SW})
    s, _ = act(s, {"kind": "teleport", "to": [-1, 0]})
    ring = set(neighbours((0, 0)))
    assert not (steps(s) & ring)
    with pytest.raises(RuleViolation) as e:
        act(s, {"kind": "step", "to": [-1, 1]})
    assert e.value.rule == "Bear Presence"


def test_entanglement_leaves_two_points():
    """Entanglement: "the target's movement points are reduced to only two per turn"."""
    s = arrange(game(), {BLUE_SW: (0, 0), RED_DRUID: (0, -6)})
    s.edit("effects")["red-druid:entanglement"] = {"id": "red-druid:entanglement", "spell": "entanglement",
                                                   "caster": RED_DRUID, "side": 0, "since": 0, "wizard": BLUE_SW}
    s = begin(s, BLUE_SW)
    assert s.turn["mp"] == 2


def test_no_step_while_another_seat_decides():
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), BLUE_SW: (3, 0)})
    s, _ = act(s, {"kind": "cast", "spell": "tempest", "target": BLUE_SW})
    assert E.legal_actions(s, 0) == []


def test_walk_distance_asked_about_some_hexes_gives_their_whole_search_distances():
    """The AI's "toward" distance (Ground.walk_distance) stops once the hexes asked about are
    settled; what it answers for them is what the whole search finds, streams and foes included."""
    from shared.incantris.movement import Ground

    s = turn_of(RED_SORC, {RED_SORC: (2, -1), BLUE_SW: (-3, 2), RED_DRUID: (0, -3)}, centre="T1B")
    g, w = Ground(s), s.wizards[RED_SORC]
    whole = g.walk_distance(w, (-3, 2), [])
    asked = [(2, -1), (2, 0), (1, 0), (4, -4)]
    some = g.walk_distance(w, (-3, 2), asked)
    assert all(h in whole for h in asked)
    assert {h: some[h] for h in asked} == {h: whole[h] for h in asked}
    assert len(some) < len(whole)
