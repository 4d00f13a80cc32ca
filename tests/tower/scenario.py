"""Build Tower states directly for scenario tests: a finished set-up with scripted
dice, then an emptied board the test fills with exactly what the rule needs.

States share what a step leaves alone (shared/tower/state.py), so the helpers change
the board, the Tower and the Ramp through `state.edit` and `state.replace`, as the
rules do; fill a state before playing from it (a state played from shares its
containers with the next one). `act` and `roll` check at every step that the step
left its input alone."""
from __future__ import annotations

import json

from shared.engine import CHANCE, MatchConfig
from shared.tower.engine import TowerEngine
from shared.tower.pack import pack
from shared.tower.state import AnyTask, Territory, TowerState

E = TowerEngine()


def first_faces(request) -> list[list]:
    """The first face of every die: a scripted, repeatable chance outcome."""
    return [[pool.faces[0]] * pool.count for pool in request.pools]


QUICK = {"setup": "chance"}  # chance makes the set-up choices: seat 0 first, the Wizards in pack order


def started(seats: int = 4) -> TowerState:
    """A set-up by chance with the first face of every die: seat 0 goes first, the seats have the
    Wizards in pack order (fire, water, earth, air), the first Characters are eliminated."""
    state = E.setup(MatchConfig(seats=seats, options=QUICK))
    while E.actor(state) == CHANCE:
        state, _ = E.apply_chance(state, first_faces(E.chance_request(state)))
    return state


def blank(seats: int = 4, characters: dict[int, str] | None = None, tower: list[str] | None = None) -> TowerState:
    """A game in play, seat 0 to move, every Character on the rocky space, no tokens,
    no Pennants, no Castles. `characters` sets who each seat is; `tower` the ring
    order from the door (chamber door+1, door+2, ...)."""
    state = started(seats)
    state.replace("board", {t: {"castle": False, "token": None, "pennants": None, "protected": False}
                            for t in state.board})
    state.replace("ramp", {})
    if characters:
        cast(state, characters, tower)
    E.check_invariants(state)
    return state


def cast(state: TowerState, characters: dict[int, str], tower: list[str] | None = None) -> None:
    for seat, c in characters.items():
        state.players[seat]["character"] = c
    held = {p["character"] for p in state.players}
    rest = [c for c in pack().character_names if c not in held and c not in state.removed["characters"]]
    inside = tower if tower is not None else rest[:4]
    assert sorted(inside) == sorted(rest), f"the Tower must hold {rest}"
    state.replace("tower", {"chambers": [None] + list(inside), "door": 0})


def castle(state: TowerState, t: str, token: str | None = None, up: bool = False,
           wizard: str | None = None, count: int = 0, protected: bool = False) -> None:
    """A Castle on t, with an optional castle token and Pennants taken from the supply."""
    square: Territory = state.edit("board", t)
    square.update(castle=True, token={"id": token, "up": up} if token else None, protected=protected)
    if wizard:
        seat = next(s for s, p in enumerate(state.players) if p["wizard"] == wizard)
        state.players[seat]["supply"] -= count
        square["pennants"] = {"wizard": wizard, "count": count}


def spell(state: TowerState, t: str, name: str, up: bool = False) -> None:
    state.edit("board", t).update(castle=False, token={"id": f"spell:{name}", "up": up}, pennants=None)


def at(state: TowerState, seat: int, t: str) -> None:
    state.players[seat]["at"] = t


def ramp(state: TowerState, tokens: dict[str, str]) -> None:
    """The Ramp tokens left, by step (`{"1": "ramp:power2"}`)."""
    state.replace("ramp", dict(tokens))


def scattered(rng) -> tuple[dict[int, str], list[str], TowerState]:
    """Four random Characters on four random territories (seat i's on spots[i]): the characters,
    the spots and the state."""
    chars = dict(zip(range(4), rng.sample(pack().character_names, 4)))
    spots = rng.sample(list(pack().territory_ids), 4)
    state = blank(4, chars)
    for seat, t in enumerate(spots):
        at(state, seat, t)
    return chars, spots, state


def wizard(state: TowerState, seat: int) -> str:
    w = state.players[seat]["wizard"]
    assert w is not None
    return w


def act(state: TowerState, seat: int, action: dict) -> tuple[TowerState, list[dict]]:
    """Apply, checking the invariants of the new state and that the step left its input alone."""
    before = E.encode(state)
    new, events = E.apply(state, seat, action)
    assert E.encode(state) == before, f"{action} changed the state it was applied to"
    E.check_invariants(new)
    return new, events


def roll(state: TowerState, *pools: list[int]) -> tuple[TowerState, list[dict]]:
    """Apply the dice, with the same checks as act."""
    before = E.encode(state)
    new, events = E.apply_chance(state, [list(p) for p in pools])
    assert E.encode(state) == before, f"the dice {pools} changed the state they were rolled for"
    E.check_invariants(new)
    return new, events


def top(state: TowerState) -> AnyTask:
    return state.tasks[-1]


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def neighbour_path(a: str, b: str) -> dict:
    return {"kind": "move", "to": b, "path": [["walk", b]]}


def same(actions: list[dict], expected: list[dict]) -> bool:
    """Equal as sets of actions (legal lists come in canonical-JSON order)."""
    key = lambda a: json.dumps(a, sort_keys=True)  # noqa: E731
    return sorted(map(key, actions)) == sorted(map(key, expected))
