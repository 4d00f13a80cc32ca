"""Places with tables: Common Towns (7.301), High Hollow (7.36), the Star Crest (7.37),
Shrineheart Abbey (7.38), Elven Dwellings with Telepathy (7.391, 11.231), and remaining
in spaces (7.6, 7.354)."""
from __future__ import annotations

from shared.wizards.world import world_for
from tests.wizards.scenario import ENGINE, answer, chance, enter, hex_of, hold_task, joined, roll, roll_through


def two(st, r):
    """Answer a 'two dice, the higher' request with (r, 1)."""
    return chance(st, r, 1)


def settle_dice(st, ev):
    """Answer chance steps other than the Movement Roll with 1s, gathering the events."""
    ev = list(ev)
    while st.chance is not None and st.chance["then"]["do"] != "movement_rolled":
        st, more = ENGINE.apply_chance(st, [[1] * p["count"] for p in st.chance["request"]["pools"]])
        ev += more
    return st, ev


def types(ev):
    return [e["type"] for e in ev]


def test_common_folk_thieves_and_points_lost_7_301():
    """7.301 1: thieves (the theft item); 2: lose one die of points of any type."""
    st, _ = enter("C5", "B3")
    st, ev = two(st, 1)
    assert next(e for e in ev if e["type"] == "common_folk")["effect"] == "thieves"
    st, _ = enter("C5", "B3", prepare=joined("wizards", knowledge=3, power=9))
    st, ev = two(st, 2)
    st, ev = chance(st, 5)
    acts = ENGINE.legal_actions(st, 0)
    assert {a["kind"] for a in acts} == {"take_points"} and len(acts) == 2  # only the types he holds
    st, ev = answer(st, 0, points={"power": -5})
    assert st.players[0]["points"]["power"] == 4


def test_common_folk_detained_stays_and_meets_them_again_7_301():
    """7.301 3: detained, he remains on his next turn (no Movement Roll) and meets the
    Common Folk again; the second meeting is part of the same stay (7.6)."""
    st, _ = enter("C5", "B3")
    st, ev = two(st, 3)
    assert "detained" in types(ev)
    town = hex_of(st, "C5", "B3")
    # his next turn begins with the Common Folk's roll, not a Movement Roll
    assert st.chance["then"] == {"do": "pending", "item": "common_folk"}
    assert "stays_detained" in types(ev) and st.players[0]["at"] == list(town)
    st, ev = two(st, 6)
    assert st.chance["then"]["do"] == "movement_rolled"
    assert st.players[0]["space_encounters"] == {f"{town[0]},{town[1]}": 1}


def test_common_folk_task_extra_turn_and_lodging_7_301():
    """7.301 4 a Task (none outside an Order, 3.73), 5 an extra turn at once, 6 no effect."""
    st, _ = enter("C5", "B3")
    st, ev = two(st, 4)
    assert any(e["type"] == "no_task" and e["rule"] == "3.73" for e in ev)
    st, _ = enter("C5", "B3")
    st, ev = two(st, 5)
    assert any(e["type"] == "extra_turns" and e["turns"] == 1 for e in ev)
    assert next(e for e in ev if e["type"] == "turn_begins")["extra"] is True
    st, _ = enter("C5", "B3")
    st, ev = two(st, 6)
    assert next(e for e in ev if e["type"] == "common_folk")["effect"] == "lodging"


def test_common_folk_roll_not_taken_with_a_high_wizard_present_7_3011():
    """7.3011: no Town roll when a High Wizard is present."""
    def prep(st):
        st.wizard_markers["Veldor"] = list(world_for(st).hex_of[("C5", "B3")])
    st, ev = enter("C5", "B3", prepare=prep)
    assert any(e["type"] == "meets_high_wizard" for e in ev)
    st, ev = answer(st, 0, accept=False)
    assert "common_folk" not in types(ev) and st.chance["then"]["do"] != "pending"


