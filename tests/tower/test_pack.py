"""The content pack: every printed value present and marked, every authored one
consistent with what the rulebook states."""
from __future__ import annotations

import copy
from collections import Counter

import jsonschema
import pytest

from shared.tower.pack import TERRAINS, load_raw, pack, validate

P = pack()


def test_realm_has_39_token_territories_and_the_rocky_space():
    """Set up the Game 1: 24 castle tokens, 6 per terrain, and 15 spells in 'the 15
    remaining territories' = 39 territories, plus the rocky space round the Tower."""
    assert len(P.territories) == 39
    assert all(len(P.by_terrain[t]) >= 6 for t in TERRAINS)
    assert len(P.rocky_touches) >= 3, "the rocky space touches several territories"


def test_map_has_rivers_with_and_without_bridges():
    """Movement on the Board: 'cross rivers only at a bridge' needs both kinds."""
    river = [c for cs in P.crossings.values() for c in cs if c.river]
    assert any(c.bridge for c in river) and any(not c.bridge for c in river)


def test_caves_in_mountain_and_forest_territories():
    """Caves: Ogres use Mountain caves, Minotaurs Forest caves; both must exist, and
    there are at least two of each so a cave can lead to one of the same terrain."""
    terrains = Counter(P.territories[t].terrain for t in P.caves)
    assert terrains["Mountains"] >= 2 and terrains["Forest"] >= 2


def test_the_realm_is_connected_for_a_walker_using_bridges_only():
    """Movement on the Board: a Character that may not swim still reaches every territory."""
    from shared.tower.movement import walks

    seen, todo = set(), list(P.rocky_touches)
    while todo:
        t = todo.pop()
        if t not in seen:
            seen.add(t)
            todo += walks(P, t, "Warrior")
    assert seen == set(P.territories)


def test_warrior_and_dwarf_move_up_to_3():
    """Characters and Character Cards / Movement on the Board: 'Moves up to 3 spaces each turn'."""
    assert P.characters["Warrior"].moves == 3 and P.characters["Dwarf"].moves == 3


def test_warrior_card_is_printed_as_the_rulebook_shows():
    """Characters and Character Cards: Warrior, home in the Plains, fearless against Dragons,
    afraid of Skeletons, 2 Pennants when defeating a Skeleton."""
    w = P.characters["Warrior"]
    assert w.home_terrain == "Plains" and w.fearless_against == ("Dragon",) and w.afraid_of == ("Skeleton",)
    assert w.victory_pennants == {"Skeleton": 2}


def test_only_dragon_and_skeleton_cross_rivers():
    """Movement on the Board: 'All Characters except the Dragon and Skeleton cross rivers only at a bridge.'"""
    assert {c.name for c in P.characters.values() if c.crosses_rivers} == {"Dragon", "Skeleton"}


def test_cave_bonuses():
    """Caves: Ogres +2 after a Mountain cave, Minotaurs +2 after a Forest cave, nobody else."""
    bonus = {c.name: c.cave_bonus for c in P.characters.values() if c.cave_bonus}
    assert bonus == {"Ogre": ("Mountains", 2), "Minotaur": ("Forest", 2)}


def test_combat_table_matches_the_printed_example():
    """Here's How to Do Battle: 'You Roll 4 - Minotaur 3; 5 - Dwarf 3' (the Warrior card)."""
    assert (P.dice["Warrior"]["Minotaur"], P.dice["Minotaur"]["Warrior"]) == (4, 3)
    assert (P.dice["Warrior"]["Dwarf"], P.dice["Dwarf"]["Warrior"]) == (5, 3)


def test_combat_table_is_full_and_never_needs_more_than_the_8_battle_dice():
    """Equipment: 8 Battle dice; Characters and Character Cards: dice against every opponent."""
    names = set(P.character_names)
    for a in names:
        assert set(P.dice[a]) == names
        for b in names - {a}:
            assert 1 <= P.dice[a][b] and P.dice[a][b] + P.dice[b][a] <= 8


