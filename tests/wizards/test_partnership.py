"""The partnership game (Appendix B): Telepathic Partners for four or six players."""
from __future__ import annotations

import json

import pytest

from shared.engine import TERMINAL, InvalidConfig, MatchConfig
from shared.wizards import record
from shared.wizards.state import ls
from tests.wizards.scenario import (
    ENGINE,
    both,
    build,
    choose,
    gems,
    hex_of,
    hold_task,
    joined,
    resolving,
    run_items,
    waits_for,
)

TOGETHER = {0: ("C5", "A1"), 1: ("C5", "A1"), 2: ("C5", "A5"), 3: ("C5", "B1")}


def four(prepare=None, at=None):
    return build(seats=4, variant="partnership", at=at or TOGETHER, prepare=prepare)


def ranks(*rs):
    return both(*[joined("wizards", r, seat=s) for s, r in enumerate(rs)])


def meet(st, seat=0, others=(1,)):
    return resolving(st, {"do": "player", "seat": seat, "at": list(st.players[seat]["at"]), "others": list(others)})


def test_partnership_is_for_four_or_six_appendix_b():
    """Appendix B: FOUR or SIX players; another count is refused with a clear message; the partners are
    seats 0-1, 2-3 and 4-5, public in every view."""
    for n in (1, 2, 3, 5):
        with pytest.raises(InvalidConfig, match="FOUR or SIX"):
            ENGINE.setup(MatchConfig(n, "partnership"))
    assert ENGINE.seat_counts("partnership") == (4, 6)
    assert ENGINE.setup(MatchConfig(6, "partnership")).config["variant"] == "partnership"
    st = four()
    assert ENGINE.view(st, 2)["partners"] == ENGINE.view(st, None)["partners"] == [[0, 1], [2, 3]]
    assert ENGINE.view(build(seats=4), 0)["partners"] == []


def test_points_gained_by_one_are_gained_by_the_other_appendix_b_amb8():
    """Appendix B / AMB8: all points gained by one partner are also gained by the other, even in another
    Order; losses are not shared, nor gains to a partner who may not gain (Rank 0, 3.73)."""
    st = four(prepare=both(joined("wizards", 1), joined("druids", 2, seat=1)))
    ev: list = []
    record.gain(st, 0, {"power": 4}, "7.39", ev)
    assert st.players[1]["points"]["power"] == 4 and st.players[2]["points"]["power"] == 0
    assert ev[-1]["from_partner"] == 0 and ev[-1]["rule"] == "Appendix B"
    record.lose(st, 1, {"power": 3}, "7.301 2", ev)
    assert (st.players[0]["points"]["power"], st.players[1]["points"]["power"]) == (4, 1)
    record.gain(st, 2, {"knowledge": 5}, "7.39", ev)  # his partner, seat 3, is in no Order
    assert st.players[3]["points"]["knowledge"] == 0 and ev[-1]["rule"] == "3.73"


def test_partners_have_no_player_encounter_but_exchange_optional_tasks_appendix_b():
    """Appendix B: partners who meet have no normal Player Encounter (no table is rolled); they may exchange
    as many Optional Tasks as they wish (9.2: the markers move with the card), Mandatory ones stay."""
    def tasks(st):
        hold_task(st, 0, 7, at={0: ("C5", "C1")})
        hold_task(st, 0, 11)
        hold_task(st, 0, 9, mandatory=True)
    st, ev = meet(four(prepare=both(ranks(2, 2), tasks)))
    assert "player_encounter" not in [e["type"] for e in ev] and waits_for(st) == "choice"
    assert sorted(map(json.dumps, ENGINE.legal_actions(st, 0))) == sorted(map(json.dumps, [
        {"kind": "partner_done"}, {"kind": "partner_task", "task": 7}, {"kind": "partner_task", "task": 11}]))
    assert ENGINE.describe({"kind": "partner_task", "task": 7}) == "give Optional Task 7 to your partner (Appendix B)"
    st, _ = choose(st, 0, "partner_task", task=7)
    st, _ = choose(st, 0, "partner_task", task=11)
    assert [(m["seat"], m["task"]) for m in st.task_markers] == [(1, 7)]
    assert [t["card"] for t in st.players[0]["tasks"]] == [9]
    assert sorted(t["card"] for t in st.players[1]["tasks"]) == [7, 11]
    assert st.await_ == {"seat": 1, "for": "choice"}  # nothing left to give: seat 1 may give back what he wishes
    st, _ = choose(st, 1, "partner_task", task=11)
    st, _ = choose(st, 1, "partner_done")
    assert [t["card"] for t in st.players[0]["tasks"]] == [9, 11] and not st.pending


