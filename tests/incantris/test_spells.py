"""Casting Spells and the Spell & Magical Ability Reference: targets, dice, damage, healing,
death, and what each of the twenty spells does."""
from __future__ import annotations

import pytest

from shared.engine import CHANCE, RuleViolation
from shared.engine.state import tree_copy

from .support import (
    BLANK,
    BOTH,
    WAND,
    WARD,
    E,
    act,
    arrange,
    begin,
    fill,
    game,
    kinds,
    legal,
    pools,
    roll,
    steps,
    targets,
    types,
)

RED_SHAMAN, RED_DRUID, RED_SORC = "red-shaman", "red-druid", "red-sorceress"
BLUE_AK, BLUE_SW, BLUE_SORC = "blue-arcane-knight", "blue-shadow-weaver", "blue-sorcerer"
PURPLE_SW, PURPLE_SHAMAN, PURPLE_SORC = "purple-shadow-weaver", "purple-shaman", "purple-sorceress"
GREY_AK, GREY_DRUID, GREY_SORC = "grey-arcane-knight", "grey-druid", "grey-sorcerer"


def turn_of(wid, at, seats=2, teams=None, **kw):
    opts = {"teams": teams} if teams else {}
    s = arrange(game("battle-royale", seats, **opts), at, **kw)
    return begin(s, wid)


def cast(s, spell, target, **extra):
    return act(s, dict({"kind": "cast", "spell": spell, "target": target}, **extra))


def life(s, wid):
    return s.wizards[wid]["life"]


def test_hits_are_wands_left_after_wards():
    """Casting dice: each ward cancels one wand; Inferno 3D+2 against a Sorcerer's 2D+1
    elemental ward."""
    s = turn_of(PURPLE_SORC, {PURPLE_SORC: (0, 0), BLUE_SORC: (3, 0)}, teams=["purple", "blue"])
    s, _ = cast(s, "inferno", BLUE_SORC)
    assert [n for _, n in pools(s)] == [3, 2]  # 3 casting dice; 2 ward dice (+1)
    s, ev = roll(s, [WAND, BOTH, BLANK], [WARD, BLANK])
    hits = [e for e in ev if e["type"] == "hits"][0]
    assert (hits["wands"], hits["wards"], hits["hits"]) == (4, 2, 2)
    assert life(s, BLUE_SORC) == 6


def test_more_wards_than_wands_do_no_harm():
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), BLUE_SW: (2, 0)})
    s, _ = cast(s, "tempest", BLUE_SW)
    s, _ = roll(s, [BLANK, BLANK], [WARD, BOTH])
    assert life(s, BLUE_SW) == 8


def test_a_wizard_casts_one_spell_per_turn():
    """"A wizard may only cast a single spell per turn." """
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), BLUE_SW: (2, 0)})
    s, _ = cast(s, "tempest", BLUE_SW)
    s, _ = roll(s, [BLANK, BLANK], [WARD, BOTH])
    assert "cast" not in kinds(s)
    with pytest.raises(RuleViolation) as e:
        cast(s, "tempest", BLUE_SW)
    assert e.value.rule == "Sequence of Play" and "A wizard may only cast a single spell per turn." in str(e.value)


def test_only_spells_on_the_board_may_be_cast():
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), BLUE_SW: (2, 0)})
    with pytest.raises(RuleViolation):
        cast(s, "inferno", BLUE_SW)


def test_death_removes_the_wizard_and_its_turn_token():
    """"When a wizard reaches zero life points, he or she is dead and is removed from the arena.
    The wizard's corresponding turn token is also removed from play." """
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), BLUE_SW: (2, 0), BLUE_AK: (0, -5)}, life={BLUE_SW: 2})
    s, _ = cast(s, "tempest", BLUE_SW)
    s, ev = roll(s, [WAND, WAND], [BLANK, BLANK])
    assert "death" in types(ev)
    w = s.wizards[BLUE_SW]
    assert not w["alive"] and w["hex"] is None and w["life"] == 0
    s, _ = act(s, {"kind": "end"})
    assert {a["wizard"] for a in legal(s, "activate")} == {BLUE_AK}


