"""The solitaire game's own winning and losing (Appendix A) and the variants a client may ask for."""
from __future__ import annotations

import pytest

from shared.engine import TERMINAL, InvalidConfig, MatchConfig
from shared.wizards.meetings import stranded_place
from shared.wizards.world import world_for
from tests.wizards.scenario import (
    ENGINE,
    both,
    build,
    chance,
    gems,
    hex_of,
    in_open_water,
    isolated_cottage_layout,
    joined,
    lone_lair_layout,
    resolving,
    roll_through,
    run_items,
    waits_for,
)


def alone(prepare=None, **kw):
    return build(seats=1, variant="solitaire", prepare=prepare, **kw)


def test_one_seat_is_the_solitaire_game_only_when_asked_for_appendix_a():
    """Appendix A: a one-seat match is the solitaire game when the client asks for it (or names no variant:
    the default for one seat); a one-seat 'standard' match is refused, never set up as another variant."""
    with pytest.raises(InvalidConfig, match="solitaire"):
        ENGINE.setup(MatchConfig(1, "standard"))
    assert ENGINE.default_variant(1) == "solitaire" and ENGINE.default_variant(3) == "standard"
    assert ENGINE.seat_counts("standard") == (2, 3, 4, 5, 6) and ENGINE.seat_counts("solitaire") == (1,)
    s = ENGINE.setup(MatchConfig(1, "solitaire"))
    assert s.solitaire and s.config["variant"] == "solitaire"
    assert not ENGINE.setup(MatchConfig(2, "standard")).solitaire


def test_solitaire_player_wins_by_delivering_the_gems_appendix_a():
    """Appendix A: as in the multi-player game, the player wins if he delivers the Sacred Gems to Rüktal."""
    def prep(st):
        st.players[0]["at"] = list(hex_of(st, "M1", "Center"))
    st = alone(prepare=both(prep, joined("druids", 4), gems(0, six=True)))
    st, ev = run_items(st, {"do": "ruktal", "seat": 0, "at": st.players[0]["at"]})
    assert ENGINE.actor(st) == TERMINAL and ENGINE.outcome(st).winners == (0,)


def test_stranded_in_the_dragons_lair_is_permanently_dragonbound_and_loses_appendix_a():
    """Appendix A: stranded in Dragon's Lair there is no hope of rescue: he becomes permanently Dragonbound
    and loses the game (judged at the start of his turn)."""
    st = alone(layout=lone_lair_layout(), at={0: ("M6", "A1")}, dragon=("M6", "C3"))
    assert ENGINE.actor(st) == TERMINAL
    assert "dragonbound" in st.players[0]["afflictions"]
    out = ENGINE.outcome(st)
    assert out.winners == () and out.scores == (0,) and "Dragonbound" in out.summary
    # the same place in the multi-player game: he may ask for help (7.3031)
    two = build(seats=2, layout=lone_lair_layout(), at={0: ("M6", "A1"), 1: ("C5", "A1")})
    assert stranded_place(two, 0) == "lair" and waits_for(two) == "choice"
    assert ENGINE.legal_actions(two, 0)[0]["kind"] == "ask_for_help"


def test_stranded_in_water_advances_the_day_marker_to_day_14_appendix_a():
    """Appendix A: stranded in a Water space, he advances the Day Marker to Day 14: his turn ends and the Day
    Marker's next advance is Day 14 (where the Evil attack happens, 12.1)."""
    st = alone(prepare=in_open_water())
    assert st.calendar["day"] == 14  # moved to Day 13, the turn ended, the next advance was Day 14
    assert st.players[0]["stranded"] == {"alone": "water", "at": st.players[0]["at"]}
    assert waits_for(st) == "movement_rolled" and st.phase == "play"
    assert st.calendar["days_played"] == 1  # the move is not a day played; the advance to Day 14 is


def test_demons_that_do_not_carry_him_off_drown_him_appendix_a():
    """Appendix A: if the Demons which attack him in the Water do not transport him to the Dragon's Lair, he
    may not encounter them again in the same space and so drowns, losing the game."""
    st = alone(prepare=in_open_water())
    at = list(st.players[0]["at"])
    st.demons.append(at)
    st, ev = resolving(st, {"do": "demons", "seat": 0, "at": at, "rule": "12.141"})
    st = roll_through(st, 1)  # 7.304 1: turns lost, a second Demon placed: he is still in the Water
    assert ENGINE.actor(st) == TERMINAL and ENGINE.outcome(st).winners == ()
    assert "drowns" in ENGINE.outcome(st).summary


def test_demons_that_take_him_to_the_lair_save_him_from_drowning_appendix_a():
    """Appendix A / 7.304 5: Demons that transport him to a random Dragon's Lair space take him out of the
    Water: he does not drown."""
    st = alone(prepare=in_open_water())
    at = list(st.players[0]["at"])
    st.demons.append(at)
    st, ev = resolving(st, {"do": "demons", "seat": 0, "at": at, "rule": "12.141"})
    st, ev = chance(st, 5, 5)  # the table: 5, to a random Dragon's Lair space
    seen = list(ev)
    for _ in range(2):  # the Lair space, then the second Demon's RANDOM space (7.3041)
        st, ev = ENGINE.apply_chance(st, [[2] * p["count"] for p in st.chance["request"]["pools"]])
        seen += ev
    assert "drowned" not in [e["type"] for e in seen] and not any(i["do"] == "drowning" for i in st.pending)
    assert st.phase == "play" and world_for(st).tile_of(tuple(st.players[0]["at"])) == "M6"


def test_stranded_elsewhere_he_waits_and_never_asks_for_help_appendix_a():
    """Appendix A: stranded anywhere else he must wait until Demons or a Random Encounter transport him; no
    one can rescue him, so he is not asked to ask for help (7.3031)."""
    st = alone(layout=isolated_cottage_layout(), at={0: ("M5", "A1")})
    assert stranded_place(st, 0) == "cottage"
    assert waits_for(st) == "movement_rolled" and st.calendar["day"] == 1
    assert st.players[0]["stranded"]["alone"] == "cottage"
