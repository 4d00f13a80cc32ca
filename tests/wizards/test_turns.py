"""The Sequence of Play (section 5), turn order and the Calendar (3.74), encounters due (7.1, 8.1)."""
from __future__ import annotations

from shared.engine import TERMINAL
from shared.wizards.world import world_for
from tests.wizards.scenario import ENGINE, build, hex_of, move, roll


def finish(st, seat):
    if st.await_ and st.await_["for"] == "move":
        st, ev = ENGINE.apply(st, seat, {"kind": "end_move"})
        return st, ev
    return st, []


def due(ev):
    return next((e for e in ev if e["type"] == "encounter_due"), None)


def test_the_movement_roll_is_two_dice_white_for_points_red_for_encounters():
    """5.1: the player rolls TWO dice: the WHITE die gives his Movement Points, the RED die whether he will
    have a Random Encounter (5.21: 1-3 he can, 4-6 he will not)."""
    st = build()
    req = ENGINE.chance_request(st)
    assert [p.purpose for p in req.pools] == ["white die: Movement Points", "red die: Random Encounter on 1-3"]
    st, ev = ENGINE.apply_chance(st, [[4], [3]])
    assert st.turn["mp"] == 4 and st.turn["roll"] == {"white": 4, "red": 3}
    assert next(e for e in ev if e["type"] == "movement_roll")["random_encounter"] is True


def test_random_encounter_due_on_red_one_to_three_in_an_eligible_space():
    """5.21 / 8: ending movement on an eligible space with a red 1-3 gives a Random Encounter; 4-6 none."""
    for red, expected in ((1, True), (3, True), (4, False), (6, False)):
        st = roll(build(), 1, red)
        st, ev = move(st, 0, "walk", hex_of(st, "C5", "A2"))  # plains
        st, ev2 = finish(st, 0)
        d = due(ev + ev2)
        assert bool(d and d["random"]) is expected


def test_no_random_encounter_where_section_8_1_forbids_it():
    """8.1: not on a Sacred Circle Stone, a MOUNTAIN space of a Tower tile, any space of Hamdrel's Cottage or
    the Dragon's Lair tile, a Water space, or where a Specific Encounter is called for (7.1)."""
    places = [("M4", "A2"), ("M5", "B1"), ("M6", "B2")]
    for tile, label in places:
        st = roll(build(at={0: (tile, label), 1: ("C5", "A1")}), 1, 1)
        st, ev = ENGINE.apply(st, 0, {"kind": "end_move"})
        assert due(ev) is None or not due(ev)["random"], (tile, label)
    st = roll(build(at={0: ("M1", "B1"), 1: ("C5", "A1")}), 1, 1)
    st, ev = move(st, 0, "stone", hex_of(st, "M1", "A1"))
    assert due(ev) is None or not due(ev)["random"]
    st = roll(build(at={0: ("E5", "B4"), 1: ("C5", "A1")}), 3, 1)
    st, ev = move(st, 0, "swim", (1, 7))
    assert due(ev) is None or not due(ev)["random"]
    st = roll(build(at={0: ("C5", "A3"), 1: ("C5", "A1")}), 2, 1)
    st, ev = move(st, 0, "walk", hex_of(st, "C5", "B3"))  # the town: a Specific Encounter instead
    assert due(ev)["specific"] == [{"kind": "common_folk"}] and not due(ev)["random"]


def test_staying_put_has_no_specific_encounter_again():
    """7.6: a player remaining in a Specific Encounter space no longer has encounters there."""
    st = roll(build(at={0: ("C5", "B3"), 1: ("C5", "A1")}), 2, 6)
    st, ev = ENGINE.apply(st, 0, {"kind": "end_move"})
    assert due(ev) is None


