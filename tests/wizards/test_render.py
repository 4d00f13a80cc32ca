"""Drawing a view as text (the islands as laid: tiles, terrain, walls, Boats, the Dragon,
players and markers) and describing events one line each."""
from __future__ import annotations

import re

from shared.engine import MatchConfig
from shared.hexgrid import direction_to, neighbour, spiral
from shared.wizards.geometry import board
from shared.wizards.render import FACE_DOWN, GLYPH, OUTLINE, WALL, WATER, board_lines, frame_for, render, render_events
from shared.wizards.world import world_for
from tests.wizards.scenario import ENGINE, build, hex_of, move, roll


def drawn(st, seat=0):
    view = ENGINE.view(st, seat)
    return board_lines(view, seat), frame_for(view)


def at(lines, pos) -> str:
    line, x = pos
    text = lines[line]
    return text[x] if x < len(text) else " "


def test_side_positions_are_shared_by_the_two_hexes_of_a_side():
    """A side is drawn once: both hexes that share it name the same character cell, and sides never fall on
    a hex's own three characters."""
    frame = frame_for(ENGINE.view(build(seats=1), 0))
    cells = {frame.cell(h) for h in frame.hexes()}
    for h in frame.hexes():
        for d in range(6):
            assert frame.side(h, d) == frame.side(neighbour(h, d), (d + 3) % 6)
            line, x = frame.side(h, d)
            assert all((line, x + k) not in cells for k in (-1, 0, 1))


def test_every_wall_is_drawn_on_its_own_side_whichever_way_it_runs():
    """6 WALLS are thick barriers along hexsides (Appendix C: Torwall, Woodswall, Longrift, Hamdrel's Cottage,
    the Dragon's Lair): each wall shows as '#' on the side it stands on, east-west or diagonal, and no other
    character of the map is '#'."""
    st = build(seats=1)
    lines, frame = drawn(st)
    w = world_for(st)
    runs = set()
    for a, b in w.walls:
        d = direction_to(a, b)
        runs.add(d % 3)
        assert at(lines, frame.side(a, d)) == WALL, f"wall {a}-{b} not drawn"
    assert runs == {0, 1, 2}  # walls of every orientation are in this layout, and all were drawn
    assert sum(line.count(WALL) for line in lines) == len(w.walls)


def test_tile_edges_are_outlined_and_a_tiles_inside_is_open():
    """3.22-3.23 as laid: each Territory tile is outlined (against Water and against other tiles); sides between
    two spaces of one tile are blank unless a wall stands there."""
    st = build(seats=1)
    lines, frame = drawn(st)
    w = world_for(st)
    for h in w.spaces:
        for d in range(6):
            n = neighbour(h, d)
            char = at(lines, frame.side(h, d))
            if w.wall_between(h, n):
                continue
            if w.tile_of(n) == w.tile_of(h):
                assert char == " "
            else:
                assert char == OUTLINE[d], (h, d, char)


