"""The content pack: schema, the components of section 1 and Appendix C, and origin marks."""
from __future__ import annotations

import copy

import pytest

from shared import hexgrid
from shared.hexgrid import DIRECTION_NAMES
from shared.wizards.geometry import LABELS, label_hex
from shared.wizards.pack import PackError, load_documents, pack, validate

APPENDIX_C = {
    "C1": "Torwall", "C2": "Woodswall", "C3": "Longrift", "C4": "Crescent Ridge", "C5": "Meadowfarm", "C6": "Hillshire",
    "E1": "Glendale", "E2": "Meadowshire", "E3": "Edgewood", "E4": "Green Grove", "E5": "Timberlane", "E6": "Woodland",
    "M1": "Sacred Circle", "M2": "Megmoran's Tower", "M3": "Meligar's Tower", "M4": "Melekok's Tower",
    "M5": "Hamdrel's Cottage", "M6": "Dragon's Lair",
}


def tile(tid):
    return pack().tiles[tid]


def kinds(tid):
    return {lab: s["kind"] for lab, s in tile(tid)["spaces"].items()}


def wall_sides(tid):
    return {hexgrid.side_key(label_hex(lab), DIRECTION_NAMES.index(d)) for lab, d in tile(tid)["walls"]}


def components(tid):
    """Groups of a tile's spaces joined without crossing a wall (the tile alone)."""
    walls, pos = wall_sides(tid), {label_hex(lab): lab for lab in LABELS}
    seen, groups = set(), []
    for start in pos:
        if start in seen:
            continue
        group, stack = set(), [start]
        seen.add(start)
        while stack:
            h = stack.pop()
            group.add(pos[h])
            for d in range(6):
                n = hexgrid.neighbour(h, d)
                if n in pos and n not in seen and hexgrid.side_key(h, d) not in walls:
                    seen.add(n)
                    stack.append(n)
        groups.append(group)
    return groups


def test_pack_passes_its_schema_and_constraints():
    """Section 1 and DESIGN: the pack is validated against its schema at load."""
    validate(load_documents())


def test_a_broken_pack_is_refused():
    """Content packs fail loudly: a missing tile or a bad space kind is refused."""
    doc = load_documents()
    bad = copy.deepcopy(doc)
    bad["territories"]["tiles"].pop()
    with pytest.raises(PackError):
        validate(bad)
    bad = copy.deepcopy(doc)
    bad["territories"]["tiles"][0]["spaces"]["A1"]["kind"] = "swamp"
    with pytest.raises(PackError):
        validate(bad)
    bad = copy.deepcopy(doc)
    # a rulebook value must quote its section
    bad["territories"]["tiles"][0]["origin"]["layout"] = {"origin": "rulebook"}
    with pytest.raises(PackError):
        validate(bad)


def test_eighteen_territories_named_and_numbered_as_appendix_c():
    """Appendix C / 4.1: six Common (gold), six Elven (green), six Magic (purple), numbered I-VI."""
    assert {t: tile(t)["name"] for t in pack().tile_ids} == APPENDIX_C
    for tid in pack().tile_ids:
        t = tile(tid)
        assert t["type"] == {"C": "common", "E": "elven", "M": "magic"}[tid[0]]
        assert t["numeral"] == ["I", "II", "III", "IV", "V", "VI"][int(tid[1]) - 1]
        assert set(t["spaces"]) == set(LABELS) and len(LABELS) == 19  # Center and A1-C6 (4.2)
        assert t["origin"]["name"]["origin"] == "rulebook" and t["origin"]["layout"]["origin"] == "authored"


def test_labels_lie_on_a_radius_two_hexagon():
    """4.2: each tile is 19 spaces, the Center and A1-C6 around it."""
    hexes = {label_hex(lab) for lab in LABELS}
    assert hexes == set(hexgrid.spiral((0, 0), 2))
    assert {label_hex(f"A{i}") for i in range(1, 7)} == set(hexgrid.ring((0, 0), 1))


