"""Becoming Demon Dazed, Dragonbound or trapped: what it takes from a player at once
(7.3043 a and d, 7.3051 b and h, 8.51), and how he then moves."""
from __future__ import annotations

from shared.wizards.afflictions import become_demon_dazed, become_dragonbound, become_trapped
from shared.wizards.pack import pack
from tests.wizards.scenario import ENGINE, build, hex_of, roll

BOOTS, PATH, CHARM, PIT = 30, 31, 20, 42  # Movement +2, Movement woods as Plains, Extended (kept), Trap


def holding(cards, animal=None):
    """Player 0 holds these Event Cards (taken out of the deck) and perhaps an Animal."""
    def prep(s):
        p = s.players[0]
        for card in cards:
            s.decks["event"].remove(card)
            p["events"].append({"card": card, "days": 3 if pack().event(card)["type"] == "movement" else None})
        if animal:
            p["animal"] = {"kind": animal, "turns": 3, "since": 0}
    return prep


def test_the_cards_used_here_are_of_the_types_they_stand_for():
    """8.51: the four types of Event Card; the cards these tests hold are of the types they stand for."""
    assert [pack().event(c)["type"] for c in (BOOTS, PATH, CHARM, PIT)] == ["movement", "movement", "extended", "trap"]


def test_becoming_demon_dazed_loses_movement_event_cards_and_animals():
    """7.3043 a: when a player becomes Demon Dazed he loses all Movement Event Cards he currently holds (8.51:
    he must discard them); d: no animal other than a Dragon comes near him, any with him leave."""
    st = build(seats=1, prepare=holding([BOOTS, PATH, CHARM], animal="horse"))
    events: list = []
    become_demon_dazed(st, 0, events)
    p = st.players[0]
    assert p["afflictions"] == ["demon_dazed"]
    assert [h["card"] for h in p["events"]] == [CHARM]  # an Extended card is not a Movement card: kept
    assert {BOOTS, PATH} <= set(st.discards["event"])
    assert p["animal"] is None
    assert {e["type"] for e in events} >= {"event_lost", "animal_departs", "demon_dazed"}
    assert {e["rule"] for e in events if e["type"] == "event_lost"} == {"7.3043 a"}
    ENGINE.check_invariants(st)


def test_a_demon_dazed_player_moves_without_his_lost_cards():
    """7.3043 a and e: the lost Seven-League Boots no longer add to his roll, and every space costs as Mountains."""
    def dazed_with_boots(s):
        holding([BOOTS])(s)
        become_demon_dazed(s, 0, [])
    st = roll(build(seats=1, at={0: ("C5", "Center")}, prepare=dazed_with_boots), 2)
    assert st.turn["mp"] == 2  # not 4
    walks = {tuple(a["to"]): a["cost"] for a in ENGINE.legal_actions(st, 0) if a["kind"] == "move"}
    assert set(walks.values()) == {2} and hex_of(st, "C5", "A1") in walks


def test_a_dragon_stays_with_the_afflicted():
    """7.3043 d / 7.3051 h: no animal OTHER THAN A DRAGON will come near him."""
    st = build(seats=1, prepare=holding([], animal="dragon"))
    become_demon_dazed(st, 0, [])
    assert st.players[0]["animal"]["kind"] == "dragon"
    become_dragonbound(st, 0, "7.305", [])
    assert st.players[0]["animal"]["kind"] == "dragon"


def test_becoming_dragonbound_loses_every_event_card_and_animals():
    """7.3051 b: a player becoming Dragonbound loses ALL Event Cards he holds; h: any animal with him leaves."""
    st = build(seats=1, prepare=holding([BOOTS, CHARM], animal="hound"))
    events: list = []
    become_dragonbound(st, 0, "7.305", events)
    p = st.players[0]
    assert p["afflictions"] == ["dragonbound"] and p["events"] == [] and p["animal"] is None
    assert {BOOTS, CHARM} <= set(st.discards["event"])
    assert {e["rule"] for e in events if e["type"] == "event_lost"} == {"7.3051 b"}
    ENGINE.check_invariants(st)


def test_both_afflictions_at_once_keep_one_entry_each():
    """7.3043 / 7.3051: afflictions are states, not counters; becoming Dazed twice is being Dazed."""
    st = build(seats=1)
    for _ in range(2):
        become_demon_dazed(st, 0, [])
        become_dragonbound(st, 0, "7.305", [])
    assert sorted(st.players[0]["afflictions"]) == ["demon_dazed", "dragonbound"]
    ENGINE.check_invariants(st)


def test_a_trapped_player_discards_his_movement_card():
    """8.51 MOVEMENT: if a player becomes trapped while using a card of this type he must discard it."""
    st = build(seats=1, prepare=holding([BOOTS, CHARM], animal="hound"))
    events: list = []
    become_trapped(st, 0, {"roll_to_leave": [5, 6]}, events)
    p = st.players[0]
    assert p["trap"] == {"roll_to_leave": [5, 6]}
    assert [h["card"] for h in p["events"]] == [CHARM] and BOOTS in st.discards["event"]
    assert p["animal"]["kind"] == "hound"  # a Trap sends no Animal away (8.41: only transport does)
    ENGINE.check_invariants(st)
