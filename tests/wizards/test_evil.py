"""Section 12, the Evil attack of Day 14 (12.1-12.46, 12.5, Appendix B) and the time limit,
each test citing the rule it checks; readings are those of shared/wizards/evil.py."""
from __future__ import annotations

import pytest

from shared.engine import TERMINAL, MatchConfig, RuleViolation
from shared.hexgrid import neighbours
from shared.wizards import evil
from shared.wizards.adversaries import remove_demon
from shared.wizards.render import TAKEN, board_lines, render, render_events
from shared.wizards.world import world_for
from tests.wizards.scenario import (
    ENGINE,
    answer_dice,
    build,
    chance,
    day_fourteen,
    end,
    hex_of,
    hold_task,
    moves,
    put,
    random_space_faces,
    roll,
    space_faces,
    take,
    waits_for,
    wizard_marker,
)

COMMON = ["C1", "C2", "C3", "C4", "C5", "C6"]
ELVEN = ["E1", "E2", "E3", "E4", "E5", "E6"]


def types(events):
    return [e["type"] for e in events]


def demon_on(*spaces):
    """A `prepare` putting Demon Markers on (tile, label) spaces."""
    def prep(s):
        for tile, label in spaces:
            s.demons.append(list(hex_of(s, tile, label)))
    return prep


def both(*preps):
    def prep(s):
        for p in preps:
            if p:
                p(s)
    return prep


def test_first_fortnight_transports_everyone_then_a_demon_in_his_territory_12_1_12_11():
    """12.1 / 12.11 A-B / AMB22 / 12.3: on Day 14 of the first Fortnight nobody moves; each player, the dealer
    first and then clockwise, is transported to a RANDOM space and a Demon is placed in a random space of the
    Territory he was transported to before the next player goes; then the Day Marker moves to Day 1 and the
    dealer plays."""
    st, ev = day_fourteen(seats=3, fortnight=1, dealer=1)
    assert "evil_attacks" in types(ev) and "turn_begins" not in types(ev)
    landings = [("C1", "A1", "C6"), ("C1", "A2", "C4"), ("C2", "A3", "C1")]
    seen = []
    for tile, label, demon in landings:
        assert st.chance["then"]["do"] == "transported"
        seen.append(st.chance["then"]["seat"])
        st, ev = chance(st, *random_space_faces(tile, label))
        assert any(e["type"] == "transported" and e["reason"] == "12.11 A" for e in ev)
        st, ev = chance(st, *space_faces(demon))
        placed = [e for e in ev if e["type"] == "demon_placed"]
        assert placed and placed[0]["rule"] == "12.11 B" and placed[0]["at"] == list(hex_of(st, tile, demon))
    assert seen == [1, 2, 0]
    assert [tuple(st.players[s]["at"]) for s in (1, 2, 0)] == [hex_of(st, t, lab) for t, lab, _ in landings]
    assert st.calendar == {"day": 1, "fortnight": 2, "days_played": 14}
    assert st.chance["then"]["do"] == "movement_rolled" and st.turn["seat"] == 1
    assert st.taken == []  # 12.11: no Territory is taken in the first two Fortnights


def test_a_demon_appearing_on_a_player_attacks_him_12_11_b():
    """12.11 B: if the Demon appears in a space containing a player it attacks him immediately (7.304)."""
    st, _ = day_fourteen(seats=2, fortnight=2)
    st, _ = chance(st, *random_space_faces("C1", "A1"))
    st, ev = chance(st, *space_faces("A1"))
    assert waits_for(st) == "demons" and st.pending[-1]["seat"] == 0
    assert st.players[1]["at"] != st.players[0]["at"]  # the next player is transported only afterwards