def test_card_counts_of_section_1():
    """1) Equipment: 98 Task, 49 Event, 14 Wizard and 7 Gem Cards."""
    p = pack()
    assert (len(p.task_cards), len(p.event_cards), len(p.wizard_cards), len(p.gem_cards)) == (98, 49, 14, 7)


def test_event_cards_have_the_four_types():
    """8.51: IMMEDIATE, EXTENDED, MOVEMENT and TRAP Event Cards."""
    types = {c["type"] for c in pack().event_cards}
    assert types == {"immediate", "extended", "movement", "trap"}
    for c in pack().event_cards:
        if c["type"] == "movement":
            assert all(e["op"] == "movement" and e["days"] >= 1 for e in c["effects"])


def test_wizard_cards_are_seven_high_wizards_and_their_traps_or_phantasms():
    """8.7: each High Wizard has projected a Phantasm or set a Trap; 8.73 Traps name a destination."""
    cards = pack().wizard_cards
    his = [c["wizard"] for c in cards if c["type"] == "high_wizard"]
    decoys = [c["wizard"] for c in cards if c["type"] != "high_wizard"]
    assert his == list(pack().high_wizards)
    assert his == ["Ishkatar", "Tolmitar", "Aevarex", "Elekov", "Zegoral", "Terek", "Veldor"]
    assert sorted(decoys) == sorted(his)
    assert all("destination" in c for c in cards if c["type"] == "trap")
    assert {c["type"] for c in cards} == {"high_wizard", "trap", "phantasm"}


def test_gem_cards_are_six_gems_and_the_false_wizard():
    """13 and 7.3263."""
    gems = pack().gem_cards
    six = ["Diamond", "Sapphire", "Ruby", "Emerald", "Topaz", "Onyx"]
    assert sorted(g["gem"] for g in gems if g["gem"]) == sorted(six)
    assert [g for g in gems if g.get("false_wizard")] and len(gems) == 7


def test_the_rulebook_example_task_card_is_in_the_deck():
    """4.22 EXAMPLE: "Help the Centaur, Klor, in a random COMMON OR MAGIC space, return to a random ELVEN space."."""
    klor = [c for c in pack().task_cards if "Klor" in c["text"]]
    assert len(klor) == 1
    card = klor[0]
    assert card["text"] == "Help the Centaur, Klor, in a random COMMON OR MAGIC space, return to a random ELVEN space."
    assert [s["where"] for s in card["steps"]] == [{"random": "COMMON OR MAGIC"}, {"random": "ELVEN"}]
    assert card["origin"]["origin"] == "rulebook" and "points" in card["origin"]["authored"]


def test_every_value_says_where_it_came_from():
    """Pack values carry their origin: rulebook with a quoted section, or authored with why."""
    origins = []

    def walk(v, path):
        if isinstance(v, dict):
            if "origin" in v and isinstance(v["origin"], str):
                origins.append(path)
                assert v["origin"] in ("rulebook", "authored"), path
                if v["origin"] == "rulebook":
                    assert v.get("section") and v.get("quote"), path
                else:
                    assert v.get("why"), path
            for k, x in v.items():
                walk(x, f"{path}/{k}")
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, f"{path}/{i}")
    doc = load_documents()
    walk(doc, "")
    for name in ("tasks", "events"):
        assert doc[name]["cards"] and all("origin" in c for c in doc[name]["cards"])
    assert len(origins) >= len(doc["tasks"]["cards"]) + len(doc["events"]["cards"])  # every card's was read


def test_towns_in_common_dwellings_in_elven_territory():
    """Section 6: Towns and Dwellings; every Elven Territory has its Dwelling, Longrift its Abbey."""
    for tid in pack().tile_ids:
        k = kinds(tid).values()
        if tid[0] == "E":
            assert "dwelling" in k and "town" not in k
        if tid[0] == "C":
            assert "town" in k and "dwelling" not in k
    assert "abbey" in kinds("C3").values()


def test_torwall_walls_lead_back_to_the_city():
    """Appendix C I: the walls of Torwall lead to the royal city (its Center)."""
    assert kinds("C1")["Center"] == "town"
    assert len(tile("C1")["walls"]) >= 6
    groups = components("C1")
    assert len(groups) == 1  # every space still reaches the city


