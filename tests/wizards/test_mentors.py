"""Mentors and Wizard Cards: High Wizards and Secret Wizards (7.32-7.327), Rüktal (7.33),
Master Sorcerers and Gem Summoning (7.34, 11.232), joining and advancing (10, 10.2, 10.3),
Wizard Cards (8.7-8.74), Gems (7.326, 14.3) and Perception (11.233)."""
from __future__ import annotations

from shared.wizards.world import world_for
from tests.wizards.scenario import ENGINE, answer, build, chance, enter, hex_of, hold_task, joined, run_items, solo


def types(ev):
    return [e["type"] for e in ev]


def dice(st, ev=(), face=1):
    ev = list(ev)
    while st.chance is not None and st.chance["then"]["do"] != "movement_rolled":
        st, more = ENGINE.apply_chance(st, [[face] * p["count"] for p in st.chance["request"]["pools"]])
        ev += more
    return st, ev


def marker(name, tile, label):
    def prep(st):
        st.wizard_markers[name] = list(world_for(st).hex_of[(tile, label)])
        st.decks["wizard"].remove("W" + str(1 + list(st.wizard_markers).index(name)))
        st.wizard_aside.append("W" + str(1 + list(st.wizard_markers).index(name)))
        st.aside_for[name] = ["W" + str(1 + list(st.wizard_markers).index(name))]
    return prep


def both(*preps):
    def prep(st):
        for p in preps:
            p(st)
    return prep


def test_high_wizard_marker_initiates_and_goes_back_7_32_7_321():
    """7.32: the marker goes back to its box and his cards are reshuffled; 7.321: he offers
    membership in the Order of Wizards; accepting makes an Apprentice (10)."""
    st, ev = enter("C5", "A2", prepare=marker("Terek", "C5", "A2"))
    assert st.wizard_markers["Terek"] is None and "wizard_marker_returned" in types(ev)
    st, ev = dice(st, ev)  # 8.74 reshuffle
    assert "W6" in st.decks["wizard"] and not st.wizard_aside
    assert ENGINE.describe({"kind": "join_order", "order": "wizards", "accept": True}) == "join the Order of Wizards"
    st, ev = answer(st, 0, accept=True)
    p = st.players[0]
    assert (p["order"], p["rank"]) == ("wizards", 1) and "joined_order" in types(ev)


def test_changing_orders_keeps_points_10_3():
    """10.3: a Druid joining the Wizards starts as Apprentice and keeps his points."""
    st, ev = enter("C5", "A2", prepare=both(marker("Terek", "C5", "A2"), joined("druids", 3, knowledge=7)))
    st, ev = dice(st, ev)
    st, ev = answer(st, 0, accept=True)
    p = st.players[0]
    assert (p["order"], p["rank"], p["points"]["knowledge"]) == ("wizards", 1, 7)


def test_heal_ends_the_turns_encounters_7_322_amb15():
    """7.322 / AMB15: healed by a High Wizard, nothing more is done for him that turn:
    the Town's encounter in the same space does not follow."""
    def sick(st):
        st.players[0]["afflictions"].append("demon_dazed")
    st, ev = enter("C5", "B3", prepare=both(marker("Veldor", "C5", "B3"), sick))
    st, ev = dice(st, ev)
    assert "healed" in types(ev) and "encounters_end" in types(ev)
    assert "common_folk" not in types(ev) and st.players[0]["afflictions"] == []


def test_order_of_wizards_every_time_promotes_7_327_10_2():
    """7.327 / 7.325 / 10.2: a Wizard with the points is promoted by any High Wizard met."""
    st, ev = enter("C5", "A2", prepare=both(marker("Terek", "C5", "A2"),
                                            joined("wizards", knowledge=15, perception=10, power=5)))
    st, ev = dice(st, ev)
    assert st.players[0]["rank"] == 2 and any(e["type"] == "promoted" and e["by"] == "Terek" for e in ev)


