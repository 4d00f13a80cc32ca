"""Confirm range and confirm line of sight (Casting Spells, Figures 4 and 5)."""
from __future__ import annotations

from shared.hexgrid import distance, iter_within
from shared.incantris import sight
from shared.incantris.arena import arena_of, slot_vector

from .support import arrange, begin, game, open_field, targets

RED_SHAMAN, RED_DRUID, RED_SORC = "red-shaman", "red-druid", "red-sorceress"
BLUE_AK, BLUE_SW, BLUE_SORC = "blue-arcane-knight", "blue-shadow-weaver", "blue-sorcerer"


def druid_turn(at: dict, **kw):
    s = arrange(game(), at, **kw)
    return begin(s, RED_DRUID)


def test_range_counts_hexes_up_to_and_including_it():
    """Figure 4: Tempest (range 3) reaches a wizard three hexes away but not four."""
    s = druid_turn({RED_DRUID: (0, 0), BLUE_SW: (3, 0), BLUE_SORC: (0, -4), BLUE_AK: (-3, 3)})
    got = targets(s, "tempest")
    assert BLUE_SW in got and BLUE_AK in got and BLUE_SORC not in got


def test_a_wizard_can_always_target_itself():
    """"Wizards can always see the hex they occupy"; Single Wizard targets include the caster."""
    s = druid_turn({RED_DRUID: (0, 0), BLUE_SW: (5, 0)})
    assert RED_DRUID in targets(s, "breath-of-life")


def test_wizards_of_any_team_block_sight():
    """Casting Spells: "The hexes occupied by other wizards (regardless of their team) always
    block line of sight." """
    s = druid_turn({RED_DRUID: (0, 0), RED_SHAMAN: (1, 0), BLUE_SW: (2, 0)})
    assert BLUE_SW not in targets(s, "tempest")
    s = druid_turn({RED_DRUID: (0, 0), BLUE_AK: (1, 0), BLUE_SW: (2, 0)})
    assert BLUE_SW not in targets(s, "tempest") and BLUE_AK in targets(s, "tempest")


def _with(kind, hexes, at):
    s = arrange(game(), at)
    s.replace("obstacles", [{"kind": kind, "hexes": [list(h) for h in hexes]}])
    return begin(s, RED_DRUID)


def test_trees_and_high_walls_block_low_walls_do_not():
    """Obstacles: high walls and trees block line of sight, low walls do not."""
    at = {RED_DRUID: (0, 0), BLUE_SW: (3, 0)}
    assert BLUE_SW not in targets(_with("tree", [(2, 0)], at), "tempest")
    assert BLUE_SW not in targets(_with("high-wall", [(1, 0), (1, 1)], at), "tempest")
    assert BLUE_SW in targets(_with("low-wall", [(1, 0), (1, 1)], at), "tempest")


def test_streams_and_ocean_do_not_block():
    """Movement & Terrain: "Neither the stream nor the bridge block line of sight." "Ocean
    hexes do not block line of sight." """
    s = arrange(game(), {RED_DRUID: (-2, 0), BLUE_SW: (1, 0)})
    s.edit("tiles")[0] = {"tile": "T3", "side": "B", "centre": [0, 0], "rotation": 0}  # a pond in the middle
    s = begin(s, RED_DRUID)
    assert BLUE_SW in targets(s, "tempest")
    s = arrange(game(), {RED_DRUID: (0, -2), BLUE_SW: (0, 1)})
    s.edit("tiles")[0] = {"tile": "T1", "side": "B", "centre": [0, 0], "rotation": 0}  # a stream across
    s = begin(s, RED_DRUID)
    assert BLUE_SW in targets(s, "tempest")


def _effect(s, spell, caster, side, **where):
    key = f"{caster}:{spell}"
    s.edit("effects")[key] = dict({"id": key, "spell": spell, "caster": caster, "side": side, "since": 0}, **where)


