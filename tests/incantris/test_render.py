"""The text client's picture of the arena and its one-line event stories."""
from __future__ import annotations

from shared.incantris.render import describe, render, render_events

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
    assert any("['wand', 'blank']" in x for x in lines)
    assert any("3 wands against 0 wards, 3 hits" in x for x in lines)
    assert any("blue-shadow-weaver dies" in x for x in lines)


def test_describe_labels():
    assert describe({"kind": "cast", "spell": "inferno", "target": "red-druid", "from": "totem"}) == \
        "cast inferno at red-druid from the totem"
    assert describe({"kind": "step", "to": [1, 2]}) == "step to [1, 2]"
    assert describe({"kind": "blaze", "burn": False}) == "let the Blaze rest"
