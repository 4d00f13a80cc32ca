"""The AI policy: legal choices from the seat's view only, fast, and a match it plays to the end."""
from __future__ import annotations

import random

from shared.engine import CHANCE, TERMINAL
from shared.engine.playout import policy_playout, sample_chance
from shared.hexgrid import distance
from shared.wizards import policy
from shared.wizards.policy import choose
from shared.wizards.world import world_for
from tests.wizards.scenario import ENGINE, build, config, hex_of, moves, roll


def play(seats: int, seed: int, days: int = 6):
    state, _ = policy_playout(ENGINE, config(seats, days=days), choose, random.Random(seed), 5000)
    return state


def test_policy_plays_every_seat_to_the_end():
    """Every seat on the policy: only legal actions, and the match ends (its speed is in `make bench`)."""
    for seats, seed in ((1, 1), (3, 2), (6, 3)):
        assert ENGINE.actor(play(seats, seed)) == TERMINAL


def test_policy_lays_tiles_that_touch_and_explores():
    """Tiles laid by the policy form coasts together; players travel: to new Territories, or to a
    Master Sorcerer's Tower where they join an Order (its first aim, 7.34)."""
    s = play(2, 5, days=8)
    centres = [tuple(t["at"]) for t in s.tiles["placed"]]
    touching = sum(1 for c in centres if any(distance(c, d) == 5 for d in centres if d != c))
    assert touching >= len(centres) - 1
    assert all(len(p["visited"]) >= 2 for p in s.players) and sum(len(p["visited"]) for p in s.players) >= 6


def test_policy_moves_toward_a_territory_not_yet_visited():
    """Part one's aim: head for unexplored Territories, not stand still."""
    st = roll(build(seats=1), 6)
    legal = ENGINE.legal_actions(st, 0)
    action = choose(ENGINE.view(st, 0), 0, legal, random.Random(0))
    assert action["kind"] == "move"


def test_policy_leaves_an_island_with_nothing_new_on_it():
    """6 WATER-SWIMMING / BOARDING A BOAT: a player whose island holds no Territory he has not seen takes to the
    Water instead of standing still (Hamdrel's island lies one Water space off Woodland and the Sacred Circle)."""
    st = build(seats=1, at={0: ("M5", "B1")})
    rng = random.Random(4)
    w = world_for(st)
    island = w.island[hex_of(st, "M5", "B1")]
    assert {w.tile_of(h) for h, i in w.island.items() if i == island} == {"M5"}
    for _ in range(200):
        who = ENGINE.actor(st)
        if who == CHANCE:
            st, _ = ENGINE.apply_chance(st, sample_chance(ENGINE.chance_request(st), rng))
            continue
        at = tuple(st.players[0]["at"])
        if w.island.get(at) != island:
            break
        legal = ENGINE.legal_actions(st, 0)
        st, _ = ENGINE.apply(st, 0, choose(ENGINE.view(st, 0), 0, legal, rng))
    else:
        raise AssertionError("the policy stayed on Hamdrel's island")
    assert st.calendar["days_played"] <= 8


def test_policy_walks_round_what_it_cannot_cross():
    """6: the Sacred Circle Stones are entered only by the Movement Roll, walls never on foot; the policy measures
    the way by the Movement Points the walk takes, so it goes round them instead of waiting in front of them."""
    def here(s):
        s.players[0]["visited"] = ["M1"]
    st = roll(build(seats=1, at={0: ("M1", "B3")}, prepare=here), 4)
    legal = ENGINE.legal_actions(st, 0)
    for seed in range(5):
        action = choose(ENGINE.view(st, 0), 0, legal, random.Random(seed))
        assert action["kind"] == "move" and action in legal
        w = world_for(st)
        assert not w.in_circle(tuple(action["to"]))


def test_policy_joins_an_order_and_takes_what_it_needs():
    """In an encounter it accepts an Order when it has none (10), and points go where its next
    Rank needs them most (10.12: an Augur needs 15 Power)."""
    from tests.wizards.scenario import enter, joined

    st, _ = enter("M2", "Center")
    legal = ENGINE.legal_actions(st, 0)
    assert {a["kind"] for a in legal} == {"join_order"}
    assert choose(ENGINE.view(st, 0), 0, legal, random.Random(1))["accept"] is True
    view = ENGINE.view(build(seats=1, prepare=joined("sorcerers", knowledge=10, perception=5)), 0)
    view["await"] = {"seat": 0, "for": "choice"}
    offers = [{"kind": "take_points", "points": {t: 4}} for t in ("knowledge", "perception", "power")]
    assert choose(view, 0, offers, random.Random(1))["points"] == {"power": 4}