def test_day_fourteen_counts_as_a_turn_for_animals_and_events_12_1():
    """12.1: no one moves on Day 14, but it counts as a turn for Animals and Events: the Animal's turns count
    down, a held Event Card counts the day, a lost turn is spent (reading in evil.py)."""
    def prep(s):
        s.players[0]["animal"] = {"kind": "hound", "turns": 2, "since": 0}
        s.players[0]["events"] = [{"card": s.decks["event"].pop(s.decks["event"].index(30)), "days": 3}]
        s.players[1]["lost_turns"] = 1
        s.players[1]["trap"] = {"rule": "8.3", "lose_turns": 1}
    st, ev = day_fourteen(seats=2, fortnight=1, prepare=prep)
    assert st.players[0]["animal"]["turns"] == 1 and st.players[0]["events"][0]["days"] == 2
    assert st.players[1]["lost_turns"] == 0 and st.players[1]["trap"] is None
    assert "turn_begins" not in types(ev)


def test_a_thwarted_day_fourteen_is_played_as_usual_12_2_12_21_12_3():
    """12.21: with the Thwart Marker in the Evil Thwarted box, normal turns are taken on Day 14, no tile is
    lost and no Demon appears; 12.3: afterwards the Thwart Marker returns to the Successful Attack box."""
    def prep(s):
        s.thwarts, s.thwart = 1, "thwarted"
    st, ev = day_fourteen(seats=2, fortnight=3, prepare=prep)
    assert "attack_thwarted" in types(ev) and "evil_attacks" not in types(ev)
    assert st.calendar["day"] == 14 and st.chance["then"]["do"] == "movement_rolled" and st.turn["seat"] == 0
    assert st.thwarts == 0 and st.thwart == "thwarted"  # the marker stays until Day 14 has passed
    for seat in (0, 1):
        st = end(roll(st, 1), seat)
    assert st.calendar["day"] == 1 and st.calendar["fortnight"] == 4
    assert st.thwart == "takeover" and st.taken == [] and st.demons == []


def test_two_thwarts_banked_hold_off_two_attacks_12_22():
    """12.22: the Completion Marker past TEN twice before Day 14: the Thwart Marker stays in the Evil Thwarted
    box until Day 14 has been passed twice."""
    def prep(s):
        s.thwarts, s.thwart = 2, "thwarted"
    st, ev = day_fourteen(seats=1, fortnight=3, prepare=prep)
    assert "attack_thwarted" in types(ev) and st.thwarts == 1
    st = end(roll(st, 1))
    assert st.calendar["day"] == 1 and st.thwart == "thwarted"


def test_thwart_is_banked_by_ten_tasks_and_spent_on_day_fourteen_12_2():
    """12.2: per ten Tasks completed in the game the Evil is thwarted once (the Completion Track, 12.21)."""
    from shared.wizards.tasks import bank_completion

    def prep(s):
        s.completion = 9
        bank_completion(s, [])
    st, ev = day_fourteen(seats=1, fortnight=3, prepare=prep)
    assert st.completion == 10 and "attack_thwarted" in types(ev) and st.taken == []


def test_a_common_territory_falls_first_terrain_side_down_12_12_12_131():
    """12.12 / 12.131 / 12.132: after the first two Fortnights a Territory is taken over: a Common one while any
    is left, the one with most Demon and Task Markers; it stays on the board, lost (`taken`), and the Demon
    Markers on it leave the board with it."""
    st, ev = day_fourteen(seats=2, fortnight=3, prepare=demon_on(("C2", "B3")))
    taken = [e for e in ev if e["type"] == "territory_taken"]
    assert taken and taken[0]["tile"] == "C2" and taken[0]["rule"] == "12.12" and st.taken == ["C2"]
    assert "demons_lost_with_tile" in types(ev) and list(hex_of(st, "C2", "B3")) not in st.demons
    assert "C2" in [p["tile"] for p in st.tiles["placed"]]  # placed terrain side down in its location
    lines = board_lines(ENGINE.view(st, 0), 0)
    assert sum(line.count(TAKEN) for line in lines) == 19
    assert "Lost to Evil: Woodswall" in render(ENGINE.view(st, 0), 0)
    assert "Woodswall (C2) is taken over by Evil (1 markers, 12.12)" in render_events(ev)


