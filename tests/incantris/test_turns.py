"""Sequence of Play: rounds, turns, turn tokens, skipped turns (FAQ 6), and set-up placement."""
from __future__ import annotations

import pytest

from shared.engine import NotYourTurn, RuleViolation

from .support import E, act, arrange, game, kinds, legal, settle

RED = ["red-druid", "red-shaman", "red-sorceress"]
BLUE = ["blue-arcane-knight", "blue-shadow-weaver", "blue-sorcerer"]


def spread(s, ids, row):
    return {wid: (2 * i - 2, row) for i, wid in enumerate(ids)}


def play(alive_red=RED, alive_blue=BLUE):
    at = spread(None, alive_red, -3)
    at.update(spread(None, alive_blue, 3))
    return arrange(game(), at)


def activate_end(s, wid):
    s, _ = act(s, {"kind": "activate", "wizard": wid})
    s, _ = act(s, {"kind": "end"})
    return s


def test_round_opens_with_the_first_player_who_must_activate():
    """"If a player has wizards remaining he or she must activate one on his or her turn"."""
    s = E.decode(E.encode(play()))

    settle(s, [])
    assert E.actor(s) == 0 and kinds(s) == {"activate"}
    assert {a["wizard"] for a in legal(s)} == set(RED)


def test_turns_alternate_and_each_wizard_acts_once_a_round():
    """"On a turn, a player may activate only one of his or her wizards ... wizards may only be
    activated once per round." """
    s = play()

    settle(s, [])
    order = []
    for _ in range(6):
        seat = E.actor(s)
        wid = legal(s)[0]["wizard"]
        order.append(seat)
        s = activate_end(s, wid)
    assert order == [0, 1, 0, 1, 0, 1]
    assert s.round == 2
    assert {a["wizard"] for a in legal(s)} == set(RED)  # tokens flipped back


def test_a_flipped_token_cannot_be_activated_again():
    s = play()

    settle(s, [])
    s = activate_end(s, "red-druid")
    s = activate_end(s, "blue-sorcerer")
    assert "red-druid" not in {a["wizard"] for a in legal(s)}
    with pytest.raises(RuleViolation) as e:
        act(s, {"kind": "activate", "wizard": "red-druid"})
    assert e.value.rule == "Sequence of Play"


def test_skipped_turns_fall_at_the_end_of_the_round():
    """"players must skip turns at the end of the round if they have fewer living wizards";
    FAQ 6: a player may not skip early while he has a wizard to activate."""
    s = play(alive_red=["red-druid"])

    settle(s, [])
    seats = []
    for _ in range(4):
        seats.append(E.actor(s))
        s = activate_end(s, legal(s)[0]["wizard"])
    assert seats == [0, 1, 1, 1]
    assert s.round == 2 and E.actor(s) == 0


def test_only_the_acting_seat_may_act():
    s = play()

    settle(s, [])
    assert E.legal_actions(s, 1) == []
    with pytest.raises(NotYourTurn):
        E.apply(s, 1, {"kind": "activate", "wizard": "blue-sorcerer"})


def test_wizards_enter_their_starting_zones_in_turn():
    """Set Up / Figure 2: wizards start in their team's starting zone (the half tile)."""
    s = game("battle-royale", 3)
    from shared.incantris.arena import arena_of

    a = arena_of(s.tiles)
    seats = []
    while s.phase == "place":
        seat = E.actor(s)
        seats.append(seat)
        options = legal(s)
        zone = a.tile_hexes[s.sides[seat]["zone"]]
        assert all(tuple(o["hex"]) in zone and tuple(o["hex"]) in a.whole for o in options)
        s, _ = act(s, options[0])
    assert seats == [0, 1, 2] * 3
    assert s.phase == "play" and E.actor(s) == 0 and kinds(s) == {"activate"}
