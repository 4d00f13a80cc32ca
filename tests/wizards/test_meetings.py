"""Player Encounters (7.302-7.3021, AMB2, AMB11), Rescue (7.303-7.3033, AMB17) and the
Dragonbound restrictions (7.3051 a-i)."""
from __future__ import annotations

from shared.wizards.encounters import specific_due
from shared.wizards.state import ls
from shared.wizards.world import world_for
from tests.wizards.scenario import (
    ENGINE,
    both,
    build,
    chance,
    choose,
    hex_of,
    hold_task,
    isolated_cottage_layout,
    ranked,
    resolving,
    roll,
    take,
    waits_for,
)


def three(ranks=(2, 2, 2), **fields):
    """Seats 0-2 in one space of Meadowfarm (seat 0 arriving), ranks as given."""
    prep = both(*[ranked(s, "wizards", r) for s, r in enumerate(ranks)])
    st = build(3, at={0: ("C5", "A1"), 1: ("C5", "B2"), 2: ("C5", "B4")}, prepare=prep)
    for s in (1, 2):
        st.players[s]["at"] = list(hex_of(st, "C5", "A1"))
    return st


def meet(st, seat=0, others=(1, 2)):
    at = ls(hex_of(st, "C5", "A1"))
    return resolving(st, {"do": "player", "seat": seat, "at": at, "others": list(others)})


def test_other_players_are_one_specific_encounter():
    """7.4 d / 7.302: the players met in a space (both Rank ONE or higher) are one encounter."""
    st = three()
    due = specific_due(st, world_for(st), 0, hex_of(st, "C5", "A1"))
    assert {"kind": "player", "others": [1, 2]} in due


def test_rank_1_to_3_table_6_points_to_each_clockwise():
    """7.302 Rank 1-3 result 6 and 7.3021: each rolls ONE die of points, the mover first, then clockwise."""
    st = three()
    st, _ = meet(st, seat=1, others=(0, 2))
    st, ev = chance(st, 6, 1)
    assert [e["players"] for e in ev if e["type"] == "player_encounter"] == [[1, 2, 0]]
    assert [i["seat"] for i in reversed(st.pending) if i["do"] == "points"] == [1, 2, 0]


def test_rank_1_to_3_table_2_transports_each_and_3_winged_horses():
    """7.302 Rank 1-3 results 2 (each to a RANDOM space) and 3 (a Winged Horse for each)."""
    st, _ = meet(three())
    s2, _ = chance(st, 2, 1)
    assert waits_for(s2) == "transported"
    s3, _ = chance(st, 3, 1)
    assert [p["animal"]["kind"] for p in s3.players] == ["winged_horse"] * 3


def test_rank_4_table_when_all_are_rank_four():
    """7.302: all at Rank FOUR roll on the Level 4 table: 3 a Unicorn each; 4 Wizard Cards until a High
    Wizard, for everyone in the encounter (the entering player first, 7.3021)."""
    st, _ = meet(three((4, 4, 4)))
    st3, ev = chance(st, 3, 1)
    assert [e["table"] for e in ev if e["type"] == "player_encounter"] == ["4"]
    assert [p["animal"]["kind"] for p in st3.players] == ["unicorn"] * 3
    st4, ev = chance(st, 4, 1)
    [draw] = [i for i in st4.pending if i["do"] == "wizard_card"]
    assert draw["mode"] == "until_high_wizard" and draw["seats"] == [0, 1, 2]
    [card] = [e for e in ev if e["type"] == "wizard_card"]
    assert card["card_type"] == "high_wizard"
    meets = [i for i in reversed(st4.pending) if i["do"] == "meet_high_wizard"]
    assert [(i["seat"], i["wizard"]) for i in meets] == [(s, card["wizard"]) for s in (0, 1, 2)]


def test_one_player_of_rank_1_to_3_puts_the_group_on_that_table():
    """7.302: if any of them is Rank ONE to THREE, the Level 1-3 table."""
    st, _ = meet(three((4, 4, 3)))
    _, ev = chance(st, 3, 1)
    assert [e["table"] for e in ev if e["type"] == "player_encounter"] == ["1-3"]


