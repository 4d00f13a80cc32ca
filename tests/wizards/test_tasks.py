"""Tasks (section 9), the Task Marker encounter (7.31-7.312), the Completion Track (9.01,
12.21) and the limits on markers (1), each test citing its section."""
from __future__ import annotations

import copy

import pytest

from shared.wizards import tasks
from shared.wizards.pack import PackError, check_constraints, load_documents
from tests.wizards.scenario import (
    ENGINE,
    both,
    chance,
    choose,
    hex_of,
    hold_task,
    member,
    move,
    resolve,
    roll,
    solo,
    top_deck,
    waiting_for_roll,
)


def draw(state, card, seat=0, **item):
    top_deck(state, "task", card)
    return resolve(state, {"do": "draw_task", "seat": seat, "rule": "test", "mandatory": False, **item})


def markers(state, seat=0):
    return sorted((m["task"], m["step"], tuple(m["at"])) for m in state.task_markers if m["seat"] == seat)


def test_9_1_and_4_22_a_task_card_marks_its_random_spaces_as_the_printed_example_rolls():
    """9.1 / 4.22 EXAMPLE: Klor in a random COMMON OR MAGIC space (white 5, red 1: the Sacred
    Circle; 3 and 4: B4), returning to a random ELVEN space (red 4: Green Grove; 1 and 5: A5)."""
    st = solo("C5", "A1", prepare=member())
    st, ev = draw(st, 1)
    assert [p["count"] for p in st.chance["request"]["pools"]] == [1, 1, 1, 1]
    st, ev = chance(st, 5, 1, 3, 4)
    assert len(st.chance["request"]["pools"]) == 3  # ELVEN: only the red die for the Territory (4.1)
    st, ev = chance(st, 4, 1, 5)
    assert markers(st) == [(1, 0, hex_of(st, "M1", "B4")), (1, 1, hex_of(st, "E4", "A5"))]
    task = st.players[0]["tasks"][0]
    assert task["card"] == 1 and not task["mandatory"] and [s["done"] for s in task["steps"]] == [False, False]
    assert waiting_for_roll(st)
    ENGINE.check_invariants(st)


def test_12_45_a_marker_rolled_into_a_lost_territory_is_rolled_again():
    st = solo("C5", "A1", prepare=both(member(), lambda s: s.taken.append("M1")))
    st, _ = draw(st, 1)
    st, ev = chance(st, 5, 1, 3, 4)  # the Sacred Circle: lost
    assert any(e["type"] == "reroll" and e["rule"] == "12.45" for e in ev)
    st, _ = chance(st, 5, 2, 3, 4)
    st, _ = chance(st, 4, 1, 5)
    assert markers(st)[0][2] == hex_of(st, "M2", "B4")


def test_4_1_any_space_is_the_players_choice_and_no_dice_are_rolled():
    """4.1 / 4.22 ANY: 'Light a beacon on ANY Mountain space'."""
    st = solo("C5", "A1", prepare=member())
    st, _ = draw(st, 93)
    assert st.chance is None
    legal = ENGINE.legal_actions(st, 0)
    assert legal and all(a["kind"] == "place_task_marker" for a in legal)
    assert {"kind": "place_task_marker", "territory": "C1", "space": "A5"} in legal  # a Mountain of Torwall
    assert {"kind": "place_task_marker", "territory": "C1", "space": "A1"} not in legal  # Plains
    st, _ = choose(st, 0, "place_task_marker", territory="C1", space="A5")
    assert markers(st) == [(93, 0, hex_of(st, "C1", "A5"))]


def test_12_44_a_card_naming_a_lost_territory_leaves_play_and_another_is_drawn():
    st = solo("C5", "A1", prepare=both(member(), lambda s: s.taken.append("C1")))
    top_deck(st, "task", 63, 91)  # 63: a random space of Torwall (lost)
    st, ev = resolve(st, {"do": "draw_task", "seat": 0, "rule": "test", "mandatory": True})
    assert st.out_of_play["task"] == [63]
    assert any(e["type"] == "task_out_of_play" and e["rule"] == "12.44" for e in ev)
    assert 63 not in st.decks["task"] + st.discards["task"]
    ENGINE.check_invariants(st)


def test_3_73_and_13_no_task_outside_an_order_or_at_rank_four():
    for prep, rule in ((None, "3.73"), (member(rank=4), "13")):
        st = solo("C5", "A1", prepare=prep)
        st, ev = draw(st, 2)
        assert not st.players[0]["tasks"] and any(e["type"] == "no_task" and e["rule"] == rule for e in ev)


