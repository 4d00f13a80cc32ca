"""Board queries: destinations with their costs, the cheapest path (section 6) and the exact space a roll
picks (section 4)."""
from __future__ import annotations

import random

import pytest

from shared.engine import CHANCE, MalformedAction
from shared.wizards import randomspace
from shared.wizards.pack import pack
from shared.wizards.world import world_for
from tests.wizards.scenario import ENGINE, animal, build, end, hex_of, moves, roll, roll_through, solo


def q(state, seat, **query):
    return ENGINE.query(state, seat, query)


def dests(state, seat, points, white=None) -> dict:
    extra = {"white": white} if white is not None else {}
    return {(d["by"], tuple(d["to"])): d["cost"] for d in q(state, seat, kind="destinations", points=points,
                                                              **extra)["destinations"]}


# --- destinations ---------------------------------------------------------------------------------------
def test_destinations_are_the_moves_listed_on_the_players_movement():
    """6: with the points the player has, the destinations and costs are the move actions listed, all through
    random play (walking, Boats, stones, Specific Encounter spaces, points left after moving)."""
    rng = random.Random(3)
    st = build(seats=3, days=40)
    checked = 0
    for _ in range(150):
        if ENGINE.actor(st) == CHANCE:
            req = ENGINE.chance_request(st)
            st, _ = ENGINE.apply_chance(st, [[rng.choice(p.faces) for _ in range(p.count)] for p in req.pools])
            continue
        seat = ENGINE.actor(st)
        if seat < 0:
            break
        if st.await_["for"] == "move":
            assert dests(st, seat, st.turn["mp"]) == moves(st, seat)
            checked += 1
        legal = ENGINE.legal_actions(st, seat)
        st, _ = ENGINE.apply(st, seat, rng.choice(legal))
    assert checked > 20


@pytest.mark.parametrize("white,prepare,where", [
    (3, None, ("C5", "Center")),
    (1, animal("horse"), ("C5", "Center")),  # 8.45: the Horse's four, and the spaces it shies from
    (2, animal("horse"), ("M1", "B1")),
    (1, None, ("M1", "B1")),  # 6: a stone whose dots match the white die
    (2, animal("hound", 4), ("E6", "C2")),  # 8.46
    (3, lambda s: s.boats.append({"id": 9, "at": [0, 15], "rider": None}), ("E6", "C2")),  # a Boat as a bridge
    (2, lambda s: (animal("horse")(s), s.boats.append({"id": 9, "at": [0, 15], "rider": None})),
     ("E6", "C2")),  # 8.452: the Horse leaves one who boards, and its points go with it
    (2, lambda s: s.players[0]["afflictions"].append("demon_dazed"), ("C5", "Center")),  # 7.3043 e
    (1, lambda s: s.players[0]["events"].append({"card": 31, "days": 4}), ("C5", "Center")),  # 8.51
    (1, lambda s: s.players[0].update(star_crest_directed=True), ("E4", "A3")),  # 7.37
])
def test_before_the_roll_the_query_foretells_the_moves(white, prepare, where):
    """5.1 and 6: asked before the Movement Roll with the points and white die a roll would give, the answer
    is the list of moves the roll then brings (terrain, stones, Animals, Boats, afflictions, Event Cards)."""
    st = solo(*where, prepare=prepare)
    assert ENGINE.actor(st) == CHANCE
    after = roll(st, white)
    assert dests(st, 0, after.turn["mp"], white) == moves(after, 0) != {}


def test_another_seat_is_answered_for_its_next_turn():
    """6: a seat not moving now is told what it could reach from where it stands with n points."""
    st = roll(build(seats=2), 2)
    foretold = dests(st, 1, 4, 4)
    assert foretold and ENGINE.legal_actions(st, 1) == []
    st = end(st, 0)  # seat 0 stays put; seat 1's turn comes
    assert st.turn["seat"] == 1
    assert moves(roll(st, 4), 1) == foretold


def test_the_star_crest_re_entry_is_judged_for_the_next_turn():
    """7.372: re-entry is allowed on the VERY NEXT turn after leaving the Star Crest - the turn the query
    describes for a player whose turn has not begun yet."""
    st = build(seats=2, at={0: ("E4", "A3"), 1: ("C5", "A1")},
               prepare=lambda s: s.players[0].update(star_crest_directed=True))
    crest, a3 = hex_of(st, "E4", "Center"), hex_of(st, "E4", "A3")
    st, _ = ENGINE.apply(roll(st, 1), 0, {"kind": "move", "by": "walk", "to": list(crest), "cost": 1})
    st = end(roll(roll_through(st), 1), 1)  # the Star Crest's roll (7.371), then seat 1's turn passes
    st, _ = ENGINE.apply(roll(st, 1), 0, {"kind": "move", "by": "walk", "to": list(a3), "cost": 1})  # leaves it
    assert st.turn["seat"] == 1 and ("walk", crest) in dests(st, 0, 1)  # seat 0's next turn
    nxt = end(roll(st, 1), 1)
    assert ("walk", crest) in dests(nxt, 0, 1) and ("walk", crest) in moves(roll(nxt, 1), 0)
    later = end(roll(end(roll(nxt, 1), 0), 1), 1)  # a turn spent elsewhere: the re-entry is gone
    assert ("walk", crest) not in dests(later, 0, 1) and ("walk", crest) not in moves(roll(later, 1), 0)