def test_warrior_fears_and_fearlessness_show_in_the_dice():
    """Authored meaning of the Warrior card: fearless against Dragons = he rolls as many
    dice as the Dragon while everyone else rolls fewer; afraid of Skeletons = his fewest
    dice, fewer than the Skeleton rolls against him."""
    for c in set(P.character_names) - {"Dragon", "Warrior"}:
        assert P.dice[c]["Dragon"] < P.dice["Dragon"][c]
    assert P.dice["Warrior"]["Dragon"] >= P.dice["Dragon"]["Warrior"]
    others = [P.dice["Warrior"][c] for c in P.character_names if c not in ("Warrior", "Skeleton")]
    assert P.dice["Warrior"]["Skeleton"] < min(others)
    assert P.dice["Warrior"]["Skeleton"] < P.dice["Skeleton"]["Warrior"]


def test_home_castles_with_printed_pennants_in_their_own_terrain():
    """Home Castles: Dragon's Lair 4 ... Orc's Cavern 2; each in its Character's home terrain."""
    printed = {"Dragon's Lair": 4, "Ogre's Hideout": 4, "Minotaur's Den": 4, "Elf Camp": 3, "Dwarf's Dwelling": 3,
               "Warrior's Keep": 3, "Skeleton's Tomb": 2, "Orc's Cavern": 2}
    assert {h.name: h.pennants for h in P.homes.values()} == printed
    for c, h in P.homes.items():
        assert h.terrain == P.characters[c].home_terrain
    assert P.homes["Warrior"].terrain == "Plains"


def test_castle_tokens_six_per_terrain_with_four_symbols_per_wizard():
    """Set up the Game 1: 24 castle tokens = 8 Home Castles + 16 Wizard symbols, 6 per colour."""
    tokens = [t for terrain in TERRAINS for t in P.castle_tokens_of(terrain)]
    assert all(len(P.castle_tokens_of(t)) == 6 for t in TERRAINS)
    symbols = Counter(t for t in tokens if t.startswith("symbol:"))
    assert len(tokens) == 24 and symbols == {f"symbol:{w}": 4 for w in P.wizard_ids}


def test_fifteen_map_spells_over_the_six_spells_and_six_ramp_tokens():
    """Equipment: 15 Spells, 6 'W' Ramp tokens; The Powers of the Spell Tokens on the Map / on the Ramp."""
    spells = Counter(P.spell_tokens())
    assert sum(spells.values()) == 15 and len(spells) == 6
    assert sorted(P.ramp_tokens()) == sorted(f"ramp:{s}" for s in (
        "conquer", "self_transformation", "power2", "protection", "transport_swamp_forest", "transport_mountain_plain"))
    assert P.ramp_spells["power2"]["pennants"] == 2


def test_wizards_pennants_and_ramp():
    """Equipment: 100 Pennants, 25 each in 4 colours; The 4 Wizards: 'Solanos - Wizard of Fire'."""
    assert P.pennants == 25 and len({w.colour for w in P.wizards}) == 4
    assert any(w.name == "Solanos" and w.title == "Wizard of Fire" for w in P.wizards)
    assert 16 <= P.ramp_steps <= 20 and P.pulls == (1, 2) and P.chambers == 5


def test_every_value_carries_its_origin():
    """DESIGN content packs: printed values quote the rulebook, authored ones say why."""
    raw = load_raw()
    for c in raw["characters"]["characters"]:
        for field in ("moves", "home_terrain"):
            assert c["origin"][field]["origin"] in ("rulebook", "authored")
    assert raw["characters"]["combat"]["origin"]["origin"] == "authored"
    assert raw["tokens"]["home_castles_origin"]["origin"] == "rulebook"
    assert raw["rules"]["pennants_per_colour"]["origin"] == "rulebook"
    assert raw["rules"]["king_patience"]["origin"] == "authored"


def test_schema_rejects_a_broken_pack():
    """Content packs are validated at load: a mistyped field names itself."""
    raw = load_raw()
    bad = copy.deepcopy(raw)
    bad["characters"]["characters"][0]["moves"] = "four"
    with pytest.raises(jsonschema.ValidationError):
        validate(bad)


def test_pack_rejects_a_table_that_breaks_a_printed_constraint():
    """Equipment: '8 Battle dice': a pairing may not need more than both sides can roll."""
    raw = load_raw()
    bad = copy.deepcopy(raw)
    bad["characters"]["combat"]["dice"]["Warrior"]["Dwarf"] = 6  # 6 + 3 > 8 Battle dice
    with pytest.raises(ValueError):
        validate(bad)