def test_9_41_9_42_mandatory_from_the_mentor_optional_otherwise_and_mandatory_done():
    st = solo("C5", "A1", prepare=member())
    st, _ = draw(st, 85, mandatory=True)  # from his Mentor
    st, _ = draw(st, 86)  # from anyone else
    held = {t["card"]: t["mandatory"] for t in st.players[0]["tasks"]}
    assert held == {85: True, 86: False}  # 9.5: several Tasks at once
    assert not tasks.mandatory_done(st, 0)
    st.players[0]["tasks"] = [t for t in st.players[0]["tasks"] if not t["mandatory"]]
    assert tasks.mandatory_done(st, 0)  # Optional Tasks never hold back the Gems (9.42)


def test_9_7_a_mentors_task_to_report_to_him_is_done_where_it_is_received():
    """9.7 EXAMPLE: a Task from his Mentor to see his Mentor needs no second visit; 9.01 its points."""
    st = solo("C5", "A1", prepare=member())
    st, ev = draw(st, 91, mandatory=True, **{"from": "Ishkatar"})
    assert not st.players[0]["tasks"]
    assert st.players[0]["task_history"][0]["status"] == "completed"
    assert st.players[0]["points"] == dict(tasks.pack().task(91)["points"])
    assert st.completion == 1 and 91 in st.discards["task"]


def test_9_7_the_first_marker_in_the_space_of_receipt_is_picked_up_at_once():
    """9.7: 'Carry a message from the Royal City of Torwall' received in Torwall."""
    st = solo("C1", "Center", prepare=member())
    st, ev = draw(st, 52)
    st, _ = chance(st, 1, 1, 1, 1)  # COMMON OR ELVEN: Torwall A1
    task = st.players[0]["tasks"][0]
    assert task["steps"][0]["done"] and not task["steps"][1]["done"]
    assert markers(st) == [(52, 1, hex_of(st, "C1", "A1"))]  # only the first requirement (9.7)


def walk_onto(st, tile, label, red=6):
    st = roll(st, 3, red)
    st, ev = move(st, 0, "walk", hex_of(st, tile, label))
    ev2: list = []
    if st.await_ and st.await_["for"] == "move":
        st, ev2 = ENGINE.apply(st, 0, {"kind": "end_move"})
    return st, ev + ev2


def test_7_31_9_6_one_encounter_picks_up_every_marker_of_his_in_the_space_and_9_01_completes():
    def prep(s):
        member()(s)
        hold_task(s, 0, 63, at={0: ("C5", "A1")})
        hold_task(s, 0, 64, at={0: ("C5", "A1")})
        s.completion = 9
    st = solo("C5", "Center", prepare=prep)
    st, ev = walk_onto(st, "C5", "A1")
    assert {"kind": "pick_up_task_markers", "tasks": [63, 64]} in ENGINE.legal_actions(st, 0)
    st, ev = choose(st, 0, "pick_up_task_markers", tasks=[63, 64])
    assert not st.task_markers and not st.players[0]["tasks"]
    assert [e["card"] for e in ev if e["type"] == "task_completed"] == [63, 64]
    assert st.completion == 11 and st.thwarts == 1 and st.thwart == "thwarted"  # 12.21
    assert any(e["type"] == "evil_thwarted" for e in ev)
    ENGINE.check_invariants(st)


def test_7_31_no_encounter_with_another_players_marker():
    def prep(s):
        member(0)(s)
        member(1)(s)
        hold_task(s, 1, 63, at={0: ("C5", "A1")})
    from tests.wizards.scenario import build
    st = build(seats=2, at={0: ("C5", "Center"), 1: ("C5", "C6")}, prepare=prep)
    st, ev = walk_onto(st, "C5", "A1")
    assert not any(e["type"] == "encounter_due" and e["specific"] for e in ev)


def test_7_311_amb1_a_marker_before_its_prerequisites_is_not_met_and_a_random_encounter_may_follow():
    """7.311 (AMB1, reading 1): the space acts as if empty."""
    def prep(s):
        member()(s)
        hold_task(s, 0, 1, at={0: ("M1", "B4"), 1: ("C5", "A1")})
    st = solo("C5", "Center", prepare=prep)
    st, ev = walk_onto(st, "C5", "A1", red=2)
    due = next(e for e in ev if e["type"] == "encounter_due")
    assert due["specific"] == [] and due["random"] is True
    assert len(st.task_markers) == 2


def test_7_312_ignoring_a_marker_keeps_it_and_the_place_table_is_rolled():
    """7.312: ignored, the space is as if it had no marker: the Elves' table rolls (7.391 otherwise skips it)."""
    def prep(s):
        member(order="druids")(s)  # a Wizard would be offered Telepathy in place of the roll (7.391)
        hold_task(s, 0, 69, at={0: ("E1", "C2")})
    st = solo("C5", "A1", prepare=prep)
    transport = {"do": "transport", "seat": 0, "where": {"territory": "E1", "space": "C2"}, "rule": "test"}
    st, ev = resolve(st, transport)
    assert {a["kind"] for a in ENGINE.legal_actions(st, 0)} == {"pick_up_task_markers", "ignore_task_markers"}
    ignored, ev = choose(st, 0, "ignore_task_markers")
    assert len(ignored.task_markers) == 1 and ignored.players[0]["tasks"]
    assert ignored.chance["request"]["pools"][0]["purpose"].startswith("Elven Dwelling")
    picked, ev = choose(st, 0, "pick_up_task_markers", tasks=[69])
    assert not picked.task_markers and waiting_for_roll(picked)  # 7.391: no Elves' roll


