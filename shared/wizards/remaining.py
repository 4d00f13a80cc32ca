"""Remaining in spaces (7.6-7.62), Hamdrel's three turns a visit and two visits a tile
(7.354), and being detained by the Common Folk (7.301 result 3).

    7.6    staying in a space gives no new Specific Encounter there (turns.arrived);
           leaving the space and coming back gives a second one; after that he must
           leave the Territory tile and come back before he meets it again
    7.61   not the Star Crest: its own entry rules decide (7.37-7.3721, arrival.py)
    7.62   Random Encounters: no limit
    7.354  Hamdrel: each turn of up to THREE in her Cottage is an encounter; two such
           visits, then he must leave her tile
    7.301 3 detained: he stays in the space on his next turn and meets the Common Folk again

Readings (README "Readings of the rulebook"):
* 7.6 counts encounters with what stays in a space: the places of 7 c-h (except
  Hamdrel and the Star Crest), Demons and the Dragon. Task Markers and High Wizard
  markers leave the space when met, and other players move, so they are not counted.
* 7.6 "unless a table indicates that he must remain for further encounters": the
  detained player's second meeting with the Common Folk is part of the same stay and
  does not count towards the two.

State: `player["space_encounters"]` {"q,r": n} for the tile he is on (emptied when he
reaches another tile); `player["hamdrel"]` {"visits", "turns"}; `player["detained"]`
the space he must stay in, or None.
"""
from __future__ import annotations

from shared.hexgrid import Hex
from shared.wizards.pack import COTTAGE_TILE
from shared.wizards.state import WizardsState, current_turn, hx, player
from shared.wizards.world import World, world_for

LIMITED = ("common_folk", "elves", "shrineheart_abbey", "master_sorcerer", "ruktal", "high_hollow", "demons",
           "dragon")
VISITS_PER_TILE = 2  # 7.6, 7.354
HAMDREL_TURNS = 3  # 7.354


def key(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def cottage(w: World, h: Hex | None) -> bool:
    return h is not None and w.kind(h) == "cottage"


def arrived(state: WizardsState, seat: int, old: Hex | None, new: Hex) -> None:
    """Called by arrival.arrive: leaving a tile clears the 7.6 counts; leaving the
    Cottage ends a Hamdrel visit, leaving her tile clears the visits (7.354)."""
    w = world_for(state)
    p = player(state, seat)
    if old is None or w.tile_of(old) != w.tile_of(new):
        p["space_encounters"] = {}
    if old != new:
        ham = p["hamdrel"]
        if not cottage(w, new):
            ham["turns"] = 0
        if w.tile_of(new) != COTTAGE_TILE:
            ham["visits"] = 0


def limit(state: WizardsState, seat: int, h: Hex, due: list[dict]) -> list[dict]:
    """The Specific Encounters of a space the player has just entered that 7.6 and
    7.354 still let him have."""
    p = player(state, seat)
    if p["space_encounters"].get(key(h), 0) >= VISITS_PER_TILE:
        due = [d for d in due if d["kind"] not in LIMITED]
    if p["hamdrel"]["visits"] >= VISITS_PER_TILE:
        due = [d for d in due if d["kind"] != "hamdrel"]
    return due


def staying(state: WizardsState, seat: int) -> list[dict]:
    """Encounters of a turn spent in the same space: Hamdrel on each of up to THREE turns
    (7.354), the Common Folk again when detained (7.301 3); nothing else (7.6)."""
    t = current_turn(state)
    if t.get("detained"):
        return [{"kind": "common_folk", "detained": True}]
    if t.get("lost"):
        return []
    p = player(state, seat)
    w = world_for(state)
    if cottage(w, hx(p["at"])) and 0 < p["hamdrel"]["turns"] < HAMDREL_TURNS:
        return [{"kind": "hamdrel", "staying": True}]
    return []


def record(state: WizardsState, seat: int, items: list[dict]) -> None:
    """Count the encounters about to be resolved (7.6, 7.354)."""
    p = player(state, seat)
    for i in items:
        if i["do"] == "hamdrel":
            ham = p["hamdrel"]
            if i.get("staying"):
                ham["turns"] += 1
            else:
                ham["visits"] += 1
                ham["turns"] = 1
    spaces = {f"{i['at'][0]},{i['at'][1]}" for i in items if i["do"] in LIMITED and not i.get("detained")}
    for k in spaces:
        p["space_encounters"][k] = p["space_encounters"].get(k, 0) + 1


def detain(state: WizardsState, seat: int, events: list) -> None:
    """7.301 3: he must remain in this space on his next turn and meet the Common Folk again."""
    p = player(state, seat)
    p["detained"] = p["at"]
    events.append({"type": "detained", "seat": seat, "space": p["at"], "rule": "7.301"})


def start_detained(state: WizardsState, seat: int, events: list) -> bool:
    """At the start of a turn he plays: True when he is detained (he neither rolls nor
    moves, and meets the Common Folk again). Detention lapses if he was carried off."""
    p = player(state, seat)
    where = p["detained"]
    p["detained"] = None
    if where is None or hx(where) != hx(p["at"]):
        return False
    turn = current_turn(state)
    turn["detained"] = True
    turn["ended"] = True
    events.append({"type": "stays_detained", "seat": seat, "space": p["at"], "rule": "7.301"})
    return True