def test_more_points_reach_further_and_zero_reach_nothing():
    """6: points are spent space by space, so every destination of n points is one of n + 1 at the same cost."""
    st = roll(build(seats=2), 3)
    for n in range(0, 7):
        now, more = dests(st, 1, n), dests(st, 1, n + 1)
        walks_now = {k: c for k, c in now.items() if k[0] == "walk"}
        assert all(more[k] == c for k, c in walks_now.items()) and all(c <= n for c in walks_now.values())
    assert dests(st, 1, 0) == {}


# --- path -----------------------------------------------------------------------------------------------
def test_the_cheapest_path_walks_space_by_space_for_its_cost():
    """6: the path's cost is the destination's, and walking it one space at a time is legal and spends
    exactly that (walls, terrain costs and Specific Encounter spaces on the way respected)."""
    st = roll(solo("C5", "Center"), 6)
    listed = {to: c for (by, to), c in moves(st, 0).items() if by == "walk"}
    assert len(listed) > 6  # more than the six spaces around him: paths of several steps are walked
    for to, cost in sorted(listed.items()):
        got = q(st, 0, kind="path", to=list(to))
        assert got["cost"] == cost and got["by"] == "walk" and got["path"][-1] == list(to)
        s, spent = st, 0
        for h in got["path"]:
            step = moves(s, 0)[("walk", tuple(h))]
            s, _ = ENGINE.apply(s, 0, {"kind": "move", "by": "walk", "to": h, "cost": step})
            spent += step
        assert spent == cost and tuple(s.players[0]["at"]) == to


def test_a_sailing_path_passes_only_water():
    """6 BOARDING A BOAT: a Boat moves through Water, one point a space (authored)."""
    def in_boat(s):
        s.boats = [{"id": 0, "at": [0, 16], "rider": 0}]
        s.players[0]["at"], s.players[0]["boat"] = [0, 16], 0
    st = roll(solo("E6", "C2", prepare=in_boat), 4)
    w = world_for(st)
    sails = {to: c for (by, to), c in moves(st, 0).items() if by == "sail"}
    far = max(sails, key=lambda h: (sails[h], h))
    got = q(st, 0, kind="path", to=list(far))
    assert got["by"] == "sail" and got["cost"] == sails[far] == len(got["path"])
    assert all(w.is_water(tuple(h)) for h in got["path"])
    s = st
    for h in got["path"]:
        s, _ = ENGINE.apply(s, 0, {"kind": "move", "by": "sail", "to": h, "cost": 1})
    assert tuple(s.boats[0]["at"]) == far


def test_path_without_points_walks_off_turn_and_names_spaces_by_territory():
    """6: asked off its Movement Segment with no points, the seat gets the cheapest walk with no limit; a
    space may be named by Territory and label."""
    st = roll(build(seats=2), 2)
    target = hex_of(st, "C1", "A1")
    by_hex = q(st, 1, kind="path", to=list(target))
    by_name = q(st, 1, kind="path", to={"territory": "C1", "space": "A1"})
    assert by_hex == by_name and by_hex["by"] == "walk" and by_hex["points"] is None
    assert dests(st, 1, by_hex["cost"])[("walk", target)] == by_hex["cost"]
    assert ("walk", target) not in dests(st, 1, by_hex["cost"] - 1)
    own = q(st, 0, kind="path", to=list(hex_of(st, "C5", "B1")))
    assert own["points"] == st.turn["mp"]


def test_unreachable_spaces_say_why():
    """6 WALLS and Water: no path is given where none is legal."""
    st = roll(solo("E6", "C2"), 6)
    across = q(st, 0, kind="path", to=list(hex_of(st, "M5", "B6")))  # another island, no Boat
    assert across["path"] is None and across["cost"] is None and "cannot be reached" in across["why"]
    off = q(st, 0, kind="path", to=[400, 400])
    assert off["path"] is None and "Game Board" in off["why"]


# --- section 4 ------------------------------------------------------------------------------------------
def test_the_exact_space_follows_the_white_letter_and_the_red_number():
    """4.211 'A roll of 1 or 2 corresponds to the letter A, 3 or 4 to B, and 5 or 6 to C'; 4.212 the red die
    is the number; the example: 'a 3 and 4 are rolled ... Klor is in space B4 on the Sacred Circle tile',
    and 'a 1 and 5 for the exact space ... Green Grove, space A5'."""
    st = roll(build(seats=2), 2)
    for white in range(1, 7):
        for red in range(1, 7):
            got = q(st, None, kind="space", territory="C5", white=white, red=red)
            assert got["space"] == "AABBCC"[white - 1] + str(red)
            assert (got["territory"], got["space"]) == randomspace.read({"territory": "C5"}, [[white], [red]], [])
            assert got["at"] == list(hex_of(st, "C5", got["space"]))
    circle = next(t for t, tile in pack().tiles.items() if any(s["kind"] == "circle" for s in tile["spaces"].values()))
    assert q(st, 0, kind="space", territory=circle, white=3, red=4)["space"] == "B4"
    grove = q(st, 1, kind="space", territory="Green Grove", white=1, red=5)
    assert grove["territory"] == "E4" and grove["space_name"] == "Green Grove A5"