def test_rank_zero_player_is_left_out_amb11():
    """AMB11: a Rank 0 player is left out; the mover meets the ranked players."""
    st = three((2, 0, 2))
    st, _ = meet(st)
    _, ev = chance(st, 6, 1)
    assert [e["players"] for e in ev if e["type"] == "player_encounter"] == [[0, 2]]


def test_demons_attack_each_player_and_the_marker_stays_unless_all_dispel():
    """7.302 1: one Demon Marker on the space; each player meets the Demons; the marker is removed only
    when every player dispels it."""
    st = three((1, 1, 1))
    st, _ = meet(st, others=(1,))
    st, ev = chance(st, 1, 1)
    assert [tuple(d) for d in st.demons] == [hex_of(st, "C5", "A1")]
    assert waits_for(st) == "demons"
    st, _ = chance(st, 6, 1)  # seat 0: the Demons depart for him
    st, _ = chance(st, 3)
    st, _ = choose(st, 0, kind="take_points", points={"power": 3})
    assert [tuple(d) for d in st.demons] == [hex_of(st, "C5", "A1")]  # seat 1 has not dispelled yet
    st, _ = chance(st, 6, 1)
    st, _ = chance(st, 2)
    st, ev = choose(st, 1, kind="take_points", points={"knowledge": 2})
    assert st.demons == []


def test_result_5_gives_optional_tasks_with_their_markers_amb2():
    """7.302 Rank 1-3 result 5 / 9.2 / AMB2: the highest Rank with the most Task Cards gives TWO Optional
    Tasks to each lower Rank and ONE to each equal Rank, choosing the cards; markers move with them; when
    he runs out, the rest is forgiven."""
    st = three((3, 1, 3))
    hold_task(st, 2, 7, at={0: ("C5", "C1")})
    hold_task(st, 2, 9, mandatory=True)
    hold_task(st, 2, 11)
    hold_task(st, 0, 3)
    st, _ = meet(st)
    st, ev = chance(st, 5, 1)
    # giver seat 2 (Rank 3, three cards); order 0, 1: seat 0 (same Rank) one, seat 1 (lower) two
    assert [e["to"] for e in ev if e["type"] == "tasks_to_give"] == [[0, 1, 1]]
    assert sorted(ENGINE.legal_actions(st, 2), key=lambda a: a["task"]) == [
        {"kind": "give_task", "task": 7, "to": 0}, {"kind": "give_task", "task": 11, "to": 0}]
    st, _ = choose(st, 2, kind="give_task", task=7, to=0)
    assert [(m["seat"], m["task"], m["at"]) for m in st.task_markers] == [(0, 7, ls(hex_of(st, "C5", "C1")))]
    st, _ = choose(st, 2, kind="give_task", task=11, to=1)
    assert [t["card"] for t in st.players[2]["tasks"]] == [9]  # the Mandatory one stays
    assert [t["card"] for t in st.players[1]["tasks"]] == [11]
    assert st.pending == [] or waits_for(st) != "choice"


def test_rescue_of_a_trapped_player_ten_points_divided():
    """7.3032-7.3033: the first to reach a trapped player frees him and takes TEN points, divided as he
    wishes; no Player Encounter occurs."""
    st = three((2, 2, 0))
    st.players[1]["trap"] = {"rule": "8.3", "lose_turns": 3}
    st.players[1]["lost_turns"] = 3
    st, ev = meet(st, others=(1,))
    assert st.players[1]["trap"] is None and st.players[1]["lost_turns"] == 0
    legal = ENGINE.legal_actions(st, 0)
    assert {"kind": "take_points", "points": {"knowledge": 4, "perception": 3, "power": 3}} in legal
    st, ev = choose(st, 0, kind="take_points", points={"knowledge": 4, "perception": 3, "power": 3})
    assert st.players[0]["points"] == {"knowledge": 4, "perception": 3, "power": 3}
    assert not any(e["type"] == "player_encounter" for e in ev)


