"""The AI policy gathering and keeping the Sacred Gems (13, 7.326, 7.346, 7.6, 7.3263, 11.2321), on fixtures."""
from __future__ import annotations

import random

from shared.wizards.policy import _goals, _target, choose
from shared.wizards.world import world_for
from tests.wizards.scenario import ENGINE, both, build, false_wizard, gems, hex_of, member


def asked(st, seat: int, offer: list[dict]) -> dict:
    view = ENGINE.view(st, seat)
    view["await"] = {"seat": seat, "for": "choice"}
    return choose(view, seat, offer, random.Random(1))


def test_a_sorcerer_gathering_gems_steps_out_of_the_tower_and_back_for_another_summoning():
    """7.6: staying in the Tower gives no new encounter; leaving the space and coming back gives a second, after
    which only leaving the tile does: so it makes for a space beside the Center, then for the Center, then off
    the Tower's tile."""
    st = build(seats=1, at={0: ("M2", "Center")}, prepare=member(order="sorcerers", rank=4))
    w = world_for(st)
    centre = hex_of(st, "M2", "Center")
    view = ENGINE.view(st, 0)
    assert centre not in _goals(view, 0, w)
    target, _ = _target(view, 0, w)
    assert target in w.neighbours(centre) and w.tile_of(target) == "M2"
    st.players[0]["at"] = list(hex_of(st, "M2", "A1"))
    st.players[0]["space_encounters"] = {f"{centre[0]},{centre[1]}": 1}
    assert centre in _goals(ENGINE.view(st, 0), 0, w)
    st.players[0]["space_encounters"] = {f"{centre[0]},{centre[1]}": 2}
    goals = _goals(ENGINE.view(st, 0), 0, w)
    assert centre not in goals and any(w.tile_of(g) != "M2" for g in goals)


def test_gem_summoning_contacts_a_high_wizard_whose_gem_it_lacks_never_the_false_one_while_holding_gems():
    """11.2321, 7.3263: with markers out it contacts one; the False Wizard it knows would take every Gem it holds,
    and a High Wizard whose Gem it holds gives nothing."""
    st = build(seats=1, prepare=member(order="sorcerers", rank=4))
    false = false_wizard(st)
    others = [n for n in st.gem_boxes if n != false]
    gems(0, others[0])(st)
    st.players[0]["false_wizard"] = false
    offer = [{"kind": "gem_summoning", "target": t} for t in (false, others[0], others[1])] + [
        {"kind": "gem_summoning", "target": None}]
    assert asked(st, 0, offer)["target"] == others[1]
    only_false = [offer[0], offer[-1]]
    assert asked(st, 0, only_false)["target"] is None
    st.players[0]["gems"] = {}  # nothing to lose: contacting him clears the board for the random cast
    assert asked(st, 0, only_false)["target"] == false


def test_it_does_not_ask_the_false_wizard_it_knows_for_a_gem_while_holding_gems():
    """7.326, 7.3263 (and Perception, 11.233, for a Druid): the attempt is declined when the High Wizard met is the
    False Wizard it has found out and it holds Gems; any other High Wizard it asks."""
    st = build(seats=1, prepare=member(order="druids", rank=4))
    false = false_wizard(st)
    other = next(n for n in st.gem_boxes if n != false)
    gems(0, other)(st)
    st.players[0]["false_wizard"] = false
    for wizard, wanted in ((false, False), (next(n for n in st.gem_boxes if n not in (false, other)), True)):
        offer = [{"kind": "attempt_gem", "wizard": wizard, "attempt": True},
                 {"kind": "attempt_gem", "wizard": wizard, "attempt": False}]
        assert asked(st, 0, offer)["attempt"] is wanted


def test_a_druid_knowing_the_false_wizard_does_not_go_to_his_marker_with_gems():
    """11.233 Perception: the False Wizard's marker is no goal for a gatherer holding Gems; another High Wizard's is."""
    st = build(seats=1, prepare=member(order="druids", rank=4))
    false = false_wizard(st)
    other = next(n for n in st.gem_boxes if n != false)
    third = next(n for n in st.gem_boxes if n not in (false, other))
    both(gems(0, other))(st)
    st.players[0]["false_wizard"] = false
    st.wizard_markers[false] = list(hex_of(st, "E1", "C2"))
    st.wizard_markers[third] = list(hex_of(st, "E2", "C2"))
    assert _goals(ENGINE.view(st, 0), 0, world_for(st)) == [hex_of(st, "E2", "C2")]


def test_in_the_partnership_game_the_giver_takes_his_gems_to_his_partner():
    """Appendix B: Gems pass between partners who meet while both gather them; the odd seat of a pair goes to his
    partner's space with the Gems he holds, once the partner is gathering too (his Record Sheet shows it)."""
    def prep(s):
        for seat in (0, 1):
            member(seat=seat, order="sorcerers", rank=4)(s)
        gems(1, next(iter(s.gem_boxes)))(s)
    st = build(seats=4, variant="partnership", prepare=prep)
    w = world_for(st)
    mate = tuple(st.players[0]["at"])
    assert _goals(ENGINE.view(st, 1), 1, w) == [mate]
    assert mate not in _goals(ENGINE.view(st, 0), 0, w)  # the keeper gathers on
    st.players[0]["rank"] = 3  # a partner not gathering cannot take Gems
    assert mate not in _goals(ENGINE.view(st, 1), 1, w)


def test_a_keeper_of_pooled_gems_leaves_the_random_summoning_to_his_partner():
    """7.3263, 11.2322: a random Gem Summoning may draw the False Wizard, who takes every Gem held; the keeper of a
    pair holding three or more does not risk them at random while his partner gathers and summons for him, but
    still contacts a High Wizard he can name; alone he casts at random."""
    def prep(s):
        for seat in (0, 1):
            member(seat=seat, order="sorcerers", rank=4)(s)
        gems(0, *list(s.gem_boxes)[:3])(s)
    st = build(seats=4, variant="partnership", prepare=prep)
    offer = [{"kind": "gem_summoning", "target": "random"}, {"kind": "gem_summoning", "target": None}]
    assert asked(st, 0, offer)["target"] is None
    wanted = next(n for n in st.gem_boxes if n not in st.players[0]["gems"] and n != false_wizard(st))
    named = [{"kind": "gem_summoning", "target": wanted}, offer[1]]
    assert asked(st, 0, named)["target"] == wanted
    st.players[1]["rank"] = 3
    assert asked(st, 0, offer)["target"] == "random"


def test_a_gatherer_completes_its_optional_tasks_again_when_the_sacred_circle_is_at_risk():
    """12.131, 12.2, 13: every Common and Elven Territory falls before the Circle can; with two or fewer of them left
    a player gathering Gems also goes where its Optional Tasks move on, for every ten Tasks thwart an attack."""
    from tests.wizards.scenario import hold_task, take

    def prep(s):
        member(order="sorcerers", rank=4)(s)
        hold_task(s, 0, 69, at={0: ("M3", "B1")})  # an Optional Task
    st = build(seats=1, at={0: ("C5", "A1")}, prepare=prep)
    w = world_for(st)
    marker = hex_of(st, "M3", "B1")
    assert marker not in _goals(ENGINE.view(st, 0), 0, w)
    take(st, "C1", "C2", "C3", "C4", "C6", "E1", "E2", "E3", "E4", "E5")  # Meadowfarm (C5) and E6 are left
    assert marker in _goals(ENGINE.view(st, 0), 0, w)
