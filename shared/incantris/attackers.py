"""The attacking team of the solo game, played by the engine (Attacking Wizard Rules).

Priorities: the favoured foe (Table 2); else the player's wizard with the least life; else
the one closest. A target counts if the attacking wizard can cast on it from where it stands
or after moving within range and sight. It casts without moving when it can; otherwise it
moves "directly to that hex, and only move far enough". If it can cast on no one it moves
"as far as possible toward the highest priority target by the most direct route". Spells
and wands come from Table 1 (in its order of preference), wards from Table 3.

Readings (authored):
- ties the rulebook leaves open (same life, same distance, same power source) go to the
  wizard warding worst against the attacker's power source, then to the lower wizard id;
- among hexes reached for the same movement points, the one with the fewest steps, then
  the lowest (q, r);
- "closest" counts hexes; an attacking wizard still outside counts from its entry point;
- the Power Circle's +1 adds to an attacking wizard's fixed wands.
"""
from __future__ import annotations

from shared.hexgrid import Hex, distance, neighbours
from shared.incantris import attack, dice, flow, match, sight, turns, walking
from shared.incantris.arena import as_hex
from shared.incantris.casting import bonus_at
from shared.incantris.movement import Ground
from shared.incantris.pack import load
from shared.incantris.state import Entry, IncantrisState, Plan, Wizard
from shared.incantris.tasks import Task as Step

WARD_ORDER = {"1D": 0, "2D": 1, "2D+1": 2}


def spells_of(w: Wizard) -> list[tuple[str, int]]:
    return [(s, n) for s, n in load().attacking["spells"][w["type"]]]


def foes(state: IncantrisState, w: Wizard) -> list[Wizard]:
    return [x for x in match.on_board(state) if match.opposed(state, x, w)]


def position(state: IncantrisState, w: Wizard) -> Hex:
    """Where the wizard stands, or the entry point it waits at."""
    if w["hex"] is not None:
        return as_hex(w["hex"])
    return as_hex(entry(state, w)["at"])


def entry(state: IncantrisState, w: Wizard) -> Entry:
    """The entry point an attacking wizard waiting outside is posted at."""
    assert w["entry"] is not None, f"{w['id']} is posted at no entry point"
    return state.entries[w["entry"]]


def priority(state: IncantrisState, w: Wizard) -> list[Wizard]:
    """The player's wizards in the order the attacking wizard tries them."""
    pool = foes(state, w)
    if not pool:
        return []
    here = position(state, w)
    power = match.kind(w).power

    def tie(x):
        return (match.kind(x).power == power, WARD_ORDER[dice.ward_level(state, x, power)], x["id"])

    order: list[Wizard] = []
    favoured = load().attacking["favoured"][w["type"]]
    order += sorted((x for x in pool if x["type"] in favoured), key=tie)
    least = min(x["life"] for x in pool)
    order += sorted((x for x in pool if x["life"] == least),
                    key=lambda x: (distance(here, as_hex(x["hex"])),) + tie(x))
    near = min(distance(here, as_hex(x["hex"])) for x in pool)
    order += sorted((x for x in pool if distance(here, as_hex(x["hex"])) == near), key=tie)
    seen, out = set(), []
    for x in order:
        if x["id"] not in seen:
            seen.add(x["id"])
            out.append(x)
    return out


def _castable(state: IncantrisState, w: Wizard, spell: str, at: Hex, target: Wizard, blocked: frozenset) -> bool:
    reach = load().spells[spell].range
    h = as_hex(target["hex"])
    if distance(at, h) > reach:
        return False
    if spell == "spectral-rush":
        start = turns.start_hex(state) or position(state, w)
        if distance(start, h) < 3:
            return False
    return sight.can_see(match.arena(state), at, h, blocked)


def plan(state: IncantrisState, w: Wizard, may_move: bool = True) -> Plan:
    """The attacking wizard's move and spell: {"path", "spell", "wands", "target"}."""
    g = Ground(state)
    here = match.hex_of(w)
    blocked = sight.blocking(state, w["side"], ignore=(here,) if here else ())
    mp = turns.budget(state) if may_move else 0
    if here is None:
        entries = [as_hex(h) for h in entry(state, w)["hexes"]]
        spots = g.reachable(w, None, mp, entries) if may_move else {}
    else:
        spots = g.reachable(w, here, mp) if may_move else {here: (0, [])}
        spots.setdefault(here, (0, []))
    ranked = sorted(spots.items(), key=lambda kv: (kv[1][0], len(kv[1][1]), kv[0]))
    for target in priority(state, w):
        for spell, wands in spells_of(w):
            for at, (_, path) in ranked:
                if _castable(state, w, spell, at, target, blocked):
                    return {"path": [list(h) for h in path], "spell": spell, "wands": wands, "target": target["id"]}
    # no one to cast on: "move as far as possible toward the highest priority target"
    order = priority(state, w)
    if not order or not spots:
        return {"path": []}
    top = order[0]
    goal = as_hex(top["hex"])
    walk = g.walk_distance(w, goal, list(spots))
    best = min(spots.items(), key=lambda kv: (walk.get(kv[0], 10 ** 6), distance(kv[0], goal), -kv[1][0], kv[0]))
    return {"path": [list(h) for h in best[1][1]]}