def test_a_face_down_tile_keeps_its_place_hidden():
    """Appendix A: tiles placed face down are not known; the lookup names the space but not where it lies."""
    st = roll(build(seats=2), 2)
    st.edit("tiles", "placed", 0)["face_down"] = True
    hidden = st.tiles["placed"][0]["tile"]
    got = q(st, 0, kind="space", territory=hidden, white=1, red=1)
    assert got["at"] is None and got["space"] == "A1"
    other = st.tiles["placed"][1]["tile"]
    assert q(st, 0, kind="space", territory=other, white=1, red=1)["at"] is not None


def test_answers_use_nothing_the_seat_cannot_see():
    """14.3: other players' Gem Records, Secret Wizard Records and the False Wizard, the decks' order and the
    Gem Cards never change an answer."""
    st = roll(build(seats=2), 3)
    other = ENGINE.decode(ENGINE.encode(st))  # a copy of its own, changed below
    other.players[1].update(gems={"Meligar": "ruby"}, secret_record={"A": "x"}, false_wizard="Meligar")
    other.decks["task"].reverse()
    other.gem_boxes = dict(zip(other.gem_boxes, reversed(list(other.gem_boxes.values()))))
    for query in ({"kind": "destinations", "points": 5}, {"kind": "path", "to": list(hex_of(st, "C1", "A1"))}):
        assert ENGINE.query(st, 0, query) == ENGINE.query(other, 0, query)


@pytest.mark.parametrize("query", [
    {"kind": "teleport"}, {}, ["space"], None, {"kind": "destinations"}, {"kind": "destinations", "points": -1},
    {"kind": "destinations", "points": "3"}, {"kind": "destinations", "points": True},
    {"kind": "destinations", "points": 3, "white": 7}, {"kind": "destinations", "points": 3, "to": [1, 1]},
    {"kind": "path"}, {"kind": "path", "to": [1]}, {"kind": "path", "to": {"territory": "C5"}},
    {"kind": "path", "to": {"territory": "Atlantis", "space": "A1"}}, {"kind": "path", "to": [1, 1], "points": 1.5},
    {"kind": "space", "territory": "C5", "white": 0, "red": 1}, {"kind": "space", "territory": "C5", "white": 1},
    {"kind": "space", "territory": 5, "white": 1, "red": 1}, {"kind": "space", "territory": "Z9", "white": 1, "red": 1},
])
def test_malformed_queries_are_refused(query):
    """The contract: unknown kinds and malformed fields are MalformedAction, never KeyError or TypeError."""
    with pytest.raises(MalformedAction):
        ENGINE.query(roll(build(seats=2), 3), 0, query)


def test_a_spectator_may_look_up_a_space_but_has_no_player_to_move():
    """Movement queries are about the asking seat's player; the section 4 lookup is for anyone."""
    st = roll(build(seats=2), 3)
    with pytest.raises(MalformedAction):
        ENGINE.query(st, None, {"kind": "destinations", "points": 3})
    assert ENGINE.query(st, None, {"kind": "space", "territory": "C5", "white": 6, "red": 6})["space"] == "C6"


def test_record_sheet_shows_the_seat_its_own_sheet_only():
    """14.2 / 14.3: the record sheet query gives the asking seat its Order, Rank, points and what the
    next Rank needs (10.12), its Tasks and markers, its spells now (10.12 Augur: Boat Summoning,
    Swiftness, Escaping) and its own Gem Record; another seat's secrets never reach it."""
    from tests.wizards.scenario import hold_task, member

    def prep(s):
        member(order="sorcerers", rank=2, knowledge=12, perception=7, power=20)(s)
        hold_task(s, 0, 69, at={0: ("E1", "C2")})
        s.players[0]["gems"] = {"Ishkatar": "Ruby"}
        s.players[1]["gems"] = {"Terek": "Onyx"}
    st = build(seats=2, prepare=prep)
    sheet = ENGINE.query(st, 0, {"kind": "record_sheet"})
    assert (sheet["order"], sheet["rank"], sheet["title"]) == ("sorcerers", 2, "Augur")
    assert sheet["next_rank"] == {"knowledge": 30, "perception": 20, "power": 40}
    assert [t["card"] for t in sheet["tasks"]] == [69] and len(sheet["markers"]) == 1
    assert {s["spell"] for s in sheet["spells"]} == {"boat_summoning", "swiftness", "escaping"}
    assert sheet["gems"] == {"Ishkatar": "Ruby"}
    other = ENGINE.query(st, 1, {"kind": "record_sheet"})
    assert other["order"] is None and "Ruby" not in str(other) and other["gems"] == {"Terek": "Onyx"}
