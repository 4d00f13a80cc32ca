"""The `archmage` terminal client as a player meets it: the real command in a pseudo-terminal
against a real platform server on a free port, its AI seats played by the AI's own turns.
Every prompt is answered by a simple rule (the first choice offered); every wait has a timeout,
and a failure shows what the terminal printed (tests/support/terminal.py)."""
from __future__ import annotations

import re

import pytest

from tests.support.terminal import Terminal, ai_server

COME_BACK = re.compile(r"archmage play --match (\S+) --seat-token (\S+)")


@pytest.fixture(scope="module")
def server(redis_url):
    server = ai_server(redis_url)
    yield server
    server.stop()


@pytest.fixture
def terminals():
    opened: list[Terminal] = []
    yield lambda *args: opened.append(Terminal(list(args), server_address[0])) or opened[-1]
    for t in opened:  # a test that failed part way leaves no command running
        t.kill()


server_address: list[str] = []


@pytest.fixture(autouse=True)
def _address(server):
    server_address[:] = [server.address]


def _finished(t: Terminal) -> None:
    t.expect(r"verify it: archmage verify \S+")
    assert t.close() == 0, t.output()


@pytest.mark.slow
def test_a_tower_match_is_played_to_its_end_against_an_ai_seat(terminals):
    t = terminals("play", "tower", "--ai", "1")
    t.expect(r"match \S+ created")
    t.play(timeout=60)
    _finished(t)
    assert "Game over: the Wizard King has reached the top of his Tower." in t.output(40000)


@pytest.mark.slow
def test_an_incantris_match_is_played_to_its_end_against_an_ai_seat(terminals):
    t = terminals("play", "incantris", "--ai", "1")
    t.expect(r"match \S+ created")
    t.play(timeout=60, limit=20000)
    _finished(t)
    assert "game over: winners" in t.output(40000)


def test_help_and_back_send_nothing_and_a_whole_path_is_one_choice(terminals):
    t = terminals("play", "incantris", "--ai", "1")
    t.expect(r"match \S+ created")
    # the set-up: place the wizards (each a group of cells) until a wizard is activated
    for _ in range(200):
        t.expect(r"your choice \(0-\d+[^)]*\): ")
        before = t.child.before
        if "activate " in before:
            break
        t.send("0")
    t.send("help")
    t.expect(r"\(\w+\): life \d+/\d+, movement \d+")  # the wizard's card, from the pack
    t.expect(r"your choice \(0-\d+[^)]*\): ")
    t.send("0")  # activate
    t.expect(r"is activated")
    t.expect(r"your choice \(0-\d+[^)]*\): ")
    # into the move group, ask for its rules, back out: nothing is sent
    move = re.search(r"\[(\d+)\] move \.\.\. \(\d+ choices\)", t.child.before)
    assert move, t.output()
    t.send(move.group(1))
    t.expect(r"move to \S+ \(\d+ movement, by ")  # a whole path as one choice
    t.expect(r"your choice \(0-\d+, back, help")
    t.send("?")
    t.expect("Movement & Terrain")
    t.send("back")
    t.expect(r"your choice \(0-\d+, help, q to quit[^)]*\): ")
    assert "steps to" not in t.child.before  # nothing was sent
    # a whole path is one choice: its steps are taken one after another, then only what changed is drawn
    t.send(move.group(1))
    t.expect(r"your choice \(0-\d+, back, help")
    path = re.findall(r"\[(\d+)\] move to (\S+) \(\d+ movement, by ((?:\S+ )*\S+)\)", t.child.before)
    number, goal, by = path[-1]
    t.send(number)
    t.expect(r"your choice \(0-\d+[^)]*\): ")
    steps = re.findall(r"steps to (\S+) \(", t.child.before)
    assert steps == by.split() + [goal], t.output()
    assert "changed (`map` draws it all)" in t.child.before
    t.send("map")
    t.expect(r"you are seat 0")
    t.expect(r"your choice \(0-\d+[^)]*\): ")
    t.send("q")
    t.expect(COME_BACK)
    assert t.close() == 0


def test_a_player_who_leaves_with_q_comes_back_to_the_same_seat(terminals):
    t = terminals("play", "tower", "--ai", "1")
    t.expect(r"your choice \(0-\d+[^)]*\): ")
    t.send("0")
    t.expect(r"your choice \(0-\d+[^)]*\): ")
    t.send("q")
    t.expect(r"left the match; it waits for you")
    t.expect(COME_BACK)
    match_id, token = t.child.match.group(1), t.child.match.group(2)
    assert t.close() == 0
    again = terminals("play", "--match", match_id, "--seat-token", token)
    again.expect(r"<- you")
    again.expect(r"your choice \(0-\d+[^)]*\): ")
    assert "Set-up: seat 0 eliminates" in again.output()  # the match so far, the choice made before leaving
    for _ in range(50):  # the set-up's choices, to the first move
        if "Move to " in again.child.before:
            break
        again.send("0")
        again.expect(r"your choice \(0-\d+[^)]*\): ")
    again.send("help")  # the Character's card, from the content
    again.expect(r"The \w+: moves \d+ spaces; home terrain \w+")
    again.expect(r"Combat Strength \(his dice v theirs\): ")
    again.expect(r"your choice \(0-\d+[^)]*\): ")
    again.send("q")
    again.expect(COME_BACK)
    assert again.child.match.group(1) == match_id
    assert again.close() == 0


@pytest.mark.slow
def test_a_queued_seat_is_played_from_its_assignment_to_the_end(terminals):
    t = terminals("queue", "tower", "--seats", "2", "--ai-welcome", "--max-wait", "1")
    t.expect(r"queued for tower \(ticket \S+\)")
    t.expect(r"match \S+: you play seat (\d+)", timeout=90)
    t.play(timeout=60)
    _finished(t)