def test_every_elven_territory_falls_before_any_magic_one_12_131():
    """12.131: ALL Elven Territories are taken over before any Magic one, whatever the markers on the Magic
    tiles; six tied Elven tiles are settled by one die read by its face (AMB18)."""
    def prep(s):
        take(s, *COMMON)
        put(s, 0, "M1", "B1")
        put(s, 1, "M1", "B2")
        s.demons.append(list(hex_of(s, "M2", "A1")))
    st, ev = day_fourteen(seats=2, fortnight=9, prepare=prep)
    tie = [e for e in ev if e["type"] == "takeover_tied"]
    assert tie and tie[0]["tiles"] == ELVEN and waits_for(st) == "takeover"
    st, ev = chance(st, 4)
    assert st.taken[-1] == "E4"


def test_the_most_demon_and_task_markers_fall_12_132_12_43():
    """12.132: Demon Markers plus Task Markers decide; 12.43: the Task Markers on the lost tile are removed and
    their Tasks become impossible."""
    def prep(s):
        s.demons.append(list(hex_of(s, "C1", "A1")))
        s.demons.append(list(hex_of(s, "C6", "B3")))
        hold_task(s, 0, 63, at={0: ("C6", "C2")})
    st, ev = day_fourteen(seats=2, fortnight=3, prepare=prep)
    assert st.taken == ["C6"]
    assert not [m for m in st.task_markers if m["task"] == 63]
    assert st.players[0]["task_history"][-1]["card"] == 63
    assert st.players[0]["task_history"][-1]["status"] == "impossible"
    assert any(e["type"] == "task_impossible" and e["rule"] == "12.43" for e in ev)


def test_a_tie_is_settled_by_a_die_rolled_again_when_too_high_12_132():
    """12.132 / AMB18: tied Territories in tile order; with four tied the die's face counts along them and a
    higher face is rolled again; two split it 1-3 / 4-6, three 1-2 / 3-4 / 5-6."""
    def prep(s):
        for tile in ("C1", "C2", "C3", "C4"):
            s.demons.append(list(hex_of(s, tile, "A1")))
    st, ev = day_fourteen(seats=1, fortnight=3, prepare=prep)
    assert waits_for(st) == "takeover"
    st, ev = chance(st, 5)
    assert any(e["type"] == "reroll" and e["rule"] == "12.132" for e in ev) and waits_for(st) == "takeover"
    st, ev = chance(st, 3)
    assert st.taken == ["C3"]
    assert [evil.tie_pick(2, f) for f in range(1, 7)] == [0, 0, 0, 1, 1, 1]
    assert [evil.tie_pick(3, f) for f in range(1, 7)] == [0, 0, 1, 1, 2, 2]
    assert [evil.tie_pick(5, f) for f in range(1, 7)] == [0, 1, 2, 3, 4, None]


def test_each_player_in_turn_places_a_demon_in_his_territory_12_14():
    """12.14: after the takeover one Demon Marker is placed by each player in turn (the dealer first, then
    clockwise) in a random space of the Territory containing him; one appearing on a player attacks."""
    def prep(s):
        s.demons.append(list(hex_of(s, "C2", "B3")))
        put(s, 0, "E1", "A2")
    st, _ = day_fourteen(seats=3, fortnight=3, dealer=2, prepare=prep)
    order = []
    for label in ("C3", "A2"):  # seat 2 (the dealer) in Meadowfarm, then seat 0 in Glendale
        st, ev = chance(st, *space_faces(label))
        order += [e for e in ev if e["type"] == "demon_placed"]
    w = world_for(st)
    assert [(e["rule"], w.space_name(tuple(e["at"]))) for e in order] == [("12.14", "Meadowfarm C3"),
                                                                           ("12.14", "Glendale A2")]
    # the Demon appeared on seat 0 (Glendale A2): it attacks him before seat 1 places his
    assert waits_for(st) == "demons" and st.pending[-1]["seat"] == 0
    assert [i["seat"] for i in st.pending if i["do"] == "evil_demon"] == [1]


