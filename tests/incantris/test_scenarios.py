"""Scenarios and Winning the Game: Battle Royale, Crystal Sap, Capture the Crystal, Shifting Arena."""
from __future__ import annotations

import pytest

from shared.engine import CHANCE, TERMINAL, RuleViolation
from shared.engine.state import tree_copy
from shared.hexgrid import distance, neighbours
from shared.incantris.arena import arena_of, slot_of

from .support import BLANK, WAND, E, act, arrange, begin, fill, game, kinds, legal, roll, steps

RED_SHAMAN, RED_DRUID, RED_SORC = "red-shaman", "red-druid", "red-sorceress"
BLUE_AK, BLUE_SW, BLUE_SORC = "blue-arcane-knight", "blue-shadow-weaver", "blue-sorcerer"


def finish_dice(s, cast=WAND, ward=BLANK):
    while E.actor(s) == CHANCE:
        s, _ = fill(s, cast, ward)
    return s


# --- Battle Royale -----------------------------------------------------------------------------------
def test_battle_royale_last_player_standing_wins():
    """Battle Royale: "The last player with at least one living wizard wins." """
    s = begin(arrange(game(), {RED_DRUID: (0, 0), BLUE_SW: (2, 0), RED_SHAMAN: (-3, 3)}, life={BLUE_SW: 1}), RED_DRUID)
    s, _ = act(s, {"kind": "cast", "spell": "tempest", "target": BLUE_SW})
    s, ev = roll(s, [WAND, WAND], [BLANK, BLANK])
    assert E.actor(s) == TERMINAL and E.outcome(s) is not None
    o = E.outcome(s)
    assert o.winners == (0,) and o.scores == (1, 0)


def test_battle_royale_players_falling_together_share_the_last_place():
    s = begin(arrange(game(), {RED_SORC: (0, 0), BLUE_SW: (1, 0)}, life={RED_SORC: 1, BLUE_SW: 1}), RED_SORC)
    s, _ = act(s, {"kind": "cast", "spell": "meteor-storm", "target": [1, 0]})
    s = finish_dice(s)
    assert E.actor(s) == TERMINAL and E.outcome(s).winners == (0, 1)


def test_battle_royale_places_follow_elimination_order():
    s = arrange(game("battle-royale", 3), {RED_SORC: (0, 0), BLUE_SW: (1, 0), "purple-shaman": (-1, 0)},
                life={BLUE_SW: 1, "purple-shaman": 10})
    s.edit("sides", 2)["out"] = None
    s = begin(s, RED_SORC)
    s, _ = act(s, {"kind": "cast", "spell": "meteor-storm", "target": [1, 0]})
    s = finish_dice(s, WAND, "ward")
    assert not s.wizards[BLUE_SW]["alive"] and s.sides[1]["out"] is not None
    assert E.actor(s) != TERMINAL


# --- Crystal Sap ---------------------------------------------------------------------------------------
def sap_game(seats=2):
    return game("crystal-sap", seats)


def test_crystal_sap_stacks_hold_the_other_players_colours():
    """"Each player takes one crystal of every other player's color and places them in a stack in
    his or her starting zone ... Players do not place a crystal of their color in their own
    starting zone." """
    s = sap_game(3)
    a = arena_of(s.tiles)
    colours = [x["team"] for x in s.sides]
    for c in s.crystals:
        assert sorted(c["colours"]) == sorted(x for i, x in enumerate(colours) if i != c["zone"])
        assert tuple(c["hex"]) in a.tile_hexes[s.sides[c["zone"]]["zone"]]


def next_to(s, h, n=0):
    a = arena_of(s.tiles)
    return sorted(x for x in neighbours(tuple(h)) if x in a.whole and a.terrain[x] == "open")[n]


def test_sap_needs_an_adjacent_crystal_of_ones_own_colour():
    """"A wizard must be in a hex adjacent to a crystal to sap its energy ... Wizards may only sap
    crystals of their own color." """
    s = sap_game()
    red_stack = next(c for c in s.crystals if "red" in c["colours"])
    blue_stack = next(c for c in s.crystals if "blue" in c["colours"])
    at = {RED_DRUID: next_to(s, red_stack["hex"]), BLUE_SW: next_to(s, blue_stack["hex"]), RED_SHAMAN: (0, 0)}
    s = arrange(s, at, field=False)
    r = begin(s, RED_DRUID)
    assert legal(r, "sap") == [{"kind": "sap", "hex": red_stack["hex"]}]
    assert legal(begin(s, RED_SHAMAN), "sap") == []
    b = arrange(sap_game(), {RED_DRUID: next_to(s, blue_stack["hex"]), BLUE_SW: (0, 0)}, field=False)
    assert legal(begin(b, RED_DRUID), "sap") == []