def test_gem_given_secretly_7_326_14_3():
    """7.326 / 7.3261: at Rank FOUR with no Mandatory Task left he may ask (choice); 1-5 he
    records the Gem; the event is for his seat only and views hide the Gem Record."""
    st, ev = enter("C5", "A2", seats=2, prepare=both(marker("Ishkatar", "C5", "A2"), joined("wizards", 4)))
    st, ev = dice(st, ev)
    assert {a["attempt"] for a in ENGINE.legal_actions(st, 0)} == {True, False}
    st, ev = answer(st, 0, attempt=True)
    st, ev = chance(st, 3)
    got = next(e for e in ev if e["type"] == "gem_received")
    assert got["visible_to"] == [0] and got["gem"] == "Diamond"
    assert st.players[0]["gems"] == {"Ishkatar": "Diamond"}
    assert ENGINE.view(st, 1)["players"][0]["gems"] == "hidden"


def test_gem_asked_again_only_when_not_held_7_326_amb20():
    """AMB20: while his Gem is on the record the High Wizard is not asked again: he is offered only not to ask."""
    def has(st):
        st.players[0]["gems"]["Ishkatar"] = "Diamond"
    st, ev = enter("C5", "A2", prepare=both(marker("Ishkatar", "C5", "A2"), joined("wizards", 4), has))
    st, ev = dice(st, ev)
    assert ENGINE.legal_actions(st, 0) == [{"kind": "attempt_gem", "wizard": "Ishkatar", "attempt": False}]
    st, ev = answer(st, 0, attempt=False)
    assert "gem_attempt" not in types(ev) and st.players[0]["gems"] == {"Ishkatar": "Diamond"}


def test_no_other_seat_can_tell_whether_he_holds_the_gem_of_the_wizard_he_meets_14_3():
    """14.3: the Gem Record is confidential. A Rank FOUR Wizard meets Ishkatar, once holding Ishkatar's Gem and once
    not: until he answers, what the other seat sees (its view, the events it is shown) is the same either way."""
    def seen(holds: bool):
        def has(st):
            if holds:
                st.players[0]["gems"]["Ishkatar"] = "Diamond"
        st, ev = enter("C5", "A2", seats=2, prepare=both(marker("Ishkatar", "C5", "A2"), joined("wizards", 4), has))
        st, more = dice(st, ev)
        shown = [e for e in ev + more if e.get("visible_to") is None or 1 in e["visible_to"]]
        view = ENGINE.view(st, 1)
        del view["players"][0]["gems"]  # "hidden" in both
        return view, shown
    assert seen(True) == seen(False)


def test_false_wizard_steals_7_3263():
    """7.3263: the FALSE WIZARD card, roll 1-4: every Gem held is stolen; FALSE recorded."""
    def prep(st):
        joined("wizards", 4)(st)
        st.gem_boxes["Veldor"], st.gem_boxes["Terek"] = st.gem_boxes["Terek"], st.gem_boxes["Veldor"]
        st.players[0]["gems"]["Ishkatar"] = "Diamond"
    st = solo("C5", "A2", prepare=prep)
    st, ev = run_items(st, {"do": "gem_attempt", "seat": 0, "wizard": "Terek", "rule": "7.326"})
    st, ev = chance(st, 4)
    fw = next(e for e in ev if e["type"] == "false_wizard")
    assert fw["stolen"] == ["Diamond"] and fw["visible_to"] == [0]
    assert st.players[0]["gems"] == {} and st.players[0]["false_wizard"] == "Terek"


