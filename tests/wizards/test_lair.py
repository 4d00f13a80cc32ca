"""The Dragon's Lair: Lair Time (12.51-12.513) and Dragon movement (12.52, 8.421, 8.4211)."""
from __future__ import annotations

from shared.wizards import lair
from tests.wizards.scenario import ENGINE, build, chance, hex_of, move, roll


def at_gate(prepare=None, dragon=("M6", "A5"), seats=1):
    """A player on Meligar's B1, next to the Lair's B3 (mountains)."""
    return build(seats=seats, at={0: ("M3", "B1"), 1: ("C5", "A1")}, dragon=dragon, prepare=prepare)


def test_lair_time_marker_goes_on_the_day_before():
    """12.511: on the turn he enters the Lair he places his Lair Time Marker on the Day PRIOR to the Day Marker's."""
    st = roll(at_gate(prepare=lambda s: s.calendar.update(day=5)), 2)
    st, ev = move(st, 0, "walk", hex_of(st, "M6", "B3"))
    assert st.players[0]["lair_time"] == 4
    assert any(e["type"] == "lair_time_placed" and e["day"] == 4 for e in ev)
    st = roll(at_gate(), 2)  # Day ONE: the day before is Day 14 of the Calendar
    st, ev = move(st, 0, "walk", hex_of(st, "M6", "B3"))
    assert st.players[0]["lair_time"] == 14


def test_leaving_the_lair_removes_the_marker():
    """12.513: if a player leaves the Lair before becoming Dragonbound, the marker is removed."""
    def inside(s):
        s.players[0]["at"] = list(hex_of(s, "M6", "B3"))
        s.players[0]["lair_time"] = 14
    st = roll(at_gate(prepare=inside), 1)
    st, ev = move(st, 0, "walk", hex_of(st, "M3", "B1"))
    assert st.players[0]["lair_time"] is None and any(e["type"] == "lair_time_removed" for e in ev)


def test_staying_until_the_day_marker_lands_makes_him_dragonbound():
    """12.511 / 7.3051 b, h: the Day Marker landing on his Lair Time Marker makes him Dragonbound; he loses his
    Event Cards and any Animal."""
    def inside(s):
        p = s.players[0]
        p["at"] = list(hex_of(s, "M6", "B3"))
        p["lair_time"] = 2
        p["events"] = [{"card": 30, "days": 3}]
        s.decks["event"].remove(30)
        p["animal"] = {"kind": "hound", "turns": 4, "since": 0}
    st = roll(at_gate(prepare=inside), 1)
    st, ev = ENGINE.apply(st, 0, {"kind": "end_move"})
    assert st.chance["then"]["do"] == "dragon_moved"  # 12.52 first: he ends his turn in the Lair
    st, ev = chance(st, 1, 1)
    p = st.players[0]
    assert st.calendar["day"] == 2 and "dragonbound" in p["afflictions"]
    assert p["events"] == [] and 30 in st.discards["event"] and p["animal"] is None
    ENGINE.check_invariants(st)


def test_a_dragon_encounter_moves_the_marker_back():
    """12.512: back one day for each Dragon encountered on the tile, three with Dragon Taming."""
    p = {"lair_time": 1}
    lair.move_back(p, 1)
    assert p["lair_time"] == 14
    lair.move_back(p, 3)
    assert p["lair_time"] == 11


def test_ending_a_turn_in_the_lair_moves_the_dragon():
    """12.52: whenever a player ENDS his turn in Dragon's Lair he moves the Dragon to a random Lair space; a player
    in that space encounters the Dragon immediately."""
    def inside(s):
        s.players[0]["at"] = list(hex_of(s, "M6", "B3"))
        s.players[0]["lair_time"] = 14
        s.players[1]["at"] = list(hex_of(s, "M6", "B2"))
        s.players[1]["lair_time"] = 14
    st = roll(at_gate(prepare=inside, seats=2), 1)
    st, ev = ENGINE.apply(st, 0, {"kind": "end_move"})
    req = ENGINE.chance_request(st)
    assert [p.purpose.split(":")[0] for p in req.pools] == ["white die", "red die"]
    st, ev = chance(st, 3, 2)  # B2
    assert tuple(st.dragon) == hex_of(st, "M6", "B2")
    met = [e for e in ev if e["type"] == "encounter_due" and e.get("rule") == "12.52"]
    assert [e["seat"] for e in met] == [1]


def test_the_dragon_comes_home_when_a_player_enters_the_lair():
    """8.421 / 8.4211: a Dragon away from its tile returns to a random Lair space as soon as a player enters it."""
    st = roll(at_gate(dragon=("C5", "A5")), 4)
    st, ev = move(st, 0, "walk", hex_of(st, "M6", "B3"))
    assert st.chance["then"]["do"] == "dragon_moved" and st.chance["then"]["reason"] == "8.421"
    st, ev = chance(st, 5, 6)
    assert tuple(st.dragon) == hex_of(st, "M6", "C6")
    assert st.await_ == {"seat": 0, "for": "move"} and st.turn["mp"] == 2  # his move goes on


def test_a_dragon_leaving_the_lair_returns_at_once_if_a_player_is_there():
    """8.42 / 8.421: the Dragon called to a player's space stays there until a player enters the Lair tile; if a
    player is already on the tile, the Dragon returns to a random space of it immediately."""
    from shared.wizards.engine import settle

    def inside(s):
        s.players[1]["at"] = list(hex_of(s, "M6", "B3"))
        s.players[1]["lair_time"] = 14
    # Nobody in the Lair: the Dragon stays where he was called.
    st = roll(at_gate(seats=2), 1)
    events: list = []
    lair.dragon_goes_to(st, hex_of(st, "M3", "B1"), "8.42", events)
    assert tuple(st.dragon) == hex_of(st, "M3", "B1") and st.interrupts == []
    assert events[0]["type"] == "dragon_leaves_lair"
    # Seat 1 is in the Lair: the return is due at once, before the turn goes on.
    st = roll(at_gate(seats=2, prepare=inside), 1)
    lair.dragon_goes_to(st, hex_of(st, "M3", "B1"), "8.42", [])
    assert st.interrupts == [{"do": "dragon_return"}]
    st.await_, st.step = None, "encounter"  # as in the encounter segment where part two calls it
    settle(st, [])
    assert st.chance["then"] == {"do": "dragon_moved", "reason": "8.421", "resume": "encounter"}
    st, ev = chance(st, 3, 3)
    assert tuple(st.dragon) == hex_of(st, "M6", "B3")
    assert [e["seat"] for e in ev if e["type"] == "encounter_due" and e.get("rule") == "8.421"] == [1]
    ENGINE.check_invariants(st)