def test_policy_walks_to_its_task_markers_and_a_mentor():
    """Goals before exploring: its own Task Markers it may fulfil, then a Master Sorcerer's Center (7.34)."""
    from shared.wizards.policy import _goals
    from tests.wizards.scenario import hold_task, member

    st = build(seats=1)
    w = world_for(st)
    towers = set(_goals(ENGINE.view(st, 0), 0, w))
    assert towers == {hex_of(st, t, "Center") for t in ("M2", "M3", "M4")}

    def prep(s):
        member(order="druids")(s)
        hold_task(s, 0, 69, at={0: ("E1", "C2")})
    st = build(seats=1, prepare=prep)
    assert _goals(ENGINE.view(st, 0), 0, world_for(st)) == [hex_of(st, "E1", "C2")]


def test_policy_goes_where_each_task_moves_on():
    """9, 7.352, 7.343: a Task whose next requirement is a meeting sends it to the one it must meet (Hamdrel in
    her Cottage's Center, Meligar in his Tower's); a marker still waiting on an earlier requirement does not."""
    from shared.wizards.policy import _goals
    from tests.wizards.scenario import hold_task, member

    def prep(s):
        member(order="sorcerers")(s)
        hold_task(s, 0, 45, at={1: ("E1", "C2")})  # meet Hamdrel, then go: the marker waits
        hold_task(s, 0, 30, at={0: ("E2", "C2")}, done=1)  # taken: now meet Meligar
    st = build(seats=1, prepare=prep)
    assert set(_goals(ENGINE.view(st, 0), 0, world_for(st))) == {hex_of(st, "M5", "Center"), hex_of(st, "M3", "Center")}


def test_policy_stops_on_its_goal_and_gets_its_next_task():
    """5.2: the encounter comes where movement ends, so it ends its movement on the marker it walked to rather than
    walking on; with no Task left, a Sorcerer goes back to a Master Sorcerer for another (7.347: every time)."""
    from shared.wizards.policy import _goals
    from tests.wizards.scenario import hold_task, member

    def prep(s):
        member(order="sorcerers")(s)
        hold_task(s, 0, 69, at={0: ("C5", "C2")})
    st = roll(build(seats=1, at={0: ("C5", "C1")}, prepare=prep), 6)
    goal = hex_of(st, "C5", "C2")
    st, _ = ENGINE.apply(st, 0, {"kind": "move", "by": "walk", "to": list(goal),
                                 "cost": next(c for (by, to), c in moves(st, 0).items() if to == goal)})
    legal = ENGINE.legal_actions(st, 0)
    assert any(a["kind"] == "move" for a in legal)
    assert choose(ENGINE.view(st, 0), 0, legal, random.Random(1)) == {"kind": "end_move"}
    idle = build(seats=1, prepare=member(order="sorcerers"))
    towers = {hex_of(idle, t, "Center") for t in ("M2", "M3", "M4")}
    assert set(_goals(ENGINE.view(idle, 0), 0, world_for(idle))) == towers


def test_policy_joins_the_sorcerers_only():
    """10.3, 7.321: it declines the Order of Wizards (their Mentors are found only by chance) and waits for a
    Master Sorcerer, whose Tower it can walk back to for Tasks and promotion."""
    view = ENGINE.view(build(seats=1), 0)
    view["await"] = {"seat": 0, "for": "choice"}
    for order, accept in (("wizards", False), ("druids", False), ("sorcerers", True)):
        offer = [{"kind": "join_order", "order": order, "accept": True},
                 {"kind": "join_order", "order": order, "accept": False}]
        assert choose(view, 0, offer, random.Random(1))["accept"] is accept