def test_sapping_and_casting_exclude_each_other():
    """"A wizard may not sap a crystal and cast a spell on the same turn." """
    s = sap_game(3)
    red_stack = next(c for c in s.crystals if "red" in c["colours"])
    at = {RED_DRUID: next_to(s, red_stack["hex"]), BLUE_SW: next_to(s, red_stack["hex"], 1), "purple-shaman": (0, 0)}
    s = begin(arrange(s, at, field=False), RED_DRUID)
    s2, _ = act(s, {"kind": "sap", "hex": red_stack["hex"]})
    assert "cast" not in kinds(s2) and "step" in kinds(s2)
    s3, _ = act(s, {"kind": "cast", "spell": "tempest", "target": BLUE_SW})
    s3 = finish_dice(s3, BLANK, BLANK)
    assert "sap" not in kinds(s3)


def test_each_sapped_crystal_adds_a_ward_die_and_the_last_one_wins():
    """"That wizard may now ward with an additional 1D against all power sources for each crystal
    he or she has sapped. The first player to sap all of their crystals wins the game." """
    s = sap_game(3)
    red_stacks = [c for c in s.crystals if "red" in c["colours"]]
    at = {RED_DRUID: next_to(s, red_stacks[0]["hex"]), BLUE_SW: (0, 0), "purple-sorceress": (0, 3)}
    s = begin(arrange(s, at, field=False, keep_obstacles=True), RED_DRUID)
    s, ev = act(s, {"kind": "sap", "hex": red_stacks[0]["hex"]})
    assert s.wizards[RED_DRUID]["sapped"] == 1 and s.sides[0]["sapped"] == 1
    assert "red" not in next(c for c in s.crystals if c["hex"] == red_stacks[0]["hex"])["colours"]
    from shared.incantris import dice

    assert dice.ward_roll(s, s.wizards[RED_DRUID], "astral") == {"dice": 3, "plus": 0}  # 2D + 1D
    assert dice.ward_roll(s, s.wizards[RED_DRUID], "spirit") == {"dice": 3, "plus": 0}
    s.wizards[RED_DRUID]["hex"] = list(next_to(s, red_stacks[1]["hex"]))
    s = begin(s, RED_DRUID)
    s, ev = act(s, {"kind": "sap", "hex": red_stacks[1]["hex"]})
    assert E.actor(s) == TERMINAL and E.outcome(s).winners == (0,)


def test_sapped_crystals_count_after_the_sapper_dies():
    """"Wizards who have sapped the energy from a crystal do not have to remain alive to win." """
    s = sap_game(3)
    red_stacks = [c for c in s.crystals if "red" in c["colours"]]
    at = {RED_DRUID: next_to(s, red_stacks[1]["hex"]), BLUE_SW: (0, 0), "purple-sorceress": (0, 3)}
    s = arrange(s, at, field=False)
    s.edit("sides", 0)["sapped"] = 1  # sapped by a wizard who has since died
    s.replace("crystals", tree_copy([c if c["hex"] != red_stacks[0]["hex"]
                                     else dict(c, colours=[x for x in c["colours"] if x != "red"])
                                     for c in s.crystals]))
    s = begin(s, RED_DRUID)
    s, _ = act(s, {"kind": "sap", "hex": red_stacks[1]["hex"]})
    assert E.outcome(s).winners == (0,)


def test_crystals_make_their_hex_impassable():
    s = sap_game()
    stack = s.crystals[0]
    h = next_to(s, stack["hex"])
    s = begin(arrange(s, {RED_DRUID: h, BLUE_SW: (0, 0)}, field=False), RED_DRUID)
    assert tuple(stack["hex"]) not in steps(s)


# --- Capture the Crystal -----------------------------------------------------------------------------
def cap_game():
    return game("capture-the-crystal", 2)


