"""The Sacred Gems (13, 7.326-7.3263, 7.336, 11.232) and winning (2, 13)."""
from __future__ import annotations

import json

from shared.engine import TERMINAL
from shared.wizards import special_spells
from tests.wizards.scenario import (
    ENGINE,
    answer,
    both,
    build,
    chance,
    false_wizard,
    gems,
    hex_of,
    hold_task,
    joined,
    roll_through,
    run_items,
    solo,
)


def types(ev):
    return [e["type"] for e in ev]


def in_the_center(seats=2, prepare=None, **kw):
    """Seat 0 in the Center of the Sacred Circle, about to roll."""
    def prep(st):
        st.players[0]["at"] = list(hex_of(st, "M1", "Center"))
        if prepare:
            prepare(st)
    return build(seats=seats, prepare=prep, **kw)


def meet_ruktal(st):
    return run_items(st, {"do": "ruktal", "seat": 0, "at": list(st.players[0]["at"])})


def test_rank_four_is_assigned_no_task_and_gains_no_points_13():
    """13: at Rank FOUR an encounter calling for a Task Card or for points is ignored: no card is drawn and
    no die is rolled for the points."""
    st = solo("C5", "A2", prepare=joined("wizards", 4, knowledge=80))
    decks = len(st.decks["task"])
    st, ev = run_items(st, {"do": "draw_task", "seat": 0, "rule": "8.47", "mandatory": False},
                       {"do": "points", "seat": 0, "dice": 1, "times": 2, "rule": "7.39"},
                       {"do": "points", "seat": 0, "dice": 1, "sign": -1, "rule": "7.301 2"})
    assert [(e["type"], e["rule"]) for e in ev if e["type"] in ("no_task", "no_points")] == [
        ("no_task", "13"), ("no_points", "13"), ("no_points", "13")]
    assert len(st.decks["task"]) == decks and st.players[0]["points"]["knowledge"] == 80
    assert not st.pending and st.chance["then"]["do"] == "movement_rolled"  # no dice were asked


def test_mandatory_tasks_come_before_the_gems_13_9_41():
    """13 / 9.41 / 7.326 / 11.2312 / 11.232: with an unfinished Mandatory Task a Rank FOUR player may not ask a
    High Wizard for a Gem, his Telepathy for Gems fails, and a Sorcerer may not cast Gem Summoning."""
    def mandatory(st):
        hold_task(st, 0, 9, mandatory=True)
    st = solo("C5", "A2", prepare=both(joined("wizards", 4), mandatory))
    st, ev = run_items(st, {"do": "meet_high_wizard", "seat": 0, "wizard": "Ishkatar", "rule": "7.32"})
    assert not st.pending and "gem_attempt" not in types(ev)
    st, ev = run_items(st, {"do": "telepathy", "seat": 0})
    st, ev = chance(st, 1)
    assert next(e for e in ev if e["type"] == "spell_cast")["rule"] == "11.2312"
    sorcerer = solo("M2", "A1", prepare=both(joined("sorcerers", 4), mandatory))
    assert not special_spells.gem_summoning_open(sorcerer, 0)
    sorcerer.players[0]["tasks"][0]["mandatory"] = False  # 9.42: an Optional Task does not stop him
    assert special_spells.gem_summoning_open(sorcerer, 0)


def test_six_gems_delivered_to_ruktal_win_7_336_13():
    """7.336 / 13 / 2: a player holding all six Sacred Gems who meets Rüktal in the Center of the Sacred
    Circle gives them to him and wins: the match is over, with him the winner."""
    st = in_the_center(prepare=both(joined("druids", 4), gems(0, six=True)))
    st, ev = meet_ruktal(st)
    assert ENGINE.actor(st) == TERMINAL and st.phase == "over"
    out = ENGINE.outcome(st)
    assert out.winners == (0,) and out.scores == (1, 0) and "Rüktal" in out.summary
    delivered = next(e for e in ev if e["type"] == "gems_delivered")
    assert sorted(delivered["gems"].values()) == ["Diamond", "Emerald", "Onyx", "Ruby", "Sapphire", "Topaz"]
    assert st.result["winners"] == [0] and st.result["reason"] == "gems delivered (7.336)"
    assert ENGINE.legal_actions(st, 0) == [] and ENGINE.chance_request(st) is None
    ENGINE.check_invariants(st)
    assert ENGINE.decode(ENGINE.encode(st)) == st