def test_policy_walks_out_of_the_lair_and_out_of_the_water():
    """12.511: once inside the Dragon's Lair it takes the shortest way out rather than standing still; 6: a swimmer
    may not swim on from Water into Water, so it climbs out rather than waiting in the Water for ever."""
    from tests.wizards.scenario import hold_task, member

    def prep(s):
        member(order="sorcerers")(s)
        hold_task(s, 0, 69, at={0: ("C5", "C2")})
    st = roll(build(seats=1, at={0: ("M6", "Center")}, prepare=prep), 6)
    action = choose(ENGINE.view(st, 0), 0, ENGINE.legal_actions(st, 0), random.Random(1))
    assert action["kind"] == "move"
    w = world_for(st)
    coast = next(h for h in sorted(w.water) if any(w.tile_of(n) == "M6" for n in w.neighbours(h)))
    st = build(seats=1, prepare=prep)
    st.players[0]["at"] = list(coast)
    st.players[0]["swum"] = 1
    st = roll(st, 6)
    action = choose(ENGINE.view(st, 0), 0, ENGINE.legal_actions(st, 0), random.Random(1))
    assert action["kind"] == "move" and w.is_land(tuple(action["to"]))


def test_policy_makes_for_the_center_of_the_sacred_circle_by_its_stones():
    """6 SACRED CIRCLE STONES / CENTER, 7.33: to meet Rüktal it walks to a space beside a Stone, steps onto the
    Stone when the Movement Roll equals its dots, and into the Center when Rüktal is present (a roll of 1-3)."""
    from shared.wizards.policy import _approach, _goals
    from tests.wizards.scenario import hold_task, member, put

    def prep(s):
        member(order="sorcerers")(s)
        hold_task(s, 0, 46, at={1: ("C5", "C2")})  # meet Rüktal first
    st = build(seats=1, at={0: ("M1", "B1")}, prepare=prep)
    w = world_for(st)
    centre = hex_of(st, "M1", "Center")
    assert _goals(ENGINE.view(st, 0), 0, w) == [centre]
    beside = set(_approach(w, [centre]))
    assert hex_of(st, "M1", "B1") in beside and centre not in beside
    st = roll(st, 1)  # Stone A1, beside B1, has one dot
    action = choose(ENGINE.view(st, 0), 0, ENGINE.legal_actions(st, 0), random.Random(1))
    assert action["by"] == "stone" and tuple(action["to"]) == hex_of(st, "M1", "A1")
    st = build(seats=1, at={0: ("M1", "B1")}, prepare=prep)
    put(st, 0, "M1", "A1")
    st = roll(st, 2)
    action = choose(ENGINE.view(st, 0), 0, ENGINE.legal_actions(st, 0), random.Random(1))
    assert action["by"] == "circle" and tuple(action["to"]) == centre


def test_policy_gathers_gems_at_rank_four_and_brings_all_six_to_ruktal():
    """13, 7.326, 7.346, 7.3461: at Rank FOUR with no Mandatory Task left a Sorcerer seeks the Master Sorcerers' aid
    in summoning Gems (a High Wizard met away from a Tower gives a Sorcerer none); a member of another Order goes to
    the High Wizards whose markers are out; with all six it goes to Rüktal in the Center (7.336)."""
    from shared.wizards.gems import six_gems
    from shared.wizards.pack import pack
    from shared.wizards.policy import _goals
    from tests.wizards.scenario import member

    wizard = next(iter(pack().high_wizards))

    def prep(s):
        member(order="sorcerers", rank=4)(s)
        s.wizard_markers[wizard] = list(hex_of(s, "E1", "C2"))
    st = build(seats=1, prepare=prep)
    w = world_for(st)
    towers = {hex_of(st, t, "Center") for t in ("M2", "M3", "M4")}
    assert set(_goals(ENGINE.view(st, 0), 0, w)) == towers
    st.players[0]["order"] = "wizards"
    assert set(_goals(ENGINE.view(st, 0), 0, w)) == {hex_of(st, "E1", "C2")}
    st.players[0]["gems"] = dict(zip(pack().high_wizards, six_gems()))
    assert _goals(ENGINE.view(st, 0), 0, w) == [hex_of(st, "M1", "Center")]


def test_partners_put_their_gems_together():
    """Appendix B: partners may exchange Gems when they meet; the odd seat of each pair gives its Gems to the
    even one, so one of them gathers all six, and the even seat gives nothing."""
    st = build(seats=4, variant="partnership")
    offer = [{"kind": "partner_gem", "wizard": "Veldor"}, {"kind": "partner_task", "task": 3},
             {"kind": "partner_done"}]
    for seat, wanted in ((1, offer[0]), (0, offer[2])):
        view = ENGINE.view(st, seat)
        view["await"] = {"seat": seat, "for": "choice"}
        assert choose(view, seat, offer, random.Random(1)) == wanted