def storm_centre(state: IncantrisState, w: Wizard, target: Wizard) -> Hex:
    """Table 1: "always center Meteor Storm on the target unless he or she can affect more of
    the player's wizards by centering it in another hex"."""
    here = as_hex(w["hex"])
    a = match.arena(state)
    sees = sight.seer(a, sight.blocking(state, w["side"], ignore=(here,)))
    mine = {as_hex(x["hex"]) for x in foes(state, w)}
    reach = load().spells["meteor-storm"].range

    def count(c: Hex) -> int:
        return len(mine & {c, *neighbours(c)})

    best = as_hex(target["hex"])
    best_n = count(best)
    for c in sorted(a.whole):
        if distance(here, c) <= reach and count(c) > best_n and sees(here, c):
            best, best_n = c, count(c)
    return best


def cast(state: IncantrisState, w: Wizard, spell: str, wands: int, target: Wizard, ev: list) -> None:
    here = as_hex(w["hex"])
    bonus = bonus_at(state, here)
    power = match.kind(w).power
    match.event(ev, "cast", wizard=w["id"], spell=spell, target=target["id"], origin=list(here))
    if spell == "meteor-storm":
        centre = storm_centre(state, w, target)
        area = {centre, *neighbours(centre)}
        hit = [x for x in match.on_board(state) if as_hex(x["hex"]) in area]
        flow.push_front(state, *[attack.new(state, spell, w["id"], w["side"], power, x["id"], {"fixed": wands + bonus},
                                            dice.ward_roll(state, x, power)) for x in hit])
        return
    flow.push_front(state, attack.new(state, spell, w["id"], w["side"], power, target["id"], {"fixed": wands + bonus},
                                      dice.ward_roll(state, target, power), target_hex=target["hex"]))


class AttackingTurn(Step):
    """One attacking wizard's turn, run step by step so reactions can interrupt it."""

    kind = "auto"

    def waits(self, state, task):
        return None

    def run(self, state, task, ev):
        w = match.wizard(state, task["wizard"])
        if not w["alive"] or state.turn is None or state.turn.get("wizard") != w["id"]:
            flow.pop(state)
            return
        stage = task["stage"]
        if stage == "plan":
            if w["hex"] is None:
                state.turn["start"] = None
            task["plan"] = plan(state, w)
            task["stage"] = "move"
            return
        if stage == "move":
            path = task["plan"]["path"]
            t = state.turn
            if path and not t["halted"] and not t["ending"]:
                to = as_hex(path.pop(0))
                cost = self._cost(state, w, to)
                if cost is not None and cost <= turns.budget(state):
                    walking.step(state, w, to, cost, ev)
                    return
                task["plan"]["path"] = []
                return
            task["stage"] = "cast"
            return
        if stage == "cast":
            task["stage"] = "end"
            if w["hex"] is None:
                return
            p = task["plan"]
            target = match.wizard(state, p["target"]) if p.get("target") else None
            here = as_hex(w["hex"])
            blocked = sight.blocking(state, w["side"], ignore=(here,))
            castable = (target is not None and match.in_arena(target)
                        and _castable(state, w, p["spell"], here, target, blocked))
            if not castable:
                p = plan(state, w, may_move=False)
                target = match.wizard(state, p["target"]) if p.get("target") else None
            if target is not None:
                turns.used_cast(state)
                cast(state, w, p["spell"], p["wands"], target, ev)
            return
        flow.pop(state)
        turns.end_turn(state, ev)

    def _cost(self, state, w, to: Hex) -> int | None:
        g = Ground(state)
        if w["hex"] is None:
            entries = [as_hex(h) for h in entry(state, w)["hexes"]]
            if to not in entries or g.terrain_cost(w, to) is None or g.blocked(w, to):
                return None
            other = g.occupied.get(to)
            if other is not None and match.opposed(state, other, w):
                return None
            return 1  # "steps into the arena ... expending one movement point to do so"
        return g.step_cost(w, as_hex(w["hex"]), to)