def test_sorcerer_needs_company_for_a_gem_7_3461():
    """7.3461: a Sorcerer at Rank FOUR gets no Gem chance alone; in the company of a
    Rank FOUR Wizard in the same space he does."""
    st = solo("C5", "A2", prepare=joined("sorcerers", 4))
    st, ev = run_items(st, {"do": "meet_high_wizard", "seat": 0, "wizard": "Aevarex", "rule": "7.32"})
    st, ev = answer(st, 0, accept=False)  # 7.321: he stays a Sorcerer
    assert not st.pending and "nothing_done" in types(ev)

    def prep(st):
        joined("sorcerers", 4)(st)
        joined("wizards", 4, seat=1)(st)
        st.players[1]["at"] = list(world_for(st).hex_of[("C5", "A2")])
    st = build(seats=2, at={0: ("C5", "A2"), 1: ("C5", "A4")}, prepare=prep)
    st, ev = run_items(st, {"do": "meet_high_wizard", "seat": 0, "wizard": "Aevarex", "rule": "7.32"})
    st, ev = answer(st, 0, accept=False)
    assert {a["kind"] for a in ENGINE.legal_actions(st, 0)} == {"attempt_gem"}


def test_ruktal_promotes_a_druid_to_rank_four_with_perception_7_335_11_233():
    """7.335 / 11.233: Rüktal promotes; at Rank FOUR the Druid learns the False Wizard (secret)."""
    st = solo("M1", "A1", prepare=joined("druids", 3, knowledge=45, perception=75, power=60))
    st.players[0]["at"] = list(hex_of(st, "M1", "Center"))
    st, ev = dice(*run_items(st, {"do": "ruktal", "seat": 0, "at": st.players[0]["at"]}))
    assert st.players[0]["rank"] == 4 and st.players[0]["false_wizard"] == "Veldor"
    assert next(e for e in ev if e["type"] == "false_wizard_known")["visible_to"] == [0]


def test_ruktal_one_thing_for_a_non_member_7_33():
    """7.33: a Wizard who declines the Druids gets ONE thing: a Task (Optional, 9.42)."""
    st = solo("M1", "A1", prepare=joined("wizards", 2))
    center = hex_of(st, "M1", "Center")
    st.players[0]["at"] = list(center)
    st, ev = run_items(st, {"do": "ruktal", "seat": 0, "at": list(center)})
    st, ev = answer(st, 0, accept=False)
    assert "declined_order" in types(ev) and "promoted" not in types(ev)


def test_gem_summoning_contacts_a_marker_11_2321_amb5():
    """11.2321 / AMB5: with a marker on the board the Sorcerer contacts it: the one 7.326
    die decides, and the marker leaves the board whatever the roll."""
    st = solo("M2", "A1", prepare=both(joined("sorcerers", 4), marker("Zegoral", "C1", "A1")))
    center = hex_of(st, "M2", "Center")
    st.players[0]["at"] = list(center)
    st, ev = run_items(st, {"do": "master_sorcerer", "seat": 0, "at": list(center)})
    acts = ENGINE.legal_actions(st, 0)
    assert {a["target"] for a in acts} == {"Zegoral", None}
    st, ev = answer(st, 0, target="Zegoral")
    assert st.wizard_markers["Zegoral"] is None
    st, ev = chance(st, 6)
    assert any(e["type"] == "no_gem" for e in ev)
    st, ev = dice(st, ev)
    assert not st.wizard_aside and len(st.decks["wizard"]) == 14


def test_gem_summoning_at_random_11_2322():
    """11.2322: no marker on the board: 1-2 succeeds, draw until a High Wizard, then 7.326."""
    st = solo("M2", "A1", prepare=joined("sorcerers", 4))
    center = hex_of(st, "M2", "Center")
    st.players[0]["at"] = list(center)
    st, ev = run_items(st, {"do": "master_sorcerer", "seat": 0, "at": list(center)})
    st, ev = answer(st, 0, target="random")
    st, ev = dice(st, ev)
    assert st.players[0]["gems"] == {"Ishkatar": "Diamond"}