def test_healing_regains_a_life_point_per_wand_up_to_the_start():
    """Breath of Life / Healing Warmth: "The target regains 1 life point for each wand rolled.
    Life points cannot exceed the wizard's starting number." No ward is rolled."""
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), RED_SHAMAN: (2, 0), BLUE_SW: (0, -6)}, life={RED_SHAMAN: 6})
    s, _ = cast(s, "breath-of-life", RED_SHAMAN)
    assert [n for _, n in pools(s)] == [1]
    s, _ = roll(s, [WAND])
    assert life(s, RED_SHAMAN) == 9
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), RED_SHAMAN: (2, 0), BLUE_SW: (0, -6)}, life={RED_SHAMAN: 9})
    s, _ = cast(s, "breath-of-life", RED_SHAMAN)
    s, _ = roll(s, [WAND])
    assert life(s, RED_SHAMAN) == 10


def test_area_target_must_be_a_whole_arena_hex_and_hits_seven_hexes():
    """Area: "a single hex that may or may not be occupied ... also affects all six hexes
    surrounding the target hex ... the central targeted hex must always be a whole hex."
    Meteor Storm: "Roll casting dice separately against each wizard in the target area." """
    at = {RED_SORC: (0, 0), BLUE_SW: (4, 1), BLUE_AK: (6, -1), BLUE_SORC: (5, 0)}
    s = turn_of(RED_SORC, at)
    from shared.incantris.arena import arena_of

    a = arena_of(s.tiles)
    centres = [tuple(t) for t in targets(s, "meteor-storm")]
    assert all(c in a.whole for c in centres)
    assert (5, 0) in centres
    s, ev = cast(s, "meteor-storm", [5, 0])
    hit = []
    while E.actor(s) == CHANCE:
        ward = E.chance_request(s).pools[1]
        hit.append(ward.purpose)
        s, _ = roll(s, [WAND, WAND], [BLANK] * ward.count)
    assert len(hit) == 3
    # 3 wands each; wards: Shadow Weaver 2D, Arcane Knight 1D, Sorcerer 2D+1 against elemental
    assert life(s, BLUE_SW) == 5 and life(s, BLUE_AK) == 7 and life(s, BLUE_SORC) == 6


def test_meteor_storm_hits_friends_in_its_area_too():
    s = turn_of(RED_SORC, {RED_SORC: (0, 0), RED_SHAMAN: (4, 1), BLUE_SW: (4, 0)})
    s, _ = cast(s, "meteor-storm", [4, 0])
    n = 0
    while E.actor(s) == CHANCE:
        s, _ = roll(s, [WAND, WAND], [BLANK] * E.chance_request(s).pools[1].count)
        n += 1
    assert n == 2 and life(s, RED_SHAMAN) < 10


def test_single_hex_spells_need_an_empty_hex():
    """Single Hex: "One hex unoccupied by a wizard"; Guardian Hydra: "an unoccupied open ground
    or stream hex. Hydras may not be placed in the ocean." """
    s = arrange(game(), {RED_SORC: (0, -2), BLUE_SW: (2, -2)})
    s.edit("tiles")[0] = {"tile": "T3", "side": "B", "centre": [0, 0], "rotation": 0}
    s.replace("obstacles", [{"kind": "tree", "hexes": [[-2, -1]]}])
    s = begin(s, RED_SORC)
    spots = {tuple(t) for t in targets(s, "guardian-hydra")}
    assert (2, -2) not in spots and (0, 0) not in spots and (-2, -1) not in spots and (0, -2) not in spots
    assert (1, -3) in spots


def test_spectral_rush_needs_a_start_three_hexes_away():
    """Spectral Rush: "may only be cast if the caster began the turn at least three hexes away
    from the target"."""
    s = turn_of(BLUE_AK, {BLUE_AK: (0, 0), RED_DRUID: (3, 0), RED_SHAMAN: (-2, 0)})
    s, _ = act(s, {"kind": "step", "to": [1, 0]})
    s, _ = act(s, {"kind": "step", "to": [2, 0]})
    assert RED_DRUID in targets(s, "spectral-rush")
    s = turn_of(BLUE_AK, {BLUE_AK: (0, 0), RED_DRUID: (3, 0), RED_SHAMAN: (-2, 0)})
    s, _ = act(s, {"kind": "step", "to": [-1, 0]})
    assert RED_SHAMAN not in targets(s, "spectral-rush") and RED_SHAMAN in targets(s, "phantom-blast")


