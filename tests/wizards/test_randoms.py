"""The Random Encounter table (8, 8.1), Animals (8.4-8.47), Animal Summoning (11.221, AMB12)
and Lair Time along a walk (12.511, 8.421)."""
from __future__ import annotations

import pytest

from shared.wizards.state import ls
from tests.wizards.scenario import (
    ENGINE,
    Recorder,
    both,
    build,
    chance,
    choose,
    end,
    hex_of,
    lair_crossroads_layout,
    moves,
    ranked,
    resolving,
    roll,
    solo,
    waits_for,
)


def random_at(st, tile="C5", label="A1"):
    return resolving(st, {"do": "random_encounter", "seat": 0, "at": ls(hex_of(st, tile, label))})


def test_random_encounter_follows_a_red_die_of_1_to_3_where_possible():
    """8 / 5.21: ending movement where a Random Encounter is possible with the red die 1-3 rolls the table."""
    st = solo("C5", "A1")
    st = roll(st, 1, red=2)
    st, ev = ENGINE.apply(st, 0, {"kind": "end_move"})
    assert waits_for(st) == "random_encounter"
    assert [p["purpose"] for p in st.chance["request"]["pools"]] == \
        ["Random Encounter (8) (first die)", "Random Encounter (8) (second die)"]


def test_no_random_encounter_in_the_lair():
    """8.1 d: no Random Encounter in any space of the Dragon's Lair tile."""
    st = build(1, at={0: ("M6", "A1")}, prepare=lambda s: s.players[0].update(lair_time=14))
    st = roll(st, 1, red=1)
    st, _ = ENGINE.apply(st, 0, {"kind": "end_move"})
    assert waits_for(st) != "random_encounter"


@pytest.mark.parametrize("r, kind, fields", [
    (2, "trap", {"rule": "8.3"}),
    (3, "animal", {"rule": "8.4"}),
    (4, "event_card", {"rule": "8.5"}),
    (5, "common_folk", {"rule": "8.6"}),
    (6, "wizard_card", {"rule": "8.7", "mode": "one"}),
])
def test_random_table_pushes_the_item_for_what_is_met(monkeypatch, r, kind, fields):
    """8: 2 Trap (8.3), 3 Animal (8.4), 4 Event (8.5), 5 Common Folk (8.6), 6 High Wizard: ONE Wizard Card (8.7)."""
    from shared.wizards import resolution
    rec = Recorder()
    monkeypatch.setitem(resolution.HANDLERS, kind, rec)
    st, _ = random_at(solo("C5", "A1"))
    st, ev = chance(st, r, 1)
    assert len(rec.items) == 1 and all(rec.items[0][k] == v for k, v in fields.items())


@pytest.mark.parametrize("r, kind, uses", [(2, "unicorn", 1), (3, "winged_horse", 2), (4, "horse", 3), (5, "hound", 4)])
def test_animal_table_gives_the_animal_for_its_uses(r, kind, uses):
    """8.43-8.46: Unicorn one turn, Winged Horse two, Horse three, Hound four, from his NEXT turn."""
    st, _ = resolving(solo("C5", "A1"), {"do": "animal", "seat": 0, "rule": "8.4"})
    st, _ = chance(st, r, 1)
    a = st.players[0]["animal"]
    assert a["kind"] == kind and a["turns"] == uses


def test_winged_horse_flies_on_the_next_turn():
    """8.44: a Winged Horse met now is used on the player's next turn (movement.py's flight)."""
    st, _ = resolving(solo("C5", "A1"), {"do": "animal", "seat": 0, "rule": "8.4", "kind": "winged_horse"},
                      then="turn_close")
    st = roll(st, 2)
    assert any(by == "fly" for by, _ in moves(st, 0))


def test_a_second_animal_sends_the_first_away():
    """8.41: never more than one Animal at a time; a second one met, the first leaves."""
    st = solo("C5", "A1", prepare=lambda s: s.players[0].update(animal={"kind": "hound", "turns": 4, "since": 0}))
    st, ev = resolving(st, {"do": "animal", "seat": 0, "rule": "8.4", "kind": "horse"})
    assert st.players[0]["animal"]["kind"] == "horse"
    assert any(e["type"] == "animal_departs" and e["rule"] == "8.41" for e in ev)


def test_afflicted_player_meets_no_animal():
    """7.3043 d / 7.3051 h: no Animal but a Dragon comes near an afflicted player; no encounter results."""
    st = solo("C5", "A1", prepare=lambda s: s.players[0].update(afflictions=["demon_dazed"]))
    st, ev = resolving(st, {"do": "animal", "seat": 0, "rule": "8.4", "kind": "unicorn"})
    assert st.players[0]["animal"] is None
    assert any(e["type"] == "animal_shuns" and e["rule"] == "7.3043 d" for e in ev)