def test_high_hollow_table_7_36():
    """7.36: 1-2 the Star Crest; 3-4 Hamdrel's Cottage (her encounter follows, 7.5);
    5-6 Megmoran's Tower: its Center, meeting Megmoran (AMB4)."""
    st, _ = enter("M3", "B4")
    st, ev = two(st, 1)
    st = roll_through(st) if st.chance["then"]["do"] == "transported" else st
    assert world_for(st).kind(tuple(st.players[0]["at"])) == "star_crest"
    st, _ = enter("M3", "B4")
    st, ev = two(st, 3)
    assert world_for(st).kind(tuple(st.players[0]["at"])) == "cottage"
    assert st.chance["then"] == {"do": "pending", "item": "hamdrel"}
    st, _ = enter("M3", "B4")
    st, ev = two(st, 5)
    assert st.players[0]["at"] == list(hex_of(st, "M2", "Center"))
    assert {a["kind"] for a in ENGINE.legal_actions(st, 0)} == {"join_order"}  # 7.341 Megmoran's offer


def test_star_crest_table_7_371():
    """7.371: 1-2 ten points of each type; 5-6 one die of extra turns (7.3711)."""
    def prep(st):
        joined("druids")(st)
        st.players[0]["star_crest_directed"] = True
    st, _ = enter("E4", "Center", prepare=prep)
    st, ev = two(st, 2)
    assert st.players[0]["points"] == {"knowledge": 10, "perception": 10, "power": 10}
    st, _ = enter("E4", "Center", prepare=prep)
    st, ev = two(st, 6)
    st, ev = chance(st, 4)
    assert any(e["type"] == "extra_turns" and e["turns"] == 4 for e in ev)


def test_star_crest_two_different_high_wizards_7_371_amb21():
    """7.371 3-4: TWO High Wizards, drawn until one comes up; AMB21: the second is a
    different one even when the first's card comes back on top."""
    def prep(st):
        st.players[0]["star_crest_directed"] = True
    st, _ = enter("E4", "Center", prepare=prep)
    st, ev = two(st, 3)
    assert [e["wizard"] for e in ev if e["type"] == "meets_high_wizard"] == ["Ishkatar"]
    st, ev = settle_dice(*answer(st, 0, accept=False))
    assert [e["wizard"] for e in ev if e["type"] == "meets_high_wizard"] == ["Tolmitar"]
    st, ev = settle_dice(*answer(st, 0, accept=False))
    assert len(st.decks["wizard"]) == 14 and not st.wizard_aside  # 8.74


def test_abbey_heals_and_skips_its_roll_7_382():
    """7.38 / 7.382 / 7.3044: an afflicted player is healed and the roll is not taken."""
    st, ev = enter("C3", "B5", prepare=lambda s: s.players[0]["afflictions"].append("demon_dazed"))
    assert "healed" in types(ev) and st.players[0]["afflictions"] == []


def test_abbey_table_7_38():
    """7.38: 1-2 one extra turn; 5-6 one die of points; 3-4 telepathic contact (7.381):
    a Druid contacts Rüktal and advances; AMB14: a player in no Order contacts no one."""
    st, _ = enter("C3", "B5")
    st, ev = two(st, 1)
    assert any(e["type"] == "extra_turns" for e in ev)
    st, _ = enter("C3", "B5")
    st, ev = two(st, 3)
    assert any(e["type"] == "no_mentor" and e["rule"] == "7.381" for e in ev)
    st, _ = enter("C3", "B5", prepare=joined("druids", knowledge=5, perception=15, power=10))
    st, ev = two(st, 4)
    assert any(e["type"] == "telepathic_contact" and e["mentor"] == "Rüktal" for e in ev)
    st = roll_through(st)  # the Task his Mentor gives is marked (9.1) before he advances
    assert st.players[0]["rank"] == 2
    st, _ = enter("C3", "B5", prepare=joined("sorcerers"))
    st, ev = two(st, 5)
    st, ev = chance(st, 3)
    st, ev = answer(st, 0, points={"power": 3})
    assert st.players[0]["points"]["power"] == 3


def test_abbey_contact_for_a_sorcerer_rolls_the_master_7_381():
    """7.381: a Sorcerer rolls ONE die: 3-4 Meligar."""
    st, _ = enter("C3", "B5", prepare=joined("sorcerers", knowledge=10, perception=5, power=15))
    st, ev = two(st, 3)
    st, ev = chance(st, 4)
    assert any(e["type"] == "telepathic_contact" and e["mentor"] == "Meligar" for e in ev)
    st = roll_through(st)  # the Task his Mentor gives is marked (9.1) before he advances
    assert st.players[0]["rank"] == 2