def test_policy_goes_on_to_the_locations_of_an_every_task_not_yet_visited():
    """9 (EVERY): a location already counted on the Task Record is not a goal again, so the player goes on to the
    ones left rather than back and forth between the two nearest."""
    from shared.wizards.policy import _goals
    from tests.wizards.scenario import hold_task, member

    def prep(s):
        member(order="sorcerers")(s)
        hold_task(s, 0, 62)["steps"][0]["visited"] = [["M2", "Center"]]  # visit EVERY Tower
    st = build(seats=1, prepare=prep)
    assert set(_goals(ENGINE.view(st, 0), 0, world_for(st))) == {hex_of(st, t, "Center") for t in ("M3", "M4")}


def test_policy_never_heads_into_a_territory_taken_by_evil():
    """12.41: a Territory taken over is never entered again, so it is neither a Territory to explore nor a way across:
    its spaces are left out of the walk (else the player waits beside it for ever)."""
    from shared.wizards.policy import _target, _ways
    from tests.wizards.scenario import LAYOUT, member, take

    def prep(s):
        member(order="wizards")(s)  # no Tower to go back to: it explores
        s.players[0]["visited"] = sorted(t for t in LAYOUT if t not in ("C1", "E1"))
        take(s, "C1")
    st = roll(build(seats=1, prepare=prep), 6)
    view, w = ENGINE.view(st, 0), world_for(st)
    target, _ = _target(view, 0, w)
    assert w.tile_of(target) == "E1"
    ways = _ways(view, w)
    assert not any(w.tile_of(h) == "C1" for h in ways.reach(tuple(st.players[0]["at"])))
    action = choose(view, 0, ENGINE.legal_actions(st, 0), random.Random(1))
    assert action["kind"] != "move" or w.tile_of(tuple(action["to"])) != "C1"


def test_policy_walks_round_a_demon_and_keeps_to_its_goal():
    """7.304: a Demon's space may cost it its Gems and Magical Objects or carry it into the Dragon's Lair, so it takes
    another way of nearly the same length; and with a goal it walks to it rather than into a Territory not yet seen
    (exploring is for when nothing else calls)."""
    from tests.wizards.scenario import bound_for_a_task

    st = bound_for_a_task()
    w = world_for(st)
    first = choose(ENGINE.view(st, 0), 0, ENGINE.legal_actions(st, 0), random.Random(1))
    assert w.tile_of(tuple(first["to"])) == "C5"
    st = bound_for_a_task(demon=first["to"])
    other = choose(ENGINE.view(st, 0), 0, ENGINE.legal_actions(st, 0), random.Random(1))
    assert other["kind"] == "move" and other["to"] != first["to"] and w.tile_of(tuple(other["to"])) == "C5"


def test_10_2_advancing_with_the_points_for_its_next_rank_it_goes_to_its_mentor_before_its_task():
    """10.2: a player with the points for his next Rank advances when he meets his Mentor, no Task needed. The
    normal level keeps to its Task; advancing (the hard level's own play) it makes for a Master Sorcerer's Tower
    Center (10.12, 7.345) instead. Where its Mentor would not advance it now, both play alike: without the
    points, within three days of its last Rank (10.21), or Dragonbound (7.3051)."""
    from shared.wizards.pack import TOWER_TILES
    from shared.wizards.policy import promotion_ready
    from tests.wizards.scenario import ready_to_advance

    st = ready_to_advance()
    w = world_for(st)
    view, legal = ENGINE.view(st, 0), ENGINE.legal_actions(st, 0)
    towers = [hex_of(st, t, "Center") for t in TOWER_TILES]

    def to_a_tower(a: dict) -> int:
        return min(distance(tuple(a["to"]), t) for t in towers)

    normal = choose(view, 0, legal, random.Random(1))
    advancing = choose(view, 0, legal, random.Random(1), advancing=True)
    assert promotion_ready(view, 0) and w.tile_of(tuple(normal["to"])) == "C5"
    assert advancing["kind"] == "move" and to_a_tower(advancing) < to_a_tower(normal)
    dragonbound = ready_to_advance()
    dragonbound.players[0]["afflictions"].append("dragonbound")
    for barred in (ready_to_advance(power=14), ready_to_advance(rank_day=0), dragonbound):
        view, legal = ENGINE.view(barred, 0), ENGINE.legal_actions(barred, 0)
        assert not policy._mentor_goals(view, 0, world_for(barred))
        assert choose(view, 0, legal, random.Random(1), advancing=True) == choose(view, 0, legal, random.Random(1))
    assert not promotion_ready(ENGINE.view(ready_to_advance(power=14), 0), 0)