def test_rescue_by_a_rank_zero_player_frees_without_points_amb17():
    """AMB17: a Rank 0 rescuer still frees the trapped player; he gains no points (3.73)."""
    st = three((0, 2, 2))
    st.players[0].update(order=None)
    st.players[1]["trap"] = {"rule": "8.3", "roll_to_leave": [5, 6]}
    st, ev = meet(st, others=(1,))
    assert st.players[1]["trap"] is None
    assert any(e["type"] == "no_points" and e["rule"] == "3.73" for e in ev)


def stranded_on_the_cottage():
    prep = both(ranked(0, "wizards", 1), ranked(1, "wizards", 1))
    return build(2, layout=isolated_cottage_layout(), at={0: ("M5", "A1"), 1: ("C5", "A1")}, dealer=1,
                 prepare=prep)


def test_stranded_player_asks_for_help_at_his_turn():
    """7.3031 a: on an island with no Boat or other means of getting off he is stranded and must ask for
    help (an action at the start of his turn) before he can be rescued."""
    from shared.wizards.meetings import stranded_place
    st = stranded_on_the_cottage()
    assert stranded_place(st, 0) == "cottage"
    st = roll(st, 1)
    st, _ = ENGINE.apply(st, 1, {"kind": "end_move"})
    while waits_for(st) != "choice":
        st, _ = chance(st, *[1] * len(st.chance["request"]["pools"]))
    assert ENGINE.legal_actions(st, 0) == [{"kind": "ask_for_help", "ask": False},
                                           {"kind": "ask_for_help", "ask": True}]
    assert ENGINE.describe({"kind": "ask_for_help", "ask": True}) == "ask for help (stranded, 7.3031)"
    st, ev = choose(st, 0, kind="ask_for_help", ask=True)
    assert st.players[0]["stranded"] is not None
    assert waits_for(st) == "movement_rolled"


def test_stranded_rescue_points_by_place_and_transport_to_another_island():
    """7.3031 table / 7.30311: Hamdrel's Cottage tile 20 points to the rescuer (divided, 7.3033); the
    rescued player goes to a RANDOM space on a different island (his own island's spaces rolled over)."""
    st = stranded_on_the_cottage()
    st.players[0]["stranded"] = {"asked": 0}
    st.players[1]["at"] = list(hex_of(st, "M5", "A1"))
    st, ev = resolving(st, {"do": "player", "seat": 1, "at": ls(hex_of(st, "M5", "A1")), "others": [0]})
    assert st.pending[-1]["amount"] == 20
    st, _ = choose(st, 1, kind="take_points", points={"power": 20})
    assert waits_for(st) == "transported"
    st, ev = chance(st, 5, 5, 1, 1)  # RANDOM: Magic 5 = M5, A1: his own island, rolled over
    assert any(e["type"] == "reroll" and e["rule"] == "7.30311" for e in ev)
    st, ev = chance(st, 1, 5, 1, 1)  # Common 5: C5 A1
    assert tuple(st.players[0]["at"]) == hex_of(st, "C5", "A1")


def test_stranded_in_water_beyond_swimming_range():
    """7.3031 b: in a Water space beyond swimming range without a Boat he is stranded."""
    from shared.wizards.meetings import stranded_place
    st = build(1)
    w = world_for(st)
    far = next(h for h in sorted(w.water) if all(w.is_water(n) for n in w.neighbours(h))
               and all(tuple(b["at"]) != h for b in st.boats))
    st.players[0]["at"] = list(far)
    assert stranded_place(st, 0) == "water"
    st.players[0]["at"] = list(hex_of(st, "C5", "A1"))
    assert stranded_place(st, 0) is None