def test_bane_drops_wards_to_one_die_and_is_single():
    """Bane: at least one hit and "the target's warding rolls against all power sources drop to
    1D ... A wizard may only be affected by a single Bane spell at a time." """
    s = turn_of(RED_SHAMAN, {RED_SHAMAN: (0, 0), BLUE_AK: (3, 0), BLUE_SORC: (0, -6)})
    s, _ = cast(s, "bane", BLUE_AK)
    assert [n for _, n in pools(s)] == [3, 2]  # the Arcane Knight's 2D+1 against spirit
    s, ev = roll(s, [WAND, WAND, WAND], [WARD, BLANK])  # 3 wands against 2 wards: one hit
    assert "red-shaman:bane" in s.effects
    s = begin(s, RED_SHAMAN)
    assert BLUE_AK not in targets(s, "bane")
    s, _ = cast(s, "primal-reach", BLUE_AK)
    assert [n for _, n in pools(s)] == [1, 1]
    s, ev = roll(s, [BLANK], [WARD])
    assert [e for e in ev if e["type"] == "hits"][0]["wards"] == 1  # 1D: no +1 any more


def test_bane_on_a_sorcerer_removes_the_best_ward():
    s = turn_of(RED_SORC, {RED_SORC: (0, 0), BLUE_SORC: (3, 0)})
    s.edit("effects")["blue-arcane-knight:bane"] = {"id": "blue-arcane-knight:bane", "spell": "bane", "caster": BLUE_AK,
                                                   "side": 1, "since": 0, "wizard": BLUE_SORC}
    s, _ = cast(s, "meteor-storm", [3, 0])
    assert E.chance_request(s).pools[1].count == 1
    s, ev = roll(s, [WAND, WAND], [WARD])
    assert [e for e in ev if e["type"] == "hits"][0]["wards"] == 1  # 1D, no +1


def test_a_failed_persistent_spell_leaves_nothing():
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), BLUE_SW: (3, 0)})
    s, _ = cast(s, "entanglement", BLUE_SW)
    s, _ = roll(s, [BLANK, BLANK, WARD], [WARD, BLANK])
    assert s.effects == {}


def test_recast_moves_the_token_and_a_failed_recast_keeps_it():
    """"if it is successfully cast again, its spell token is moved from the previous position to
    the new position ... If the wizard attempts to cast the spell again but fails, the first
    instance of the spell's effect remains." """
    at = {RED_DRUID: (0, 0), BLUE_SW: (3, 0), BLUE_AK: (0, 3)}
    s = turn_of(RED_DRUID, at)
    s, _ = cast(s, "entanglement", BLUE_SW)
    s, _ = roll(s, [WAND, BLANK, BLANK], [BLANK, BLANK])
    assert s.effects["red-druid:entanglement"]["wizard"] == BLUE_SW
    s2 = begin(s, RED_DRUID)
    s3, _ = cast(s2, "entanglement", BLUE_AK)
    s3, _ = roll(s3, [BLANK, BLANK, BLANK], [BLANK, BLANK])
    assert s3.effects["red-druid:entanglement"]["wizard"] == BLUE_SW
    s4, _ = cast(s2, "entanglement", BLUE_AK)
    s4, ev = roll(s4, [WAND, WAND, WAND], [BLANK, BLANK])
    assert s4.effects["red-druid:entanglement"]["wizard"] == BLUE_AK and len(s4.effects) == 1
    assert "effect-moved" in types(ev)


def test_cancel_one_own_persistent_spell_any_time_of_the_turn():
    """"A wizard may cancel one of his or her own persistent spells on his or her turn in
    addition to moving and casting a spell." """
    s = turn_of(GREY_SORC, {GREY_SORC: (0, 0), RED_DRUID: (4, 0)}, teams=["grey", "red"])
    s, _ = cast(s, "blaze", [4, 0])
    s2 = begin(s, GREY_SORC)
    s2, _ = cast(s2, "guardian-hydra", [2, -2])
    assert {a["effect"] for a in legal(s2, "cancel")} == {"grey-sorcerer:blaze", "grey-sorcerer:guardian-hydra"}
    s2, _ = act(s2, {"kind": "cancel", "effect": "grey-sorcerer:blaze"})
    assert "grey-sorcerer:blaze" not in s2.effects and legal(s2, "cancel") == []