def test_terrain_players_and_markers_are_where_they_stand():
    """The glyph of each space is its terrain (section 6 table, stones by their dots); players are drawn left of
    it, the Dragon, Boats, Demons, Wizard and Task Markers right of it; several things show '+'."""
    def scene(s):
        s.boats = [{"id": 0, "at": [0, 15], "rider": None}]
        s.demons = [list(hex_of(s, "C5", "C2"))]
        s.wizard_markers["Ishkatar"] = list(hex_of(s, "C1", "B1"))
        s.task_markers = [{"seat": 0, "task": 1, "step": 0, "at": list(hex_of(s, "C5", "B2"))},
                             {"seat": 1, "task": 2, "step": 0, "at": list(hex_of(s, "C5", "B4"))}]
        s.dragon = list(hex_of(s, "C5", "A3"))
    st = build(seats=2, at={0: ("C5", "Center"), 1: ("C5", "A3")}, prepare=scene)
    lines, frame = drawn(st, seat=0)
    w = world_for(st)
    for h in frame.hexes():
        s = w.spaces.get(h)
        expected = WATER if s is None else (str(s.dots) if s.kind == "stone" else GLYPH[s.kind])
        assert at(lines, frame.cell(h)) == expected
    left = lambda h: at(lines, (frame.cell(h)[0], frame.cell(h)[1] - 1))
    right = lambda h: at(lines, (frame.cell(h)[0], frame.cell(h)[1] + 1))
    assert left(hex_of(st, "C5", "Center")) == "a" and right(hex_of(st, "C5", "Center")) == " "
    assert left(hex_of(st, "C5", "A3")) == "b" and right(hex_of(st, "C5", "A3")) == "D"  # seat 1 with the Dragon
    assert right((0, 15)) == "B" and right(hex_of(st, "C5", "C2")) == "x" and right(hex_of(st, "C1", "B1")) == "W"
    assert right(hex_of(st, "C5", "B2")) == "t" and right(hex_of(st, "C5", "B4")) == "o"  # mine / another's
    text = render(ENGINE.view(st, 0), 0)  # and listed by name below the map
    assert "Dragon: Meadowfarm A3" in text and "Boats: 0 Water 0,15" in text and "Demons: Meadowfarm C2" in text
    assert "Wizard markers: Ishkatar Torwall B1" in text
    assert "Task Markers: a Meadowfarm B2; b Meadowfarm B4" in text
    st.players[1]["at"] = list(hex_of(st, "C5", "Center"))
    lines, frame = drawn(st, seat=0)
    assert at(lines, (frame.cell(hex_of(st, "C5", "Center"))[0], frame.cell(hex_of(st, "C5", "Center"))[1] + 1)) == "b"
    lines, frame = drawn(st, seat=None)  # a spectator owns no Task Marker
    assert at(lines, (frame.cell(hex_of(st, "C5", "B2"))[0], frame.cell(hex_of(st, "C5", "B2"))[1] + 1)) == "o"


def test_face_down_tiles_show_no_terrain_and_the_whole_board_shows_while_placing():
    """Appendix A 5: solitaire tiles are laid face down; while tiles remain to place the whole Game Board is drawn."""
    st = ENGINE.setup(MatchConfig(1, "solitaire", {"removed_tiles": 2}))
    st, _ = ENGINE.apply_chance(st, [[1]] * len(st.chance["request"]["pools"]))
    st, _ = ENGINE.apply(st, 0, {"kind": "set_aside_tower", "tile": "M2"})
    st, _ = ENGINE.apply_chance(st, [[1]] * len(st.chance["request"]["pools"]))
    first = ENGINE.legal_actions(st, 0)[0]  # face down: the spot, then the turn
    st, _ = ENGINE.apply(st, 0, first)
    st, _ = ENGINE.apply(st, 0, ENGINE.legal_actions(st, 0)[0])
    view = ENGINE.view(st, 0)
    frame = frame_for(view)
    assert (frame.row1 - frame.row0 + 1, frame.col1 - frame.col0 + 1) == (board().rows, board().columns)
    lines = board_lines(view, 0)
    covered = spiral(tuple(first["at"]), 2)
    assert all(at(lines, frame.cell(h)) == FACE_DOWN for h in covered)
    assert sum(line.count(FACE_DOWN) for line in lines) == 19
    assert "Face-down tiles to place: 15" in render(view, 0)  # 18 - 2 removed - 1 laid


def test_render_draws_the_board_the_players_and_the_tile_key():
    st = roll(build(seats=2), 3)
    text = render(ENGINE.view(st, 0), 0)
    assert "a seat 0" in text and "b seat 1" in text and "Meadowfarm A1" in text
    assert "Waiting for seat 0 (you): move" in text
    assert "C1 Torwall at [11, 8]" in text and "M6 Dragon's Lair at [26, 2]" in text
    assert "\033[" not in text
    assert "\033[" in render(ENGINE.view(st, None), None, colour=True)
    plain = board_lines(ENGINE.view(st, None), None)
    coloured = board_lines(ENGINE.view(st, None), None, colour=True)
    strip = [re.sub(r"\033\[[0-9;]*m", "", line) for line in coloured]
    assert strip == plain  # colour changes nothing but the colour


