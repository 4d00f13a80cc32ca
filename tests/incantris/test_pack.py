"""The content pack: what the rulebook prints is there as printed, what it does not print is
authored within the constraints the text states (RULE-GAPS.md, Incantris)."""
from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from shared.hexgrid import iter_within
from shared.incantris.arena import OCEAN, OPEN, arena_of, relative
from shared.incantris.pack import Pack, load

PACK = load()
RAW = PACK.data

# Spell & Magical Ability Reference, as printed: name -> (range, target, casting dice)
PRINTED = {
    "bane": (6, "wizard", "3D"), "blaze": (6, "area", "Auto"), "breath-of-life": (4, "wizard", "1D+2"),
    "eagle-talon": (1, "wizard", "3D+2"), "entanglement": (6, "wizard", "3D"), "flame-darts": (8, "wizard", "1D+2"),
    "fog-wall": (6, "two-hexes", "Auto"), "gloom-strike": (12, "wizard", "2D+1"), "guardian-hydra": (6, "hex", "Auto"),
    "healing-warmth": (4, "wizard", "1D+2"), "inferno": (4, "wizard", "3D+2"), "meteor-storm": (8, "area", "2D+1"),
    "phantom-blast": (1, "wizard", "2D+2"), "power-circle": (5, "area", "Auto"), "primal-reach": (4, "wizard", "1D+2"),
    "scorching-chain": (5, "wizard", "2D+1"), "spectral-rush": (1, "wizard", "2D+3"),
    "spell-totem": (10, "hex", "Auto"),
    "teleport": (6, "wizard", "3D/Auto"), "tempest": (3, "wizard", "2D+2"),
}
PERSISTENT = {"bane", "blaze", "entanglement", "fog-wall", "guardian-hydra", "power-circle", "spell-totem"}


def test_pack_validates_against_its_schema():
    """Content packs are validated with jsonschema at load (DESIGN: Content packs)."""
    here = Path("shared/incantris/content")
    data = json.loads((here / "incantris.json").read_text())
    jsonschema.validate(data, json.loads((here / "schema.json").read_text()))


def test_schema_rejects_a_spell_with_a_bad_dice_notation():
    here = Path("shared/incantris/content")
    data = json.loads((here / "incantris.json").read_text())
    data["spells"]["inferno"]["dice"] = "3 dice"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, json.loads((here / "schema.json").read_text()))


def test_all_twenty_spells_as_printed():
    """Spell & Magical Ability Reference: range, target and casting dice of all 20 spells."""
    assert set(RAW["spells"]) == set(PRINTED)
    for key, (rng, target, dice) in PRINTED.items():
        s = RAW["spells"][key]
        assert (s["range"], s["target"], s["dice"]) == (rng, target, dice), key
        assert s["persistent"] == (key in PERSISTENT), key
        assert s["origin"] == "rulebook" and s["name"] in s["section"]


def test_spell_dice_are_parsed():
    assert (PACK.spells["inferno"].dice, PACK.spells["inferno"].plus) == (3, 2)
    assert (PACK.spells["bane"].dice, PACK.spells["bane"].plus) == (3, 0)
    assert PACK.spells["blaze"].auto and not PACK.spells["teleport"].auto
    assert PACK.spells["teleport"].dice == 3


def test_five_magical_abilities():
    """Magical Abilities: Bear Presence, Cleansing Fire, Retribution, Shadow Dance, Water Walk."""
    assert set(RAW["abilities"]) == {"bear-presence", "cleansing-fire", "retribution", "shadow-dance", "water-walk"}


