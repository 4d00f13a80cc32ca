"""Board queries (GameEngine.query): where the asking seat's Character could go, and by what paths.

Answers are read from the seat's view, never from the state itself, so they can use only
what that seat may see (movement depends on the map and where the Characters stand, all
public). Both kinds use the rules of movement.py (Movement on the Board, Caves):

    {"kind": "destinations"}          every territory the Character could end a walking move on
                                      from where it stands, with one path to each (the path
                                      ListLegalActions offers when it is that seat's move)
    {"kind": "paths", "to": t}        every legal path to t (re-entering spaces on the way and
                                      going underground included), or why there is none

They answer whether or not it is the seat's turn: "what it could reach from where it stands".
A spectator has no Character, so both kinds need a seat.
"""
from __future__ import annotations

from shared.engine import MalformedAction
from shared.engine.queries import query_kind
from shared.tower import movement
from shared.tower.pack import ROCKY, pack

KINDS = ("destinations", "paths")
FIELDS = {"destinations": set(), "paths": {"to"}}


def answer(view: dict, seat: int | None, query: dict) -> dict:
    kind = query_kind(query, FIELDS, "Tower of the Wizard King")
    if seat is None:
        raise MalformedAction(f"{kind} asks about the asking seat's Character: send a seat token")
    if kind == "destinations":
        return destinations(view, seat)
    return paths(view, seat, _territory(query))


def _territory(query: dict) -> str:
    to = query.get("to")
    if not isinstance(to, str):
        raise MalformedAction("paths needs 'to': a territory id")
    if to != ROCKY and to not in pack().territories:
        raise MalformedAction(f"{to!r} is not a territory of the Wizard's Realm")
    return to


def _mover(view: dict, seat: int) -> tuple[str, str | None, frozenset]:
    """Where the seat's Character stands, who it is (None before the deal) and the
    territories other Characters hold."""
    player = view["players"][seat]
    return player["at"], player["character"], frozenset(movement.occupied(view["players"], seat))


def _head(view: dict, seat: int) -> dict:
    at, character, _ = _mover(view, seat)
    moves = pack().characters[character].moves if character else 0
    return {"seat": seat, "character": character, "at": at, "moves": moves}


def destinations(view: dict, seat: int) -> dict:
    at, character, others = _mover(view, seat)
    out = _head(view, seat)
    if character is None:
        out["destinations"] = []
        return out
    found = movement.reachable(at, character, others)
    out["destinations"] = [{"to": t, "path": found[t]} for t in sorted(found)]
    return out


def paths(view: dict, seat: int, to: str) -> dict:
    at, character, others = _mover(view, seat)
    out = _head(view, seat)
    out["to"] = to
    legs = [] if character is None else all_paths(at, character, to, others)
    out["paths"] = [] if to in others else legs
    if not out["paths"]:
        out["why"] = _why_not(at, character, others, to, legs)
    return out


def all_paths(start: str, character: str, to: str,
              occupied: frozenset[str] | set[str] = frozenset()) -> list[list[list[str]]]:
    """Every path of legs from `start` that ends on `to` and that movement.check_path accepts
    (landing aside), fewest legs first. A depth-first walk over the same search nodes as
    movement.reachable: (territory, spaces left, cave bonus used, may go underground)."""
    p = pack()
    found: list[list[list[str]]] = []

    def walk(where: str, left: int, bonus_used: bool, may_cave: bool, legs: list) -> None:
        if legs and where == to:
            found.append([list(leg) for leg in legs])
        if left <= 0:
            return
        for t in movement.walks(p, where, character):
            legs.append(("walk", t))
            walk(t, left - 1, bonus_used, True, legs)
            legs.pop()
        if may_cave and where in p.caves and where not in occupied:
            for cave in p.caves:
                if cave != where:
                    nl, nb = movement._cave_exit(p, character, cave, left, bonus_used)
                    legs.append(("cave", cave))
                    walk(cave, nl, nb, True, legs)
                    legs.pop()

    if to != ROCKY:
        walk(start, p.characters[character].moves, False, False, [])
    return sorted(found, key=lambda legs: (len(legs), legs))


def _why_not(at: str, character: str | None, others: frozenset, to: str, legs: list) -> str:
    """The rule that keeps the Character off `to` (Movement on the Board, Caves)."""
    if character is None:
        return "the Characters are not dealt yet"
    if to == ROCKY:
        return "you may not re-enter the rocky space after the start of the game (Movement on the Board)"
    if to in others:
        return "you may not land on a space occupied by another Character (Movement on the Board)"
    moves = pack().characters[character].moves
    return (f"out of reach: a {character} moves up to {moves} spaces, crossing rivers "
            + ("anywhere" if pack().characters[character].crosses_rivers else "only at a bridge")
            + " (Movement on the Board, Caves)")