def test_woodswall_walls_stand_between_woods_and_towns():
    """Appendix C II: walls between the woods and their towns."""
    k = kinds("C2")
    walls = wall_sides("C2")
    towns = [lab for lab, v in k.items() if v == "town"]
    assert len(towns) == 2
    walled = 0
    for lab in towns:
        h = label_hex(lab)
        for d in range(6):
            n = hexgrid.neighbour(h, d)
            other = next((x for x in LABELS if label_hex(x) == n), None)
            if other and k[other] == "woods":
                assert hexgrid.side_key(h, d) in walls
                walled += 1
    assert walled, "no town of Woodswall borders its woods"


def test_longrift_gorge_rends_the_territory_in_two():
    """Appendix C III: the impassable gorge cuts the tile in two; Shrineheart Abbey on one side."""
    groups = components("C3")
    assert len(groups) == 2
    abbey = next(lab for lab, v in kinds("C3").items() if v == "abbey")
    town = next(lab for lab, v in kinds("C3").items() if v == "town")
    assert not any(abbey in g and town in g for g in groups)


def test_crescent_ridge_is_ringed_by_mountains():
    """Appendix C IV: the encircling ridge of mountains."""
    rim = [lab for lab in LABELS if lab != "Center" and lab[0] in "BC"]
    assert sum(kinds("C4")[lab] == "mountains" for lab in rim) >= 9


def test_star_crest_in_green_grove_and_high_hollow_with_meligar():
    """Appendix C: the Star Crest in Green Grove (IV), High Hollow on Meligar's tile (III)."""
    assert "star_crest" in kinds("E4").values()
    assert "high_hollow" in kinds("M3").values()
    for tid in ("M2", "M3", "M4"):
        assert kinds(tid)["Center"] == "tower" and "mountains" in kinds(tid).values()  # 8.1 b


def test_sacred_circle_stones_have_dots_round_the_center():
    """Section 6: Sacred Circle Stones have dots; the Center is entered from a stone."""
    t = tile("M1")
    assert t["spaces"]["Center"]["kind"] == "circle"
    stones = {lab: s["dots"] for lab, s in t["spaces"].items() if s["kind"] == "stone"}
    assert sorted(stones.values()) == [1, 2, 3, 4, 5, 6]
    assert {label_hex(lab) for lab in stones} == set(hexgrid.ring((0, 0), 1))


def test_hamdrels_cottage_is_walled_with_one_way_in():
    """Appendix C V: a secret wooded valley warded by walls of enchantment."""
    walls = wall_sides("M5")
    inner = set(hexgrid.spiral((0, 0), 1))
    openings = [(h, d) for h in hexgrid.ring((0, 0), 1) for d in range(6)
                if hexgrid.neighbour(h, d) not in inner and hexgrid.side_key(h, d) not in walls]
    assert len(openings) == 1
    assert kinds("M5")["Center"] == "cottage"


def test_dragons_lair_is_a_maze():
    """Appendix C VI: a maze-like cave: the way to the depths winds through the tunnels."""
    walls = wall_sides("M6")
    pos = {label_hex(lab) for lab in LABELS}
    start = [h for h in hexgrid.ring((0, 0), 2)]
    dist = {h: 0 for h in start}
    queue = list(start)
    while queue:
        h = queue.pop(0)
        for d in range(6):
            n = hexgrid.neighbour(h, d)
            if n in pos and n not in dist and hexgrid.side_key(h, d) not in walls:
                dist[n] = dist[h] + 1
                queue.append(n)
    assert (0, 0) in dist and dist[(0, 0)] >= 4  # straight in would be 2 steps
    assert kinds("M6")["Center"] == "lair"


def test_no_more_harbours_can_face_the_sea_than_there_are_boats():
    """3.3 / 1): ten Boat Markers; structures that can touch Water (the rim) number at most ten."""
    rim = sum(1 for tid in pack().tile_ids for lab, v in kinds(tid).items()
              if lab != "Center" and lab[0] in "BC" and v in ("town", "dwelling", "abbey"))
    assert rim <= 10