def test_twelve_wizards_in_four_printed_teams():
    """Selecting Your Team: Red Shaman/Druid/Sorceress, Blue Arcane Knight/Shadow Weaver/
    Sorcerer, Purple Shadow Weaver/Shaman/Sorceress, Grey Arcane Knight/Druid/Sorcerer."""
    teams = {c: sorted(PACK.wizards[w].type for w in PACK.teams[c]) for c in PACK.teams}
    assert teams == {"red": ["druid", "shaman", "sorceress"], "blue": ["arcane-knight", "shadow-weaver", "sorcerer"],
                     "purple": ["shadow-weaver", "shaman", "sorceress"], "grey": ["arcane-knight", "druid", "sorcerer"]}
    # Game Components: two of each kind of wizard
    assert Counter(w.type for w in PACK.wizards.values()) == {k: 2 for k in PACK.types}


def test_every_spell_is_on_some_board_and_table_one_spells_are_known():
    """All 20 spells appear on the boards; each type knows its Table 1 attacking spells."""
    assert set().union(*(w.spells for w in PACK.wizards.values())) == set(PRINTED)
    for w in PACK.wizards.values():
        for spell, _ in PACK.attacking["spells"][w.type]:
            assert spell in w.spells, (w.id, spell)


def test_every_wizard_has_three_spells():
    """Figure 8 (one reference board design) and Selecting Your Team: nothing printed gives one
    wizard more spells than another - not the team texts, not Table 1, not the Spell Totem - so
    the Purple Sorceress has three like everyone else, and the 36 places still hold all 20."""
    assert {w.id: len(w.spells) for w in PACK.wizards.values()} == {w: 3 for w in PACK.wizards}
    assert all(len(set(w.spells)) == 3 for w in PACK.wizards.values())
    assert set().union(*(w.spells for w in PACK.wizards.values())) == set(PRINTED)


def test_the_purple_sorceress_keeps_meteor_storm_and_her_totem():
    """Table 1 gives every Sorceress Meteor Storm; Purple: "The Sorceress can use her spell totem
    to harass the enemy"; her third spell is something to cast from the totem, and the pack
    says why she has three."""
    sorceress = PACK.wizards["purple-sorceress"]
    assert {"meteor-storm", "spell-totem"} < set(sorceress.spells)
    third = (set(sorceress.spells) - {"meteor-storm", "spell-totem"}).pop()
    assert PACK.spells[third].target == "wizard" and PACK.spells[third].range >= 1
    why = next(w["why"] for w in RAW["wizards"] if w["id"] == "purple-sorceress")
    assert "Three spells" in why and "Spell Totem" in why


def test_the_loader_refuses_a_printed_spell_on_no_board():
    """All 20 spells of the Spell & Magical Ability Reference are on some board: a pack that
    drops one from every board is refused when it loads, as is a board naming an unknown spell."""
    data = copy.deepcopy(RAW)
    for w in data["wizards"]:
        w["spells"] = [s if s != "flame-darts" else next(x for x in PRINTED if x not in w["spells"])
                       for s in w["spells"]]
    with pytest.raises(ValueError, match="no wizard's board"):
        Pack(data)
    data = copy.deepcopy(RAW)
    data["wizards"][0]["spells"][2] = "lightning"
    with pytest.raises(ValueError, match="unknown spell"):
        Pack(data)


def test_named_team_signatures():
    """Red Sorceress has her hydra, Purple Sorceress her spell totem, Grey Sorcerer Guardian
    Hydra and Blaze, Blue Sorcerer Power Circle, Purple Shadow Weaver Fog Wall, both Shamans
    Bear Presence."""
    w = PACK.wizards
    assert "guardian-hydra" in w["red-sorceress"].spells
    assert "spell-totem" in w["purple-sorceress"].spells
    assert {"guardian-hydra", "blaze"} <= set(w["grey-sorcerer"].spells)
    assert "power-circle" in w["blue-sorcerer"].spells
    assert "fog-wall" in w["purple-shadow-weaver"].spells
    assert PACK.types["shaman"].ability == "bear-presence"