def test_teleport_is_automatic_on_the_team_and_moves_up_to_four():
    """Teleport: "automatically cast successfully if the target is the caster or a wizard on the
    caster's team"; up to four hexes; never to an impassable hex; FAQ 4: through a fog wall."""
    s = turn_of(BLUE_SW, {BLUE_SW: (0, 0), BLUE_AK: (1, 0), RED_DRUID: (0, -6)})
    s.replace("obstacles", [{"kind": "tree", "hexes": [[3, 0]]}])
    s.edit("effects")["red-druid:fog-wall"] = {"id": "red-druid:fog-wall", "spell": "fog-wall", "caster": RED_DRUID,
                                               "side": 0, "since": 0, "hexes": [[2, 0], [2, -1]]}
    s, _ = cast(s, "teleport", BLUE_AK)
    assert E.actor(s) == 1
    spots = {tuple(a["to"]) for a in legal(s, "teleport")}
    assert (5, 0) in spots and (6, 0) not in spots and (0, 0) not in spots
    assert (3, 0) not in spots and (2, 0) not in spots  # tree, fog: never onto an impassable hex
    assert (1, 0) in spots  # staying put
    s, ev = act(s, {"kind": "teleport", "to": [5, 0]})
    assert s.wizards[BLUE_AK]["hex"] == [5, 0]


def test_teleport_on_a_foe_needs_a_hit():
    s = turn_of(BLUE_SW, {BLUE_SW: (0, 0), RED_DRUID: (3, 0)})
    s, _ = cast(s, "teleport", RED_DRUID)
    assert [n for _, n in pools(s)] == [3, 2]
    s2, _ = roll(s, [BLANK, BLANK, WARD], [WARD, BLANK])
    assert E.actor(s2) == 1 and "teleport" not in kinds(s2)
    s3, _ = roll(s, [WAND, BLANK, WARD], [BLANK, BLANK])
    assert "teleport" in kinds(s3)


def test_primal_reach_moves_the_target_a_hex_per_damage_point():
    """Primal Reach: "he or she may move the target one hex for each point of damage inflicted.
    The caster may not move the target into or through any impassable hex. Streams do not slow
    down the target." """
    s = arrange(game(), {RED_SHAMAN: (0, -3), BLUE_SW: (2, -1)})
    s.edit("tiles")[0] = {"tile": "T1", "side": "B", "centre": [0, 0], "rotation": 0}
    s = begin(s, RED_SHAMAN)
    s, _ = cast(s, "primal-reach", BLUE_SW)
    s, _ = roll(s, [WAND], [BLANK, BLANK])
    assert s.wizards[BLUE_SW]["life"] == 5
    options = {tuple(a["to"]) for a in legal(s, "reach")}
    assert (2, 0) in options  # a stream, entered freely
    s, _ = act(s, {"kind": "reach", "to": [2, 0]})
    s, _ = act(s, {"kind": "reach", "to": [3, 0]})
    s, _ = act(s, {"kind": "reach", "to": [4, 0]})
    assert s.wizards[BLUE_SW]["hex"] == [4, 0] and "reach" not in kinds(s)


def test_primal_reach_may_stop_early_and_avoids_impassable_hexes():
    s = turn_of(RED_SHAMAN, {RED_SHAMAN: (0, 0), BLUE_SW: (2, 0), BLUE_AK: (3, 0)})
    s.replace("obstacles", [{"kind": "tree", "hexes": [[2, 1]]}])
    s, _ = cast(s, "primal-reach", BLUE_SW)
    s, _ = roll(s, [WAND], [BLANK, BLANK])
    options = {tuple(a["to"]) for a in legal(s, "reach")}
    assert (3, 0) not in options and (2, 1) not in options
    s, _ = act(s, {"kind": "reach-stop"})
    assert s.wizards[BLUE_SW]["hex"] == [2, 0] and E.actor(s) == 0 and "end" in kinds(s)


def test_scorching_chain_jumps_within_three_hexes_and_sight():
    """Scorching Chain: "If the target loses at least one life point, the fiery chain may jump to
    another wizard ... up to three hexes away ... within the damaged wizard's line of sight ...
    may not affect the same wizard twice in a single casting." """
    at = {RED_SORC: (0, 0), BLUE_SW: (3, 0), BLUE_AK: (5, 0), BLUE_SORC: (3, 4)}
    s = turn_of(RED_SORC, at)
    s, _ = cast(s, "scorching-chain", BLUE_SW)
    s, _ = roll(s, [WAND, WAND], [BLANK, BLANK])
    jumps = {a["target"] for a in legal(s, "chain")}
    assert BLUE_AK in jumps and RED_SORC in jumps and BLUE_SORC not in jumps and BLUE_SW not in jumps
    s, _ = act(s, {"kind": "chain", "target": BLUE_AK})
    s, _ = fill(s)
    # from the Arcane Knight at (5, 0) nobody new stands within three hexes: the chain ends
    assert "chain" not in kinds(s) and "end" in kinds(s)


