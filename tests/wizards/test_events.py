"""The Event deck (8.5, 8.51): every op of content/events.json, the four types and their
durations, Day 14 counting for Events (12.1), each test citing its section."""
from __future__ import annotations

from shared.wizards import eventcards, resolution
from shared.wizards.encounters import random_possible
from shared.wizards.resolution import HANDLERS, Handler
from shared.wizards.turns import advance_day
from shared.wizards.world import world_for
from tests.wizards.scenario import (
    ENGINE,
    chance,
    choose,
    end,
    hex_of,
    hold_task,
    member,
    resolve,
    roll,
    solo,
    top_deck,
    waiting_for_roll,
)


def event(state, card, seat=0):
    top_deck(state, "event", card)
    return resolve(state, {"do": "event_card", "seat": seat, "rule": "8.5"})


def held(state, seat=0):
    return {h["card"]: h["days"] for h in state.players[seat]["events"]}


def test_8_5_an_immediate_event_happens_at_once_and_is_discarded():
    st = solo("C5", "A1", prepare=member())
    st, ev = event(st, 2)  # roll ONE die, double that in points of any type
    assert any(e["type"] == "event_drawn" and e["card"] == 2 and e["event_type"] == "immediate" for e in ev)
    st, _ = chance(st, 4)
    st, _ = choose(st, 0, "take_points", points={"power": 8})
    assert st.players[0]["points"]["power"] == 8 and st.discards["event"] == [2] and waiting_for_roll(st)
    st, _ = event(st, 15)  # Receive 5 Knowledge points: that type, no choice
    assert st.players[0]["points"]["knowledge"] == 5 and waiting_for_roll(st)


def test_8_5_immediate_ops_extra_and_lost_turns_task_demon_star_crest():
    st = solo("C5", "A1", prepare=member())
    st, _ = event(st, 4)
    assert st.players[0]["extra_turns"] == 1
    st, _ = event(st, 5)
    assert st.players[0]["lost_turns"] == 1
    st, ev = event(st, 9)  # a Demon Marker in his space: he meets the Demons at once (7.5)
    assert any(e["type"] == "demon_placed" and e["at"] == list(hex_of(st, "C5", "A1")) for e in ev)
    st, _ = chance(st, 6, 1)  # 7.304 6: the Demons depart
    st, _ = chance(st, 1)
    st, _ = choose(st, 0, "take_points", points={"power": 1})
    assert st.demons == []
    st, _ = event(st, 14)
    assert st.players[0]["star_crest_directed"] is True
    top_deck(st, "task", 63)
    st, ev = event(st, 8)  # a Task Card: Optional (9.42)
    st, _ = chance(st, 1, 1)
    assert st.players[0]["tasks"][0]["card"] == 63 and st.players[0]["tasks"][0]["mandatory"] is False
    hold_task(st, 0, 64, at={0: ("C2", "A1")})
    st, _ = event(st, 13)  # 9.3: ONE of his Tasks completed
    st, _ = choose(st, 0, "complete_task", card=64)
    assert st.completion == 1
    ENGINE.check_invariants(st)


def test_8_5_transport_event_rolls_the_space_and_moves_him():
    st = solo("C5", "A1", prepare=member())
    st, _ = event(st, 7)  # a random ELVEN space
    st, ev = chance(st, 4, 1, 5)
    assert st.players[0]["at"] == list(hex_of(st, "E4", "A5"))


def test_8_51_movement_cards_last_their_days_and_a_second_replaces_the_first():
    st = solo("C5", "A1", prepare=member())
    st, _ = event(st, 30)  # For THREE days add TWO
    assert held(st) == {30: 4}
    st, ev = event(st, 35)
    assert held(st) == {35: 6} and 30 in st.discards["event"]
    assert any(e["type"] == "event_lost" and e["card"] == 30 and e["rule"] == "8.51" for e in ev)


def test_8_51_a_card_for_three_days_serves_the_next_three_turns_and_day_14_counts():
    """8.51 reading / 12.1: drawn on Day 12, 'for THREE days' runs on Days 13, 14 and 1."""
    st = solo("C5", "A1", prepare=member())
    st.calendar["day"] = 12
    st, _ = event(st, 30)
    for day in (13, 14, 1):
        advance_day(st, [], [])
        assert st.calendar["day"] == day and 30 in held(st)
    ev: list = []
    advance_day(st, ev, [])
    assert 30 not in held(st) and any(e["type"] == "event_expires" for e in ev)


def test_8_51_extended_cards_kept_delayed_and_lasting():
    st = solo("C5", "A1", prepare=member())
    st, _ = event(st, 24)  # In TWO days you lose ONE turn
    st, _ = event(st, 25)  # For FIVE days no Random Encounters
    st, _ = event(st, 21)  # kept: ONE extra turn
    assert held(st) == {24: 2, 25: 6, 21: None}
    w = world_for(st)
    assert not random_possible(st, w, 0, tuple(st.players[0]["at"]))
    due: list = []
    advance_day(st, [], due)
    assert not due
    advance_day(st, [], due)
    assert due == [{"do": "lose_turns", "seat": 0, "rule": "8.51", "amount": 1}] and 24 not in held(st)


