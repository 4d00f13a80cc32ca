"""The AI policy gathering and keeping the Sacred Gems (13, 7.326, 7.346, 7.6, 7.3263, 11.2321), on fixtures."""
from __future__ import annotations

import random

from shared.hexgrid import distance
from shared.wizards.policy import TRANSPORT_FROM, _goals, _target, choose
from shared.wizards.world import world_for
from tests.wizards.scenario import (
    ENGINE,
    both,
    build,
    chance,
    false_wizard,
    gems,
    hex_of,
    hold_task,
    member,
    solo,
    space_faces,
    take,
)


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


def _met(tile: str, label: str, times: int):
    """A `prepare`: the seat's Center on `tile` met `times` on this visit of the tile (7.6)."""
    def prep(s):
        h = hex_of(s, tile, label)
        s.players[0]["space_encounters"] = {f"{h[0]},{h[1]}": times}
    return prep


def test_11_213_a_sorcerer_whose_tower_is_met_out_transports_to_another_tower():
    """7.6 with 11.213 (Rank FOUR: a random space in ANY Territory it names, AMB6): a Sorcerer gathering Gems whose
    Tower has met it twice on this visit names another Tower's Territory in place of its Movement Roll, where
    walking off the tile and back takes some four turns; with a meeting left there it rolls, to step out of the
    Center and back in. Arriving on the other Tower's tile, its Master Sorcerer meets it afresh. The normal level
    always rolls."""
    sorcerer = member(order="sorcerers", rank=4)
    st = solo("M2", "Center", prepare=both(sorcerer, _met("M2", "Center", 2)))
    legal = ENGINE.legal_actions(st, 0)
    view = ENGINE.view(st, 0)
    pick = choose(view, 0, legal, random.Random(1), advancing=True)
    assert pick["spell"] == "transporting" and pick["territory"] in {"M3", "M4"}
    assert choose(view, 0, legal, random.Random(1)) == {"kind": "roll"}
    once = solo("M2", "Center", prepare=both(sorcerer, _met("M2", "Center", 1)))
    assert choose(ENGINE.view(once, 0), 0, ENGINE.legal_actions(once, 0), random.Random(1), advancing=True) \
        == {"kind": "roll"}

    there, _ = ENGINE.apply(st, 0, pick)
    there, _ = chance(there, 1)  # the cast succeeds (1-5, 11.1)
    there, _ = chance(there, *space_faces("A1"))
    assert tuple(there.players[0]["at"]) == hex_of(there, pick["territory"], "A1")
    assert there.players[0]["space_encounters"] == {}
    target, _ = _target(ENGINE.view(there, 0), 0, world_for(there))
    assert target == hex_of(there, pick["territory"], "Center")


def test_11_213_at_rank_four_it_transports_to_a_far_goal_and_walks_to_a_near_one():
    """11.213: a Task's marker further than a Transport and the walk on from a random space of its Territory
    (policy.TRANSPORT_FROM) is reached by naming that Territory; one nearer is walked to. Never into the Dragon's
    Lair (12.511)."""
    def with_task(tile: str, label: str):
        return both(member(order="sorcerers", rank=4), lambda s: hold_task(s, 0, 69, at={0: (tile, label)},
                                                                          mandatory=True))
    far = solo("C5", "Center", prepare=with_task("M2", "C2"))
    pick = choose(ENGINE.view(far, 0), 0, ENGINE.legal_actions(far, 0), random.Random(1), advancing=True)
    assert pick == {"kind": "cast", "spell": "transporting", "to": "ANY", "territory": "M2"}
    near = solo("C5", "Center", prepare=with_task("C5", "C2"))
    assert choose(ENGINE.view(near, 0), 0, ENGINE.legal_actions(near, 0), random.Random(1), advancing=True) \
        == {"kind": "roll"}
    lair = solo("C5", "Center", prepare=with_task("M6", "C2"))
    assert distance(hex_of(lair, "C5", "Center"), hex_of(lair, "M6", "C2")) > TRANSPORT_FROM
    assert choose(ENGINE.view(lair, 0), 0, ENGINE.legal_actions(lair, 0), random.Random(1), advancing=True) \
        == {"kind": "roll"}


def test_11_213_it_names_only_a_territory_it_may_transport_to():
    """12.41, 11.213: a Mandatory Task to meet any Master Sorcerer (Task 92) counts every Tower as a goal, but a
    Territory taken by Evil is never named (none is offered): it names a Tower still standing."""
    def prep(s):
        member(order="sorcerers", rank=4)(s)
        hold_task(s, 0, 92, mandatory=True)
        take(s, "M2")
    st = solo("C1", "Center", prepare=prep)
    legal = ENGINE.legal_actions(st, 0)
    assert not any(a.get("territory") == "M2" for a in legal)
    pick = choose(ENGINE.view(st, 0), 0, legal, random.Random(1), advancing=True)
    assert pick in legal and pick["territory"] in {"M3", "M4"}

