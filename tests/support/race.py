"""A tiny game for testing the platform without a real rulebook: Race to 15.

Seats take turns; on its turn a seat either rolls a d6 (a chance step) and adds
the faces to its total, or "hides" a secret number only it can see. First to 15
or more wins. It has every feature the driver handles: chance steps, secret
rolls, private events, illegal moves, a terminal outcome."""
from __future__ import annotations

import json

from shared.engine import (
    CHANCE,
    TERMINAL,
    ChanceRequest,
    GameEngine,
    InvalidConfig,
    MalformedAction,
    MatchConfig,
    NotYourTurn,
    Outcome,
    RuleViolation,
    d6,
    registry,
)
from shared.engine.contract import canonical_json

GOAL = 15
FIELDS = {"roll": {"kind"}, "hide": {"kind", "number"}}


class RaceGame(GameEngine[dict]):
    name = "race"
    title = "Race to 15"
    min_seats = 1
    max_seats = 4
    variants = ("standard", "secret-start")

    def setup(self, config: MatchConfig) -> dict:
        if config.options.get("goal", GOAL) != GOAL:
            raise InvalidConfig("the goal is always 15")
        if config.variant not in self.variants or config.seats not in self.seat_counts(config.variant):
            raise InvalidConfig(f"Race to 15 is played by 1-4 seats, as {' or '.join(self.variants)}")
        return {"seats": config.seats, "totals": [0] * config.seats, "secrets": [None] * config.seats,
                "turn": 0, "pending": "start" if config.variant == "secret-start" else None, "winner": None}

    def actor(self, s):
        if s["winner"] is not None:
            return TERMINAL
        return CHANCE if s["pending"] else s["turn"]

    def chance_request(self, s):
        if s["pending"] == "start":
            return ChanceRequest((d6("secret start", s["seats"]),), secret=True)
        if s["pending"] == "roll":
            return ChanceRequest((d6("advance", 1),))
        return None

    def legal_actions(self, s, seat):
        if self.actor(s) != seat:
            return []
        return [{"kind": "hide", "number": n} for n in (1, 2, 3)] + [{"kind": "roll"}]

    def action_domain(self, action):
        return "combat" if action.get("kind") == "roll" else "board"

    def apply(self, s, seat, action):
        if self.actor(s) != seat:
            raise NotYourTurn(f"it is not seat {seat}'s turn")
        if not isinstance(action, dict):
            raise MalformedAction("an action is a JSON object")
        kind = action.get("kind")
        if kind in FIELDS and set(action) != FIELDS[kind]:
            raise MalformedAction(f"{kind} takes the fields {sorted(FIELDS[kind])}")
        s = json.loads(json.dumps(s))
        if kind == "roll":
            s["pending"] = "roll"
            return s, [{"type": "rolling", "seat": seat}]
        if kind == "hide":
            n = action.get("number")
            if not isinstance(n, int):
                raise MalformedAction("hide needs a whole number")
            if n not in (1, 2, 3):
                raise RuleViolation("Race 2", "you may hide 1, 2 or 3")
            s["secrets"][seat] = n
            s["turn"] = (s["turn"] + 1) % s["seats"]
            return s, [{"type": "hid", "seat": seat, "number": n, "visible_to": [seat]}]
        raise MalformedAction(f"unknown action kind {kind!r}")

    def resign(self, s, seat):
        """Race 3 (of this test game): a seat that resigns concedes the race to the leader of the others
        (the lowest seat on a tie); alone, it leaves the race with no winner."""
        if self.actor(s) == TERMINAL:
            raise NotYourTurn("the race is over")
        s = json.loads(json.dumps(s))
        others = [i for i in range(s["seats"]) if i != seat]
        s["resigned"] = [seat]
        s["pending"] = None
        s["winner"] = max(others, key=lambda i: (s["totals"][i], -i)) if others else -1
        return s, [{"type": "conceded", "seat": seat}]

    def apply_chance(self, s, outcome):
        outcome = self.checked_outcome(s, outcome)
        s = json.loads(json.dumps(s))
        if s["pending"] == "start":
            s["secrets"] = list(outcome[0])
            s["pending"] = None
            return s, []
        seat = s["turn"]
        s["totals"][seat] += outcome[0][0]
        s["pending"] = None
        if s["totals"][seat] >= GOAL:
            s["winner"] = seat
        s["turn"] = (seat + 1) % s["seats"]
        return s, [{"type": "advanced", "seat": seat, "by": outcome[0][0]}]

    def query(self, s, seat, query):
        if query.get("kind") == "distance_to_goal":
            if seat is None:
                raise MalformedAction("distance_to_goal needs a seat token")
            return {"left": max(0, GOAL - s["totals"][seat])}
        return super().query(s, seat, query)

    def view(self, s, seat):
        v = json.loads(json.dumps(s))
        v["secrets"] = [x if i == seat or s["winner"] is not None else None for i, x in enumerate(s["secrets"])]
        return v

    def outcome(self, s):
        if s["winner"] is None:
            return None
        if s.get("resigned"):
            won = () if s["winner"] < 0 else (s["winner"],)
            return Outcome(tuple(s["totals"]), won, f"seat {s['resigned'][0]} resigned", tuple(s["resigned"]))
        return Outcome(tuple(s["totals"]), (s["winner"],), f"seat {s['winner']} reached {GOAL}")

    def encode(self, s):
        return canonical_json(s)

    def decode(self, data):
        return json.loads(data)


def choose(view, seat, legal, rng):
    return {"kind": "roll"} if {"kind": "roll"} in legal else legal[0]


def host() -> None:
    """Host Race to 15 on the platform as a real game is hosted (shared/engine/registry.py): the
    suite, its Celery workers and its replica processes call this before they look a game up.
    It draws with no renderer (the terminal prints its views as JSON) and publishes no schemas."""
    registry.register("race", engine="tests.support.race:RaceGame", policy="tests.support.race:choose")