def test_wizard_card_phantasm_and_trap_8_72_8_73():
    """8.72 a Phantasm is no encounter; 8.73 a Trap transports him to its destination
    (W9: the Center of the Dragon's Lair); 8.74 the cards go back and are reshuffled."""
    st = solo("C5", "A2")
    st.decks["wizard"].remove("W8")
    st.decks["wizard"].insert(0, "W8")
    st, ev = dice(*run_items(st, {"do": "wizard_card", "seat": 0, "rule": "8.7", "mode": "one"}))
    assert "phantasm" in types(ev) and len(st.decks["wizard"]) == 14 and not st.wizard_aside
    st = solo("C5", "A2")
    st.decks["wizard"].remove("W9")
    st.decks["wizard"].insert(0, "W9")
    st, ev = dice(*run_items(st, {"do": "wizard_card", "seat": 0, "rule": "8.7", "mode": "one"}))
    assert st.players[0]["at"] == list(hex_of(st, "M6", "Center"))


def test_wizard_card_high_wizard_met_at_once_8_71():
    """8.71: a High Wizard card: he is met in the player's space."""
    st = solo("C5", "A2")
    st, ev = run_items(st, {"do": "wizard_card", "seat": 0, "rule": "8.7", "mode": "one"})
    assert any(e["type"] == "meets_high_wizard" and e["wizard"] == "Ishkatar" for e in ev)


def test_high_wizard_card_in_the_center_not_met_7_32_amb25():
    """7.32 / AMB25: in the Center of the Sacred Circle the card is not met and goes back at once."""
    st = solo("M1", "A1")
    st.players[0]["at"] = list(hex_of(st, "M1", "Center"))
    st, ev = dice(*run_items(st, {"do": "wizard_card", "seat": 0, "rule": "8.7", "mode": "one"}))
    assert "high_wizard_forbidden" in types(ev) and "meets_high_wizard" not in types(ev)
    assert len(st.decks["wizard"]) == 14 and not st.wizard_aside and not st.aside_for


def test_secret_wizard_known_only_to_the_seats_7_302_14_3():
    """7.302 Rank 4 result 6: a Secret Wizard: the card is shown only to the players in the
    encounter; two markers of one letter, one in a RANDOM space; landing on it reveals him."""
    st = build(seats=3)
    st, ev = run_items(st, {"do": "secret_wizard", "seats": [0, 1], "rule": "7.302"})
    st, more = chance(st, 1, 1, 1, 2)  # Torwall A2
    ev += more
    known = next(e for e in ev if e["type"] == "secret_wizard_known")
    assert known["visible_to"] == [0, 1] and known["wizard"] == "Ishkatar"
    assert all(e.get("visible_to") == [0, 1] for e in ev if e["type"] == "wizard_card")
    assert st.players[0]["secret_record"] == {"A": "Ishkatar"}
    v = ENGINE.view(st, 2)
    assert v["secret_wizards"] == [{"letter": "A", "at": list(hex_of(st, "C1", "A2"))}]
    assert "Ishkatar" not in str(v["secret_wizards"]) and v["players"][0]["secret_record"] == "hidden"
    assert st.aside_for == {"secret:A": ["W1"]}


# --- the Record Sheet: advancing and points (10.21, 10.22) --------------------------------
def meet_wizard(st, wizard="Terek"):
    """Seat 0 meets a High Wizard in his space, every die after showing 1."""
    return dice(*run_items(st, {"do": "meet_high_wizard", "seat": 0, "wizard": wizard, "rule": "7.32"}))


def test_10_21_points_for_two_ranks_advance_only_one():
    """10.21: an Apprentice Wizard holding the points of Rank FOUR (and so of two Ranks and
    more) meets a High Wizard: he advances ONE Rank, to Scholar, and no further."""
    st = solo("C5", "A2", prepare=joined("wizards", knowledge=80, perception=65, power=50))
    st, ev = meet_wizard(st)
    assert [e["rank"] for e in ev if e["type"] == "promoted"] == [2]
    assert st.players[0]["rank"] == 2