def test_dragon_as_an_animal_leaves_the_lair_for_his_space_and_comes_home():
    """8.42 / 8.421: the Dragon Marker moves into the player's space and he meets it (7.305); off its
    tile it stays until a player enters the Lair tile."""
    st = build(2, at={0: ("C5", "A1"), 1: ("C5", "B5")})
    st, ev = resolving(st, {"do": "animal", "seat": 0, "rule": "8.4"})
    st, ev = chance(st, 1, 1)
    assert tuple(st.dragon) == hex_of(st, "C5", "A1")
    assert any(e["type"] == "dragon_leaves_lair" for e in ev)
    assert waits_for(st) == "dragon"


def test_dove_draws_a_task():
    """8.47: the Dove brings news of a Task: draw a Task Card (Optional: not from his Mentor)."""
    st0 = solo("C5", "A1", prepare=ranked(0, "wizards", 2))
    st, ev = resolving(st0, {"do": "animal", "seat": 0, "rule": "8.4", "kind": "dove"})
    assert st.players[0]["animal"] is None and any(e["type"] == "dove" for e in ev)
    [task] = st.players[0]["tasks"]
    assert task["mandatory"] is False and task["from"] is None
    assert [e["card"] for e in ev if e["type"] == "task_drawn" and e["mandatory"] is False] == [task["card"]]
    assert len(st.decks["task"]) == len(st0.decks["task"]) - 1


def test_animal_summoning_is_offered_when_nothing_was_met_and_calls_an_animal():
    """11.221: from a space where a Random Encounter is possible, with no encounter this turn and no
    Animal; success rolls on the 8.4 table. AMB12: no second attempt that turn."""
    st = solo("C5", "A1", prepare=ranked(0, "wizards", 2))
    st = roll(st, 1, red=6)
    st, _ = ENGINE.apply(st, 0, {"kind": "end_move"})
    assert ENGINE.legal_actions(st, 0) == [
        {"kind": "encounter_spell", "spell": "animal_summoning", "cast": False},
        {"kind": "encounter_spell", "spell": "animal_summoning", "cast": True}]
    ok, _ = choose(st, 0, kind="encounter_spell", spell="animal_summoning", cast=True)
    ok, _ = chance(ok, 1)
    assert waits_for(ok) == "animal"
    ok, _ = chance(ok, 5, 1)
    assert ok.players[0]["animal"]["kind"] == "hound"
    failed, _ = choose(st, 0, kind="encounter_spell", spell="animal_summoning", cast=True)
    failed, ev = chance(failed, 6)
    assert waits_for(failed) == "movement_rolled" and failed.players[0]["animal"] is None


def test_animal_summoning_not_offered_after_an_encounter_or_with_an_animal():
    """11.221: not after a Specific or Random Encounter that turn, nor with an Animal already."""
    st = solo("C5", "A1", prepare=both(ranked(0, "wizards", 2), lambda s: s.players[0].update(
        animal={"kind": "hound", "turns": 4, "since": 0})))
    st = roll(st, 1, red=6)
    st, _ = ENGINE.apply(st, 0, {"kind": "end_move"})
    assert waits_for(st) == "movement_rolled"
    st = solo("C5", "A1", prepare=ranked(0, "wizards", 2))
    st = roll(st, 1, red=1)
    st, _ = ENGINE.apply(st, 0, {"kind": "end_move"})
    assert waits_for(st) == "random_encounter"


def test_walk_through_the_lair_counts_lair_time_and_calls_the_dragon_home():
    """12.511 / 8.421: a walk passing through the Lair places the Lair Time Marker (and leaving
    removes it) and calls an absent Dragon home, though the walk ends outside."""
    st = build(1, layout=lair_crossroads_layout(), at={0: ("C2", "B2")}, dragon=("C5", "B1"))
    st = roll(st, 6)
    to = hex_of(st, "E1", "B3")
    st, ev = ENGINE.apply(st, 0, {"kind": "move", "by": "walk", "to": list(to), "cost": moves(st, 0)[("walk", to)]})
    kinds = [e["type"] for e in ev]
    assert "lair_time_placed" in kinds and "lair_time_removed" in kinds
    assert st.players[0]["lair_time"] is None
    assert waits_for(st) == "dragon_moved"  # 8.421: the Dragon comes home


def test_end_keeps_running_with_encounters():
    """Random legal play: ending movement and answering dice runs on to the next Movement Roll."""
    st = solo("C5", "A1")
    st = roll(st, 1, red=6)
    st = end(st)
    assert waits_for(st) == "movement_rolled"


def test_animal_named_by_an_event_card():
    """8.51 / 8.45: an Event Card's Animal ("animal": "horse") joins him as if met (8.41 applies)."""
    st, _ = resolving(solo("C5", "A1"), {"do": "animal", "seat": 0, "rule": "8.5", "animal": "horse"})
    assert st.players[0]["animal"]["kind"] == "horse"