def test_others_still_meet_normally_in_the_partnership_game_appendix_b():
    """Appendix B: only partners are spared the Player Encounter; seat 0 meeting seat 2 rolls the table."""
    st = four(prepare=ranks(2, 2, 2, 2), at={0: ("C5", "A1"), 1: ("C5", "A3"), 2: ("C5", "A1"), 3: ("C5", "B1")})
    st, ev = meet(st, others=(2,))
    assert waits_for(st) == "player"


def test_no_rescue_points_between_partners_appendix_b():
    """Appendix B: partners may not gain points for rescuing each other: the trapped partner is freed
    (7.3032) and the rescuer gains nothing."""
    def trapped(st):
        st.players[1].update(trap={"rule": "8.3", "lose_turns": 3}, lost_turns=3)
    st, ev = meet(four(prepare=both(ranks(2, 2), trapped)))
    assert st.players[1]["trap"] is None and st.players[1]["lost_turns"] == 0
    assert any(e["type"] == "no_points" and e["rule"] == "Appendix B" for e in ev)
    assert st.players[0]["points"] == {"knowledge": 0, "perception": 0, "power": 0}


def gathering(st):
    ranks(4, 4, 4, 4)(st)
    gems(0, "Ishkatar", "Tolmitar")(st)
    gems(1, "Tolmitar")(st)


def test_partners_gathering_gems_exchange_them_secretly_appendix_b_14_3():
    """Appendix B / 14.3: when both are gathering Gems they may secretly exchange them: the Gem moves from one
    Gem Record to the other; the action and its event are for the two partners only, and no view or event
    of another seat (or a spectator) shows the exchange or either Gem Record."""
    st, ev = meet(four(prepare=gathering))
    acts = ENGINE.legal_actions(st, 0)
    assert {"kind": "partner_gem", "wizard": "Ishkatar"} in acts
    assert {"kind": "partner_gem", "wizard": "Tolmitar"} not in acts  # he holds Tolmitar's already
    give = {"kind": "partner_gem", "wizard": "Ishkatar"}
    assert ENGINE.action_visible_to(st, 0, give) == [0, 1]
    assert ENGINE.action_visible_to(st, 0, {"kind": "partner_done"}) is None
    before = {s: ENGINE.view(st, s) for s in (2, 3, None)}
    st, ev = ENGINE.apply(st, 0, give)
    assert st.players[0]["gems"] == {"Tolmitar": "Sapphire"}
    assert st.players[1]["gems"] == {"Tolmitar": "Sapphire", "Ishkatar": "Diamond"}
    given = next(e for e in ev if e["type"] == "gem_given")
    assert given["visible_to"] == [0, 1]
    for seat in (2, 3, None):
        shown = [e for e in ev if "visible_to" not in e or seat in e["visible_to"]]
        assert not any(g in json.dumps(shown) for g in ("Diamond", "Sapphire", "Ishkatar"))
        v = ENGINE.view(st, seat)
        assert v == before[seat]  # nothing another seat sees has changed
        assert v["players"][0]["gems"] == v["players"][1]["gems"] == "hidden"


def test_no_gem_exchange_unless_both_are_gathering_appendix_b():
    """Appendix B "when both are gathering Gems": a partner below Rank FOUR takes no Gem."""
    st, _ = meet(four(prepare=both(gathering, joined("wizards", 3, seat=1))))
    assert st.pending == [] or not any(a["kind"] == "partner_gem" for a in ENGINE.legal_actions(st, 0))


def test_a_partnership_wins_together_13_appendix_b():
    """13 / Appendix B (reading): the player who delivers the six Gems to Rüktal wins with his partner."""
    def center(st):
        st.players[1]["at"] = list(hex_of(st, "M1", "Center"))
    st = four(prepare=both(ranks(1, 4, 1, 1), gems(1, six=True), center))
    st, ev = run_items(st, {"do": "ruktal", "seat": 1, "at": ls(hex_of(st, "M1", "Center"))})
    assert ENGINE.actor(st) == TERMINAL
    out = ENGINE.outcome(st)
    assert out.winners == (0, 1) and out.scores == (1, 1, 0, 0) and "Partner" in out.summary