def test_dragonbound_restrictions():
    """7.3051 a-i: a no Random Encounters; b Event Cards lost; c no magic; d no Task Marker encounters;
    e no points, no advancing; f every space as Mountains; g not the Star Crest nor High Hollow;
    h no Animal but a Dragon; i others meeting him have a Demon encounter."""
    from shared.wizards import record, spells
    from shared.wizards.encounters import random_possible
    from shared.wizards.movement import land_cost, mover
    st = build(2, at={0: ("C5", "A1"), 1: ("C5", "B2")}, prepare=both(ranked(0, "wizards", 3), ranked(1, "wizards", 2)))
    from shared.wizards.afflictions import become_dragonbound
    st.players[0]["events"] = [{"card": st.decks["event"].pop(0), "days": 3}]
    st.task_markers = [{"seat": 0, "task": 5, "at": ls(hex_of(st, "C5", "A1"))}]
    ev: list = []
    become_dragonbound(st, 0, "7.305 1", ev)
    p = st.players[0]
    w = world_for(st)
    a1 = hex_of(st, "C5", "A1")
    assert not random_possible(st, w, 0, a1)  # a
    assert p["events"] == []  # b
    assert not spells.may_cast(p, "transporting")  # c
    assert all(d["kind"] != "task_marker" for d in specific_due(st, w, 0, a1))  # d
    assert record.may_gain(st, 0) == "7.3051 e" and record.promotion_due(st, 0) == "7.3051 e"  # e
    st.turn.update(mp=6)
    assert land_cost(mover(st, 0), "plains") == 2  # f
    from shared.wizards.movement import may_walk_into
    crest = w.find("star_crest")[0]
    assert not may_walk_into(w, mover(st, 0), crest)  # g
    st2, ev2 = resolving(st, {"do": "animal", "seat": 0, "rule": "8.4", "kind": "horse"})
    assert st2.players[0]["animal"] is None  # h
    st.players[1]["at"] = list(a1)
    st3, _ = resolving(st, {"do": "player", "seat": 1, "at": ls(a1), "others": [0]})
    assert waits_for(st3) == "demons" and st3.pending[-1]["bound"] == 0  # i


def test_rank_1_to_3_table_4_every_player_meets_the_card_drawn():
    """7.302 Rank 1-3 result 4: ONE Wizard Card is drawn and "each player in the encounter encounters
    the High Wizard, Trap, or Phantasm drawn", the mover first, then clockwise (7.3021)."""
    from tests.wizards.scenario import top_deck

    st = three()
    top_deck(st, "wizard", "W1")  # Ishkatar
    st, _ = meet(st)
    st, ev = chance(st, 4, 1)
    assert [(e["seat"], e["wizard"]) for e in ev if e["type"] == "meets_high_wizard"] == [(0, "Ishkatar")]
    waiting = [(i["seat"], i["wizard"]) for i in reversed(st.pending) if i["do"] == "meet_high_wizard"]
    assert waiting == [(0, "Ishkatar"), (1, "Ishkatar"), (2, "Ishkatar")]  # seat 0's is under way


def test_an_island_is_walked_once_and_a_space_in_a_lost_territory_walks_its_own():
    """7.3031 a with 12.41: the island a player could walk off is the same from every space of it (found
    once), but from a space of a Territory taken by Evil he may still walk out, while nobody walks back
    in: that space's island is its own, and not the one its neighbours share."""
    from shared.wizards.meetings import _walk_island, island_of
    st = build(1)
    take(st, "C5")
    w, lost = world_for(st), frozenset(st.taken)
    edge, out = next((h, n) for h in w.tile_spaces("C5") for n in w.neighbours(h)
                     if w.is_land(n) and w.tile_of(n) != "C5" and not w.wall_between(h, n))
    from_lost = island_of(w, edge, lost)
    assert from_lost == _walk_island(w, edge, lost) and edge in from_lost and out in from_lost
    shared = island_of(w, out, lost)
    assert shared == _walk_island(w, out, lost) and edge not in shared  # nobody walks into C5
    assert all(island_of(w, h, lost) is shared for h in sorted(shared)[:25])  # walked once for all of them