def test_10_21_three_days_between_advancing_counted_in_days_played():
    """10.21 (reading in record.py): promoted on day n (days played), he may advance again from
    day n + 3. A Scholar promoted on day 5 with the points of a Sage meets a High Wizard on
    day 7: not promoted (10.21); on day 8, the boundary day, he is."""
    def scholar(st):
        joined("wizards", 2, knowledge=45, perception=35, power=25)(st)
        st.players[0]["rank_day"] = 5
    st = solo("C5", "A2", prepare=scholar)
    st.calendar["days_played"] = 7
    st, ev = meet_wizard(st)
    assert "promoted" not in types(ev) and st.players[0]["rank"] == 2
    from shared.wizards.record import promotion_due
    assert promotion_due(st, 0) == "10.21"
    st = solo("C5", "A2", prepare=scholar)
    st.calendar["days_played"] = 8
    st, ev = meet_wizard(st)
    assert st.players[0]["rank"] == 3 and st.players[0]["rank_day"] == 8
    assert [e["rank"] for e in ev if e["type"] == "promoted"] == [3]


def test_10_22_never_demoted_and_points_never_below_zero():
    """10.22: a Sage (Rank 3, needing 40 Knowledge) holding 3 Knowledge loses six points from the
    type he has least of (7.304 2): Knowledge stops at zero, not -3, and he stays a Sage; a High
    Wizard met afterwards does not demote him either."""
    st = solo("C5", "A2", prepare=joined("wizards", 3, knowledge=3, perception=30, power=20))
    st, ev = run_items(st, {"do": "lose_least", "seat": 0, "rule": "7.304 2", "amount": 6})
    lost = next(e for e in ev if e["type"] == "points_lost")
    assert lost["points"] == {"knowledge": 3}
    assert st.players[0]["points"] == {"knowledge": 0, "perception": 30, "power": 20}
    assert st.players[0]["rank"] == 3
    st, ev = meet_wizard(st)
    assert st.players[0]["rank"] == 3 and min(st.players[0]["points"].values()) >= 0


# --- Master Sorcerers and Hamdrel (7.347, 7.351) -------------------------------------------
def at_megmoran(prepare):
    """Seat 0 in the Center of Megmoran's Tower (M2), holding Task 33 with the Horn of Calling
    taken: its next requirement is to meet a Master Sorcerer (7.343)."""
    st = solo("M2", "A1", prepare=prepare)
    st.players[0]["at"] = list(hex_of(st, "M2", "Center"))
    hold_task(st, 0, 33, done=1)
    return st


def meet_master(st):
    return run_items(st, {"do": "master_sorcerer", "seat": 0, "at": list(st.players[0]["at"])})


def test_7_347_a_sorcerer_gets_as_many_as_possible_every_time():
    """7.347: a member of the Order of Sorcerers meeting a Master Sorcerer has AS MANY of 7.343-7.346
    done as possible: his Task requirement fulfilled (7.343), a Task assigned (7.344) and, with the
    points, promotion (7.345), all in one meeting; meeting him again he is assigned a Task again."""
    st = at_megmoran(joined("sorcerers", knowledge=10, perception=5, power=15))
    st, ev = dice(*meet_master(st))
    assert "task_requirement_met" in types(ev) and "task_drawn" in types(ev)
    assert [e["rank"] for e in ev if e["type"] == "promoted"] == [2]
    held = len(st.players[0]["tasks"])
    assert held == 1  # Task 33 completed, the new Task held
    st, ev = dice(*meet_master(st))  # EVERY time
    assert "task_drawn" in types(ev) and len(st.players[0]["tasks"]) == held + 1


