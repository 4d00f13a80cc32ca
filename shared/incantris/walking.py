"""The active wizard's steps, and what each step sets off.

Leaving a hex next to an opposing Arcane Knight sets off Retribution ("immediately and
automatically", once per hex left); entering a hex next to an opposing Shaman ends the
movement (Bear Presence); entering a Blaze lets its caster roll (FAQ 3). In Capture the
Crystal a wizard carrying its crystal may step into a partial hex of its own starting zone
if a movement point is left to step off the arena, and stepping off costs one point.
"""
from __future__ import annotations

from shared.engine import RuleViolation
from shared.hexgrid import Hex, distance
from shared.incantris import attack, casting, dice, effects, flow, match, turns
from shared.incantris.arena import as_hex
from shared.incantris.movement import ADJACENT, BEAR_BAN, BEAR_STOP, POINTS, SHARE, STREAM_POINTS, Ground
from shared.incantris.pack import load
from shared.incantris.state import IncantrisState, Roll, Task, Wizard
from shared.incantris.tasks import Clause


def zone_hexes(state: IncantrisState, side: int) -> frozenset:
    zone = state.sides[side].get("zone")
    if zone is None:
        return frozenset()
    return match.arena(state).tile_hexes[zone]


def _carrier(state: IncantrisState, w: Wizard) -> bool:
    return state.scenario == "capture-the-crystal" and bool(w.get("carrying"))


def step_options(state: IncantrisState) -> list[dict]:
    w = turns.active(state)
    if w is None or not match.in_arena(w):
        return []
    mp = turns.budget(state)
    if mp <= 0:
        return []
    g = Ground(state)
    here = as_hex(w["hex"])
    out = [{"kind": "step", "to": list(h)} for h, _ in g.steps(w, here, mp)]
    if _carrier(state, w):
        a = g.arena
        for h in _partial_steps(state, g, w, here, mp):
            out.append({"kind": "step", "to": list(h)})
        if here in a.partial:
            out.append({"kind": "exit"})
    return out


def _partial_steps(state: IncantrisState, g: Ground, w: Wizard, here: Hex, mp: int) -> list[Hex]:
    """Capture the Crystal: "A wizard with the crystal may step into a partial hex in their
    starting zone, so long as he or she has at least one movement point still remaining"."""
    zone = zone_hexes(state, w["side"])
    out = []
    for h in sorted(zone & g.arena.partial):
        if distance(h, here) != 1:
            continue
        cost = g.terrain_cost(w, h)
        if cost is None or g.blocked(w, h) or cost + 1 > mp or g.halts(w, h):
            continue
        if any(distance(here, s) == 1 and distance(h, s) == 1 for s in g.binding_shamans(w)):
            continue
        out.append(h)
    return out


def step_cost(state: IncantrisState, w: Wizard, to: Hex) -> int:
    g = Ground(state)
    here = as_hex(w["hex"])
    c = g.step_cost(w, here, to)
    if c is None:
        c = g.terrain_cost(w, to)
    assert c is not None, f"{w['id']} cannot enter {to}"
    return c


def step(state: IncantrisState, w: Wizard, to: Hex, cost: int, ev: list) -> None:
    """Move one hex and set off what the step sets off."""
    t = turns.current(state)
    frm = as_hex(w["hex"]) if w["hex"] is not None else None
    w["hex"] = list(to)
    t["mp"] -= cost
    t["spent"] += cost
    if not t["cast"]:
        t["moved"] = True
    match.event(ev, "step", wizard=w["id"], frm=list(frm) if frm else None, to=list(to), cost=cost)
    g = Ground(state)
    reactions: list[Task] = []
    if frm is not None:
        for k in match.on_board(state):
            if k["type"] == "arcane-knight" and match.opposed(state, k, w) and distance(as_hex(k["hex"]), frm) == 1:
                reactions.append(retribution(state, k, w, ev))
    if g.halts(w, to):
        t["halted"] = True  # Bear Presence
        match.event(ev, "bear-presence", wizard=w["id"], at=list(to))
    reactions.extend(effects.blaze_on_enter(state, w, to))
    if reactions:
        flow.push_front(state, *reactions)