def test_scorching_chain_may_stop_by_choice():
    s = turn_of(RED_SORC, {RED_SORC: (0, 0), BLUE_SW: (3, 0), BLUE_AK: (5, 0)})
    s, _ = cast(s, "scorching-chain", BLUE_SW)
    s, _ = fill(s)
    s, _ = act(s, {"kind": "chain-stop"})
    assert "end" in kinds(s) and s.wizards[BLUE_AK]["life"] == 10


def test_scorching_chain_stops_when_no_life_is_lost():
    s = turn_of(RED_SORC, {RED_SORC: (0, 0), BLUE_SW: (3, 0), BLUE_AK: (4, 0)})
    s, _ = cast(s, "scorching-chain", BLUE_SW)
    s, _ = roll(s, [BLANK, BLANK], [WARD, WARD])
    assert "chain" not in kinds(s) and "end" in kinds(s)


def test_power_circle_adds_one_to_every_casting_roll_within_it():
    """Power Circle: "All spells cast within the Power Circle that require the roll of casting
    dice receive an additional +1" - for any team - and it remains if its caster dies."""
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), BLUE_SW: (3, 0)})
    s.edit("effects")["blue-sorcerer:power-circle"] = {"id": "blue-sorcerer:power-circle", "spell": "power-circle",
                                                       "caster": BLUE_SORC, "side": 1, "since": 0, "centre": [0, 1]}
    s, _ = cast(s, "tempest", BLUE_SW)
    s, ev = roll(s, [BLANK, BLANK], [BLANK, BLANK])
    assert [e for e in ev if e["type"] == "hits"][0]["wands"] == 3  # 2D+2 +1


def test_guardian_hydra_casts_flame_darts_on_later_turns():
    """Guardian Hydra: "On the caster's subsequent turns, the hydra casts Flame Darts with an
    elemental power source, but with 2D+1." Blocks sight, impassable, indestructible."""
    s = turn_of(RED_SORC, {RED_SORC: (0, 0), BLUE_SW: (4, 0)})
    s, _ = cast(s, "guardian-hydra", [2, -2])
    assert legal(s, "hydra") == []  # not on the turn it is placed
    s2 = begin(s, RED_SORC)
    assert {a["target"] for a in legal(s2, "hydra")} >= {BLUE_SW}
    s2, _ = act(s2, {"kind": "hydra", "target": BLUE_SW})
    assert [n for _, n in pools(s2)] == [2, 2]
    s2, ev = roll(s2, [BLANK, BLANK], [BLANK, BLANK])
    assert [e for e in ev if e["type"] == "hits"][0]["wands"] == 1
    assert legal(s2, "hydra") == [] and "cast" in kinds(s2)  # the wizard still casts its own spell


def test_a_dead_casters_hydra_stays_but_no_longer_casts():
    s = turn_of(RED_SORC, {RED_SORC: (0, 0), BLUE_SW: (4, 0), RED_DRUID: (0, 4)})
    s, _ = cast(s, "guardian-hydra", [2, -2])
    s.wizards[RED_SORC].update(alive=False, life=0, hex=None)
    s2 = begin(s, BLUE_SW)
    assert "red-sorceress:guardian-hydra" in s2.effects
    from shared.incantris.movement import Ground

    assert Ground(s2).blocked(s2.wizards[BLUE_SW], (2, -2))
    s3 = begin(s2, RED_DRUID)
    assert legal(s3, "hydra") == []


def test_spell_totem_lets_the_caster_cast_from_it_later():
    """Spell Totem: "On future turns the caster may cast spells or use magical abilities from the
    totem's location as if he or she is standing in that hex." """
    s = turn_of(PURPLE_SORC, {PURPLE_SORC: (0, 0), BLUE_SW: (7, -1)}, teams=["purple", "blue"])
    s, _ = cast(s, "spell-totem", [5, 0])
    assert not [a for a in legal(s, "cast") if a.get("from")]
    s2 = begin(s, PURPLE_SORC)
    via = [a for a in legal(s2, "cast") if a.get("from") == "totem" and a["spell"] == "inferno"]
    assert [a["target"] for a in via] == [BLUE_SW]
    assert BLUE_SW not in targets(s2, "inferno")  # out of range from her own hex


