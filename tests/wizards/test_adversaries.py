"""Demons (7.304-7.3043, 8.2), the Dragon (7.305, 12.512) and Traps (8.3-8.31), with
Demon Dispelling, Dragon Taming and Escaping (11.222-11.2242, 11.1, 11.24)."""
from __future__ import annotations

import pytest

from shared.wizards.state import ls
from tests.wizards.scenario import (
    ENGINE,
    both,
    build,
    chance,
    choose,
    gems,
    hex_of,
    put,
    ranked,
    record_kinds,
    resolving,
    roll,
    solo,
    waits_for,
)


def demon_state(tile="C5", label="A1", prepare=None, **kw):
    def prep(s):
        s.demons.append(list(hex_of(s, tile, label)))
        if prepare:
            prepare(s)
    return solo(tile, label, prepare=prep, **kw)


def meet_demons(st, tile="C5", label="A1", **extra):
    at = ls(hex_of(st, tile, label))
    return resolving(st, {"do": "demons", "seat": 0, "at": at, **extra})


def test_demons_result_1_loses_turns_and_places_a_second_marker_in_the_same_territory():
    """7.304 1 and 7.3041: one die of turns lost; the marker stays and a second goes in a RANDOM
    space of the SAME Territory."""
    st = demon_state()
    st, _ = meet_demons(st)
    st, _ = chance(st, 1, 1)  # the table: 1
    assert waits_for(st) == "lose_turns"
    st, _ = chance(st, 4)
    assert st.players[0]["lost_turns"] == 4
    assert waits_for(st) == "place_demon"
    st, ev = chance(st, 3, 2)  # B2
    assert sorted(map(tuple, st.demons)) == sorted([hex_of(st, "C5", "A1"), hex_of(st, "C5", "B2")])
    assert any(e["type"] == "demon_placed" and e["rule"] == "7.3041" for e in ev)


def test_second_demon_marker_not_doubled_in_an_occupied_space():
    """7.3041: a second Demon to be placed in a space already holding one places no new marker."""
    st = demon_state(prepare=lambda s: s.demons.append(list(hex_of(s, "C5", "B2"))))
    st, _ = meet_demons(st)
    st, _ = chance(st, 1, 1)
    st, _ = chance(st, 2)
    st, ev = chance(st, 3, 2)
    assert len(st.demons) == 2
    assert any(e["type"] == "no_demon_marker" for e in ev)


def test_demons_result_6_depart_with_a_die_of_points():
    """7.304 6: the marker is removed and the player receives ONE die of points of any type."""
    st = demon_state(prepare=ranked(0, "wizards", 1))
    st, _ = meet_demons(st)
    st, _ = chance(st, 6, 2)
    assert st.demons == []
    st, _ = chance(st, 5)
    st, _ = choose(st, 0, kind="take_points", points={"power": 5})
    assert st.players[0]["points"]["power"] == 5


def test_demons_result_2_least_type_with_a_tie_is_chosen_amb3():
    """7.304 2 / AMB3: one die lost from the type he has least of; between tied types he chooses;
    types at zero do not count."""
    st = demon_state(prepare=ranked(0, "wizards", 2, points={"knowledge": 3, "perception": 3, "power": 0}))
    st, _ = meet_demons(st)
    st, _ = chance(st, 2, 1)
    st, _ = chance(st, 5)
    legal = ENGINE.legal_actions(st, 0)
    assert legal == [{"kind": "take_points", "points": {"knowledge": -3}},
                     {"kind": "take_points", "points": {"perception": -3}}]
    st, _ = choose(st, 0, **legal[1])
    assert st.players[0]["points"] == {"knowledge": 3, "perception": 0, "power": 0}


def test_demons_result_2_at_rank_four_is_theft():
    """7.304 2: at Rank FOUR the result is treated as 3 (Magical Objects and Gems stolen)."""
    st = demon_state(prepare=both(ranked(0, "wizards", 4), gems(0, "Ishkatar")))
    st, _ = meet_demons(st)
    st, _ = choose(st, 0, kind="encounter_spell", spell="demon_dispelling", cast=False)
    st, ev = chance(st, 2, 1)
    assert [e["rule"] for e in ev if e["type"] == "stolen" and e["seat"] == 0] == ["7.304 3"]
    assert st.players[0]["gems"] == {}
    assert not any(e["type"] == "points_lost" for e in ev)  # not the result 2 of Ranks ONE to THREE