def test_pick_up_ones_own_crystal_from_next_to_it_and_carry_on():
    """"A wizard may pick up a crystal by being in a hex adjacent to it. Wizards may only pick up
    crystals of their own color ... may continue movement and may cast spells on the turn they
    pick up a crystal." A carrier wards with an additional 1D."""
    s = cap_game()
    red = next(c for c in s.crystals if c["colour"] == "red")
    blue = next(c for c in s.crystals if c["colour"] == "blue")
    s = arrange(s, {RED_DRUID: next_to(s, red["hex"]), RED_SHAMAN: next_to(s, blue["hex"]), BLUE_SW: (0, 0)},
                field=False)
    assert legal(begin(s, RED_SHAMAN), "pick-up") == []
    r = begin(s, RED_DRUID)
    r, ev = act(r, {"kind": "pick-up", "hex": red["hex"]})
    assert r.wizards[RED_DRUID]["carrying"] == "red" and "step" in kinds(r) and "cast" in kinds(r)
    assert tuple(red["hex"]) in steps(r)  # the hex is free once the crystal is carried
    from shared.incantris import dice

    assert dice.ward_roll(r, r.wizards[RED_DRUID], "elemental") == {"dice": 3, "plus": 0}
    assert dice.ward_roll(r, r.wizards[RED_SHAMAN], "elemental") == {"dice": 1, "plus": 0}


def test_a_dead_carrier_drops_the_crystal_where_it_fell():
    """"If a wizard carrying a crystal dies, the crystal remains in the hex where the wizard died.
    It may then be picked up by another wizard on the team." """
    s = cap_game()
    red = next(c for c in s.crystals if c["colour"] == "red")
    s = arrange(s, {RED_DRUID: (1, 0), RED_SHAMAN: (1, 1), BLUE_SW: (3, 0)}, field=False, life={RED_DRUID: 1})
    s.replace("crystals", tree_copy([dict(red, hex=None, carrier=RED_DRUID)]
                                    + [c for c in s.crystals if c["colour"] != "red"]))
    s.wizards[RED_DRUID]["carrying"] = "red"
    s = begin(s, BLUE_SW)
    s, _ = act(s, {"kind": "cast", "spell": "gloom-strike", "target": RED_DRUID})
    s = finish_dice(s, WAND, BLANK)
    dropped = next(c for c in s.crystals if c["colour"] == "red")
    assert dropped["hex"] == [1, 0] and dropped["carrier"] is None
    s = begin(s, RED_SHAMAN)
    assert legal(s, "pick-up") == [{"kind": "pick-up", "hex": [1, 0]}]


def home_edge(s, side):
    a = arena_of(s.tiles)
    zone = a.tile_hexes[s.sides[side]["zone"]]
    for p in sorted(h for h in zone if h in a.partial):
        for n in neighbours(p):
            if n in a.whole and n in zone and a.terrain[n] == "open" and a.terrain.get(p) == "open":
                return p, n
    raise AssertionError("no edge")


def test_the_carrier_steps_off_through_a_partial_hex_of_its_zone():
    """Capture the Crystal: "It takes one movement point to step off the edge of the arena. A
    wizard with the crystal may step into a partial hex in their starting zone, so long as he or
    she has at least one movement point still remaining"."""
    s = cap_game()
    edge, inner = home_edge(s, 0)
    s = arrange(s, {RED_DRUID: inner, BLUE_SW: (0, 0), RED_SHAMAN: (1, 1)}, field=False)
    red = next(c for c in s.crystals if c["colour"] == "red")
    s.replace("crystals", tree_copy([dict(red, hex=None, carrier=RED_DRUID)]
                                    + [c for c in s.crystals if c["colour"] != "red"]))
    s.wizards[RED_DRUID]["carrying"] = "red"
    s = begin(s, RED_DRUID)
    assert edge in steps(s)
    s, _ = act(s, {"kind": "step", "to": list(edge)})
    assert kinds(s) >= {"exit"} and "end" not in kinds(s)
    with pytest.raises(RuleViolation, match="passing through"):  # on the rim it can only step on or off
        E.apply(s, E.actor(s), {"kind": "end"})
    s, ev = act(s, {"kind": "exit"})
    assert E.actor(s) == TERMINAL and E.outcome(s).winners == (0,)


def test_the_last_point_must_be_kept_for_stepping_off():
    s = cap_game()
    edge, inner = home_edge(s, 0)
    s = arrange(s, {RED_DRUID: inner, BLUE_SW: (0, 0)}, field=False)
    red = next(c for c in s.crystals if c["colour"] == "red")
    s.replace("crystals", tree_copy([dict(red, hex=None, carrier=RED_DRUID)]
                                    + [c for c in s.crystals if c["colour"] != "red"]))
    s.wizards[RED_DRUID]["carrying"] = "red"
    s = begin(s, RED_DRUID)
    s.turn["mp"] = 1
    assert edge not in steps(s)
    s.turn["mp"] = 2
    assert edge in steps(s)