def test_hydras_and_totems_block_crystals_blaze_and_circles_do_not():
    """Guardian Hydra and Spell Totem block line of sight; crystals do not obstruct it;
    Blaze and Power Circle do not block it."""
    at = {RED_DRUID: (0, 0), BLUE_SW: (3, 0), BLUE_SORC: (0, -6)}
    for spell, where, blocks in (("guardian-hydra", {"hex": [2, 0]}, True), ("spell-totem", {"hex": [2, 0]}, True),
                                 ("blaze", {"centre": [2, 0]}, False), ("power-circle", {"centre": [2, 0]}, False)):
        s = arrange(game(), at)
        _effect(s, spell, BLUE_SORC, 1, **where)
        s = begin(s, RED_DRUID)
        assert (BLUE_SW not in targets(s, "tempest")) == blocks, spell
    s = arrange(game("crystal-sap"), at)
    s.replace("crystals", [{"hex": [2, 0], "zone": 1, "colours": ["red"]}])
    s = begin(s, RED_DRUID)
    assert BLUE_SW in targets(s, "tempest")


def test_fog_wall_blocks_only_the_opposing_team():
    """Fog Wall "blocks their line of sight" - for wizards on opposing teams."""
    at = {RED_DRUID: (0, 0), BLUE_SW: (3, 0), BLUE_SORC: (0, -6), RED_SHAMAN: (-3, 0)}
    s = arrange(game(), at)
    _effect(s, "fog-wall", BLUE_SW, 1, hexes=[[2, 0], [2, -1]])
    assert BLUE_SW not in targets(begin(s, RED_DRUID), "tempest")
    s = arrange(game(), at)
    _effect(s, "fog-wall", RED_SHAMAN, 0, hexes=[[2, 0], [2, -1]])
    assert BLUE_SW in targets(begin(s, RED_DRUID), "tempest")


def test_the_arena_edge_blocks_sight():
    """"The outside edge of the arena also blocks sight": across a notch between two tiles."""
    two = arena_of([open_field()[0], {"tile": "T2", "side": "B", "centre": list(slot_vector(0)), "rotation": 0}])
    three = arena_of([open_field()[0], {"tile": "T2", "side": "B", "centre": list(slot_vector(0)), "rotation": 0},
                      {"tile": "T4", "side": "A", "centre": list(slot_vector(5)), "rotation": 0}])
    pairs = [(a, b) for a in two.whole for b in two.whole if a < b and distance(a, b) <= 8
             and not sight.can_see(two, a, b, frozenset()) and sight.can_see(three, a, b, frozenset())]
    assert pairs, "some lines leave the two-tile arena and come back in"
    a, b = pairs[0]
    assert a in three.whole and b in three.whole


def test_sight_from_any_part_of_the_hex_is_not_symmetric():
    """Figure 5: "although the purple Sorceress can see the blue Shadow Weaver, the blue Shadow
    Weaver cannot see the purple Sorceress"."""
    a = arena_of(open_field())
    found = None
    for tree in [(1, 0), (1, 1), (2, -1)]:
        for x in iter_within((0, 0), 4):
            for y in iter_within((0, 0), 4):
                if len({x, y, tree}) < 3:
                    continue
                blocked = frozenset({x, y, tree})
                if sight.can_see(a, x, y, blocked) and not sight.can_see(a, y, x, blocked):
                    found = (tree, x, y)
                    break
            if found:
                break
        if found:
            break
    assert found
    tree, x, y = found
    s = arrange(game(), {RED_DRUID: x, BLUE_SW: y})
    s.replace("obstacles", [{"kind": "tree", "hexes": [list(tree)]}])
    s2 = begin(s, RED_DRUID)
    assert BLUE_SW in [t for t in targets(s2, "entanglement")]
    s3 = begin(s, BLUE_SW)
    # Gloom Strike (range 12) reaches every hex here: only sight keeps the Druid out
    assert BLUE_SW in targets(s3, "gloom-strike") and RED_DRUID not in targets(s3, "gloom-strike")