def test_demons_result_4_dazes_and_5_transports_to_the_lair():
    """7.304 4: Demon Dazed (7.3043); 7.304 5: transported to a random DRAGON'S LAIR space."""
    st = demon_state()
    st4, _ = meet_demons(st)
    st4, _ = chance(st4, 4, 1)
    assert "demon_dazed" in st4.players[0]["afflictions"]
    st5, _ = meet_demons(st)
    st5, _ = chance(st5, 5, 1)
    assert waits_for(st5) == "transported"
    st5, _ = chance(st5, 1, 2)
    assert tuple(st5.players[0]["at"]) == hex_of(st5, "M6", "A2")


def test_random_demon_is_placed_in_his_space_and_met():
    """8.2: a Demon Marker goes in the player's space; the encounter is 7.304."""
    st = solo("C5", "A1")
    st, _ = resolving(st, {"do": "random_encounter", "seat": 0, "at": ls(hex_of(st, "C5", "A1"))})
    st, ev = chance(st, 1, 1)
    assert [tuple(d) for d in st.demons] == [hex_of(st, "C5", "A1")]
    assert waits_for(st) == "demons"


def test_demon_placed_on_a_player_attacks_him_at_once():
    """7.5: a Demon placed on a player's space is encountered immediately, even off his turn."""
    st = build(2, at={0: ("C5", "A1"), 1: ("C5", "B2")})
    st, _ = resolving(st, {"do": "place_demon", "where": {"territory": "C5"}, "rule": "7.3041", "seat": 0})
    st, ev = chance(st, 3, 2)
    assert st.pending[-1]["do"] == "demons" and st.pending[-1]["seat"] == 1


def test_demon_dispelling_success_removes_the_marker_for_points():
    """11.222: cast when a Demon Marker shares his space; success removes it and gains ONE die."""
    st = demon_state(prepare=ranked(0, "druids", 2))
    st, _ = meet_demons(st)
    assert ENGINE.legal_actions(st, 0) == [{"kind": "encounter_spell", "spell": "demon_dispelling", "cast": False},
                                           {"kind": "encounter_spell", "spell": "demon_dispelling", "cast": True}]
    assert ENGINE.describe({"kind": "encounter_spell", "spell": "demon_dispelling", "cast": True}) == \
        "cast Demon Dispelling"
    st, _ = choose(st, 0, kind="encounter_spell", spell="demon_dispelling", cast=True)
    st, ev = chance(st, 2)
    assert st.demons == []
    assert waits_for(st) == "points"


def test_demon_dispelling_failure_attacks_with_6_rolled_again():
    """11.222 / 11.1: a 6 fails; the Demon attacks on the 7.304 table, re-rolled if it shows 6."""
    st = demon_state(prepare=ranked(0, "druids", 2))
    st, _ = meet_demons(st)
    st, _ = choose(st, 0, kind="encounter_spell", spell="demon_dispelling", cast=True)
    st, ev = chance(st, 6)
    assert any(e["type"] == "spell_cast" and not e["success"] for e in ev)
    st, ev = chance(st, 6, 1)
    assert any(e["type"] == "reroll" and e["rule"] == "11.222" for e in ev)
    assert waits_for(st) == "demons"
    st, _ = chance(st, 4, 1)
    assert "demon_dazed" in st.players[0]["afflictions"]


def test_demon_dazed_casts_succeed_only_on_1_to_3():
    """7.3043 c / 11.1: a Demon Dazed player's spell works on 1-3 (Escaping he may still attempt, 7.3043 b)."""
    st = solo("C5", "A1", prepare=ranked(0, "sorcerers", 2, afflictions=["demon_dazed"]))
    st, _ = resolving(st, {"do": "trap", "seat": 0, "rule": "8.3"})
    st, _ = choose(st, 0, kind="encounter_spell", spell="escaping", cast=True)
    assert "1-3" in st.chance["request"]["pools"][0]["purpose"]
    st, ev = chance(st, 4)
    assert any(e["type"] == "spell_cast" and not e["success"] for e in ev)
    assert waits_for(st) == "trap"  # the Trap's own table follows


