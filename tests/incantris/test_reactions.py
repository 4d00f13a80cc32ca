"""Reactions out of turn: Retribution, Blaze (FAQ 3, 5, 7) and who decides them."""
from __future__ import annotations

from shared.engine import CHANCE

from .support import BLANK, WAND, E, act, arrange, begin, fill, game, kinds, pools, roll, types

GREY_AK, GREY_DRUID, GREY_SORC = "grey-arcane-knight", "grey-druid", "grey-sorcerer"
RED_SHAMAN, RED_DRUID, RED_SORC = "red-shaman", "red-druid", "red-sorceress"
BLUE_SW, BLUE_AK = "blue-shadow-weaver", "blue-arcane-knight"


def grey_red(at, **kw):
    return arrange(game("battle-royale", 2, teams=["grey", "red"]), at, **kw)


def step(s, h):
    return act(s, {"kind": "step", "to": list(h)})


# --- Retribution ---------------------------------------------------------------------------------
def test_leaving_a_hex_next_to_the_arcane_knight_sets_off_retribution():
    """Retribution: "immediately and automatically whenever a wizard from an opposing team moves
    out of a hex adjacent to her ... rolls a 2D+1 spiritual spell against the target. Target
    wards as normal and suffers 1 point of damage per hit." """
    s = begin(grey_red({GREY_AK: (0, 0), RED_DRUID: (1, 0)}), RED_DRUID)
    s, ev = step(s, (2, 0))
    assert "retribution" in types(ev) and E.actor(s) == CHANCE
    assert [n for _, n in pools(s)] == [2, 2]  # 2D (+1) against the Druid's 2D spirit ward
    s, ev = roll(s, [WAND, WAND], [BLANK, BLANK])
    assert s.wizards[RED_DRUID]["life"] == 9 - 3
    assert E.actor(s) == 1 and s.turn["wizard"] == RED_DRUID  # the move goes on


def test_retribution_bites_for_every_adjacent_hex_left():
    """"if a single wizard moves through multiple hexes adjacent to the Arcane Knight, the wizard
    would trigger the ability each time he or she left an adjacent hex." """
    s = begin(grey_red({GREY_AK: (0, 0), RED_DRUID: (1, 0)}), RED_DRUID)
    n = 0
    for h in [(1, -1), (1, -2)]:
        s, ev = step(s, h)
        n += types(ev).count("retribution")
        while E.actor(s) == CHANCE:
            s, _ = fill(s, BLANK, BLANK)
    assert n == 2


def test_retribution_is_not_set_off_by_the_knight_or_her_team():
    """"Retribution is not triggered when the Arcane Knight moves away from other wizards." """
    s = begin(grey_red({GREY_AK: (0, 0), RED_DRUID: (1, 0), GREY_DRUID: (-1, 0)}), GREY_AK)
    s, ev = step(s, (0, -1))
    s, ev2 = step(s, (0, -2))
    assert "retribution" not in types(ev) + types(ev2)
    s = begin(grey_red({GREY_AK: (0, 0), RED_DRUID: (3, 0), GREY_DRUID: (-1, 0)}), GREY_DRUID)
    s, ev = step(s, (-2, 0))
    assert "retribution" not in types(ev)


def test_retribution_ignores_being_moved_by_spells():
    """"nor is it triggered if a wizard leaves a hex adjacent to the Arcane Knight by way other
    than movement, such as by Teleport or Primal Reach." """
    s = begin(grey_red({GREY_AK: (0, 0), RED_DRUID: (1, 0), RED_SHAMAN: (3, 0)}), RED_SHAMAN)
    s, _ = act(s, {"kind": "cast", "spell": "primal-reach", "target": RED_DRUID})
    s, _ = fill(s, WAND, BLANK)
    s, ev = act(s, {"kind": "reach", "to": [2, 0]})
    assert "retribution" not in types(ev) and E.actor(s) != CHANCE


def test_retribution_gets_the_power_circle_bonus():
    s = grey_red({GREY_AK: (0, 0), RED_DRUID: (1, 0)})
    s.edit("effects")["red-sorceress:power-circle"] = {"id": "red-sorceress:power-circle", "spell": "power-circle",
                                                       "caster": RED_SORC, "side": 1, "since": 0, "centre": [-1, 0]}
    s = begin(s, RED_DRUID)
    s, _ = step(s, (2, 0))
    s, ev = roll(s, [BLANK, BLANK], [BLANK, BLANK])
    assert [e for e in ev if e["type"] == "hits"][0]["wands"] == 2