def test_7_347_contrast_a_non_member_gets_one_thing_7_34():
    """7.34 (contrast with 7.347): a Wizard who declines the Sorcerers gets ONE thing, the first that
    applies: his Task requirement fulfilled (7.343), and no Task assigned."""
    st = at_megmoran(joined("wizards", knowledge=15, perception=10, power=5))
    st, ev = meet_master(st)
    st, ev = dice(*answer(st, 0, accept=False))
    assert "task_requirement_met" in types(ev) and "task_drawn" not in types(ev)
    assert st.players[0]["tasks"] == [] and st.players[0]["rank"] == 1


def test_7_351_hamdrel_heals_and_does_nothing_else():
    """7.351 / 7.35: a Demon Dazed (then a Dragonbound) player entering her Cottage is cured at once,
    and that is the ONE thing she does: no gift roll (7.353) and his Task requirement to meet her
    (Task 26, the Crystal Orb taken) is not fulfilled (7.352)."""
    for affliction in ("demon_dazed", "dragonbound"):
        def sick(s, affliction=affliction):
            joined("wizards")(s)
            s.players[0]["afflictions"].append(affliction)
            hold_task(s, 0, 26, done=1)
        st, ev = enter("M5", "Center", prepare=sick)
        healed = next(e for e in ev if e["type"] == "healed")
        assert healed["afflictions"] == [affliction] and healed["rule"] == "7.351"
        assert st.players[0]["afflictions"] == []
        assert "task_requirement_met" not in types(ev) and "hamdrel_gift" not in types(ev)
        assert st.chance["then"]["do"] == "movement_rolled"  # no gift dice asked
        assert st.players[0]["tasks"][0]["steps"][1]["done"] is False


# --- the False Wizard and Perception (11.2331, 7.3263) -------------------------------------
def false_wizard_roll(order, rank, face):
    """Seat 0 (of `order` at `rank`, holding Ishkatar's Diamond) asks Terek, whose box holds the
    FALSE WIZARD card, for a Gem and rolls `face`: the Gems he still holds and the event."""
    def prep(st):
        joined(order, rank)(st)
        st.gem_boxes["Veldor"], st.gem_boxes["Terek"] = st.gem_boxes["Terek"], st.gem_boxes["Veldor"]
        st.players[0]["gems"]["Ishkatar"] = "Diamond"
    st = solo("C5", "A2", prepare=prep)
    st, ev = run_items(st, {"do": "gem_attempt", "seat": 0, "wizard": "Terek", "rule": "7.326"})
    st, ev = chance(st, face)
    assert st.players[0]["false_wizard"] == "Terek"
    return st.players[0]["gems"], next(e for e in ev if e["type"] == "false_wizard")


def test_11_2331_a_rank_four_druid_keeps_his_gems_on_4_or_5():
    """11.2331: a Druid at Rank FOUR meeting the False Wizard keeps his Gems on a 4 or 5 and loses
    them on 1-3 (the 7.326 roll)."""
    for face in (4, 5):
        held, fw = false_wizard_roll("druids", 4, face)
        assert held == {"Ishkatar": "Diamond"} and fw["stolen"] == [] and fw["rule"] == "11.2331", face
    for face in (1, 3):
        held, fw = false_wizard_roll("druids", 4, face)
        assert held == {} and fw["stolen"] == ["Diamond"] and fw["rule"] == "11.2331", face


def test_11_2331_contrast_others_lose_their_gems_on_4_7_3263():
    """7.3263 (contrast with 11.2331): a Wizard at Rank FOUR, and a Druid below Rank FOUR (not "of
    this Rank"), lose their Gems on a 4 and keep them only on a 5."""
    for order, rank in (("wizards", 4), ("druids", 3)):
        held, fw = false_wizard_roll(order, rank, 4)
        assert held == {} and fw["stolen"] == ["Diamond"] and fw["rule"] == "7.3263", (order, rank)
        held, fw = false_wizard_roll(order, rank, 5)
        assert held == {"Ishkatar": "Diamond"} and fw["stolen"] == [], (order, rank)