def test_dragonbound_meeting_is_a_demon_encounter_without_dispelling():
    """7.3051 i / 7.3042: meeting a Dragonbound player is the equivalent of a Demon encounter;
    no Demon Dispelling; a 6 transports the Dragonbound player (no points); 1-5 place no marker."""
    prep = both(ranked(0, "druids", 2), ranked(1, "wizards", 1, afflictions=["dragonbound"]))
    st = build(2, at={0: ("C5", "A1"), 1: ("C5", "B2")}, prepare=prep)
    put(st, 0, "C5", "B2")
    at = ls(hex_of(st, "C5", "B2"))
    st, _ = resolving(st, {"do": "player", "seat": 0, "at": at, "others": [1]})
    assert waits_for(st) == "demons"  # no spell offered
    s6, _ = chance(st, 6, 1)
    assert waits_for(s6) == "transported" and s6.chance["then"]["seat"] == 1
    s1, _ = chance(st, 1, 1)
    s1, _ = chance(s1, 2)
    assert s1.demons == [] and s1.players[0]["lost_turns"] == 2


def test_dragon_table_1_dragonbound_and_5_transport_to_the_center():
    """7.305 1: Dragonbound (7.3051); 7.305 5: transported to the CENTER of the Dragon's Lair."""
    st = solo("C5", "A1", prepare=lambda s: s.replace("dragon", list(hex_of(s, "C5", "A1"))))
    at = ls(hex_of(st, "C5", "A1"))
    s1, _ = resolving(st, {"do": "dragon", "seat": 0, "at": at})
    s1, _ = chance(s1, 1, 1)
    assert "dragonbound" in s1.players[0]["afflictions"]
    s5, _ = resolving(st, {"do": "dragon", "seat": 0, "at": at})
    s5, ev = chance(s5, 5, 1)
    assert tuple(s5.players[0]["at"]) == hex_of(s5, "M6", "Center")


def test_dragon_5_in_the_center_keeps_him_for_another_encounter():
    """7.305 5: already in the Center he must remain there and encounter the Dragon again next turn."""
    st = build(1, at={0: ("M6", "Center")}, prepare=lambda s: s.players[0].update(lair_time=14))
    at = ls(hex_of(st, "M6", "Center"))
    st, _ = resolving(st, {"do": "dragon", "seat": 0, "at": at})
    st, _ = chance(st, 5, 1)
    assert st.players[0]["dragon_again"] is True
    assert waits_for(st) == "dragon_moved"  # 12.52: he ends his turn in the Lair
    st, ev = chance(st, 3, 1)  # B1: nobody there
    assert any(e["type"] == "must_remain" for e in ev)
    assert waits_for(st) == "dragon"  # his next turn: no roll, the Dragon again
    assert st.players[0]["dragon_again"] is False


def test_lair_time_moves_back_a_day_at_a_dragon_encounter_and_three_when_tamed():
    """12.512: a Dragon encounter on the tile moves the Lair Time Marker BACK one day; THREE with Taming."""
    prep = lambda s: s.players[0].update(lair_time=5)  # noqa: E731
    st = build(1, at={0: ("M6", "A1")}, prepare=prep, dragon=("M6", "A1"))
    at = ls(hex_of(st, "M6", "A1"))
    s1, _ = resolving(st, {"do": "dragon", "seat": 0, "at": at})
    assert s1.players[0]["lair_time"] == 4
    tamer = both(prep, ranked(0, "wizards", 4))
    st = build(1, at={0: ("M6", "A1")}, prepare=tamer, dragon=("M6", "A1"))
    s3, _ = resolving(st, {"do": "dragon", "seat": 0, "at": at})
    s3, _ = choose(s3, 0, kind="encounter_spell", spell="dragon_taming", cast=True)
    s3, ev = chance(s3, 4)
    assert s3.players[0]["lair_time"] == 2
    assert any(e["type"] == "dragon_tamed" for e in ev)