def test_ward_rolls_follow_the_strategy_of_spell_casting():
    """Sorcerer/Sorceress ward best against elemental and worst against spirit; Shaman and
    Arcane Knight best against spirit and worst against elemental; Shadow Weaver and Druid
    moderately against all; everyone moderately against astral (levels of Table 3)."""
    t = PACK.types
    for k in ("sorcerer", "sorceress"):
        assert t[k].ward == {"elemental": "2D+1", "spirit": "1D", "astral": "2D"} and t[k].power == "elemental"
    for k in ("shaman", "arcane-knight"):
        assert t[k].ward == {"elemental": "1D", "spirit": "2D+1", "astral": "2D"} and t[k].power == "spirit"
    for k in ("druid", "shadow-weaver"):
        assert t[k].ward == {"elemental": "2D", "spirit": "2D", "astral": "2D"} and t[k].power == "astral"


def test_printed_wizard_values():
    """Example 4: "The Sorceress only has four movement points"; Shadow Dance's five points."""
    assert PACK.types["sorceress"].movement == 4
    assert RAW["wizard_types"]["sorceress"]["movement"]["origin"] == "rulebook"
    assert PACK.types["shadow-weaver"].movement == 5
    for t in RAW["wizard_types"].values():
        assert t["life"]["origin"] == "authored" and t["life"]["why"]


def test_casting_dice_are_five_custom_eight_sided_dice():
    """Game Components: 5 eight-sided casting dice; faces show wands, wards, both or neither."""
    assert PACK.dice_count == 5 and len(PACK.faces) == 8
    assert set(PACK.faces) <= {"wand", "ward", "wand+ward", "blank"}
    assert RAW["dice"]["faces"]["origin"] == "authored"


def test_solo_tables():
    """Table 1 wands, Table 2 favoured foes, Table 3 fixed wards, and Retribution's 3 wands."""
    a = PACK.attacking
    assert a["spells"]["shaman"] == [["eagle-talon", 4], ["primal-reach", 3]]
    assert a["spells"]["arcane-knight"] == [["spectral-rush", 5], ["phantom-blast", 4]]
    assert a["spells"]["druid"] == [["tempest", 3]] and a["spells"]["shadow-weaver"] == [["gloom-strike", 2]]
    assert a["spells"]["sorceress"] == a["spells"]["sorcerer"] == [["meteor-storm", 4]]
    assert a["favoured"]["sorceress"] == ["shaman", "arcane-knight"] and a["favoured"]["druid"] == []
    assert {k: a["wards"][k] for k in ("2D+1", "2D", "1D")} == {"2D+1": 2, "2D": 1, "1D": 0}
    assert a["retribution_wands"]["value"] == 3


def test_tiles_are_hex_grids_of_the_four_terrains():
    """8 double-sided full tiles and 6 double-sided half tiles, each a hex grid of open
    ground, stream, bridge and ocean."""
    full = RAW["tiles"]["full"]
    half = RAW["tiles"]["half"]
    assert len(full) == 8 and len(half) == 6
    cells = len(list(iter_within((0, 0), PACK.radius)))
    for t in full:
        for side in ("A", "B"):
            assert len(PACK.full_faces[(t["id"], side)]) == cells
    for t in half:
        for side in ("A", "B"):
            assert len(PACK.half_faces[(t["id"], side)]) == (cells + 2 * PACK.radius + 1) // 2
    chars = set("".join(c for face in PACK.full_faces.values() for c in face.values()))
    assert chars == {".", "~", "=", "#"}
    assert any(set(f.values()) == {"."} for f in PACK.full_faces.values()), "an all-open face for Shifting Arena"


@pytest.mark.parametrize("layout", sorted(PACK.layouts))
def test_layouts_make_connected_arenas_with_zones(layout):
    """Arena Set Ups (Figure 2): every layout lays out without overlap, its hexes are joined
    (nobody penned in), and each player has a starting zone on a half tile."""
    lay = PACK.layouts[layout]
    a = arena_of(lay["tiles"])
    passable = {h for h in a.whole if a.terrain[h] != OCEAN} - {tuple(h) for o in lay["obstacles"] for h in o["hexes"]}
    passable -= {tuple(c["hex"]) for c in lay.get("crystals", [])}
    start = next(iter(passable))
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for n in [(h[0] + dq, h[1] + dr) for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))]:
            if n in passable and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == passable
    assert len(lay["zones"]) == (0 if lay["scenario"] == "solo" else lay["players"])
    for z in lay["zones"]:
        assert PACK.face(lay["tiles"][z]["tile"], lay["tiles"][z]["side"])[0], "a starting zone is a half tile"
        zone_whole = [h for h in a.tile_hexes[z] if h in a.whole and a.terrain[h] != OCEAN]
        assert len(zone_whole) >= 3