def test_7_3051d_a_dragonbound_player_does_not_meet_his_markers():
    def prep(s):
        member()(s)
        s.players[0]["afflictions"].append("dragonbound")
        hold_task(s, 0, 63, at={0: ("C5", "A1")})
    st = solo("C5", "Center", prepare=prep)
    st = roll(st, 3)
    st, ev = move(st, 0, "walk", hex_of(st, "C5", "A1"))
    st, ev = ENGINE.apply(st, 0, {"kind": "end_move"}) if st.await_["for"] == "move" else (st, ev)
    assert st.task_markers


def test_7_323_meetings_fulfil_meet_requirements_after_their_prerequisites():
    st = solo("C5", "A1", prepare=member())
    hold_task(st, 0, 85)  # Seek the counsel of a High Wizard
    hold_task(st, 0, 25, at={0: ("C1", "A1")})  # take the Silver Harp*, then to his Mentor
    events: list = []
    assert tasks.fulfil_meeting(st, 0, "Veldor", events)
    assert [t["card"] for t in st.players[0]["tasks"]] == [25]  # 85 complete; 25 needs its Harp first
    st.task_markers.clear()
    st.players[0]["tasks"][0]["steps"][0]["done"] = True
    assert tasks.fulfil_meeting(st, 0, "Tolmitar", events)  # a High Wizard is a Wizard's Mentor
    assert not st.players[0]["tasks"]
    sorcerer = solo("C5", "A1", prepare=member(order="sorcerers"))
    hold_task(sorcerer, 0, 91)
    hold_task(sorcerer, 0, 88)
    assert not tasks.fulfil_meeting(sorcerer, 0, "Veldor", [])
    assert tasks.fulfil_meeting(sorcerer, 0, "meligar", [])  # his Mentor, but not Megmoran
    assert [t["card"] for t in sorcerer.players[0]["tasks"]] == [88]


def test_9_8_theft_makes_tasks_impossible_whose_magical_object_he_holds_and_erases_gems():
    st = solo("C5", "A1", prepare=member())
    hold_task(st, 0, 25, at={0: ("C1", "A1")}, done=1)  # the Silver Harp* picked up
    hold_task(st, 0, 26, at={0: ("C1", "A3")})  # its object not yet taken
    st.players[0]["gems"] = {"Ishkatar": "Ruby"}
    st, ev = resolve(st, {"do": "theft", "seat": 0, "rule": "7.301"})
    assert [t["card"] for t in st.players[0]["tasks"]] == [26]
    assert st.players[0]["task_history"] == [{"card": 25, "mandatory": False, "status": "impossible", "day": 0}]
    assert st.players[0]["gems"] == {}
    secret = next(e for e in ev if e["type"] == "gems_stolen")
    assert secret["visible_to"] == [0]
    assert "Ruby" not in str([e for e in ev if "visible_to" not in e])


def test_9_9_an_impossible_tasks_markers_become_demons_one_a_space():
    st = solo("C5", "A1", prepare=member())
    hold_task(st, 0, 1, at={0: ("M1", "B4"), 1: ("E4", "A5")})
    st.demons.append(list(hex_of(st, "E4", "A5")))
    events: list = []
    tasks.make_impossible(st, 0, 1, "9.9", events)
    assert sorted(map(tuple, st.demons)) == sorted([hex_of(st, "M1", "B4"), hex_of(st, "E4", "A5")])
    assert not st.task_markers and 1 in st.discards["task"] and st.completion == 0  # 9.011
    st2 = solo("C5", "A1", prepare=member())
    hold_task(st2, 0, 2, at={0: ("C1", "A1")})
    st2.demons = [[100 + i, 0] for i in range(48)]  # every Demon Marker is out (1)
    tasks.make_impossible(st2, 0, 2, "9.9", events)
    assert len(st2.demons) == 48


def test_7_5_a_demon_replacing_a_marker_in_his_space_attacks_him_at_once():
    st = solo("C5", "A1", prepare=member())
    hold_task(st, 0, 2, at={0: ("C5", "A1")})
    tasks.make_impossible(st, 0, 2, "9.9", [])
    assert st.pending[-1]["do"] == "demons"