def test_dragon_taming_1_to_3_reveals_a_secret_wizard():
    """11.223: on 1-3 the Dragon reveals a Secret Wizard location (7.302 Rank 4 result 6): a High Wizard
    is drawn for him alone and his Secret Wizard markers are put in play."""
    st = solo("C5", "A1", prepare=both(ranked(0, "sorcerers", 4),
                                       lambda s: s.replace("dragon", list(hex_of(s, "C5", "A1")))))
    st, _ = resolving(st, {"do": "dragon", "seat": 0, "at": ls(hex_of(st, "C5", "A1"))})
    st, _ = choose(st, 0, kind="encounter_spell", spell="dragon_taming", cast=True)
    st, ev = chance(st, 2)
    assert [(e["seats"], e["rule"]) for e in ev if e["type"] == "secret_wizard"] == [([0], "11.223")]
    [secret] = st.secret_wizards
    assert st.players[0]["secret_record"] == {secret["letter"]: secret["wizard"]}
    known = next(e for e in ev if e["type"] == "secret_wizard_known")
    assert known["wizard"] == secret["wizard"] and known["visible_to"] == [0]


def test_horse_and_winged_horse_leave_at_a_dragon_encounter():
    """8.442 / 8.452: the Winged Horse and the Horse leave a player who encounters the Dragon."""
    for kind in ("winged_horse", "horse", "hound"):
        st = solo("C5", "A1", prepare=lambda s, k=kind: (s.replace("dragon", list(hex_of(s, "C5", "A1"))),
                                                          s.players[0].update(
                                                              animal={"kind": k, "turns": 2, "since": 0})))
        st, ev = resolving(st, {"do": "dragon", "seat": 0, "at": ls(hex_of(st, "C5", "A1"))})
        assert st.players[0]["animal"] is None, kind


def test_trap_results():
    """8.3: 1 all turns to the end of the Fortnight, 2 the Lair's Center, 3 one die of turns, 4 a random
    Lair space, 5 a 5-6 Movement Roll to move on, 6 a RANDOM space."""
    st = solo("C5", "A1")
    trap = {"do": "trap", "seat": 0, "rule": "8.3"}
    s, _ = resolving(st, trap)
    s1, ev = chance(s, 1, 1)
    assert [e["trap"] for e in ev if e["type"] == "trapped"] == [{"rule": "8.3", "lose_turns": 13}]  # Day 1
    s2, _ = chance(s, 2, 1)
    assert tuple(s2.players[0]["at"]) == hex_of(s2, "M6", "Center")
    s3, _ = chance(s, 3, 1)
    s3, ev = chance(s3, 2)
    assert [e["trap"] for e in ev if e["type"] == "trapped"] == [{"rule": "8.3", "lose_turns": 2}]
    s4, _ = chance(s, 4, 1)
    assert waits_for(s4) == "transported"
    s5, _ = chance(s, 5, 1)
    assert s5.players[0]["trap"]["roll_to_leave"] == [5, 6]
    s6, _ = chance(s, 6, 1)
    assert waits_for(s6) == "transported" and s6.chance["then"]["where"] == {"random": "RANDOM"}


def test_trap_of_lost_turns_expires_with_the_last_one():
    """7.3032 / 8.3 3: a Trap of lost turns holds him while he loses them, then expires."""
    st = solo("C5", "A1")
    st, _ = resolving(st, {"do": "trap", "seat": 0, "rule": "8.3"}, then="turn_close")
    st, _ = chance(st, 3, 1)
    st, ev = chance(st, 1)  # one turn to lose
    assert any(e["type"] == "turn_lost" for e in ev)
    assert any(e["type"] == "trap_ends" for e in ev)
    assert st.players[0]["trap"] is None and waits_for(st) == "movement_rolled"


def test_fortnight_trap_loses_the_turns_of_the_days_left():
    """8.3 1: ALL turns until the end of the present Fortnight: one for each day left (Day 10: four)."""
    st = solo("C5", "A1", prepare=lambda s: s.calendar.update(day=10))
    st, ev = resolving(st, {"do": "trap", "seat": 0, "rule": "8.3"})
    st, ev = chance(st, 1, 1)
    assert [e["turns"] for e in ev if e["type"] == "turns_lost"] == [4]


def test_trapped_player_has_no_encounters():
    """8.31: while trapped no Random Encounters and no other encounters."""
    from shared.wizards.encounters import encounters_due
    from shared.wizards.world import world_for
    st = demon_state(prepare=lambda s: s.players[0].update(trap={"rule": "8.3", "roll_to_leave": [5, 6]}))
    st.turn["arrived"] = True
    st.turn["roll"] = {"white": 1, "red": 1}
    due = encounters_due(st, world_for(st), 0)
    assert due["specific"] == [] and due["random"] is False


