"""Choosing at the terminal (services/cli/choosing.py) and the renderers' hooks for it: a choice
over several prompts with back/undo, help from the game's own content, an Incantris path as
one choice (each step legal in turn by the engine), and a redraw of only what changed."""
from __future__ import annotations

import json
import random
from types import SimpleNamespace

from services.cli import choosing
from services.cli.choosing import Choice, Prompt, Screen, choices, choose
from shared.engine.contract import MatchConfig
from shared.engine.playout import random_playout
from shared.engine.registry import engine_for
from shared.incantris import render as incantris_render
from shared.tower import render as tower_render


def _reader(answers: list[str]):
    it = iter(answers)
    return lambda _prompt: next(it)


def _listed(*actions, render=None):
    return [SimpleNamespace(action_json=json.dumps(a), label=json.dumps(a), service="board") for a in actions]


FAKE = SimpleNamespace(group=lambda a: a.get("g"), help_text=lambda v, s, actions: f"rules for {len(actions)}")


def test_a_group_then_a_member_and_back_returns_to_the_first_prompt(capsys):
    options = choices(FAKE, {}, 0, _listed({"k": 1, "g": "spell"}, {"k": 2, "g": "spell"}, {"k": 3}), None)
    picked = choose(options, Prompt(FAKE, {}, 0), read=_reader(["0", "back", "1"]))
    assert picked.steps == [{"k": 3}]  # back from the group's prompt: nothing was chosen or sent
    out = capsys.readouterr().out
    assert "spell ... (2 choices)" in out and out.count("[1]") == 3


def test_undo_at_the_first_prompt_says_there_is_nothing_to_undo_and_help_is_the_renderers(capsys):
    options = choices(FAKE, {}, 0, _listed({"k": 1, "g": "spell"}, {"k": 2, "g": "spell"}, {"k": 3}), None)
    picked = choose(options, Prompt(FAKE, {}, 0), read=_reader(["undo", "?", "0", "help", "u", "q"]))
    assert picked is None
    out = capsys.readouterr().out
    assert "nothing to undo" in out and "rules for 3" in out and "rules for 2" in out


def test_typed_text_narrows_and_back_widens_again():
    options = [Choice("step to A1", [{"a": 1}]), Choice("step to B2", [{"b": 2}]), Choice("end", [{"e": 0}])]
    assert choose(options, Prompt(None, {}, 0), read=_reader(["B2", "back", "2"])).label == "end"
    assert choose(options, Prompt(None, {}, 0), read=_reader(["b2", "0"])).label == "step to B2"


def test_a_game_without_help_says_so(capsys):
    choose([Choice("x", [{}])], Prompt(None, {}, 0), read=_reader(["help", "q"]))
    assert "no rules help" in capsys.readouterr().out


def test_only_the_changed_lines_are_drawn_again(capsys):
    render = SimpleNamespace(REDRAW_CHANGES=1, render=lambda view, seat: "\n".join(view["lines"]))
    screen = Screen(render)
    screen.draw({"lines": ["ruler", "a", "b", "c", "d"]}, 0)
    capsys.readouterr()
    screen.draw({"lines": ["ruler", "a", "B", "c", "d"]}, 0)
    out = capsys.readouterr().out
    assert "ruler" in out and "B" in out and "\na\n" not in out
    screen.draw({"lines": ["ruler", "a", "B", "c", "d"]}, 0)
    assert "nothing changed" in capsys.readouterr().out
    screen.redraw()
    assert capsys.readouterr().out.count("\n") == 5


class _Found(Exception):
    """The position a random game reached that a test wants (raised out of the playout)."""


def _play_until(game: str, wanted, seats: int = 2, seed: int = 1, steps: int = 3000, policy=None):
    """The first state of a game where `wanted(state, seat, legal)` holds: played at random, or
    by `policy(view, seat, legal, rng)` on each seat's own view."""
    engine, rng = engine_for(game), random.Random(seed)

    def stop_there(state, who: int, legal: list[dict]) -> dict:
        if wanted(state, who, legal):
            raise _Found(engine, state, who, legal)
        return policy(engine.view(state, who), who, legal, rng) if policy else rng.choice(legal)

    try:
        random_playout(engine, MatchConfig(seats=seats), rng, steps, choose=stop_there)
    except _Found as found:
        return found.args
    raise AssertionError(f"no such position in {steps} steps")


def test_an_incantris_path_is_one_choice_and_every_step_of_it_is_legal_in_turn():
    engine, state, seat, legal = _play_until(
        "incantris", lambda s, w, legal: sum(a["kind"] == "step" for a in legal) >= 3)
    view = engine.view(state, seat)
    paths = incantris_render.more_choices(view, seat, legal, lambda q: engine.query(state, seat, q))
    assert paths and all(group == "move" and len(steps) >= 2 for _, steps, group in paths)
    label, steps, _ = paths[-1]
    assert label.startswith("move to ") and "movement, by" in label
    for step in steps:
        assert step in engine.legal_actions(state, seat)
        state, _ = engine.apply(state, seat, step)
    here = incantris_render.cell(state.wizards[view["turn"]["wizard"]]["hex"])
    assert label.startswith(f"move to {here} ")


