"""Building Incantris states for scenario tests: an open field or a real layout, wizards where
the test wants them, a given wizard's turn begun, and dice scripted face by face.

A test that changes a state by hand changes the wizards and the turn in place (every state
has its own) and the rest with `edit` and `replace`, as the rules do: a state shares the
arena, sides, persistent spells and crystals with the state it came from."""
from __future__ import annotations

from shared.engine import CHANCE, MatchConfig
from shared.incantris import flow, turns
from shared.incantris.arena import slot_vector
from shared.incantris.engine import IncantrisEngine, settle
from shared.incantris.state import IncantrisState, Tile

E = IncantrisEngine()

WAND, WARD, BOTH, BLANK = "wand", "ward", "wand+ward", "blank"

# one all-open full tile with the six all-open half tiles round it: an open field of radius 8
OPEN_HALVES = [("H1", "A"), ("H2", "A"), ("H3", "A"), ("H4", "A"), ("H5", "B"), ("H6", "A")]


def open_field() -> list[Tile]:
    tiles: list[Tile] = [{"tile": "T1", "side": "A", "centre": [0, 0], "rotation": 0}]
    for i, (tile, side) in enumerate(OPEN_HALVES):
        tiles.append({"tile": tile, "side": side, "centre": list(slot_vector(i)), "rotation": (2 + i) % 6})
    return tiles


def game(variant: str = "battle-royale", seats: int = 2, **options) -> IncantrisState:
    return E.setup(MatchConfig(seats, variant, options))


def arrange(state: IncantrisState, at: dict, *, life: dict | None = None, field: bool = True,
            keep_obstacles: bool = False, others: str = "dead") -> IncantrisState:
    """Put the wizards named in `at` on their hexes and begin play. Wizards not named are
    removed (others="dead") or left outside (solo attackers). Returns a new state."""
    s = E.decode(E.encode(state))
    if field:
        s.replace("tiles", open_field())
        if s.scenario not in ("crystal-sap", "capture-the-crystal"):
            s.replace("crystals", [])
    if not keep_obstacles:
        s.replace("obstacles", [])
    for wid, w in s.wizards.items():
        if wid in at:
            w["hex"] = list(at[wid]) if at[wid] is not None else None
        elif s.sides[w["side"]]["auto"] and others == "outside":
            w["hex"] = None
        else:
            w["hex"] = None
            w["alive"] = False
            w["life"] = 0
    for wid, v in (life or {}).items():
        s.wizards[wid]["life"] = v
    for i in range(len(s.sides)):
        if not any(w["alive"] and w["side"] == i for w in s.wizards.values()):
            s.edit("sides", i)["out"] = 0
    s.phase = "play"
    s.setup = None
    s.turn = None
    s.queue = []
    settle(s, [])  # the first round begins
    return s


def begin(state: IncantrisState, wid: str) -> IncantrisState:
    """Start `wid`'s turn (its side to act, its token flipped) and return the new state."""
    s = E.decode(E.encode(state))
    s.queue = []  # whatever the round's start was waiting for, this turn replaces it
    w = s.wizards[wid]
    ev: list = []
    turns.begin_turn(s, w["side"], ev)
    turns.activate(s, wid, ev)
    if s.sides[w["side"]]["auto"]:
        flow.push_back(s, {"t": "auto", "wizard": wid, "stage": "plan"})
    settle(s, ev)
    return s


def act(state: IncantrisState, action: dict, seat: int | None = None):
    """Apply an action of the acting seat."""
    who = E.actor(state) if seat is None else seat
    return E.apply(state, who, action)


def roll(state: IncantrisState, *pools):
    """Answer the pending chance step with the given faces, pool by pool."""
    assert E.actor(state) == CHANCE, f"not waiting for dice: actor {E.actor(state)}"
    return E.apply_chance(state, [list(p) for p in pools])


def pools(state: IncantrisState) -> list[tuple[str, int]]:
    req = E.chance_request(state)
    return [(p.purpose, p.count) for p in req.pools]


def kinds(state: IncantrisState) -> set[str]:
    return {a["kind"] for a in E.legal_actions(state, E.actor(state))}


def legal(state: IncantrisState, kind: str | None = None) -> list[dict]:
    acts = E.legal_actions(state, E.actor(state))
    return [a for a in acts if kind is None or a["kind"] == kind]


def steps(state: IncantrisState) -> set[tuple[int, int]]:
    return {tuple(a["to"]) for a in legal(state, "step")}


def targets(state: IncantrisState, spell: str) -> list:
    return [a["target"] for a in legal(state, "cast") if a["spell"] == spell and "from" not in a and not a.get("ring")]


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def fill(state: IncantrisState, cast: str = WAND, ward: str = BLANK):
    """Answer the pending dice with every casting die showing `cast` and every ward die `ward`."""
    req = E.chance_request(state)
    return E.apply_chance(state, [[cast if p.purpose.startswith("cast") else ward] * p.count for p in req.pools])
