"""Solo Play Rules: the attacking team played by the engine (Attacking Wizard Rules, Tables
1-3, Gameplay, Examples 3 and 4)."""
from __future__ import annotations

import pytest

from shared.engine import CHANCE, TERMINAL, InvalidConfig
from shared.hexgrid import distance
from shared.incantris.arena import arena_of

from .support import BLANK, WAND, E, act, arrange, begin, fill, game, kinds, legal, pools, roll, types

# the player fields Purple; the attacking team is Red (Shaman, Druid, Sorceress)
P_SW, P_SHAMAN, P_SORC = "purple-shadow-weaver", "purple-shaman", "purple-sorceress"
A_SHAMAN, A_DRUID, A_SORC = "red-shaman", "red-druid", "red-sorceress"


def solo(at, attackers="red", others="outside", **kw):
    s = game("solo", 1, teams=["purple"], attackers=attackers)
    return arrange(s, at, others=others, **kw)


def begin_state_only(state, wid):
    """The state with `wid`'s turn begun but its automatic play not yet run."""
    from shared.incantris import turns

    s = E.decode(E.encode(state))
    s.queue = []
    turns.begin_turn(s, s.wizards[wid]["side"], [])
    turns.activate(s, wid, [])
    return s


def test_example_3_moves_just_far_enough_then_casts():
    """Example 3: the Sorceress is 10 hexes from the Shaman, her favoured foe; "She moves toward the
    Shaman two hexes, just far enough to come within range of the spell, and then casts Meteor
    Storm on him." """
    s = solo({A_SORC: (-5, 0), P_SHAMAN: (5, 0), P_SORC: (-5, 5), P_SW: (0, -5)})
    s.wizards[A_SORC]["entry"] = 0
    s = begin(s, A_SORC)
    here = tuple(s.wizards[A_SORC]["hex"])
    assert s.turn["spent"] == 2 and distance(here, (5, 0)) == 8
    assert E.actor(s) == CHANCE
    assert [(p, n) for p, n in pools(s)] == [("ward meteor-storm (purple-shaman)", 1)]  # no casting dice
    s, ev = roll(s, [BLANK])
    assert [e for e in ev if e["type"] == "hits"][0]["wands"] == 4  # Table 1: Meteor Storm, 4 wands
    assert s.wizards[P_SHAMAN]["life"] == 6


def test_example_4_falls_back_to_the_weakest_wizard_without_moving():
    """Example 4: the Shaman is 14 hexes away and the Sorceress "cannot move within range"; the
    player's wizard with the least life is four hexes away in sight, "Therefore, the attacking
    Sorceress will not move and will cast Meteor Storm on" that wizard."""
    s = solo({A_SORC: (-7, 0), P_SHAMAN: (7, 0), P_SORC: (-7, 4), P_SW: (0, -6)}, life={P_SORC: 3})
    s = begin(s, A_SORC)
    assert s.wizards[A_SORC]["hex"] == [-7, 0] and s.turn["spent"] == 0
    assert pools(s) == [("ward meteor-storm (purple-sorceress)", 2)]  # her 2D+1 elemental ward


def test_the_closest_wizard_when_the_weakest_is_out_of_reach():
    s = solo({A_DRUID: (-7, 0), P_SHAMAN: (7, 0), P_SORC: (6, 1), P_SW: (-4, 0)}, life={P_SORC: 3, P_SHAMAN: 3})
    s = begin(s, A_DRUID)
    assert pools(s)[0][0] == "ward tempest (purple-shadow-weaver)"


def test_equal_life_and_distance_go_to_a_different_power_source():
    """"If two of the player's wizards have the same number of life points and are equidistant,
    then the wizard will attack the target that uses a power source different from his or her
    own." The attacking Druid (astral) picks the Sorceress over the Shadow Weaver."""
    s = solo({A_DRUID: (0, 0), P_SW: (2, 0), P_SORC: (-2, 0), P_SHAMAN: (0, -7)}, life={P_SW: 5, P_SORC: 5})
    s = begin(s, A_DRUID)
    assert pools(s)[0][0] == "ward tempest (purple-sorceress)"


def test_the_shaman_prefers_eagle_talon_and_moves_next_to_the_target():
    """Table 1: "The Shaman will always use Eagle Talon against his target if possible."
    Table 2: his favoured foe is the Sorcerer/Sorceress."""
    s = solo({A_SHAMAN: (0, 0), P_SORC: (4, 0), P_SW: (0, -7), P_SHAMAN: (-6, 2)})
    s = begin(s, A_SHAMAN)
    assert distance(tuple(s.wizards[A_SHAMAN]["hex"]), (4, 0)) == 1
    assert pools(s) == [("ward eagle-talon (purple-sorceress)", 1)]
    s, ev = roll(s, [BLANK])
    assert s.wizards[P_SORC]["life"] == 8 - 4