def test_policy_takes_a_boat_to_a_goal_over_the_water():
    """6 BOARDING A BOAT: a player whose goal lies beyond swimming range boards a free Boat on his coast and sails
    it across, rather than waiting on the coast nearest his goal (Hamdrel's island here, moved out of swimming range,
    a Sorcerer bound for the Master Sorcerers' Towers; the Boat off its north-east coast, away from them)."""
    from tests.wizards.scenario import isolated_cottage_layout, member

    layout = isolated_cottage_layout()

    def prep(s):
        member(order="sorcerers")(s)
        s.boats.append({"id": len(s.boats), "at": [-8, 17], "rider": None})
    for seed in range(3):
        st = build(seats=1, layout=layout, at={0: ("M5", "B1")}, prepare=prep)
        w = world_for(st)
        island = w.island[hex_of(st, "M5", "B1")]
        assert w.is_water((-8, 17)) and any(w.island.get(n) == island for n in w.neighbours((-8, 17)))
        rng = random.Random(seed)
        while w.island.get(tuple(st.players[0]["at"])) in (island, None):
            assert st.calendar["days_played"] <= 10, "the policy was still on Hamdrel's island or afloat"
            if ENGINE.actor(st) == CHANCE:
                st, _ = ENGINE.apply_chance(st, sample_chance(ENGINE.chance_request(st), rng))
                continue
            st, _ = ENGINE.apply(st, 0, choose(ENGINE.view(st, 0), 0, ENGINE.legal_actions(st, 0), rng))


def test_boats_apart_share_their_layouts_ways_and_touching_ones_do_not():
    """The policy's Ways (6): Boats none of which touches another change only what entering their own spaces
    costs, so a Ways sharing the steps and reaches of its layout's without Boats (Ways.overlay) is a whole
    build's, costs and voyages too; two Boats side by side are a bridge of their own, which a whole build has."""
    from shared.wizards.policy import Ways

    st = build(seats=1)
    w = world_for(st)
    base, water, rng = Ways(w, frozenset()), sorted(w.water), random.Random(3)
    goal = hex_of(st, "M3", "Center")
    apart = 0
    for _ in range(40):
        boats = frozenset(rng.sample(water, rng.randint(1, 6)))
        if any(n in boats for b in boats for n in w.neighbours(b)):
            continue
        apart += 1
        whole, shared = Ways(w, boats), Ways.overlay(base, boats)
        assert (shared.steps, shared.entry, shared.component) == (whole.steps, whole.entry, whole.component)
        assert shared.voyage_to([goal]) == whole.voyage_to([goal]) and shared.cost_to([goal]) == whole.cost_to([goal])
    assert apart >= 20
    side_by_side = next(frozenset({b, n}) for b in water for n in w.neighbours(b) if w.is_water(n))
    assert Ways(w, side_by_side).steps != base.steps


def test_the_policy_builds_its_ways_whole_where_boats_touch():
    """_ways shares its layout's Ways only for Boats apart: two free Boats side by side get a whole build, their
    bridge from one to the other in it."""
    from shared.wizards.policy import Ways, _ways

    st = build(seats=1)
    w = world_for(st)
    pair = next((b, n) for b in sorted(w.water) for n in w.neighbours(b) if w.is_water(n)
                and all(tuple(x["at"]) not in (b, n) for x in st.boats))
    st.boats += [{"id": len(st.boats) + i, "at": list(h), "rider": None} for i, h in enumerate(pair)]
    boats = frozenset(tuple(b["at"]) for b in st.boats)
    assert _ways(ENGINE.view(st, 0), w).steps == Ways(w, boats).steps