def test_8_51_a_delayed_event_resolves_at_the_day_advance_in_play():
    st = solo("C5", "A1", prepare=member())
    st, _ = event(st, 24)  # In TWO days you lose ONE turn
    st = end(roll(st, 1))
    assert held(st) == {24: 1}
    before = st.players[0]["turns_taken"]
    st = end(roll(st, 1))  # the Day Marker advances: the turn is lost, and the next one rolls
    assert 24 in st.discards["event"] and st.players[0]["turns_taken"] == before + 2


def test_8_51_kept_cards_offered_at_the_start_of_his_turn():
    st = solo("C5", "A1", prepare=member())
    st = solo("C5", "A1", prepare=lambda s: (member()(s), s.players[0]["events"].append({"card": 21, "days": None})))
    assert {a["kind"] for a in ENGINE.legal_actions(st, 0)} == {"use_event_card", "keep_event_card"}
    used, ev = choose(st, 0, "use_event_card", card=21)
    assert used.players[0]["extra_turns"] == 1 and 21 in used.discards["event"]
    kept, _ = choose(st, 0, "keep_event_card")
    assert held(kept) == {21: None}
    dazed = solo("C5", "A1", prepare=lambda s: (member()(s), s.players[0]["afflictions"].append("demon_dazed"),
                                                 s.players[0]["events"].append({"card": 19, "days": None})))
    healed, _ = choose(dazed, 0, "use_event_card", card=19)
    assert healed.players[0]["afflictions"] == []


def test_8_51_trap_events_lose_turns_until_the_trap_expires():
    st = solo("C5", "A1", prepare=member())
    st, ev = event(st, 42)  # lose TWO turns
    p = st.players[0]
    assert p["trap"] == {"event": 42, "lose_turns": 2} and p["lost_turns"] == 2 and 42 in st.discards["event"]
    st = end(roll(st, 1))  # two turns lost, then he rolls again
    assert st.players[0]["trap"] is None and st.players[0]["lost_turns"] == 0


def test_8_51_trap_for_the_rest_of_the_fortnight_roll_to_leave_dice_and_transport():
    st = solo("C5", "A1", prepare=member())
    st.calendar["day"] = 10
    st, _ = event(st, 49)
    assert st.players[0]["lost_turns"] == 4  # Days 11-14
    st = solo("C5", "A1", prepare=member())
    st, _ = event(st, 43)
    assert st.players[0]["trap"] == {"event": 43, "roll_to_leave": [5, 6]}
    st = solo("C5", "A1", prepare=member())
    st, _ = event(st, 45)  # roll ONE die and lose that many turns
    st, _ = chance(st, 3)
    assert st.players[0]["lost_turns"] == 3
    st = solo("C5", "A1", prepare=member())
    st, _ = event(st, 46)  # a random DRAGON'S LAIR space
    st, _ = chance(st, 1, 1)
    assert st.players[0]["at"] == list(hex_of(st, "M6", "A1"))


def test_8_51_a_trap_event_escaped_with_a_kept_card():
    st = solo("C5", "A1", prepare=lambda s: (member()(s), s.players[0]["events"].append({"card": 20, "days": None})))
    st, _ = event(st, 42)
    st, ev = choose(st, 0, "use_event_card", card=20)
    assert st.players[0]["trap"] is None and st.players[0]["lost_turns"] == 0
    assert any(e["type"] == "trap_escaped" for e in ev) and {20, 42} <= set(st.discards["event"])


def test_8_51_a_trap_event_offers_the_escaping_spell_hook():
    """11.2241: the Escaping Spell's handler marks the item beneath it 'escaped'."""
    class Escape(Handler):
        def run(self, state, item, events):
            state.pending[-2]["escaped"] = True
            resolution.done(state, item)
    had = HANDLERS.get("escape")
    HANDLERS["escape"] = Escape()
    try:
        st = solo("C5", "A1", prepare=member())
        st, ev = event(st, 44)
        assert st.players[0]["lost_turns"] == 0 and any(e["type"] == "trap_escaped" for e in ev)
    finally:
        if had is None:
            del HANDLERS["escape"]
        else:
            HANDLERS["escape"] = had


def test_8_5_every_immediate_op_of_the_pack_is_understood():
    st = solo("C5", "A1", prepare=member())
    for c in eventcards.pack().event_cards:
        effects = [t for e in c["effects"] for t in (e["then"] if e["op"] == "delayed" else [e])]
        immediate = [e for e in effects if e["op"] not in ("keep", "no_random_encounters", "movement", "trap")]
        eventcards.effect_items(st, 0, immediate, "8.5", [])  # raises on an op it does not know


def test_8_5_a_withdrawal_that_ends_the_match_mid_card_leaves_the_card_in_the_discards():
    """An Event Card being resolved (8.5) when the last rival withdraws (README "Withdrawing")
    is discarded with the match's end: every card stays somewhere exactly once."""
    from shared.wizards import invariants
    from tests.wizards.scenario import build
    st = build(2, prepare=member())
    st, _ = event(st, 18)  # Tempest: transported to a random MAGIC space, a roll still to come
    assert [i["card"] for i in st.pending if i["do"] == "event_card" and "card" in i] == [18]
    over, _ = ENGINE.resign(st, 1)
    assert over.phase == "over" and over.pending == [] and 18 in over.discards["event"]
    invariants.check(over)
    assert ENGINE.decode(ENGINE.encode(over)).discards["event"] == over.discards["event"]
