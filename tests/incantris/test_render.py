"""The text client's picture of the arena and its one-line event stories."""
from __future__ import annotations

from shared.engine import MatchConfig
from shared.incantris.render import cell, column, column_name, describe, render, render_events

from .support import BLANK, WAND, E, act, arrange, begin, game, roll


def test_render_draws_the_arena_and_lists_the_wizards():
    s = begin(arrange(game(), {"red-druid": (0, 0), "blue-shadow-weaver": (2, 0)}), "red-druid")
    s.replace("obstacles", [{"kind": "tree", "hexes": [[0, 2]]}])
    text = render(E.view(s, 0), 0)
    assert "red-druid" in text and "life  9/ 9" in text and "dead" in text
    assert "T" in text and ":" in text and "." in text
    assert "you are seat 0" in text and "\033[" not in text
    assert "\033[31m" in render(E.view(s, 0), 0, colour=True)


def test_render_marks_partial_hexes_water_and_spell_tokens():
    s = arrange(game(), {"red-sorceress": (0, 0), "blue-shadow-weaver": (5, 0)}, field=False)
    s.edit("effects")["red-sorceress:guardian-hydra"] = {"id": "red-sorceress:guardian-hydra",
                                                         "spell": "guardian-hydra", "caster": "red-sorceress",
                                                         "side": 0, "since": 0, "hex": [1, 1]}
    text = render(E.view(s, None), None)
    assert "h" in text and "~" in text and "#" in text and "you are seat" not in text


def test_render_events_one_line_each_with_the_dice():
    s = begin(arrange(game(), {"red-druid": (0, 0), "blue-shadow-weaver": (2, 0)}, life={"blue-shadow-weaver": 2}),
              "red-druid")
    s, ev1 = act(s, {"kind": "cast", "spell": "tempest", "target": "blue-shadow-weaver"})
    s, ev2 = roll(s, [WAND, BLANK], [BLANK, BLANK])
    lines = render_events(ev1 + ev2)
    assert len(lines) == len(ev1 + ev2)
    assert any("cast wand blank; ward blank blank" in x for x in lines)  # the faces, not a Python list
    assert any("3 wands against 0 wards, 3 hits" in x for x in lines)
    assert any("blue-shadow-weaver dies" in x for x in lines)


def test_describe_labels():
    assert describe({"kind": "cast", "spell": "inferno", "target": "red-druid", "from": "totem"}) == \
        "cast inferno at red-druid from the totem"
    assert describe({"kind": "step", "to": [1, 2]}) == "step to S19"
    assert describe({"kind": "blaze", "burn": False}) == "let the Blaze rest"


def _map(text: str) -> tuple[str, dict[int, str]]:
    lines = text.splitlines()
    rows = {}
    for line in lines[1:]:
        head = line[:5].strip()
        if not head.isdigit():
            break
        rows[int(head)] = line
    return lines[0], rows


def test_every_cell_is_named_on_the_map_as_the_labels_name_it():
    """A label's cell ("step to S19") is found on the map: its column letter on the ruler above
    its column (half a cell left of it in odd rows) and its row number beside its row."""
    s = begin(arrange(game(), {"red-druid": (0, 0), "blue-shadow-weaver": (3, -5), "red-shaman": (-4, 7)}),
              "red-druid")
    text = render(E.view(s, 0), 0)
    ruler, rows = _map(text)
    letters = {"red-druid": "D", "blue-shadow-weaver": "B", "red-shaman": "E"}
    for wid, letter in letters.items():
        h = tuple(s.wizards[wid]["hex"])
        name = cell(h)
        col_name = column_name(column(h))
        row = int(name[len(col_name):])
        line = rows[row]
        x = line.index(letter)
        assert ruler[x - (h[1] & 1):x - (h[1] & 1) + len(col_name)] == col_name, (wid, name)
        assert f"at {name}" in text
    for a in E.legal_actions(s, 0):
        if a["kind"] == "step":
            assert describe(a) == f"step to {cell(a['to'])}"


def test_the_map_has_a_legend_and_the_solo_entry_points():
    s = E.setup(MatchConfig(1, "solo"))
    text = render(E.view(s, 0), 0)
    assert "open ground" in text and "partial hex" in text and "entry points" in text
    ruler, rows = _map(text)
    for i, en in enumerate(s.entries):
        name = cell(en["at"])
        assert f"entry point {i + 1} at {name}" in text
        col_name = column_name(column(tuple(en["at"])))
        line = rows[int(name[len(col_name):])]
        x = line.index(str(i + 1), 5)
        assert ruler[x - (en["at"][1] & 1):x - (en["at"][1] & 1) + len(col_name)] == col_name
    posts = [a for a in E.legal_actions(s, 0) if a["kind"] == "post"]
    assert all(describe(a).endswith(f"entry point {a['entry'] + 1}") for a in posts)


def test_a_fog_wall_and_an_area_are_labelled_by_their_cells():
    assert describe({"kind": "cast", "spell": "fog-wall", "target": [[0, 0], [1, 0]]}) == \
        "cast fog-wall on Q17 and R17"
    assert describe({"kind": "cast", "spell": "meteor-storm", "target": [0, 0]}) == "cast meteor-storm at Q17"


def test_bookkeeping_events_read_as_sentences_not_field_dumps():
    lines = render_events([
        {"type": "turn", "round": 2, "seat": 1, "side": 1},
        {"type": "end-turn", "wizard": "red-druid"},
        {"type": "effect-placed", "effect": "blue-sorcerer:power-circle", "centre": [0, 0]},
        {"type": "effect-ended", "effect": "red-sorceress:guardian-hydra", "reason": "cancelled by its caster"},
        {"type": "round-end", "round": 3, "quiet": 2},
        {"type": "placed", "wizard": "red-druid"},  # a field missing: shown as it is, never an error
    ])
    assert lines[:5] == ["round 2: seat 1's turn", "red-druid ends its turn",
                         "blue-sorcerer's power-circle is placed at Q17",
                         "red-sorceress's guardian-hydra ends (cancelled by its caster)",
                         "round 3 ends (2 quiet in a row)"]
    assert lines[5] == "placed: wizard=red-druid"


def test_every_roll_is_told_by_the_games_own_events_so_the_terminal_prints_it_once():
    """ROLLS_SHOWN: each chance step of random play (battle royale and solo) writes a "dice" or a
    "token-drawn" event, which the renderer turns into a line, so the platform's roll line is left out."""
    import random

    from shared.engine import CHANCE
    from shared.engine.playout import random_playout
    from shared.incantris import render as module

    assert module.ROLLS_SHOWN  # what the terminal reads to leave the platform's roll line out
    rolls = []

    def told(state, events) -> None:
        if E.actor(state) == CHANCE:
            shown = [e for e in events if e["type"] in ("dice", "token-drawn")]
            assert shown and render_events(shown), events
            rolls.append(len(shown))

    for variant, seats in (("battle-royale", 2), ("solo", 1)):
        random_playout(E, MatchConfig(seats=seats, variant=variant), random.Random(7), 3000, on_step=told)
    assert len(rolls) > 20