def test_without_the_crystal_partial_hexes_stay_closed():
    s = cap_game()
    edge, inner = home_edge(s, 0)
    s = begin(arrange(s, {RED_DRUID: inner, BLUE_SW: (0, 0)}, field=False), RED_DRUID)
    assert edge not in steps(s) and "exit" not in kinds(s)


# --- Shifting Arena -----------------------------------------------------------------------------------
def end_round(s):
    """Activate and end every remaining wizard's turn until the round turns over."""
    r = s.round
    while s.round == r and E.actor(s) >= 0:
        options = legal(s)
        if options[0]["kind"] == "activate":
            s, _ = act(s, options[0])
            s, _ = act(s, {"kind": "end"})
        else:
            s, _ = act(s, options[0])
    return s


def test_the_arena_shifts_one_arm_after_each_round_with_two_players():
    """Shifting Arena (Figure 7): "One tile is shifted at the end of each round in a clockwise
    direction ... in a two-player game, the first shift brings the players' starting zones
    together." Wizards on the shifting tile ride along."""
    s = game("shifting-arena", 2)
    arm = s.arms[0]
    full = s.tiles[arm[0]]
    rider = (full["centre"][0] + 1, full["centre"][1])
    s = arrange(s, {RED_DRUID: rider, BLUE_SW: (0, 0)}, field=False)
    zones = [s.tiles[z]["centre"] for z in (s.sides[0]["zone"], s.sides[1]["zone"])]
    before = distance(tuple(zones[0]), tuple(zones[1]))
    s = end_round(s)
    assert s.round == 2
    moved = s.tiles[arm[0]]
    assert slot_of(tuple(moved["centre"])) == (slot_of(tuple(full["centre"])) + 1) % 6
    assert moved["rotation"] == (full["rotation"] + 1) % 6
    zones = [s.tiles[z]["centre"] for z in (s.sides[0]["zone"], s.sides[1]["zone"])]
    assert distance(tuple(zones[0]), tuple(zones[1])) < before
    from shared.hexgrid import rotate

    assert tuple(s.wizards[RED_DRUID]["hex"]) == rotate(rider, 1)
    assert s.wizards[BLUE_SW]["hex"] == [0, 0]
    E.check_invariants(s)


def test_four_players_shift_two_arms_a_round():
    s = arrange(game("shifting-arena", 4), {RED_DRUID: (0, 0), BLUE_SW: (1, 0)}, field=False)
    s.edit("sides", 2)["out"] = s.edit("sides", 3)["out"] = None
    before = [tuple(s.tiles[a[0]]["centre"]) for a in s.arms]
    s = end_round(s)
    after = [tuple(s.tiles[a[0]]["centre"]) for a in s.arms]
    assert sum(1 for x, y in zip(before, after) if x != y) == 2


def test_a_wizard_on_a_seam_chooses_to_ride_or_stay():
    """"If a wizard occupies a hex created by two or more tiles when one of the tiles shifts, the
    player who controls the wizard immediately moves the wizard into an adjacent open or stream
    hex on a single tile." """
    s = game("shifting-arena", 2)
    a = arena_of(s.tiles)
    arm = s.arms[0]
    seam = sorted(h for h in a.whole if set(a.owners[h]) == {0, arm[0]})[2]
    s = arrange(s, {RED_DRUID: seam, BLUE_SW: (0, -1) if seam != (0, -1) else (0, 1)}, field=False)
    r = s.round
    while E.actor(s) >= 0 and not kinds(s) & {"relocate"}:
        s, _ = act(s, legal(s)[0]) if legal(s)[0]["kind"] == "activate" else act(s, {"kind": "end"})
    options = [tuple(o["to"]) for o in legal(s, "relocate")]
    assert options and all(o in a.single and distance(o, seam) == 1 for o in options)
    riding = [o for o in options if a.owners[o] == (arm[0],)]
    staying = [o for o in options if a.owners[o] == (0,)]
    assert riding and staying
    s2, _ = act(s, {"kind": "relocate", "to": list(staying[0])})
    assert s2.wizards[RED_DRUID]["hex"] == list(staying[0]) and s2.round == r + 1
    s3, _ = act(s, {"kind": "relocate", "to": list(riding[0])})
    from shared.hexgrid import rotate

    assert tuple(s3.wizards[RED_DRUID]["hex"]) == rotate(riding[0], 1)
    E.check_invariants(s2)
    E.check_invariants(s3)