def boat_rider(seat: int = 0, boat: int = 0):
    def prep(s):
        b = s.boats[boat]
        b["rider"] = seat
        s.players[seat]["at"] = list(b["at"])
        s.players[seat]["boat"] = boat
    return prep


def test_a_player_in_a_boat_has_the_demon_placed_on_him_12_141():
    """12.141: a player in a Boat on Day 14: the Demon is placed directly on him (and attacks), and it will
    remain in that Boat until it is dispelled."""
    st, ev = day_fourteen(seats=2, fortnight=3, prepare=both(demon_on(("C2", "B3")), boat_rider()))
    placed = [e for e in ev if e["type"] == "demon_placed"]
    assert placed and placed[0]["rule"] == "12.141" and placed[0]["at"] == st.boats[0]["at"]
    assert st.boats[0].get("demon") is True and waits_for(st) == "demons"


def test_a_swimmer_has_the_demon_placed_on_him_and_it_stays_in_the_water_12_141():
    """12.141: a player swimming on Day 14: the Demon is placed on him and remains in that Water space."""
    def swimmer(s):
        water = next(h for h in neighbours(tuple(s.boats[0]["at"])) if world_for(s).is_water(h))
        s.players[0]["at"] = list(water)
    st, ev = day_fourteen(seats=1, fortnight=3, prepare=both(demon_on(("C2", "B3")), swimmer))
    at = st.players[0]["at"]
    assert at in st.demons and not any(b.get("demon") for b in st.boats) and waits_for(st) == "demons"


def test_a_demon_left_in_a_boat_sails_with_it_until_dispelled_12_141():
    """12.141: the Demon remains in that Boat: it moves with the Boat, and goes once dispelled (7.304 6)."""
    def prep(s):
        boat_rider()(s)
        s.boats[0]["demon"] = True
        s.demons.append(list(s.boats[0]["at"]))
    st = roll(build(seats=1, prepare=prep), 6)
    old = tuple(st.boats[0]["at"])
    to = next(h for (by, h) in moves(st, 0) if by == "sail" and h in neighbours(old))
    st, _ = ENGINE.apply(st, 0, {"kind": "move", "by": "sail", "to": list(to), "cost": moves(st, 0)[("sail", to)]})
    assert st.boats[0]["at"] == list(to) and st.demons == [list(to)] and st.boats[0]["demon"] is True
    s = ENGINE.decode(ENGINE.encode(st))
    remove_demon(s, to, "7.304 6", [])
    assert s.demons == [] and "demon" not in s.boats[0]
    ENGINE.check_invariants(st)


def test_players_on_a_fallen_tile_go_to_the_lair_and_meet_their_demon_there_12_41_amb23():
    """12.41: a player in a Territory taken over is transported to a random Dragon's Lair space (Lair Time,
    12.511); AMB23: he is moved first, so his Demon of 12.14 is placed in a random space of the Lair."""
    def prep(s):
        s.demons.append(list(hex_of(s, "C2", "B3")))
        put(s, 0, "C2", "A3")
    st, ev = day_fourteen(seats=1, fortnight=3, prepare=prep)
    assert st.chance["then"]["do"] == "transported" and st.chance["then"]["reason"] == "12.41"
    st, ev = chance(st, *space_faces("A1"))
    assert tuple(st.players[0]["at"]) == hex_of(st, "M6", "A1") and st.players[0]["lair_time"] is not None
    st, ev = chance(st, *space_faces("A4"))
    placed = [e for e in ev if e["type"] == "demon_placed"]
    assert placed[0]["at"] == list(hex_of(st, "M6", "A4")) and placed[0]["rule"] == "12.14"