def test_incantris_help_gives_a_spells_range_target_and_dice_from_the_pack():
    engine, state, seat, legal = _play_until("incantris", lambda s, w, legal: any(a["kind"] == "cast" for a in legal))
    spell = next(a["spell"] for a in legal if a["kind"] == "cast")
    text = incantris_render.help_text(engine.view(state, seat), seat, legal)
    from shared.incantris.pack import load

    s = load().spells[spell]
    assert f"{s.name}: range {s.range}" in text and load().data["spells"][spell]["section"] in text


def test_tower_help_at_a_battle_gives_the_combat_table_and_at_a_move_the_characters_card():
    engine, state, seat, legal = _play_until("tower", lambda s, w, legal: any(a["kind"] == "fight" for a in legal))
    view = engine.view(state, seat)
    text = tower_render.help_text(view, seat, legal)
    task = view["tasks"][-1]
    mine, theirs = view["players"][task["attacker"]]["character"], view["players"][task["defender"]]["character"]
    dice = tower_render.pack().dice
    assert f"{theirs} {dice[mine][theirs]} v {dice[theirs][mine]}" in text and "How to do battle" in text
    engine, state, seat, legal = _play_until("tower", lambda s, w, legal: any(a["kind"] == "move" for a in legal))
    view = engine.view(state, seat)
    assert f"The {view['players'][seat]['character']}: moves" in tower_render.help_text(view, seat, legal)


def test_tower_help_for_a_spell_token_quotes_its_power():
    engine, state, seat, legal = _play_until(
        "tower", lambda s, w, legal: (engine_for("tower").view(s, w).get("tasks") or [{}])[-1].get("task") == "spell")
    view = engine.view(state, seat)
    task = view["tasks"][-1]
    spells = tower_render.pack().map_spells if task["source"] == "map" else tower_render.pack().ramp_spells
    assert spells[task["spell"]]["effect"] in tower_render.help_text(view, seat, legal)


def test_tower_moves_are_grouped_by_destination():
    assert tower_render.group({"kind": "move", "to": next(iter(tower_render.pack().territories)), "path": []})
    assert tower_render.group({"kind": "pass"}) is None
    assert choosing.entries([Choice("a", [{}], group="x"), Choice("b", [{}], group="x")])[0].label == "x"


def test_wizards_help_names_the_encounter_and_the_spell_with_the_seats_own_spell_table():
    from shared.wizards import render as wizards_render
    from shared.wizards.policy import choose as policy

    def spell_offered(state, who, legal):
        return engine_for("wizards").view(state, who)["step"] == "resolve" and \
            any(a["kind"] == "encounter_spell" for a in legal)

    engine, state, who, legal = _play_until("wizards", spell_offered, seed=5, steps=20000, policy=policy)
    view = engine.view(state, who)
    text = wizards_render.help_text(view, who, legal)
    item = view["pending"][-1]
    assert f"Now: {item['do'].replace('_', ' ')}" in text
    spell = next(a["spell"] for a in legal if a.get("spell"))
    assert f"{spell.replace('_', ' ').title()}: an Encounter Spell (type B)" in text


def test_a_path_stops_where_its_next_step_is_no_longer_offered(capsys):
    """Each step after the first is sent only while the engine still offers it (a step may set off
    something that ends the movement): nothing is forced through."""
    from services.cli.play import _send

    sent = []
    offered = [SimpleNamespace(action_json=json.dumps({"kind": "end"}), service="board", label="end")]

    class Board:
        def GetMatch(self, request, metadata=()):
            return SimpleNamespace(status="active", to_act=0)

        def ListLegalActions(self, request, metadata=(), timeout=None):
            return SimpleNamespace(actions=offered, next_page_token="", version=7)

        def Move(self, request, metadata=()):
            sent.append(json.loads(request.action_json))
            return SimpleNamespace(version=6)

    path = Choice("move to B2", [{"kind": "step", "to": [0, 1]}, {"kind": "step", "to": [0, 2]}])
    _send(Board(), None, "m", (("x-seat-token", "m.0.secret"),), 5, path)
    assert sent == [{"kind": "step", "to": [0, 1]}]
    assert "stopped after 1 of 2 steps" in capsys.readouterr().out


def test_when_the_platform_will_not_answer_a_path_the_single_steps_remain(capsys):
    def refuse(query):
        raise RuntimeError("not now")

    render = SimpleNamespace(more_choices=lambda view, seat, actions, ask: ask({"kind": "reachable"}))
    options = choices(render, {}, 0, _listed({"kind": "step", "to": [0, 1]}), refuse)
    assert [c.steps for c in options] == [[{"kind": "step", "to": [0, 1]}]]
    assert "only single steps offered" in capsys.readouterr().out


def test_resign_is_answered_at_any_prompt_of_a_choice():
    options = choices(FAKE, {}, 0, _listed({"k": 1, "g": "spell"}, {"k": 2, "g": "spell"}), None)
    assert choose(options, Prompt(FAKE, {}, 0), read=_reader(["0", "resign"])) is choosing.RESIGN