def test_no_layout_lays_a_tile_twice():
    """Game Components: "8 Double-Sided Tiles ... 6 Double-Sided Half Tiles": a tile shows one
    side at a time, so a layout lays each tile once (the players' own choice of faces is held
    to the same, setup._faces)."""
    for lay in RAW["layouts"]:
        tiles = [t["tile"] for t in lay["tiles"]]
        assert len(tiles) == len(set(tiles)), (lay["id"], tiles)


@pytest.mark.parametrize("layout", sorted(PACK.layouts))
def test_the_loader_refuses_a_layout_that_lays_a_tile_twice(layout):
    """Game Components (double-sided tiles): every layout is checked when the pack loads."""
    data = copy.deepcopy(RAW)
    lay = next(x for x in data["layouts"] if x["id"] == layout)
    first = lay["tiles"][0]
    lay["tiles"][1] = dict(lay["tiles"][1], tile=first["tile"], side="B" if first["side"] == "A" else "A")
    with pytest.raises(ValueError, match="laid twice"):
        Pack(data)


def _ground(lay: dict, a, h) -> str:
    """The terrain character under a whole hex of one tile, read from the tile's face."""
    t = lay["tiles"][a.owners[h][0]]
    return PACK.face(t["tile"], t["side"])[1][relative(h, tuple(t["centre"]), t["rotation"])]


@pytest.mark.parametrize("layout", sorted(PACK.layouts))
def test_obstacles_stand_on_open_ground(layout):
    """Obstacles and Movement & Terrain: "All hexes that are neither stream, ocean, nor otherwise
    impassable are open ground" - an obstacle takes the place of open ground, never of a stream
    or the ocean (README, Readings). The authored layouts also keep trees and walls off the
    bridges, the streams' crossings."""
    lay = PACK.layouts[layout]
    a = arena_of(lay["tiles"])
    for o in lay["obstacles"]:
        for h in o["hexes"]:
            h = tuple(h)
            assert h in a.single and a.terrain[h] == OPEN, (o, a.terrain[h])
            assert _ground(lay, a, h) == ".", (o, _ground(lay, a, h))


@pytest.mark.parametrize("ground", ["~", "#", "="])
def test_the_loader_refuses_an_obstacle_off_open_ground(ground):
    """Obstacles stand on open ground: a layout with a tree on a stream, in the ocean or on a
    bridge is refused when the pack loads."""
    data = copy.deepcopy(RAW)
    for lay in data["layouts"]:
        a = arena_of(lay["tiles"])
        spots = sorted(h for h in a.single if _ground(lay, a, h) == ground)
        if spots:
            lay["obstacles"].append({"kind": "tree", "hexes": [list(spots[0])]})
            break
    else:
        pytest.fail(f"no layout has a {ground!r} hex")
    with pytest.raises(ValueError, match="obstacles stand on open ground"):
        Pack(data)


def test_every_scenario_has_layouts_for_two_three_and_four_players():
    for scenario in ("battle-royale", "crystal-sap", "capture-the-crystal", "shifting-arena"):
        for n in (2, 3, 4):
            assert PACK.layouts[f"{scenario}-{n}"]["players"] == n