def test_12_43_tasks_with_markers_on_a_lost_territory_become_impossible_visit_every_only_when_none_is_left():
    st = solo("C5", "A1", prepare=member())
    hold_task(st, 0, 63, at={0: ("C1", "A1")})
    visit = hold_task(st, 0, 57)  # Bless EVERY Elven Dwelling
    dwellings = tasks.locations(st, tasks.world_for(st), "dwelling")
    visit["steps"][0]["visited"] = [list(k) for k in dwellings if k[0] != "E6"]
    st.taken.append("C1")
    events: list = []
    tasks.territory_lost(st, "C1", events)
    assert [t["card"] for t in st.players[0]["tasks"]] == [57] and not st.task_markers
    st.taken.append("E6")
    tasks.territory_lost(st, "E6", events)  # the only Dwelling left unvisited is lost: done
    assert not st.players[0]["tasks"] and st.players[0]["task_history"][-1]["status"] == "completed"


def test_9_visit_every_location_counts_each_arrival_and_completes_on_the_last():
    st = solo("C5", "A1", prepare=member())
    visit = hold_task(st, 0, 57)  # Bless EVERY Elven Dwelling
    dwellings = tasks.locations(st, tasks.world_for(st), "dwelling")
    visit["steps"][0]["visited"] = [list(k) for k in dwellings if k[0] != "E1"]
    st, ev = resolve(st, {"do": "transport", "seat": 0, "where": {"territory": "E1", "space": "C2"}, "rule": "test"})
    assert any(e["type"] == "task_completed" and e["card"] == 57 for e in ev)
    assert st.players[0]["task_history"][0]["status"] == "completed"


def test_1_twenty_task_markers_a_colour_a_task_needing_more_is_not_received():
    st = solo("C5", "A1", prepare=member())
    spaces = [("C1", lab) for lab in ("A1", "A2", "A3", "A4", "A5", "A6", "B1", "B2", "B3", "B4")]
    for i, card in enumerate(range(2, 11)):  # nine two-marker Tasks: 18 markers
        hold_task(st, 0, card, at={0: spaces[i], 1: spaces[i + 1]})
    hold_task(st, 0, 63, at={0: ("C2", "A1")})  # 19
    st, ev = draw(st, 1)  # needs two
    assert 1 not in [t["card"] for t in st.players[0]["tasks"]] and 1 in st.discards["task"]
    assert any(e["type"] == "no_task" and e["rule"] == "1" for e in ev)
    ENGINE.check_invariants(st)


def test_9_2_a_task_given_away_takes_the_new_holders_markers():
    from tests.wizards.scenario import build
    st = build(seats=2, prepare=both(member(0), member(1)))
    hold_task(st, 0, 1, at={0: ("M1", "B4"), 1: ("E4", "A5")}, done=1, mandatory=True)
    assert tasks.transfer(st, 0, 1, 1, [])
    assert [(m["seat"], m["step"]) for m in st.task_markers] == [(1, 1)]
    assert st.players[1]["tasks"][0]["mandatory"] is False
    ENGINE.check_invariants(st)


def test_9_3_an_event_completes_the_task_he_selects():
    st = solo("C5", "A1", prepare=member())
    hold_task(st, 0, 63, at={0: ("C1", "A1")})
    hold_task(st, 0, 64, at={0: ("C2", "A1")})
    st, _ = resolve(st, {"do": "complete_tasks", "seat": 0, "rule": "9.3", "count": 1})
    st, ev = choose(st, 0, "complete_task", card=64)
    assert [t["card"] for t in st.players[0]["tasks"]] == [63] and len(st.task_markers) == 1
    assert st.completion == 1 and waiting_for_roll(st)


def test_14_24_the_task_record_is_public():
    st = solo("C5", "A1", prepare=member())
    hold_task(st, 0, 63, at={0: ("C1", "A1")})
    assert ENGINE.view(st, None)["players"][0]["tasks"] == st.players[0]["tasks"]


def test_pack_loader_refuses_cards_that_break_what_tasks_rely_on():
    """9.8 the asterisk marks Magical Objects; 8.51 each type's effects."""
    doc = load_documents()
    check_constraints(doc)
    bad = copy.deepcopy(doc)
    bad["tasks"]["cards"][24]["text"] = bad["tasks"]["cards"][24]["text"].replace("*", "")
    with pytest.raises(PackError, match="9.8"):
        check_constraints(bad)
    bad = copy.deepcopy(doc)
    bad["events"]["cards"][41]["effects"] = [{"op": "movement", "add": 1, "days": 2}]
    with pytest.raises(PackError, match="8.51"):
        check_constraints(bad)
    bad = copy.deepcopy(doc)
    bad["colours"]["colours"] = bad["colours"]["colours"][:5]
    with pytest.raises(PackError, match="3.7"):
        check_constraints(bad)
