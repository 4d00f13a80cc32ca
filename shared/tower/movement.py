"""Movement on the Board and Caves: where a Character may go this turn, and by what path.

A path is a list of legs, each `["walk", territory]` (to a touching territory) or
`["cave", territory]` (underground to another cave territory). Readings of the rules:

* 'move 1, 2 or 3 territories': a move is at least one leg. 'You may re-enter the same
  space twice—or more—on the same turn!' names no exception for the space the move started
  on, so a move may go out and come back to it (at least two legs, e.g. out and back) and
  ends there like anywhere else: the Character lands on it again and all regular game play
  rules apply (a face-up Token that could not be used before may be now; a Castle with
  another's Pennants is fought for). A turn with no destination at all is a pass (turns.py).
* 'you may pass through a space with a Character on it' but never land there.
* 'You may not re-enter the rocky space after the start of the game': it is only ever
  a start, left by a walk onto a territory that touches it.
* 'All Characters except the Dragon and Skeleton cross rivers only at a bridge.'
* Caves: 'If you land in a Territory with a cave, if you wish, enter the cave
  immediately': a Character that lands in a cave territory during its move may go
  underground to any other cave territory as one space and keep going. 'Land' is read as
  the movement rules use it ('You may not land on a space occupied by another Character,
  but you may pass through'): so a cave territory with another Character on it is passed
  through, never landed in, and its cave is not entered; and a Character that starts its
  turn in a cave territory did not land there this move, so it walks out first (coming back
  to it later in the move is landing there again).
* 'Ogres are allowed to move 2 extra spaces after exiting a Mountain cave' (Minotaurs: a
  Forest cave): the exit territory's terrain decides, once per turn, so a chain of caves
  cannot feed itself.
"""
from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import Any, Mapping, Sequence

from shared.engine import RuleViolation
from shared.tower.pack import ROCKY, Pack, pack

MOVEMENT = "Movement on the Board"
Node = tuple[str, int, bool, bool]  # a search node: territory, spaces left, cave bonus used, may go underground
CAVES = "Caves"


def occupied(players: Sequence[Mapping[str, Any]], seat: int | None = None) -> set[str]:
    """Territories with a Character on them, other than `seat`'s (the rocky space holds any number).
    `players`: a state's or a view's."""
    return {p["at"] for s, p in enumerate(players) if s != seat and p["at"] != ROCKY}


def crossable(p: Pack, character: str, river: str | None, bridge: bool) -> bool:
    return river is None or bridge or p.characters[character].crosses_rivers


def walks(p: Pack, where: str, character: str) -> list[str]:
    """Territories one walk away, rivers permitting."""
    if where == ROCKY:
        return list(p.rocky_touches)
    return [c.to for c in p.crossings[where] if crossable(p, character, c.river, c.bridge)]


def _cave_exit(p: Pack, character: str, exit_to: str, left: int, bonus_used: bool) -> tuple[int, bool]:
    """Spaces left after a cave leg that came out at `exit_to`, with the Ogre/Minotaur bonus."""
    bonus = p.characters[character].cave_bonus
    left -= 1
    if bonus and not bonus_used and p.territories[exit_to].terrain == bonus[0]:
        return left + bonus[1], True
    return left, bonus_used


def reachable(start: str, character: str, occupied: set[str] | frozenset[str]) -> dict[str, list[list[str]]]:
    """Every destination this turn with one path to it (fewest legs, then by name): lists of
    the caller's own, from a search done once per (start, character, occupied) (_reachable)."""
    return {dest: [list(leg) for leg in legs] for dest, legs in _reachable(start, character, frozenset(occupied))}


@lru_cache(maxsize=4096)
def _reachable(start: str, character: str, occupied: frozenset[str]) -> tuple:
    """reachable's search, frozen: ((destination, ((via, to), ...)), ...). The pack never
    changes in a process, so the answer depends on these three alone."""
    p = pack()
    first: Node = (start, p.characters[character].moves, False, False)
    came: dict[Node, Node | None] = {first: None}
    leg_to: dict[Node, list[str]] = {}
    queue = deque([first])
    found: dict[str, Node] = {}
    while queue:
        node = queue.popleft()
        where, left, bonus_used, may_cave = node
        if left <= 0:
            continue
        nexts = [("walk", t, left - 1, bonus_used) for t in walks(p, where, character)]
        if may_cave and where in p.caves and where not in occupied:
            for cave in p.caves:
                if cave != where:
                    nl, nb = _cave_exit(p, character, cave, left, bonus_used)
                    nexts.append(("cave", cave, nl, nb))
        for via, to, nl, nb in nexts:
            nxt: Node = (to, nl, nb, True)
            if nxt in came:
                continue
            came[nxt] = node
            leg_to[nxt] = [via, to]
            queue.append(nxt)
            if to not in occupied and to not in found:
                found[to] = nxt
    paths = []
    for dest, node in found.items():
        legs = []
        back = came[node]
        while back is not None:
            legs.append(tuple(leg_to[node]))
            node, back = back, came[back]
        paths.append((dest, tuple(legs[::-1])))
    return tuple(paths)


def check_path(start: str, character: str, occupied: set[str] | frozenset[str], path: list[list[str]]) -> str:
    """The destination of a well-formed path, or RuleViolation naming the broken rule."""
    p = pack()
    if not path:
        raise RuleViolation(MOVEMENT, "a move crosses at least one territory ('you may move 1, 2 or 3 territories')")
    where, left, bonus_used, may_cave = start, p.characters[character].moves, False, False
    for via, to in path:
        if to not in p.territories:
            if to == ROCKY:
                raise RuleViolation(MOVEMENT, "you may not re-enter the rocky space after the start of the game")
            raise RuleViolation(MOVEMENT, f"{to!r} is not a territory of the Wizard's Realm")
        if left <= 0:
            raise RuleViolation(MOVEMENT, f"a {character} moves up to {p.characters[character].moves} spaces")
        if via == "walk":
            touching = p.rocky_touches if where == ROCKY else [c.to for c in p.crossings[where]]
            if to not in touching:
                raise RuleViolation(MOVEMENT, f"{to} does not touch {where}")
            if to not in walks(p, where, character):
                raise RuleViolation(MOVEMENT, "all Characters except the Dragon and Skeleton "
                                              "cross rivers only at a bridge")
            left -= 1
        else:
            if not may_cave or where not in p.caves:
                raise RuleViolation(CAVES, "enter a cave only on landing in a territory with a cave during the move")
            if where in occupied:
                raise RuleViolation(CAVES, "a cave territory with another Character on it is passed through, not "
                                           "landed in, so its cave cannot be entered ('If you land in a Territory "
                                           "with a cave')")
            if to not in p.caves or to == where:
                raise RuleViolation(CAVES, "the caverns lead only to another territory with a cave")
            left, bonus_used = _cave_exit(p, character, to, left, bonus_used)
        where, may_cave = to, True
    if where in occupied:
        raise RuleViolation(MOVEMENT, "you may not land on a space occupied by another Character")
    return where