def test_no_one_may_enter_a_lost_tile_12_41():
    """12.41: players may never enter a tile after it has been taken over: no move lists it, one asked for is
    refused naming 12.41; a transport to a named place on it goes to a random Dragon's Lair space."""
    from shared.wizards import randomspace
    probe = build(seats=1)
    w = world_for(probe)
    pair = next((a, b) for a in w.tile_spaces("C5") for b in neighbours(a)
                if w.tile_of(b) == "C1" and not w.wall_between(a, b) and w.kind(b) in ("plains", "woods"))
    def prep(s):
        s.players[0]["at"] = list(pair[0])
    st = roll(build(seats=1, prepare=prep), 6)
    assert ("walk", pair[1]) in moves(st, 0)
    st = roll(build(seats=1, prepare=both(prep, lambda s: take(s, "C1"))), 6)
    assert not [h for (_, h) in moves(st, 0) if w.tile_of(h) == "C1"]
    with pytest.raises(RuleViolation) as e:
        ENGINE.apply(st, 0, {"kind": "move", "by": "walk", "to": list(pair[1])})
    assert e.value.rule == "12.41"
    assert randomspace.effective({"place": "star_crest"}, ["E4"]) == {"territory": "M6"}


def test_a_high_wizard_on_the_fallen_tile_goes_back_and_his_cards_are_reshuffled_12_42():
    """12.42: a High Wizard's marker on the tile when it is taken over is removed from the Board and his cards
    reshuffled into the Wizard Deck."""
    def prep(s):
        s.demons.append(list(hex_of(s, "C2", "B3")))
        wizard_marker(s, "Terek", "C2", "A1")
    st, ev = day_fourteen(seats=1, fortnight=3, prepare=prep)
    assert st.wizard_markers["Terek"] is None
    assert any(e["type"] == "wizard_marker_lost" and e["rule"] == "12.42" for e in ev)
    st, _ = answer_dice(st, 1, until="pending")  # 8.74: the Wizard deck is shuffled (a secret roll)
    assert not st.wizard_aside and "Terek" not in st.aside_for


def test_the_sacred_circle_taken_means_everyone_loses_12_46():
    """12.46: if the Sacred Circle is taken over before the Gems are delivered, all of the players lose and the
    game is over; 12.5: the Dragon's Lair is never taken, so with every other Territory lost the Circle falls."""
    def prep(s):
        take(s, *COMMON, *ELVEN, "M2", "M3", "M4", "M5")
        put(s, 0, "M6", "A1")
        s.players[0]["lair_time"] = 1
    assert evil.candidates(build(seats=1, prepare=prep)) == ["M1"]
    st, ev = day_fourteen(seats=1, fortnight=20, prepare=prep)
    assert ENGINE.actor(st) == TERMINAL and st.taken[-1] == "M1"
    out = ENGINE.outcome(st)
    assert out.winners == () and out.scores == (0,) and "Sacred Circle" in out.summary
    assert "12.46" in st.result["reason"]
    ENGINE.check_invariants(st)


def test_the_dragons_lair_is_never_taken_12_5():
    """12.5: the Dragon's Lair is never taken over in an attack, whatever its markers."""
    def prep(s):
        take(s, *COMMON, *ELVEN)
        for label in ("A1", "A2", "A3"):
            s.demons.append(list(hex_of(s, "M6", label)))
    st = build(seats=1, prepare=prep)
    assert "M6" not in evil.candidates(st) and evil.candidates(st) == ["M1", "M2", "M3", "M4", "M5"]


def test_the_partnership_game_loses_two_territories_at_a_time_appendix_b():
    """Appendix B: in the partnership game the Evil Spirit takes over TWO Territories at a time (after the
    first two Fortnights)."""
    prep = demon_on(("C2", "B3"), ("C2", "B4"), ("C4", "A1"))
    st, ev = day_fourteen(seats=4, fortnight=3, prepare=prep, variant="partnership",
                          at={0: ("C5", "A1"), 1: ("C5", "A3"), 2: ("C5", "A5"), 3: ("C5", "B1")})
    assert st.taken == ["C2", "C4"]
    st, ev = day_fourteen(seats=2, fortnight=3, prepare=prep)
    assert st.taken == ["C2"]