def test_render_events_one_line_each_with_dice():
    st = build(seats=2)
    st, ev = ENGINE.apply_chance(st, [[4], [2]])
    st, ev2 = move(st, 0, "walk", hex_of(st, "C5", "A2"))
    events = ev + ev2
    lines = render_events(events)
    assert len(lines) == len(events)
    assert any("white die 4" in ln for ln in lines)
    assert any("walks to Meadowfarm A2" in ln for ln in lines)
    assert all("\n" not in ln for ln in lines)


def test_secret_dice_are_not_shown():
    st = ENGINE.setup(MatchConfig(2))
    st, ev = ENGINE.apply_chance(st, [[1]] * len(st.chance["request"]["pools"]))
    line = render_events([e for e in ev if e["type"] == "dice"])[0]
    assert "in secret" in line


def test_the_record_sheet_is_drawn_for_its_own_seat_only():
    """14.2-14.3: a seat sees its own Record Sheet (Order, Rank, points against the next Rank, Tasks with their
    requirements ticked, Gems, spells it may cast); another seat's Gems are never drawn, a spectator gets none."""
    from tests.wizards.scenario import both, hold_task, member

    def prep(s):
        both(member(0, "sorcerers", 2, knowledge=12, perception=7, power=20), member(1, "wizards", 1))(s)
        hold_task(s, 0, 30, at={0: ("E2", "C2")}, done=1, mandatory=True)
        s.players[0]["gems"] = {"Ishkatar": "Ruby"}
        s.players[1]["gems"] = {"Veldor": "Onyx"}
    st = build(seats=2, prepare=prep)
    mine = render(ENGINE.view(st, 0), 0)
    assert "Your Record Sheet:" in mine and "Sorcerers, rank 2 (Augur): K12 P7 W20 - next rank at K30 P20 W40" in mine
    assert "Task 30" in mine and "(Mandatory): [x] take" in mine and "> [ ] meet meligar" in mine
    assert "Gems: Ruby from Ishkatar" in mine and "Onyx" not in mine
    assert "Spells you may cast: boat summoning, escaping, swiftness" in mine
    assert "Ruby" not in render(ENGINE.view(st, 1), 1) and "Record Sheet" not in render(ENGINE.view(st, None), None)


def test_the_calendar_shows_the_coming_evil_attack():
    """12.1-12.22: the heading counts the days to the attack on Day 14 and says whether Evil is thwarted."""
    st = build(seats=1)
    st.calendar["day"] = 11
    line = render(ENGINE.view(st, 0), 0).splitlines()[0]
    assert "Day 11 of Fortnight 1" in line and "the Evil attacks on Day 14, in 3 days, not thwarted" in line
    st.calendar["day"], st.thwart, st.thwarts = 14, "thwarted", 1
    line = render(ENGINE.view(st, 0), 0).splitlines()[0]
    assert "the Evil attacks today, thwarted (1 banked)" in line


def test_a_chosen_tile_is_previewed_before_it_is_placed():
    """3.21-3.23: once a tile is chosen its shape is drawn (19 spaces, their terrain) before the player picks where."""
    import random

    from shared.engine import CHANCE
    from shared.engine.playout import sample_chance
    from shared.wizards.pack import pack
    from shared.wizards.render import tile_preview

    st, rng = ENGINE.setup(MatchConfig(2)), random.Random(3)
    while ENGINE.actor(st) == CHANCE:  # the dealer's roll, the tiles dealt
        st, _ = ENGINE.apply_chance(st, sample_chance(ENGINE.chance_request(st), rng))
    seat = ENGINE.actor(st)
    choice = next(a for a in ENGINE.legal_actions(st, seat) if a["kind"] == "choose_tile")
    assert tile_preview(ENGINE.view(st, seat), seat) == []
    st, _ = ENGINE.apply(st, seat, choice)
    lines = tile_preview(ENGINE.view(st, seat), seat)
    assert pack().tiles[choice["tile"]]["name"] in lines[0]
    glyphs = "".join(lines[1:]).replace(" ", "")
    assert len(glyphs) == 19 and set(glyphs) <= set(GLYPH.values())
    assert tile_preview(ENGINE.view(st, 1 - seat), 1 - seat) == []  # only the placer's own choice
