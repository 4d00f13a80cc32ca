"""The AI policy: legal choices from the seat's view only, fast, and a match it plays to the end."""
from __future__ import annotations

import random
import time

from shared.engine import CHANCE, TERMINAL, MatchConfig
from shared.engine.playout import sample_chance
from shared.hexgrid import distance
from shared.wizards.policy import choose
from tests.wizards.scenario import ENGINE, build, roll


def play(seats: int, seed: int, days: int = 6):
    rng = random.Random(seed)
    s = ENGINE.setup(MatchConfig(seats, options={"days": days}))
    slowest = 0.0
    for _ in range(5000):
        who = ENGINE.actor(s)
        if who == TERMINAL:
            return s, slowest
        if who == CHANCE:
            s, _ = ENGINE.apply_chance(s, sample_chance(ENGINE.chance_request(s), rng))
            continue
        legal = ENGINE.legal_actions(s, who)
        view = ENGINE.view(s, who)
        t = time.perf_counter()
        action = choose(view, who, legal, rng)
        slowest = max(slowest, time.perf_counter() - t)
        assert action in legal
        s, _ = ENGINE.apply(s, who, action)
    raise AssertionError("the policy did not finish the match")


def test_policy_plays_every_seat_to_the_end_quickly():
    """Every seat on the policy: only legal actions, well under 50 ms a call, and the match ends."""
    for seats, seed in ((1, 1), (3, 2), (6, 3)):
        s, slowest = play(seats, seed)
        assert ENGINE.actor(s) == TERMINAL
        assert slowest < 0.05


def test_policy_lays_tiles_that_touch_and_explores():
    """Tiles laid by the policy form coasts together; players go and see new Territories."""
    s, _ = play(2, 5, days=8)
    centres = [tuple(t["at"]) for t in s["tiles"]["placed"]]
    touching = sum(1 for c in centres if any(distance(c, d) == 5 for d in centres if d != c))
    assert touching >= len(centres) - 1
    assert all(len(p["visited"]) >= 3 for p in s["players"])


def test_policy_moves_toward_a_territory_not_yet_visited():
    """Part one's aim: head for unexplored Territories, not stand still."""
    st = roll(build(seats=1), 6)
    legal = ENGINE.legal_actions(st, 0)
    action = choose(ENGINE.view(st, 0), 0, legal, random.Random(0))
    assert action["kind"] == "move"