def test_telepathy_in_place_of_the_elves_7_391_11_231():
    """7.391 / 11.231: a Wizard in a Dwelling may cast Telepathy instead of the Elves' roll;
    1-2 succeeds, Wizard Cards are drawn until a High Wizard, who promotes him (11.2311)."""
    st, ev = enter("E1", "C2", prepare=joined("wizards", knowledge=15, perception=10, power=5))
    assert {a["cast"] for a in ENGINE.legal_actions(st, 0)} == {True, False}
    assert ENGINE.describe({"kind": "telepathy", "cast": True}) == "cast Telepathy (1-2 succeeds)"
    st, ev = answer(st, 0, cast=True)
    st, ev = chance(st, 2)
    assert any(e["type"] == "telepathic_contact" and e["wizard"] == "Ishkatar" for e in ev)
    assert st.players[0]["rank"] == 2
    st = roll_through(st)
    assert not st.wizard_aside and len(st.decks["wizard"]) == 14  # 8.74


def test_telepathy_fails_without_the_points_and_not_with_a_marker_out_11_2311():
    """11.2311: without the points to advance it fails; 11.231: not with a Wizard Marker on the board."""
    st, _ = enter("E1", "C2", prepare=joined("wizards"))
    st, ev = answer(st, 0, cast=True)
    st, ev = chance(st, 1)
    assert any(e["type"] == "spell_cast" and not e["success"] and e["rule"] == "11.2311" for e in ev)

    def prep(st):
        joined("wizards", knowledge=15, perception=10, power=5)(st)
        st.wizard_markers["Terek"] = list(world_for(st).hex_of[("C1", "A1")])
    st, _ = enter("E1", "C2", prepare=prep)
    assert st.chance["then"] == {"do": "pending", "item": "elves"}  # the Elves' roll, no choice


def test_second_encounter_limit_7_6():
    """7.6: a second encounter after leaving and returning; then none until he leaves the tile."""
    st, _ = enter("C5", "B3")
    town = hex_of(st, "C5", "B3")
    st.players[0]["space_encounters"] = {f"{town[0]},{town[1]}": 2}
    from shared.wizards.encounters import encounters_due
    st.turn["arrived"] = True
    assert encounters_due(st, world_for(st), 0)["specific"] == []
    from shared.wizards import remaining
    remaining.arrived(st, 0, town, hex_of(st, "C4", "A1"))  # he reaches another tile
    assert st.players[0]["space_encounters"] == {}


def test_second_encounter_counted_by_play_7_6():
    """7.6: two encounters with the Town, counted as they happen."""
    st, _ = enter("C5", "B3")
    st, _ = two(st, 6)
    town = hex_of(st, "C5", "B3")
    assert st.players[0]["space_encounters"] == {f"{town[0]},{town[1]}": 1}


def test_hamdrel_three_turns_a_visit_two_visits_a_tile_7_354():
    """7.354: staying in her Cottage she is met each turn, three turns; then not until he
    leaves the Cottage and returns; after two visits not until he leaves her tile."""
    st, _ = enter("M5", "Center", prepare=joined("wizards"))
    st, ev = two(st, 1)  # rank 1: one die doubled
    st, ev = chance(st, 1)
    st, ev = answer(st, 0, points={"power": 2})
    ham = st.players[0]["hamdrel"]
    assert ham == {"visits": 1, "turns": 1}
    for turn in (2, 3):
        st, ev = ENGINE.apply(roll(st, 1), 0, {"kind": "end_move"})
        assert st.chance["then"] == {"do": "pending", "item": "hamdrel"}, turn
        st, ev = two(st, 1)
        st, ev = chance(st, 1)
        st, ev = answer(st, 0, points={"power": 2})
    assert st.players[0]["hamdrel"] == {"visits": 1, "turns": 3}
    st, ev = ENGINE.apply(roll(st, 1), 0, {"kind": "end_move"})
    assert st.chance["then"]["do"] == "movement_rolled"  # a fourth turn: no encounter
    st.players[0]["hamdrel"]["visits"] = 2
    from shared.wizards import remaining
    assert remaining.limit(st, 0, hex_of(st, "M5", "Center"), [{"kind": "hamdrel"}]) == []


