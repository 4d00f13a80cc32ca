"""Invariants of a Wizards state; check() raises AssertionError on the first broken one."""
from __future__ import annotations

from shared.hexgrid import distance
from shared.wizards.geometry import OVERLAP_DISTANCE, board
from shared.wizards.pack import LAIR_TILE, pack
from shared.wizards.state import AFFLICTIONS, WizardsState, hx, position
from shared.wizards.taskmarkers import DEMON_MARKERS, TASK_MARKERS_PER_COLOUR, markers_in_use
from shared.wizards.world import world_for


def check(state: WizardsState) -> None:
    p = pack()
    n = state.seats
    assert len(state.players) == n and [q["seat"] for q in state.players] == list(range(n))
    assert state.phase in ("setup", "play", "over")
    assert (state.chance is None) or (state.await_ is None), "waiting for dice and a seat at once"
    if state.phase != "over":
        assert state.chance is not None or state.await_ is not None, "the state waits for nothing"
    if state.await_ is not None:
        assert 0 <= state.await_["seat"] < n
    assert all(0 <= s < n for s in state.resigned) and len(set(state.resigned)) == len(state.resigned)
    if state.phase == "over" and any(q["at"] is None for q in state.players):
        # a withdrawal ended the match while it was being set up: the set-up stops where it stood
        assert state.resigned and state.result is not None, "only a withdrawal ends a match before play"
        return

    # Cards: every card is somewhere exactly once (decks, discards, aside, held).
    if state.decks["task"] or state.phase != "setup":
        held_events = [h["card"] for q in state.players for h in q["events"]]
        # an Event Card drawn and still being resolved is on its item (eventcards.py, 8.5)
        in_play = [i["card"] for i in state.pending if i["do"] == "event_card" and "card" in i]
        events = state.decks["event"] + state.discards["event"] + held_events + in_play
        assert sorted(events) == list(range(1, len(p.event_cards) + 1))
        wizard = state.decks["wizard"] + state.discards["wizard"] + state.wizard_aside
        assert sorted(wizard) == sorted(c["id"] for c in p.wizard_cards)
        held_tasks = [t["card"] for q in state.players for t in q["tasks"]]
        tasks = state.decks["task"] + state.discards["task"] + held_tasks + state.out_of_play["task"]
        assert sorted(tasks) == list(range(1, len(p.task_cards) + 1))
        assert sorted(state.gem_boxes.values()) == sorted(c["id"] for c in p.gem_cards)
        assert set(state.gem_boxes) == set(p.high_wizards)  # (key order does not survive encoding)

    # Tiles: each tile once; placements on the board, never overlapping (3.22).
    t = state.tiles
    everywhere = [x["tile"] for x in t["placed"]] + t["stack"] + t["removed"] + [x for h in t["hands"] for x in h]
    if state.step not in ("shuffle_decks", "dealer_roll", "deal_tiles", "solitaire_tower", "solitaire_remove",
                             "solitaire_shuffle"):
        assert sorted(everywhere) == sorted(p.tile_ids), f"tiles lost or doubled: {sorted(everywhere)}"
    centers = [hx(x["at"]) for x in t["placed"]]
    for i, a in enumerate(centers):
        assert a in board().cells_hit, f"tile at {a} leaves the board"
        for b in centers[i + 1:]:
            assert distance(a, b) > OVERLAP_DISTANCE, f"tiles at {a} and {b} overlap"
        assert 0 <= t["placed"][i]["rotation"] <= 5

    if state.phase == "setup" and state.players[0]["at"] is None:
        return
    w = world_for(state)
    # Boats: on Water, at most one player each (6), riders agree with players.
    assert len(state.boats) <= 10
    for boat in state.boats:
        assert w.is_water(hx(boat["at"])), f"boat {boat['id']} on land"
        if boat["rider"] is not None:
            assert state.players[boat["rider"]]["boat"] == boat["id"]
            assert hx(state.players[boat["rider"]]["at"]) == hx(boat["at"])
    for q in state.players:
        if q["at"] is None:
            assert state.phase == "setup"
            continue
        h = position(q)
        assert w.on_board(h), f"seat {q['seat']} off the board"
        if q["boat"] is not None:
            assert state.boats[q["boat"]]["rider"] == q["seat"]
        # 12.511: the Lair Time Marker is out exactly while he is in the Lair (and not yet Dragonbound).
        if q["lair_time"] is not None:
            assert w.in_lair(h), f"seat {q['seat']} has Lair Time outside the Lair"
            assert 1 <= q["lair_time"] <= 14
        elif w.in_lair(h):
            assert "dragonbound" in q["afflictions"], f"seat {q['seat']} in the Lair without Lair Time"
        assert all(v >= 0 for v in q["points"].values()), "points never go below zero (10.22)"
        assert q["lost_turns"] >= 0 and q["extra_turns"] >= 0
        assert set(q["afflictions"]) <= set(AFFLICTIONS) and len(set(q["afflictions"])) == len(q["afflictions"])
        animal = q["animal"]
        assert animal is None or animal["kind"] in ("dragon", "unicorn", "winged_horse", "horse", "hound", "dove")
        if q["afflictions"]:
            assert animal is None or animal["kind"] == "dragon", "no animal stays with the afflicted (7.3043 d)"
    if state.phase == "play" and all(q["turns_taken"] == 0 for q in state.players):
        starts = [hx(q["at"]) for q in state.players]
        assert len(set(starts)) == len(starts), "players may not start in the same space (3.72)"
    # Task and Demon Markers (1, 9.1, 7.3041): each Task Marker marks an unfulfilled requirement of a
    # Task its owner holds; twenty a colour; Demons one a space, 48 at most.
    for m in state.task_markers:
        task = next((t for t in state.players[m["seat"]]["tasks"] if t["card"] == m["task"]), None)
        assert task is not None, f"a Task Marker of seat {m['seat']} for a Task he does not hold"
        step = task["steps"][m["step"]]
        assert not step["done"] and step.get("at") == m["at"], "a Task Marker disagrees with the Task Record"
    for q in state.players:
        assert markers_in_use(q) <= TASK_MARKERS_PER_COLOUR, "more Task Markers than a colour has (1)"
    assert len(state.demons) <= DEMON_MARKERS
    assert len({tuple(d) for d in state.demons}) == len(state.demons), "two Demon Markers in a space"
    for q in state.players:
        trap = q["trap"]
        assert trap is None or {"lose_turns", "roll_to_leave"} & set(trap), "a Trap says how it ends"
    # 12.141: a Boat holding a Demon has a Demon Marker in its space.
    for boat in state.boats:
        if boat.get("demon"):
            assert boat["at"] in state.demons, f"boat {boat['id']} holds a Demon that is not on the board"
    # 12.4 / 12.41 / 12.5: lost Territories are on the board, never the Dragon's Lair, and nobody stays in one
    # (a player on a tile that has just fallen is about to be transported to the Lair).
    placed = {x["tile"] for x in t["placed"]}
    assert len(set(state.taken)) == len(state.taken) and set(state.taken) <= placed and LAIR_TILE not in state.taken
    if state.phase == "play":
        for q in state.players:
            if w.tile_of(position(q)) in state.taken:
                assert any(i["do"] == "transport" and i.get("seat") == q["seat"] and i.get("rule") == "12.41"
                           for i in state.pending), f"seat {q['seat']} stays in a Territory taken by Evil"
    # 12.21-12.3: the Thwart Marker stands in the Evil Thwarted box while a thwart is banked, and through the
    # thwarted Day 14 that spent the last one.
    assert state.thwarts >= 0 and state.thwart in ("takeover", "thwarted")
    if state.thwarts > 0:
        assert state.thwart == "thwarted"
    elif state.thwart == "thwarted":
        assert state.calendar["day"] == 14, "the Thwart Marker stays thwarted after Day 14"
    if state.dragon is not None:
        assert w.is_land(hx(state.dragon)), "the Dragon stands on land"
    cal = state.calendar
    assert 1 <= cal["day"] <= 14 and cal["days_played"] >= 0
    turn = state.turn
    if turn and "mp" in turn:
        assert turn["mp"] >= 0 and 0 <= turn["bonus"] <= turn["mp"] + turn["bonus"]