def test_delivery_is_not_one_of_the_favours_7_33_7_336():
    """7.33 / 7.336 (reading): the Gems are received whatever the player's Order, before Rüktal offers a
    Wizard membership or fulfils a Task for him."""
    def meet_him(st):
        hold_task(st, 0, 9)
    st = in_the_center(prepare=both(joined("wizards", 4), gems(0, six=True), meet_him))
    st, ev = meet_ruktal(st)
    assert ENGINE.actor(st) == TERMINAL and "declined_order" not in types(ev)
    assert ENGINE.outcome(st).winners == (0,)


def test_five_gems_are_not_enough_13():
    """13: all SIX Sacred Gems must be brought; with five Rüktal does what he does for anyone."""
    st = in_the_center(prepare=both(joined("druids", 4), gems(0, "Ishkatar", "Tolmitar", "Aevarex", "Elekov",
                                                                "Zegoral")))
    assert len(set(st.players[0]["gems"].values())) == 5
    st = roll_through(meet_ruktal(st)[0])
    assert ENGINE.actor(st) != TERMINAL and st.phase == "play"


def test_an_afflicted_player_is_healed_first_7_332_7_3044():
    """7.332 / 7.3044: a Dragonbound player holding the six Gems is healed and nothing more: no delivery that
    encounter."""
    def bound(st):
        st.players[0]["afflictions"] = ["dragonbound"]
    st = in_the_center(prepare=both(joined("druids", 4), gems(0, six=True), bound))
    st, ev = meet_ruktal(st)
    assert "healed" in types(ev) and "gems_delivered" not in types(ev) and st.phase == "play"


def test_false_wizard_roll_five_steals_nothing_six_shows_nothing_7_3263_7_3262():
    """7.3263: the FALSE WIZARD card with a 5: no Gem is stolen, FALSE is recorded (secretly); 7.3262: with a
    6 the player may not look at the card and learns nothing."""
    st = solo("C5", "A2", prepare=both(joined("wizards", 4), gems(0, "Ishkatar")))
    fw = false_wizard(st)
    five, ev = run_items(st, {"do": "gem_attempt", "seat": 0, "wizard": fw, "rule": "7.326"})
    five, ev = chance(five, 5)
    assert five.players[0]["gems"] == st.players[0]["gems"] and five.players[0]["false_wizard"] == fw
    assert next(e for e in ev if e["type"] == "false_wizard")["visible_to"] == [0]
    six, ev = run_items(st, {"do": "gem_attempt", "seat": 0, "wizard": fw, "rule": "7.326"})
    six, ev = chance(six, 6)
    assert six.players[0]["false_wizard"] is None and "no_gem" in types(ev)


def test_gem_summoning_records_the_gem_and_the_false_wizard_summons_all_11_2321_11_2322():
    """11.2321: a Gem summoned through a marker goes on the Gem Record; 11.2322: the False Wizard summoned at
    random takes every Gem the Sorcerer holds (roll 1-4)."""
    st = solo("M2", "A1", prepare=both(joined("sorcerers", 4), gems(0, "Ishkatar")))
    fw = false_wizard(st)
    st.players[0]["at"] = list(hex_of(st, "M2", "Center"))
    drawn = [c for c in st.decks["wizard"] if c == "W" + str(1 + list(st.gem_boxes).index(fw))]
    st.decks["wizard"].remove(drawn[0])
    st.decks["wizard"].insert(0, drawn[0])  # the False Wizard's card on top
    st, ev = run_items(st, {"do": "master_sorcerer", "seat": 0, "at": list(st.players[0]["at"])})
    st, ev = answer(st, 0, target="random")
    st, ev = chance(st, 1)  # 1-2: the random cast succeeds; his card is drawn
    st, ev = chance(st, 2)  # the 7.326 die: 1-4 steals
    assert st.players[0]["gems"] == {} and st.players[0]["false_wizard"] == fw
    assert next(e for e in ev if e["type"] == "false_wizard")["stolen"] == ["Diamond"]


def test_a_gem_held_is_not_asked_for_again_and_says_so_only_to_him_amb20_14_3():
    """AMB20 / 14.3: a High Wizard whose Gem is on the record gives nothing more, and the event that says so
    (it tells what his Gem Record holds) is for his seat only."""
    st = build(seats=2, prepare=both(joined("wizards", 4), gems(0, "Ishkatar")))
    st, ev = run_items(st, {"do": "gem_attempt", "seat": 0, "wizard": "Ishkatar", "rule": "11.2312"})
    no = next(e for e in ev if e["type"] == "no_gem")
    assert no["visible_to"] == [0]
    assert all(e.get("visible_to") == [0] for e in ev if "Ishkatar" in json.dumps(e))
    assert ENGINE.view(st, 1)["players"][0]["gems"] == "hidden"