# --- Blaze -----------------------------------------------------------------------------------------
def blaze(s, centre, since=0, bonus=0):
    e = {"id": "grey-sorcerer:blaze", "spell": "blaze", "caster": GREY_SORC, "side": 0, "since": since,
         "centre": list(centre)}
    if bonus:
        e["bonus"] = bonus
    s.edit("effects")["grey-sorcerer:blaze"] = e
    return s


def test_entering_a_blaze_lets_its_caster_roll():
    """Blaze: "on future turns the caster may roll 1D+2 with an elemental power source against any
    wizard that enters a hex occupied by the blaze". The choice is the caster's seat's."""
    s = begin(blaze(grey_red({GREY_SORC: (-4, 0), RED_DRUID: (0, 0)}), (2, 0)), RED_DRUID)
    s, _ = step(s, (1, 0))
    assert E.actor(s) == 0 and {a["kind"] for a in E.legal_actions(s, 0)} == {"blaze"}
    s, _ = act(s, {"kind": "blaze", "burn": True})
    assert [n for _, n in pools(s)] == [1, 2]
    s, _ = roll(s, [WAND], [BLANK, BLANK])
    assert s.wizards[RED_DRUID]["life"] == 6


def test_the_caster_may_let_the_blaze_rest():
    s = begin(blaze(grey_red({GREY_SORC: (-4, 0), RED_DRUID: (0, 0)}), (2, 0)), RED_DRUID)
    s, _ = step(s, (1, 0))
    s, ev = act(s, {"kind": "blaze", "burn": False})
    assert E.actor(s) == 1 and s.wizards[RED_DRUID]["life"] == 9


def burn_all(s):
    n = 0
    while True:
        if E.actor(s) == CHANCE:
            s, _ = fill(s, BLANK, BLANK)
        elif "blaze" in kinds(s):
            n += 1
            s, _ = act(s, {"kind": "blaze", "burn": True})
        else:
            return s, n


def test_faq3_each_hex_moved_through_once_per_turn():
    """FAQ 3: a wizard moving through the Blaze suffers it for each hex; only once per hex per
    turn; entering and staying is not burned again at the end of the turn."""
    s = begin(blaze(grey_red({GREY_SORC: (-4, 0), RED_DRUID: (-1, 0)}), (2, 0)), RED_DRUID)
    total = 0
    for h in [(0, 0), (1, 0), (2, 0), (3, 0), (2, 0)]:
        s, _ = step(s, h)
        s, n = burn_all(s)
        total += n
    assert total == 3  # (0, 0) is outside; (2, 0) entered twice, burned once
    s, _ = act(s, {"kind": "end"})
    s, n = burn_all(s)
    assert n == 0


def test_faq3_starting_in_the_blaze_and_staying_burns_at_the_end():
    s = begin(blaze(grey_red({GREY_SORC: (-4, 0), RED_DRUID: (3, 0)}), (3, 0)), RED_DRUID)
    s, _ = act(s, {"kind": "end"})
    assert E.actor(s) == 0 and "blaze" in kinds(s)


def test_faq3_moving_out_of_the_blaze_is_safe():
    s = begin(blaze(grey_red({GREY_SORC: (-4, 0), RED_DRUID: (4, 0)}), (3, 0)), RED_DRUID)
    s, ev = step(s, (5, 0))
    assert E.actor(s) == 1
    s, _ = act(s, {"kind": "end"})
    assert E.actor(s) != 0 or "blaze" not in kinds(s)


def test_blaze_does_nothing_on_the_turn_it_is_cast():
    """"The blaze does not inflict damage immediately. Instead, on future turns ..." """
    s = begin(grey_red({GREY_SORC: (0, 0), RED_DRUID: (0, -6)}), GREY_SORC)
    s, _ = act(s, {"kind": "cast", "spell": "blaze", "target": [2, 0]})
    s, ev = step(s, (1, 0))
    assert "blaze" not in kinds(s) and E.actor(s) == 0 and "cast" not in kinds(s)