def test_hamdrel_gift_tables_7_353():
    """7.353: Rank 0 roll 1-2 nothing, 5-6 a High Wizard's marker to a RANDOM space with
    his cards kept aside (8.74); Rank 1-3 3-4 a Task."""
    st, _ = enter("M5", "Center")
    st, ev = two(st, 2)
    assert st.chance["then"]["do"] == "movement_rolled"
    st, _ = enter("M5", "Center")
    st, ev = two(st, 6)
    st, ev = chance(st, 1, 1, 1, 2)  # RANDOM: white 1 Common, red 1 Torwall; A2
    assert st.wizard_markers["Ishkatar"] == list(hex_of(st, "C1", "A2"))
    assert st.aside_for == {"Ishkatar": ["W1"]} and st.wizard_aside == ["W1"]


# --- no table roll for a Task or with a High Wizard present (7.361, 7.3712) ---------------
def with_task_marker(tile, label, directed=False):
    """A `prepare`: seat 0, an Apprentice Wizard, holds Task 4 with its first marker in (tile,
    label); `directed`: sent to the Star Crest by an Event Card (7.37)."""
    def prep(st):
        joined("wizards")(st)
        hold_task(st, 0, 4, at={0: (tile, label)})
        st.players[0]["star_crest_directed"] = directed
    return prep


def with_high_wizard(tile, label, directed=False):
    """A `prepare`: Veldor's marker in (tile, label)."""
    def prep(st):
        st.wizard_markers["Veldor"] = list(hex_of(st, tile, label))
        st.players[0]["star_crest_directed"] = directed
    return prep


def test_7_361_no_high_hollow_roll_when_he_comes_for_a_task():
    """7.361: entering High Hollow to fulfil a Task (he picks up his marker there) takes no High
    Hollow roll; contrast: ignoring the marker (7.312: as though there were none) the roll is taken."""
    st, _ = enter("M3", "B4", prepare=with_task_marker("M3", "B4"))
    st, ev = answer(st, 0, kind="pick_up_task_markers")
    assert "high_hollow" not in types(ev) and st.chance["then"]["do"] == "movement_rolled"
    assert st.players[0]["at"] == list(hex_of(st, "M3", "B4"))
    st, _ = enter("M3", "B4", prepare=with_task_marker("M3", "B4"))
    st, ev = answer(st, 0, kind="ignore_task_markers")
    assert st.chance["then"] == {"do": "pending", "item": "high_hollow"}


def test_7_361_no_high_hollow_roll_with_a_high_wizard_there():
    """7.361: with a High Wizard in the High Hollow space he meets him and takes no High Hollow
    roll; contrast: entering with no Wizard and no Task, the roll is taken (7.36)."""
    st, _ = enter("M3", "B4", prepare=with_high_wizard("M3", "B4"))
    st, ev = settle_dice(*answer(st, 0, accept=False))
    assert "high_hollow" not in types(ev) and st.chance["then"]["do"] == "movement_rolled"
    assert st.players[0]["at"] == list(hex_of(st, "M3", "B4"))
    st, _ = enter("M3", "B4")
    assert st.chance["then"] == {"do": "pending", "item": "high_hollow"}


def test_7_3712_no_star_crest_roll_when_he_comes_for_a_task():
    """7.3712: entering the Star Crest to fulfil a Task takes no Star Crest roll; contrast:
    ignoring the marker (7.312) the roll is taken."""
    st, _ = enter("E4", "Center", prepare=with_task_marker("E4", "Center", directed=True))
    st, ev = answer(st, 0, kind="pick_up_task_markers")
    assert "star_crest" not in types(ev) and st.chance["then"]["do"] == "movement_rolled"
    st, _ = enter("E4", "Center", prepare=with_task_marker("E4", "Center", directed=True))
    st, ev = answer(st, 0, kind="ignore_task_markers")
    assert st.chance["then"] == {"do": "pending", "item": "star_crest"}


def test_7_3712_no_star_crest_roll_with_a_high_wizard_present():
    """7.3712: with a High Wizard present he meets him and takes no Star Crest roll; contrast:
    with no Wizard and no Task the roll is taken (7.371)."""
    st, _ = enter("E4", "Center", prepare=with_high_wizard("E4", "Center", directed=True))
    st, ev = settle_dice(*answer(st, 0, accept=False))
    assert "star_crest" not in types(ev) and st.chance["then"]["do"] == "movement_rolled"
    st, _ = enter("E4", "Center", prepare=lambda s: s.players[0].update(star_crest_directed=True))
    assert st.chance["then"] == {"do": "pending", "item": "star_crest"}