def test_the_shaman_falls_back_to_primal_reach_and_pulls_the_target_in():
    """"If he cannot, he will cast Primal Reach and move the target directly toward him if he
    inflicts damage." """
    s = solo({A_SHAMAN: (0, 0), P_SORC: (4, 0), P_SW: (0, -7), P_SHAMAN: (-6, 2)})
    s.edit("effects")["purple-shaman:entanglement"] = {"id": "purple-shaman:entanglement", "spell": "entanglement",
                                                       "caster": P_SHAMAN, "side": 1, "since": 0, "wizard": A_SHAMAN}
    s = begin(s, A_SHAMAN)  # two movement points: Eagle Talon is out of reach
    assert pools(s)[0] == ("ward primal-reach (purple-sorceress)", 1)
    before = distance(tuple(s.wizards[A_SHAMAN]["hex"]), tuple(s.wizards[P_SORC]["hex"]))
    s, _ = roll(s, [BLANK])  # 3 wands, no wards: 3 damage, pulled up to 3 hexes
    after = distance(tuple(s.wizards[A_SHAMAN]["hex"]), tuple(s.wizards[P_SORC]["hex"]))
    assert s.wizards[P_SORC]["life"] == 5 and after == max(1, before - 3)


def test_the_arcane_knight_rushes_from_three_hexes_or_blasts():
    """Table 1: Spectral Rush (5 wands) whenever possible, else Phantom Blast (4 wands)."""
    s = solo({"blue-arcane-knight": (0, 0), P_SORC: (4, 0), P_SW: (0, -7), P_SHAMAN: (-6, 2)}, attackers="blue")
    s = begin(s, "blue-arcane-knight")
    s, ev = fill(s, WAND, BLANK)
    assert [e for e in ev if e["type"] == "hits"][0]["spell"] == "spectral-rush"
    assert [e for e in ev if e["type"] == "hits"][0]["wands"] == 5
    s = solo({"blue-arcane-knight": (0, 0), P_SORC: (2, 0), P_SW: (0, -7), P_SHAMAN: (-6, 2)}, attackers="blue")
    s = begin(s, "blue-arcane-knight")
    s, ev = fill(s, WAND, BLANK)
    assert [e for e in ev if e["type"] == "hits"][0]["spell"] == "phantom-blast"


def test_meteor_storm_centres_elsewhere_only_to_catch_more_wizards():
    """Table 1: "always center Meteor Storm on the target unless he or she can affect more of the
    player's wizards by centering it in another hex"."""
    s = solo({A_SORC: (-3, 0), P_SHAMAN: (3, 0), P_SW: (4, 1), P_SORC: (-3, -5)})
    s = begin(s, A_SORC)
    rolled = []
    while E.actor(s) == CHANCE:
        rolled.append(pools(s)[0][0])
        s, _ = fill(s, WAND, BLANK)
    assert sorted(rolled) == ["ward meteor-storm (purple-shadow-weaver)", "ward meteor-storm (purple-shaman)"]


def test_no_spell_in_reach_means_marching_toward_the_top_target():
    """"If an attacking wizard cannot cast a spell against any of the player's wizards, then he or
    she will move as far as possible toward the highest priority target"."""
    s = solo({A_DRUID: (-7, 0), P_SORC: (7, 0), P_SW: (6, -2), P_SHAMAN: (5, 2)}, life={P_SORC: 2})
    s = begin(s, A_DRUID)
    here = tuple(s.wizards[A_DRUID]["hex"])
    assert s.turn is None or s.turn["wizard"] != A_DRUID  # the turn is over, nothing cast
    assert distance(here, (7, 0)) == 14 - 5


def test_attacking_wizards_never_roll_and_ward_by_table_3():
    """"Attacking wizards never roll the casting dice" and "do not roll to ward. The number of
    wards they roll is fixed" - 2D+1: 2, 2D: 1, 1D: 0."""
    s = solo({A_SORC: (0, 0), P_SW: (3, 0), P_SHAMAN: (0, 5), P_SORC: (-5, 5)})
    s = begin(s, P_SW)
    s, _ = act(s, {"kind": "cast", "spell": "gloom-strike", "target": A_SORC})
    assert [n for _, n in pools(s)] == [2]  # casting dice only
    s, ev = roll(s, [WAND, WAND])
    assert [e for e in ev if e["type"] == "hits"][0]["wards"] == 1  # Sorceress: 2D astral -> 1


def test_the_attacking_knights_retribution_rolls_three_wands():
    """"If the attacking Arcane Knight's Retribution is triggered, it is assumed to roll 3 wands." """
    s = solo({"blue-arcane-knight": (0, 0), P_SW: (1, 0), P_SHAMAN: (0, 6), P_SORC: (-5, 5)}, attackers="blue")
    s = begin(s, P_SW)
    s, ev = act(s, {"kind": "step", "to": [2, 0]})
    assert "retribution" in types(ev) and [n for _, n in pools(s)] == [2]
    s, ev = roll(s, [BLANK, BLANK])
    assert [e for e in ev if e["type"] == "hits"][0]["wands"] == 3