def test_fog_wall_stops_foes_but_lets_the_team_pass():
    """Fog Wall: "Wizards on opposing teams may not move through the wall ... The caster and other
    wizards on his or her team may move through the fog wall, but no wizard may occupy a fog wall
    hex for any reason." """
    at = {PURPLE_SW: (0, 0), PURPLE_SHAMAN: (0, 3), BLUE_AK: (3, -3)}
    s = turn_of(PURPLE_SW, at, teams=["purple", "blue"])
    s, _ = cast(s, "fog-wall", [[1, 1], [2, 1]])
    assert s.effects["purple-shadow-weaver:fog-wall"]["hexes"] == [[1, 1], [2, 1]]
    s2 = begin(s, PURPLE_SHAMAN)
    s2, _ = act(s2, {"kind": "step", "to": [1, 2]})
    assert (1, 1) in steps(s2)
    s2, _ = act(s2, {"kind": "step", "to": [1, 1]})
    assert "end" not in kinds(s2)
    s3 = arrange(s, {PURPLE_SW: (0, 0), PURPLE_SHAMAN: (0, 3), BLUE_AK: (2, 0)}, field=False, keep_obstacles=True)
    s3.replace("effects", tree_copy(s.effects))
    s3 = begin(s3, BLUE_AK)
    assert (2, 1) not in steps(s3) and (1, 1) not in steps(s3)


def test_fog_wall_may_be_one_hex_or_two_adjacent():
    s = turn_of(PURPLE_SW, {PURPLE_SW: (0, 0), BLUE_AK: (3, -3)}, teams=["purple", "blue"])
    walls = targets(s, "fog-wall")
    assert [[1, 1]] in walls and [[1, 1], [2, 1]] in walls
    assert not any(len(w) == 2 and abs(w[0][0] - w[1][0]) + abs(w[0][1] - w[1][1]) > 2 for w in walls)


def test_cleansing_fire_cancels_a_whole_effect_instead_of_a_spell():
    """Cleansing Fire: cancel "any persistent magical effect affecting him/her, in the hex he/she
    occupies, in an adjacent hex, or affecting an adjacent wizard" instead of casting; FAQ 2:
    the entire Blaze or Power Circle is one effect."""
    at = {RED_SORC: (0, 0), GREY_SORC: (5, 0), GREY_AK: (1, 0)}
    s = arrange(game("battle-royale", 2, teams=["red", "grey"]), at)
    s.replace("effects", {
        "grey-sorcerer:blaze": {"id": "grey-sorcerer:blaze", "spell": "blaze", "caster": GREY_SORC, "side": 1,
                                "since": 0, "centre": [-2, 1]},
        "grey-druid:bane": {"id": "grey-druid:bane", "spell": "bane", "caster": "grey-druid", "side": 1, "since": 0,
                            "wizard": GREY_AK},
        "grey-sorcerer:guardian-hydra": {"id": "grey-sorcerer:guardian-hydra", "spell": "guardian-hydra",
                                         "caster": GREY_SORC, "side": 1, "since": 0, "hex": [3, -3]},
    })
    s = begin(s, RED_SORC)
    options = {a["effect"] for a in legal(s, "cleanse")}
    assert options == {"grey-sorcerer:blaze", "grey-druid:bane"}
    s, _ = act(s, {"kind": "cleanse", "effect": "grey-sorcerer:blaze"})
    assert "grey-sorcerer:blaze" not in s.effects
    assert "cast" not in kinds(s) and "cleanse" not in kinds(s)


def test_only_sorcerers_have_cleansing_fire():
    s = turn_of(RED_DRUID, {RED_DRUID: (0, 0), BLUE_SW: (1, 0)})
    s.edit("effects")["blue-sorcerer:blaze"] = {"id": "blue-sorcerer:blaze", "spell": "blaze", "caster": BLUE_SORC,
                                                "side": 1, "since": 0, "centre": [0, 0]}
    assert legal(s, "cleanse") == []