def retribution(state: IncantrisState, knight: Wizard, mover: Wizard, ev: list) -> Task:
    """Retribution: "rolls a 2D+1 spiritual spell against the target"; an attacking Arcane
    Knight "is assumed to roll 3 wands"."""
    match.event(ev, "retribution", knight=knight["id"], target=mover["id"])
    bonus = casting.bonus_at(state, as_hex(knight["hex"]))
    cast: Roll
    if state.sides[knight["side"]]["auto"]:
        cast = {"fixed": load().attacking["retribution_wands"]["value"] + bonus}
    else:
        cast = {"dice": 2, "plus": 1 + bonus}
    return attack.new(state, "retribution", knight["id"], knight["side"], "spirit", mover["id"], cast,
                      dice.ward_roll(state, mover, "spirit"))


def exit_arena(state: IncantrisState, w: Wizard, ev: list) -> None:
    """Step off the arena through the starting zone with the crystal: the game is won."""
    t = turns.current(state)
    t["mp"] -= 1
    t["spent"] += 1
    match.event(ev, "crystal-carried-off", wizard=w["id"], side=w["side"])
    state.captured = w["side"]
    state.stirred = True


SPLIT = Clause("Sequence of Play", 'Movement may not be "split" before and after spell casting.')
DANCE = Clause("Shadow Dance", "The Shadow Weaver may move, cast a spell, and then move again so long as he expends no "
                               "more than five movement points in total on the turn.")
CARRY = Clause("Capture the Crystal", "A wizard with the crystal may step into a partial hex in their starting "
                                      "zone, so long as he or she has at least one movement point still remaining to "
                                      "move the wizard completely off the arena and win the game.")
EXIT = Clause("Capture the Crystal", "It takes one movement point to step off the edge of the arena.")
OUTSIDE = Clause("Solo Play: Gameplay", "The player's wizards may never step outside the arena.")


def refuse_step(state: IncantrisState, to: Hex) -> RuleViolation:
    """The exact clause that forbids the active wizard's step to `to`."""
    w = turns.acting(state)
    t = turns.current(state)
    g = Ground(state)
    here = as_hex(w["hex"])
    mp = turns.budget(state)
    if mp <= 0:
        if t["halted"]:
            return BEAR_STOP.violated(f"{w['id']} stopped next to an opposing Shaman")
        if t["locked"]:
            if match.ability(w) == "shadow-dance":
                return DANCE.violated(f"{w['id']} has spent {t['spent']} points this turn")
            return SPLIT.violated(f"{w['id']} moved, then cast")
        return POINTS.violated(f"{w['id']} has no movement points left")
    if distance(here, to) != 1:
        return ADJACENT.violated(f"{list(to)} is not next to {list(here)}")
    if _carrier(state, w) and to in g.arena.partial:
        return CARRY.violated(f"{list(to)} is not a partial hex of this team's zone it may step into now")
    why = g.impassable(w, to)
    if why is not None:
        return why.violated(f"{w['id']} cannot enter {list(to)}")
    cost = g.terrain_cost(w, to) or 1
    if cost > mp:
        return (STREAM_POINTS if cost == 2 else POINTS).violated(f"{list(to)} costs {cost}, {mp} left")
    if any(distance(here, s) == 1 and distance(to, s) == 1 for s in g.binding_shamans(w)):
        return BEAR_BAN.violated(f"{w['id']} began its turn next to an opposing Shaman")
    return SHARE.violated(f"from {list(to)} {w['id']} could not end its movement on a hex of its own")


def refuse_exit(state: IncantrisState) -> RuleViolation:
    w = turns.acting(state)
    if state.scenario != "capture-the-crystal":
        return OUTSIDE.violated("only a crystal carrier leaves the arena, in Capture the Crystal")
    if not _carrier(state, w):
        return CARRY.violated(f"{w['id']} carries no crystal")
    if turns.budget(state) < 1:
        return EXIT.violated(f"{w['id']} has no movement point left")
    return CARRY.violated(f"{w['id']} is not on a partial hex of its starting zone")