def test_escaping_avoids_a_trap():
    """11.224 / 11.2241: cast when a Trap is met, before its effect; success: unaffected."""
    st = solo("C5", "A1", prepare=ranked(0, "sorcerers", 2))
    st, _ = resolving(st, {"do": "trap", "seat": 0, "rule": "8.3"})
    assert {a["spell"] for a in ENGINE.legal_actions(st, 0)} == {"escaping"}
    st, _ = choose(st, 0, kind="encounter_spell", spell="escaping", cast=True)
    st, ev = chance(st, 3)
    assert any(e["type"] == "trap_escaped" for e in ev)
    assert st.players[0]["trap"] is None and st.pending == []


def test_card_trap_effect_is_sprung_as_given():
    """8.51 TRAP / 8.73: a Trap given by a card (lose turns, roll to leave, transport) springs as written."""
    st = solo("C5", "A1")
    st, _ = resolving(st, {"do": "trap", "seat": 0, "rule": "8.73", "effect": {"transport": {"place": "lair_center"}}})
    assert tuple(st.players[0]["at"]) == hex_of(st, "M6", "Center")


def test_rank_four_non_wizard_may_escape_an_unwanted_transport():
    """11.2242 / AMB16: at Rank FOUR, except Wizards, Escaping avoids a transport by an encounter."""
    st = solo("C5", "A1", prepare=ranked(0, "sorcerers", 4))
    item = {"do": "transport", "seat": 0, "where": {"random": "RANDOM"}, "rule": "7.302 Rank 1-3 2"}
    s, _ = resolving(st, item)
    assert waits_for(s) == "choice"
    s, _ = choose(s, 0, kind="encounter_spell", spell="escaping", cast=True)
    s, ev = chance(s, 1)
    assert any(e["type"] == "transport_escaped" for e in ev)
    assert tuple(s.players[0]["at"]) == hex_of(s, "C5", "A1")
    wiz = solo("C5", "A1", prepare=ranked(0, "wizards", 4))
    w, _ = resolving(wiz, item)
    assert waits_for(w) == "transported"  # a Wizard's Escaping is against Traps only
    asked, _ = resolving(st, {**item, "escapable": False})
    assert waits_for(asked) == "transported"


def test_encounter_spell_once_per_adversary():
    """11.24: an Encounter Spell is cast once for each adversary met: after a failed Dispelling the same
    Demons are not offered it again; a second Demon encounter offers it anew."""
    st = demon_state(prepare=ranked(0, "druids", 2))
    st, _ = meet_demons(st)
    st, _ = choose(st, 0, kind="encounter_spell", spell="demon_dispelling", cast=True)
    st, _ = chance(st, 6)
    assert waits_for(st) == "demons" and st.chance is not None  # straight to the table
    st, _ = chance(st, 3, 1)  # theft (no handler here, or recorded), then the second marker
    assert waits_for(st) == "place_demon"
    st, _ = chance(st, 3, 2)  # C5 B2: nobody there
    assert st.players[0]["dispel_tried"] == [list(hex_of(st, "C5", "A1"))]
    same, _ = meet_demons(st)
    assert waits_for(same) == "demons"  # the same Demons, not left: no second cast
    from shared.wizards.arrival import arrive
    arrive(st, 0, hex_of(st, "C5", "A1"), hex_of(st, "C5", "A2"), "walk", [])
    arrive(st, 0, hex_of(st, "C5", "A2"), hex_of(st, "C5", "A1"), "walk", [])
    again, _ = meet_demons(st)
    assert waits_for(again) == "choice"  # met anew after leaving: a new adversary


def test_demon_dispelling_whenever_a_demon_shares_his_space():
    """11.222: the Spell may be cast whenever a Demon Marker is in his space: at the start of his turn
    standing with Demons he may cast it; not casting, nothing happens; failing, they attack."""
    st = demon_state(prepare=ranked(0, "druids", 2))
    assert ENGINE.legal_actions(st, 0) == [{"kind": "encounter_spell", "spell": "demon_dispelling", "cast": False},
                                           {"kind": "encounter_spell", "spell": "demon_dispelling", "cast": True}]
    quiet, _ = choose(st, 0, kind="encounter_spell", spell="demon_dispelling", cast=False)
    assert waits_for(quiet) == "movement_rolled" and quiet.demons
    bold, _ = choose(st, 0, kind="encounter_spell", spell="demon_dispelling", cast=True)
    bold, _ = chance(bold, 6)
    assert waits_for(bold) == "demons"  # the attack: 7.304 with 6 rolled again