def test_crystal_sap_stacks_sit_in_starting_zones():
    """Crystal Sap: a stack in each starting zone, on a hex with no obstacle."""
    for n in (2, 3, 4):
        lay = PACK.layouts[f"crystal-sap-{n}"]
        a = arena_of(lay["tiles"])
        obstacles = {tuple(h) for o in lay["obstacles"] for h in o["hexes"]}
        assert len(lay["crystals"]) == n
        for c in lay["crystals"]:
            h = tuple(c["hex"])
            assert h in a.whole and h in a.tile_hexes[lay["zones"][c["zone"]]] and h not in obstacles


@pytest.mark.parametrize("layout", [k for k in sorted(PACK.layouts) if "crystals" in PACK.layouts[k]])
def test_crystals_lie_on_open_ground_that_can_be_reached(layout):
    """A crystal is picked up or sapped "by being in a hex adjacent to it": its hex is open
    ground with open ground around it."""
    from shared.hexgrid import neighbours

    lay = PACK.layouts[layout]
    a = arena_of(lay["tiles"])
    obstacles = {tuple(h) for o in lay["obstacles"] for h in o["hexes"]}
    for c in lay["crystals"]:
        h = tuple(c["hex"])
        assert a.terrain[h] == "open" and h not in obstacles
        assert any(n in a.whole and a.terrain[n] != OCEAN and n not in obstacles for n in neighbours(h))


def test_capture_crystals_lie_across_the_arena_from_their_zone():
    """Capture the Crystal: "a crystal positioned opposite their team's starting zone"."""
    from shared.hexgrid import distance

    for n in (2, 3, 4):
        lay = PACK.layouts[f"capture-the-crystal-{n}"]
        a = arena_of(lay["tiles"])
        for c in lay["crystals"]:
            zone = lay["tiles"][lay["zones"][c["seat"]]]["centre"]
            h = tuple(c["hex"])
            assert h in a.whole
            # nearer the far side of the centre than its own zone
            assert distance(h, tuple(zone)) > distance((0, 0), tuple(zone))


def test_shifting_layouts_have_an_open_centre_and_arms():
    """Shifting Arena: "The center tile ... must always be open ground"; one arm shifts per
    round with 2-3 players, two with 4 (Figure 7)."""
    for n in (2, 3, 4):
        lay = PACK.layouts[f"shifting-arena-{n}"]
        centre = lay["tiles"][0]
        assert set(PACK.face(centre["tile"], centre["side"])[1].values()) == {"."}
        assert len(lay["arms"]) == n and lay["shift_per_round"] == (2 if n == 4 else 1)
        a = arena_of(lay["tiles"])
        obstacles = [tuple(h) for o in lay["obstacles"] for h in o["hexes"]]
        assert all(h in a.single for h in obstacles), "walls and trees do not cross a tile edge"


def test_solo_arena_has_three_tiles_and_three_entry_points():
    """Figure 9: three tiles; an attacking wizard at each of three entry points, each with two
    arena hexes to step into."""
    lay = PACK.layouts["solo-1"]
    a = arena_of(lay["tiles"])
    assert len(lay["tiles"]) == 3 and len(lay["entries"]) == 3
    for e in lay["entries"]:
        assert tuple(e["at"]) not in a.whole
        for h in e["hexes"]:
            assert tuple(h) in a.single and a.terrain[tuple(h)] != OCEAN


def test_campaign_order_points_and_prices():
    """Campaigns and Experience: game order, points by place, item prices."""
    c = PACK.campaign
    assert c["games"] == ["crystal-sap", "battle-royale", "capture-the-crystal", "shifting-arena"]
    assert c["place_vp"] == {"2": [2, 0], "3": [2, 1, 0], "4": [3, 2, 1, 0]}
    assert c["capture_vp"] == {"2": 2, "3": 2, "4": 3}
    assert c["items"] == {"crystal-coin": 1, "power-ring": 2, "amulet": 2, "red-potion": 2, "winged-boots": 3}


def test_every_authored_value_says_why():
    def walk(node):
        if isinstance(node, dict):
            if node.get("origin") == "authored":
                assert node.get("why") or node.get("note"), node
            if node.get("origin") == "rulebook":
                assert node.get("section"), node
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(RAW)