def test_faq5_blaze_gets_the_circle_bonus_only_if_cast_inside_one():
    """FAQ 5: "Blaze only receives the +1 bonus if it is cast by a wizard standing in the Power
    Circle." """
    s = grey_red({GREY_SORC: (0, 0), RED_DRUID: (0, -6)})
    s.edit("effects")["red-sorceress:power-circle"] = {"id": "red-sorceress:power-circle", "spell": "power-circle",
                                                       "caster": RED_SORC, "side": 1, "since": 0, "centre": [0, 0]}
    s = begin(s, GREY_SORC)
    s, _ = act(s, {"kind": "cast", "spell": "blaze", "target": [4, 0]})
    assert s.effects["grey-sorcerer:blaze"]["bonus"] == 1
    s = grey_red({GREY_SORC: (0, 0), RED_DRUID: (0, -6)})
    s.edit("effects")["red-sorceress:power-circle"] = {"id": "red-sorceress:power-circle", "spell": "power-circle",
                                                       "caster": RED_SORC, "side": 1, "since": 0, "centre": [4, 0]}
    s = begin(s, GREY_SORC)
    s, _ = act(s, {"kind": "cast", "spell": "blaze", "target": [4, 0]})
    assert s.effects["grey-sorcerer:blaze"].get("bonus", 0) == 0
    s = blaze(s, (4, 0), since=0)
    s.wizards[RED_DRUID]["hex"] = [6, 0]
    s = begin(s, RED_DRUID)
    s, _ = step(s, (5, 0))
    s, _ = act(s, {"kind": "blaze", "burn": True})
    s, ev = roll(s, [BLANK], [BLANK, BLANK])
    assert [e for e in ev if e["type"] == "hits"][0]["wands"] == 2  # 1D+2, the circle underneath adds nothing


def test_faq7_primal_reach_drags_through_the_blaze_hex_by_hex():
    """FAQ 7: Primal Reach "moves the target wizard through multiple hexes on the way to the final
    hex" - each hex entered can burn."""
    at = {RED_SHAMAN: (0, 0), GREY_AK: (2, 0), GREY_SORC: (-4, 4)}
    s = arrange(game("battle-royale", 2, teams=["red", "grey"]), at)
    s.edit("effects")["grey-sorcerer:blaze"] = {"id": "grey-sorcerer:blaze", "spell": "blaze", "caster": GREY_SORC,
                                                "side": 1, "since": 0, "centre": [3, 1]}
    s = begin(s, RED_SHAMAN)
    s, _ = act(s, {"kind": "cast", "spell": "primal-reach", "target": GREY_AK})
    s, _ = roll(s, [WAND], [BLANK, BLANK])
    asked = 0
    for h in [(3, 0), (4, 0)]:
        s, _ = act(s, {"kind": "reach", "to": list(h)})
        if E.actor(s) == 1 and "blaze" in kinds(s):
            asked += 1
            s, _ = act(s, {"kind": "blaze", "burn": False})
    assert asked == 2


def test_faq7_teleport_only_burns_where_it_lands():
    """FAQ 7: "a teleported wizard never occupies the intervening hexes"."""
    at = {BLUE_SW: (0, 0), GREY_DRUID: (1, 0), GREY_SORC: (-4, 4), RED_SHAMAN: (0, -6)}
    s = arrange(game("battle-royale", 3, teams=["red", "grey", "blue"]), at)
    s.edit("effects")["grey-sorcerer:blaze"] = {"id": "grey-sorcerer:blaze", "spell": "blaze", "caster": GREY_SORC,
                                                "side": 1, "since": 0, "centre": [3, 0]}
    s = begin(s, BLUE_SW)
    s, _ = act(s, {"kind": "cast", "spell": "teleport", "target": GREY_DRUID})
    s, _ = fill(s, WAND, BLANK)
    s, _ = act(s, {"kind": "teleport", "to": [5, 0]})  # across the blaze, landing outside it
    assert E.actor(s) == 2
    s = arrange(game("battle-royale", 3, teams=["red", "grey", "blue"]), at)
    s.edit("effects")["grey-sorcerer:blaze"] = {"id": "grey-sorcerer:blaze", "spell": "blaze", "caster": GREY_SORC,
                                                "side": 1, "since": 0, "centre": [3, 0]}
    s = begin(s, BLUE_SW)
    s, _ = act(s, {"kind": "cast", "spell": "teleport", "target": GREY_DRUID})
    s, _ = fill(s, WAND, BLANK)
    s, _ = act(s, {"kind": "teleport", "to": [4, 0]})
    assert E.actor(s) == 1 and "blaze" in kinds(s)


def test_a_dead_casters_blaze_no_longer_burns():
    s = blaze(grey_red({GREY_SORC: (-4, 0), GREY_AK: (-5, 0), RED_DRUID: (0, 0)}), (3, 0))
    s.wizards[GREY_SORC].update(alive=False, life=0, hex=None)
    s = begin(s, RED_DRUID)
    s, _ = step(s, (1, 0))
    assert E.actor(s) == 1 and "grey-sorcerer:blaze" in s.effects