def test_attackers_outside_step_in_for_a_point_and_cannot_be_targeted():
    """Gameplay: "That wizard steps into the arena in either of the two available hexes, expending
    one movement point ... Attacking wizards that have not yet entered the arena may not be
    targeted by spells." """
    s = game("solo", 1, teams=["purple"])
    s = arrange(s, {P_SW: (0, 0), P_SHAMAN: (-3, 6), P_SORC: (4, 4)}, field=False, others="outside")
    for i, wid in enumerate(["red-druid", "red-shaman", "red-sorceress"]):
        s.wizards[wid]["entry"] = i
    p = begin(s, P_SW)
    assert not any(a["target"] in ("red-druid", "red-shaman", "red-sorceress") for a in legal(p, "cast")
                   if isinstance(a["target"], str))
    from shared.incantris import attackers

    w = s.wizards["red-druid"]
    plan = attackers.plan(begin_state_only(s, "red-druid"), w)
    assert plan["path"] and plan["path"][0] in s.entries[0]["hexes"]
    a = begin(s, "red-druid")
    assert a.wizards["red-druid"]["hex"] is not None


def test_the_attacking_team_goes_first_and_draws_its_tokens_at_random():
    """Gameplay: "The attacking wizards always take the first turn. Flip their turn tokens upside
    down and randomize them. Draw one turn token." """
    s = game("solo", 1, teams=["purple"])
    while s.phase in ("place", "post"):
        s, _ = act(s, legal(s)[0])
    assert E.actor(s) == CHANCE
    req = E.chance_request(s)
    assert len(req.pools) == 1 and sorted(req.pools[0].faces) == ["red-druid", "red-shaman", "red-sorceress"]
    s, ev = E.apply_chance(s, [["red-shaman"]])
    assert "token-drawn" in types(ev) and s.wizards["red-shaman"]["done"]
    faces = None
    for _ in range(200):
        if E.actor(s) == CHANCE:
            req = E.chance_request(s)
            if req.pools[0].purpose == "attacking turn token":
                faces = req.pools[0].faces
                break
            s, _ = fill(s, BLANK, BLANK)
            continue
        options = legal(s)
        s, _ = act(s, {"kind": "end"} if {"kind": "end"} in options else options[0])
    assert faces is not None and "red-shaman" not in faces


def test_solo_set_up_one_wizard_per_tile_off_the_seams():
    """1-Player Set Up: "Only one of the player's wizards may be placed on a single tile. Player
    wizards may not be placed in hexes that are created by two or more tiles." """
    s = game("solo", 1, teams=["purple"])
    a = arena_of(s.tiles)
    options = legal(s)
    assert options and all(tuple(o["hex"]) in a.single for o in options)
    first = options[0]
    s, _ = act(s, first)
    tile = a.owners[tuple(first["hex"])][0]
    assert all(a.owners[tuple(o["hex"])][0] != tile for o in legal(s))
    while s.phase == "place":
        s, _ = act(s, legal(s)[0])
    assert s.phase == "post" and kinds(s) == {"post"}
    while s.phase == "post":
        s, _ = act(s, legal(s)[0])
    assert sorted(w["entry"] for w in s.wizards.values() if w["side"] == 0) == [0, 1, 2]


def test_solo_obstacle_limits_and_no_penning_in():
    """"Up to three trees, two low walls, and one high wall may be placed ... they may not block
    the attacking wizards' entry to the arena or otherwise pen them in." """
    entry = game("solo", 1).entries[0]["hexes"][0]
    with pytest.raises(InvalidConfig):
        game("solo", 1, obstacles=[{"kind": "tree", "hexes": [entry]}])
    trees = [{"kind": "tree", "hexes": [[x, -2]]} for x in (-1, 0, 1, 2)]
    with pytest.raises(InvalidConfig):
        game("solo", 1, obstacles=trees)
    game("solo", 1, obstacles=trees[:3])


def test_the_player_wins_by_killing_every_attacker():
    s = solo({A_SORC: (0, 0), P_SW: (3, 0), P_SHAMAN: (0, 5), P_SORC: (-5, 5)}, life={A_SORC: 1}, others="dead")
    s = begin(s, P_SW)
    s, _ = act(s, {"kind": "cast", "spell": "gloom-strike", "target": A_SORC})
    s, _ = roll(s, [WAND, WAND])
    assert E.actor(s) == TERMINAL and E.outcome(s).winners == (0,) and E.outcome(s).scores == (1,)


def test_the_player_loses_when_all_his_wizards_die():
    s = solo({A_SORC: (0, 0), P_SW: (3, 0)}, life={P_SW: 1}, others="dead")
    s = begin(s, A_SORC)
    s, _ = fill(s, WAND, BLANK)
    assert E.actor(s) == TERMINAL and E.outcome(s).winners == ()