def test_dragon_moving_onto_a_player_is_met_at_once():
    """12.52: the Dragon moved to a random Lair space lands on a player: he encounters it immediately."""
    st = build(2, at={0: ("M6", "A1"), 1: ("M6", "A2")},
               prepare=lambda s: [p.update(lair_time=14) for p in s.players])
    st = roll(st, 1)
    st, _ = ENGINE.apply(st, 0, {"kind": "end_move"})
    while waits_for(st) != "dragon_moved":
        st, _ = chance(st, *[1] * len(st.chance["request"]["pools"]))
    st, ev = chance(st, 1, 2)  # M6 A2: seat 1
    assert st.pending and st.pending[-1]["do"] == "dragon" and st.pending[-1]["seat"] == 1


def test_escape_hook_before_a_trap_event_marks_the_item_beneath(monkeypatch):
    """11.224 / 11.2241: before a Trap Event takes effect the "escape" item offers Escaping; success
    marks the Trap's item beneath it "escaped"."""
    seen = record_kinds(monkeypatch, "trap_probe")
    st = solo("C5", "A1", prepare=ranked(0, "sorcerers", 2))
    st, _ = resolving(st, {"do": "escape", "seat": 0, "rule": "8.51", "against": "trap"},
                      {"do": "trap_probe", "seat": 0})
    st, _ = choose(st, 0, kind="encounter_spell", spell="escaping", cast=True)
    st, ev = chance(st, 2)
    assert seen["trap_probe"] == [{"do": "trap_probe", "seat": 0, "escaped": True}]


def test_wizard_card_trap_transport_is_escapable_against_traps():
    """11.2241: a Wizard Card Trap's transport ("escapable": "trap") offers any Escaping against Traps,
    a Sorcerer's at Rank 2 too."""
    st = solo("C5", "A1", prepare=ranked(0, "sorcerers", 2))
    st, _ = resolving(st, {"do": "transport", "seat": 0, "where": {"place": "lair_center"}, "rule": "8.73",
                           "escapable": "trap"})
    assert waits_for(st) == "choice"
    st, _ = choose(st, 0, kind="encounter_spell", spell="escaping", cast=True)
    st, ev = chance(st, 2)
    assert tuple(st.players[0]["at"]) == hex_of(st, "C5", "A1")


@pytest.mark.parametrize("kind, rule", [("hound", "8.461"), ("horse", "8.452")])
def test_8_452_8_461_the_horse_and_the_hound_leave_a_player_who_encounters_a_dragon_or_a_demon(kind, rule):
    """8.452 / 8.461: the Horse and the Hound leave any player that encounters a Dragon or a Demon
    (the Horse's Dragon half is also in test_horse_and_winged_horse_leave_at_a_dragon_encounter);
    contrast: a Winged Horse, which leaves only at the Dragon (8.442), stays with him through a
    Demon encounter."""
    animal = lambda s: s.players[0].update(animal={"kind": kind, "turns": 3, "since": 0})
    st = solo("C5", "A1", prepare=both(animal, lambda s: s.replace("dragon", list(hex_of(s, "C5", "A1")))))
    st, ev = resolving(st, {"do": "dragon", "seat": 0, "at": ls(hex_of(st, "C5", "A1"))})
    assert st.players[0]["animal"] is None
    assert any(e["type"] == "animal_departs" and e["animal"] == kind for e in ev)
    st, ev = meet_demons(demon_state(prepare=animal))
    assert st.players[0]["animal"] is None
    assert any(e["type"] == "animal_departs" and e["animal"] == kind and rule in e["rule"] for e in ev)
    wings = lambda s: s.players[0].update(animal={"kind": "winged_horse", "turns": 2, "since": 0})
    st, ev = meet_demons(demon_state(prepare=wings))
    assert st.players[0]["animal"] is not None and st.players[0]["animal"]["kind"] == "winged_horse"
