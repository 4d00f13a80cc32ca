"""Building Wizards states directly for scenario tests: a fixed island layout, players
put where a test needs them, and scripted dice.

A state `build` returns shares nothing with any other state, so `prepare` and a test may
change it in place (`st.players[0]["rank"] = 2`, `st.boats.append(...)`). A state the
engine returned shares its fields that are not HOT (tiles, decks, ...) with the state
before it: change those through `st.edit("decks", "event")` or `st.replace(...)`, or
take a copy of its own first, `ENGINE.decode(ENGINE.encode(st))` (shared/wizards/state.py)."""
from __future__ import annotations

from shared.engine import CHANCE, MatchConfig
from shared.wizards import boats
from shared.wizards.engine import WizardsEngine, settle
from shared.wizards.pack import pack
from shared.wizards.state import WizardsState, new_state
from shared.wizards.world import world_for

ENGINE = WizardsEngine()

# Tile -> (Center hex, rotation). Lattice cells of the board, so tiles that are five
# apart share a coast; Hamdrel's Cottage sits one Water hex off the Sacred Circle and
# Woodland, and the Dragon's Lair hangs off Meligar's Tower in the north-east.
LAYOUT = {
    "C1": ((11, 8), 0), "C2": ((9, 5), 0), "C3": ((6, 10), 0), "C4": ((8, 13), 0), "C5": ((13, 11), 0),
    "C6": ((16, 6), 0), "E1": ((14, 3), 0), "E2": ((18, 9), 0), "E3": ((15, 14), 0), "E4": ((10, 16), 0),
    "E5": ((4, 7), 0), "E6": ((1, 12), 0), "M1": ((3, 15), 0), "M2": ((7, 2), 0), "M3": ((21, 4), 0),
    "M4": ((20, 12), 0), "M5": ((-3, 18), 0), "M6": ((26, 2), 0),
}


def build(seats: int = 2, layout: dict | None = None, at: dict | None = None, dragon: tuple = ("M6", "C3"),
          dealer: int = 0, days: int = 13, prepare=None) -> WizardsState:
    """A state in play on Day 1, the dealer about to roll for movement.

    `at` maps seat -> (tile, label); by default seat i starts on Meadowfarm (C5) spaces.
    `prepare(state)` runs before the first turn begins (give players Orders, animals...)."""
    p = pack()
    st = new_state(seats, "standard", {"days": days}, days)
    st.decks = {"task": [c["number"] for c in p.task_cards], "event": [c["number"] for c in p.event_cards],
                "wizard": [c["id"] for c in p.wizard_cards]}
    st.gem_boxes = dict(zip(p.high_wizards, [c["id"] for c in p.gem_cards]))
    st.wizard_markers = {n: None for n in p.high_wizards}
    st.dealer = dealer
    for tile, (c, rot) in (layout or LAYOUT).items():
        st.tiles["placed"].append({"tile": tile, "at": list(c), "rotation": rot, "by": 0, "face_down": False})
    w = world_for(st)
    st.boats = [{"id": i, "at": list(m), "rider": None} for i, (_, m) in enumerate(boats.starting_boats(w))]
    st.dragon = list(w.hex_of[dragon])
    starts = at or {s: ("C5", ["A1", "A3", "A5", "B1", "B3", "B5"][s]) for s in range(seats)}
    for seat in range(seats):
        pl = st.players[seat]
        pl["colour"] = p.colours[seat]
        pl["at"] = list(w.hex_of[starts[seat]])
        pl["visited"] = [starts[seat][0]]
    st.phase = "play"
    st.turn = {"seat": dealer, "extra": False}
    st.step = "turn_start"
    if prepare:
        prepare(st)
    settle(st, [])
    return st


def solo(tile: str, label: str, prepare=None, **kw) -> WizardsState:
    """One player standing on a space, about to roll."""
    def prep(st):
        put(st, 0, tile, label)
        if prepare:
            prepare(st)
    return build(seats=1, at={0: (tile, label)}, prepare=prep, **kw)


def animal(kind: str, turns: int = 3, since: int = 0):
    """A `prepare` giving seat 0 an Animal with `turns` uses left."""
    return lambda s: s.players[0].update(animal={"kind": kind, "turns": turns, "since": since})


def hex_of(state: WizardsState, tile: str, label: str) -> tuple[int, int]:
    return world_for(state).hex_of[(tile, label)]


def put(state: WizardsState, seat: int, tile: str, label: str) -> tuple[int, int]:
    """Move a player's piece to a space (test set-up only)."""
    h = hex_of(state, tile, label)
    state.players[seat]["at"] = [h[0], h[1]]
    return h


def roll(state: WizardsState, white: int, red: int = 6) -> WizardsState:
    """Answer the Movement Roll with scripted dice."""
    assert ENGINE.actor(state) == CHANCE and state.chance["then"]["do"] == "movement_rolled", state.chance
    new, _ = ENGINE.apply_chance(state, [[white], [red]])
    return new


def moves(state: WizardsState, seat: int) -> dict:
    """(by, (q, r)) -> cost of every legal move."""
    return {(a["by"], tuple(a["to"])): a["cost"] for a in ENGINE.legal_actions(state, seat) if a["kind"] == "move"}


def move(state: WizardsState, seat: int, by: str, to: tuple[int, int]):
    cost = moves(state, seat)[(by, tuple(to))]
    return ENGINE.apply(state, seat, {"kind": "move", "by": by, "to": list(to), "cost": cost})


def end(state: WizardsState, seat: int = 0) -> WizardsState:
    """End the seat's movement and run on (dice showing 1) to the next Movement Roll."""
    if state.await_ and state.await_["for"] == "move":
        state, _ = ENGINE.apply(state, seat, {"kind": "end_move"})
    while state.chance["then"]["do"] != "movement_rolled":
        state, _ = ENGINE.apply_chance(state, [[1] * p["count"] for p in state.chance["request"]["pools"]])
    return state


def chance(state: WizardsState, *faces: int):
    """Answer a one-die-per-pool request with the given faces."""
    return ENGINE.apply_chance(state, [[f] for f in faces])


def config(seats: int = 2, **options) -> MatchConfig:
    return MatchConfig(seats, options=options)
