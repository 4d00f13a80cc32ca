"""The shape of a Wizards state and the small accessors every rule module uses.

A state is plain JSON data (dicts, lists, strings, numbers, booleans, None) so it
encodes exactly and copies cheaply. Rule functions receive a private copy made by
`clone` and change it in place; the engine never hands out a state it will change.
Hexes are [q, r] lists in the state and (q, r) tuples in rule code.

Everything a later rule needs has its place from the start: decks, Gem boxes, Wizard
markers, Task and Demon markers, the Calendar, Completion and Thwart markers, each
player's Order, Rank, points, afflictions, Animal, Event cards, Lair Time, Star Crest
visits and secret records (14.3).
"""
from __future__ import annotations

import json
from typing import Any

from shared.hexgrid import Hex

POINT_TYPES = ("knowledge", "perception", "power")
AFFLICTIONS = ("demon_dazed", "dragonbound")
DEFAULT_DAYS = 13  # part-one placeholder end: before the first Evil attack on Day 14 (12.1)


def clone(state: dict) -> dict:
    return json.loads(json.dumps(state))


def hx(v: Any) -> Hex | None:
    return None if v is None else (v[0], v[1])


def ls(h: Hex | None) -> list | None:
    return None if h is None else [h[0], h[1]]


def new_player(seat: int) -> dict:
    return {
        "seat": seat,
        "colour": None,
        "at": None,
        "boat": None,
        "order": None,  # "wizards" | "sorcerers" | "druids" (3.73: none at start)
        "rank": 0,
        "rank_day": None,
        "points": {t: 0 for t in POINT_TYPES},
        "afflictions": [],
        "animal": None,  # {"kind", "turns", "since"}
        "events": [],  # held Event Cards: {"card", "days"}
        "tasks": [],  # the Task Record (14.24, public): tasks held, see taskmarkers.py
        "task_history": [],  # 14.24: Tasks completed or become impossible: {"card", "mandatory", "status", "day"}
        "gems": {},  # secret Gem Record (14.25, 14.3): High Wizard -> gem
        "secret_record": {},  # secret Secret Wizard Record (14.26)
        "false_wizard": None,  # secret (7.3263, 11.233)
        "lair_time": None,  # the Calendar day his Lair Time Marker is on (12.511)
        "star_crest": {"visit": None, "left_turn": None},
        "star_crest_directed": False,
        "turns_taken": 0,
        "extra_turns": 0,
        "lost_turns": 0,
        "trap": None,
        "swum": 0,
        "visited": [],
        "space_encounters": {},  # 7.6: encounters per space of the tile he is on ("q,r" -> n)
        "hamdrel": {"visits": 0, "turns": 0},  # 7.354
        "detained": None,  # 7.301 3: the space he must stay in on his next turn
    }


def new_state(seats: int, variant: str, options: dict, days: int) -> dict:
    return {
        "game": "wizards",
        "config": {"seats": seats, "variant": variant, "options": options},
        "seats": seats,
        "solitaire": seats == 1,
        "days_limit": days,
        "phase": "setup",
        "step": "shuffle_decks",
        "chance": None,
        "await": None,
        "interrupts": [],
        "pending": [],  # the resolution stack (resolution.py)
        "dealer": None,
        "decks": {"task": [], "event": [], "wizard": []},
        "discards": {"task": [], "event": [], "wizard": []},
        "wizard_aside": [],
        "aside_for": {},  # 8.74: the cards in wizard_aside kept for each marker ("Ishkatar", "secret:A")
        "gem_boxes": {},
        "wizard_markers": {},
        "secret_wizards": [],
        "tiles": {"hands": [[] for _ in range(seats)], "placed": [], "stack": [], "removed": [], "aside": [],
                  "face_down": False, "placer": None},
        "boats": [],
        "dragon": None,
        "demons": [],
        "task_markers": [],
        "calendar": {"day": 1, "fortnight": 1, "days_played": 0},
        "completion": 0,  # Tasks completed in the game (9.01, 12.21)
        "thwart": "takeover",  # the Thwart Marker's box: "takeover" | "thwarted" (3.6, 12.21)
        "thwarts": 0,  # thwarts banked, one for every TEN Tasks completed (12.22)
        "out_of_play": {"task": []},  # Task Cards taken out of play (12.44)
        "taken": [],
        "players": [new_player(s) for s in range(seats)],
        "turn": None,
        "result": None,
    }


def player(state: dict, seat: int) -> dict:
    return state["players"][seat]


def afflicted(p: dict) -> bool:
    return bool(p["afflictions"])


def free_boat_at(state: dict, h: Hex) -> dict | None:
    """An unoccupied Boat in a Water space (6: no more than one player per Boat)."""
    for b in state["boats"]:
        if hx(b["at"]) == h and b["rider"] is None:
            return b
    return None


def next_seat(state: dict, seat: int) -> int:
    """Clockwise: the seat on a player's left (3.74)."""
    return (seat + 1) % state["seats"]


def prior_day(day: int) -> int:
    """The Calendar day before `day`; the Calendar runs 1-14 and round again (12.3)."""
    return 14 if day == 1 else day - 1