def test_turns_pass_clockwise_from_the_dealer_and_he_advances_the_day():
    """3.74: the Dealer moves first; turns pass clockwise; after everyone has moved he advances the Day Marker
    before his next turn."""
    st = build(seats=3, dealer=1, at={0: ("C5", "A1"), 1: ("C5", "A3"), 2: ("C5", "A5")})
    seen = []
    for _ in range(4):
        seen.append((st.turn["seat"], st.calendar["day"]))
        st = roll(st, 1)
        st, _ = ENGINE.apply(st, st.turn["seat"], {"kind": "end_move"})
    assert seen == [(1, 1), (2, 1), (0, 1), (1, 2)]


def test_calendar_runs_to_day_fourteen_and_round_again():
    """3.5 / 12.3: the Day Marker runs along the Calendar; after Day 14 (played here as a thwarted Day 14
    is, with normal turns) the next Fortnight begins at Day 1."""
    def late(s):
        s.calendar = {"day": 14, "fortnight": 1, "days_played": 13}
    st = roll(build(seats=1, days=20, prepare=late), 1)
    st, ev = ENGINE.apply(st, 0, {"kind": "end_move"})
    assert st.calendar == {"day": 1, "fortnight": 2, "days_played": 14}


def test_extra_turns_come_at_once_and_lost_turns_are_skipped():
    """8.3 / 7.301 / 11.2131: an extra turn is taken immediately by the same player; lost turns pass him by."""
    def extra(s):
        s.players[0]["extra_turns"] = 1
    st = roll(build(seats=2, prepare=extra), 1)
    st, ev = ENGINE.apply(st, 0, {"kind": "end_move"})
    assert st.turn["seat"] == 0 and st.turn["extra"] is True
    def lost(s):
        s.players[1]["lost_turns"] = 2
    st = roll(build(seats=2, prepare=lost), 1)
    st, ev = ENGINE.apply(st, 0, {"kind": "end_move"})
    assert any(e["type"] == "turn_lost" and e["seat"] == 1 for e in ev)
    assert st.turn["seat"] == 0 and st.players[1]["lost_turns"] == 1 and st.calendar["day"] == 2


def test_trap_needing_five_or_six_holds_the_player():
    """8.3 result 5: he must roll a 5 or 6 on his Movement Roll to move on; once he does, the Trap expires."""
    def trapped(s):
        s.players[0]["trap"] = {"roll_to_leave": [5, 6]}
    st = build(seats=1, prepare=trapped)
    held, ev = ENGINE.apply_chance(st, [[4], [6]])
    assert any(e["type"] == "still_trapped" for e in ev) and any(e["type"] == "turn_begins" for e in ev)
    assert held.players[0]["at"] == st.players[0]["at"] and held.players[0]["trap"]
    st = roll(build(seats=1, prepare=trapped), 5)
    assert st.turn["mp"] == 5 and st.players[0]["trap"] is None


def test_a_time_limit_ends_the_match_with_no_winner():
    """options["days"] (a time limit, off by default; reading in evil.py): after that many days the match is
    TERMINAL: the Sacred Gems were not delivered, so no one wins (13) and every score is 0."""
    st = build(seats=2, days=2)
    for _ in range(4):
        st = roll(st, 1)
        st, _ = ENGINE.apply(st, st.turn["seat"], {"kind": "end_move"})
    assert ENGINE.actor(st) == TERMINAL
    out = ENGINE.outcome(st)
    assert out.winners == () and out.scores == (0, 0) and "time limit" in out.summary
    assert ENGINE.legal_actions(st, 0) == [] and ENGINE.chance_request(st) is None


def test_end_move_and_movement_points_run_out():
    """5.1 / 6: movement ends when the points are spent or the player stops."""
    st = roll(build(seats=1), 1)
    st, ev = move(st, 0, "walk", hex_of(st, "C5", "A2"))
    assert any(e["type"] == "turn_begins" for e in ev)  # no points left: the turn is over
    st = roll(build(seats=1), 3)
    st, ev = move(st, 0, "walk", hex_of(st, "C5", "A2"))
    assert st.await_["for"] == "move" and st.turn["mp"] == 2
    assert world_for(st).tile_of(tuple(st.players[0]["at"])) == "C5"