def test_no_time_limit_unless_asked_and_render_shows_the_days():
    """No time limit by default (the match ends by a rule: 12.46, 13); options["days"] sets one."""
    s = ENGINE.setup(MatchConfig(2))
    assert s.days_limit is None
    assert ENGINE.setup(MatchConfig(2, options={"days": 30})).days_limit == 30
    st = build(seats=1)
    assert "(days played 0)" in render(ENGINE.view(st, 0), 0)
    assert "(days played 0 of 5)" in render(ENGINE.view(build(seats=1, days=5), 0), 0)


def test_a_time_limit_of_fourteen_days_plays_the_attack_first():
    """options["days"] = 14: the first Day 14 is attacked (12.1), and the match ends when the Day Marker would
    move to Day 1, with no winner."""
    st, ev = day_fourteen(seats=1, fortnight=1, days=14)
    st, _ = chance(st, *random_space_faces("C1", "A1"))
    st, ev = chance(st, *space_faces("C6"))
    assert ENGINE.actor(st) == TERMINAL and ENGINE.outcome(st).winners == ()
    assert "time limit" in st.result["reason"]


def test_a_swimmer_beside_a_fallen_tile_stays_in_the_water_and_may_be_stranded_12_41():
    """12.41 (reading in evil.py): a player swimming beside a tile when it falls is not in that Territory and
    stays in the Water; land taken by Evil is no way off, so with no other land in reach he is stranded
    (7.3031)."""
    from shared.wizards.meetings import stranded_place
    probe = build(seats=1)
    w = world_for(probe)
    water = next(h for h in sorted(w.water) if {w.tile_of(n) for n in neighbours(h) if w.is_land(n)} == {"C2"}
                 and all(not w.wall_between(h, n) for n in neighbours(h))
                 and list(h) not in [b["at"] for b in probe.boats])
    def prep(s):
        s.players[0]["at"] = list(water)
    st = build(seats=1, prepare=prep)
    assert stranded_place(st, 0) is None
    st = build(seats=1, prepare=both(prep, lambda s: take(s, "C2")))
    assert stranded_place(st, 0) == "water"


def test_the_attacks_choices_are_served_by_combat_12_11():
    """The attack resolves on the resolution stack: a Demon appearing on a player offers Demon Dispelling
    (11.222) as a choice of the stack, an action of the combat path (Combat.Resolve), and its metrics are
    labelled by that kind."""
    from tests.wizards.scenario import member
    st, _ = day_fourteen(seats=2, fortnight=1, prepare=member(0, "druids", 2))
    st, _ = chance(st, *random_space_faces("C1", "A1"))
    st, _ = chance(st, *space_faces("A1"))
    legal = ENGINE.legal_actions(st, 0)
    assert legal and all(a["kind"] == "encounter_spell" for a in legal)
    assert {ENGINE.action_domain(a) for a in legal} == {"combat"}
    st, ev = ENGINE.apply(st, 0, next(a for a in legal if a["cast"]))
    st, ev = chance(st, 1)  # the cast succeeds: the Demon is dispelled (and a die of points follows)
    assert list(hex_of(st, "C1", "A1")) not in st.demons


def test_a_rescue_with_no_other_island_left_sends_him_to_any_random_space_12_45():
    """7.30311 with 12.41 / 12.45 (reading in meetings.py): the rescued player's island is the land he can walk
    to, never through a lost Territory; with no land off it left, he goes to any RANDOM space (no endless
    re-roll)."""
    from tests.wizards.scenario import resolving

    lost = COMMON + ELVEN + ["M2", "M3", "M4", "M5"]
    def prep(s):
        take(s, *lost)
        put(s, 0, "M1", "B1")
        put(s, 1, "M1", "B2")
        s.players[0]["stranded"] = {"asked": 0}
    st = build(seats=2, prepare=prep)
    w = world_for(st)
    st, _ = resolving(st, {"do": "rescue", "seat": 1, "at": st.players[0]["at"], "other": 0})
    st, _ = answer_dice(st, 1, until="transported")
    avoid = {tuple(h) for h in st.chance["then"].get("avoid") or []}
    left = [h for h, sp in w.spaces.items() if sp.tile not in lost]
    assert any(h not in avoid for h in left)
