"""An AI seat for Incantris: reads only its view (all of Incantris is public) and picks one of
the legal actions.

Plan: go for the scenario's goal (sap, pick up, carry home). In the fighting scenarios (and
whenever a match drifts toward the stalemate) plan the turn whole: over every hex the wizard can
end its movement on, the best blow from there (expected hits against wards, kills and the
target's threat weighed, its own team spared), team-mates kept apart, Retribution paid for; place
a persistent spell when none of its own is out; else close in, stopping out of the foes' reach
when it cannot strike first; after casting step back out of reach. After quiet rounds or a long
match it presses: blows only, no stepping back, little healing (README "The AI and the balance").
"""
from __future__ import annotations

import random

from shared.hexgrid import Hex, distance, neighbours
from shared.incantris import dice, match, sight
from shared.incantris.arena import as_hex
from shared.incantris.movement import Ground
from shared.incantris.pack import load
from shared.incantris.state import IncantrisState

DAMAGE = {"eagle-talon", "flame-darts", "gloom-strike", "inferno", "meteor-storm", "phantom-blast", "primal-reach",
          "scorching-chain", "spectral-rush", "tempest"}
HEALING = {"breath-of-life", "healing-warmth"}
ITEM_WISHES = ("amulet", "red-potion", "power-ring", "crystal-coin", "winged-boots")


def choose(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    if len(legal) == 1:
        return legal[0]
    seen = IncantrisState.of_view(view)
    kinds = {a["kind"] for a in legal}
    me = match.side_of_seat(seen, seat)
    task = seen.queue[0] if seen.queue else None
    for pick in (_choice, _setup, _activate, _turn):
        got = pick(seen, me, legal, kinds, task, rng)
        if got is not None:
            return got
    return rng.choice(legal)


# --- answers to questions asked out of turn ------------------------------------------------
def _choice(view, me, legal, kinds, task, rng):
    if task is None:
        return None
    if "blaze" in kinds:
        target = match.wizard(view, task["target"])
        return {"kind": "blaze", "burn": target["side"] != me}
    if "amulet" in kinds:
        return {"kind": "amulet", "use": True}
    if "coin" in kinds:
        stage = task["stages"][0]
        part = stage.split("-")[1]
        faces = task["rolls"].get(part, [])
        mine_cast = part == "cast"
        good = dice.wands(faces) if mine_cast else dice.wards(faces)
        return {"kind": "coin", "reroll": good < len(faces) / 2}
    if "keep" in kinds:
        part = task["stages"][0].split("-")[1]
        count = dice.wands if part == "cast" else dice.wards
        first, second = count(task["rolls"][part]), count(task["second"][part])
        return {"kind": "keep", "roll": 2 if second > first else 1}
    if kinds & {"teleport", "reach", "reach-stop"}:
        return _move_someone(view, me, legal, task)
    if kinds & {"chain", "chain-stop"}:
        foes = [a for a in legal if a["kind"] == "chain" and match.wizard(view, a["target"])["side"] != me]
        if foes:
            return min(foes, key=lambda a: (match.wizard(view, a["target"])["life"], a["target"]))
        return {"kind": "chain-stop"}
    if kinds & {"relocate", "relocate-stay"}:
        return legal[0]
    return None


def _move_someone(view, me, legal, task):
    """Teleport or Primal Reach: pull foes next to our wizards, send friends away from foes."""
    target = match.wizard(view, task["target"])
    spots = [a for a in legal if a["kind"] in ("teleport", "reach")]
    if not spots:
        return legal[0]
    foes = [as_hex(w["hex"]) for w in match.on_board(view) if w["side"] != me]
    friends = [as_hex(w["hex"]) for w in match.on_board(view) if w["side"] == me and w["id"] != target["id"]]
    if target["side"] == me:
        def score(a):
            h = as_hex(a["to"])
            return -min((distance(h, f) for f in foes), default=0)
    else:
        def score(a):
            h = as_hex(a["to"])
            return min((distance(h, f) for f in friends), default=0)
    best = min(spots, key=lambda a: (score(a), a["to"]))
    if task.get("t") == "shove" and score(best) >= score({"to": target["hex"]}):
        return {"kind": "reach-stop"}
    return best


# --- set-up -------------------------------------------------------------------------------------
def _setup(view, me, legal, kinds, task, rng):
    if "buy" in kinds or "ready" in kinds:
        for item in ITEM_WISHES:
            buys = [a for a in legal if a["kind"] == "buy" and a["item"] == item]
            if buys:
                return min(buys, key=lambda a: (len(match.wizard(view, a["wizard"])["items"]), a["wizard"]))
        return {"kind": "ready"}
    if "place" in kinds:
        centre = (0, 0)
        return min(legal, key=lambda a: (distance(as_hex(a["hex"]), centre), rng.random()))
    if "post" in kinds:
        return rng.choice(legal)
    return None


# --- choosing a wizard ----------------------------------------------------------------------------
def _activate(view, me, legal, kinds, task, rng):
    if kinds != {"activate"}:
        return None
    foes = [w for w in match.on_board(view) if w["side"] != me]

    def urge(a):
        w = match.wizard(view, a["wizard"])
        if not foes or w["hex"] is None:
            return 0.0
        h = as_hex(w["hex"])
        reach = max(load().spells[s].range for s in load().wizards[w["id"]].spells)
        near = min(distance(h, as_hex(f["hex"])) for f in foes)
        return -max(0, near - reach - match.kind(w).movement)

    return max(legal, key=lambda a: (urge(a), rng.random()))


# --- a wizard's turn -------------------------------------------------------------------------------
def _turn(view, me, legal, kinds, task, rng):
    w = match.wizard(view, view.turn["wizard"]) if view.turn and view.turn.get("wizard") else None
    if w is None:
        return None
    for k in ("exit", "sap", "pick-up"):
        for a in legal:
            if a["kind"] == k:
                return a
    if view.scenario in FIGHTS or view.quiet >= STIR_AFTER:
        got = _planned(view, me, w, legal)
        if got is not None:
            return got
    hydra = [a for a in legal if a["kind"] == "hydra" and match.wizard(view, a["target"])["side"] != me]
    if hydra:
        return max(hydra, key=lambda a: _hurt(view, match.wizard(view, a["target"]), "elemental", 2, 1))
    casts = [a for a in legal if a["kind"] == "cast"]
    best, value = None, 0.6
    for a in casts:
        v = _value(view, me, w, a)
        if v > value:
            best, value = a, v
    harm = [a for a in casts if a["spell"] in DAMAGE and _value(view, me, w, a) > 0.05]
    if best is not None and best["spell"] in HEALING and harm:
        # healing only when no foe is in reach: trading blows is what ends a battle
        best = max(harm, key=lambda a: _value(view, me, w, a))
        value = _value(view, me, w, best)
    elif best is None and harm:
        best = max(harm, key=lambda a: _value(view, me, w, a))
        value = _value(view, me, w, best)
    others = [a for a in legal if a["kind"] in ("cleanse", "potion")]
    if best is None and others:
        for a in others:
            if a["kind"] == "potion" and w["life"] <= w["max"] - 2:
                return a
            if a["kind"] == "cleanse" and view.effects[a["effect"]]["side"] != me:
                return a
    steps = [a for a in legal if a["kind"] == "step"]
    if best is not None and (not steps or value >= 1.5 or _close_enough(view, w, me)):
        return best
    if steps:
        step = _step(view, me, w, steps, cast_done=view.turn["cast"], rng=rng)
        if step is not None:
            return step
    if best is not None:
        return best
    boots = [a for a in legal if a["kind"] == "boots"]
    if boots and not view.turn["cast"] and steps:
        return boots[0]
    return {"kind": "end"} if {"kind": "end"} in legal else rng.choice(legal)


def _hurt(view, target, power, n, plus) -> float:
    ward = dice.ward_roll(view, target, power)
    hits = max(0.0, dice.expected_wands({"dice": n, "plus": plus}) - dice.expected_wards(ward))
    bonus = 2.0 if hits >= target["life"] else 0.0
    return hits + bonus + (target["max"] - target["life"]) / target["max"]


def _value(view, me, w, a) -> float:
    key = a["spell"]
    spell = load().spells[key]
    power = match.kind(w).power
    t = a["target"]
    if key in DAMAGE:
        plus = spell.plus + (1 if a.get("ring") else 0)
        if key == "meteor-storm":
            c = as_hex(t)
            area = {c, *neighbours(c)}
            total = 0.0
            for x in match.on_board(view):
                if as_hex(x["hex"]) in area:
                    v = _hurt(view, x, power, spell.dice, plus)
                    total += v if x["side"] != me else -1.5 * v
            return total
        x = match.wizard(view, t)
        v = _hurt(view, x, power, spell.dice, plus)
        return v if x["side"] != me else -v
    if key in HEALING:
        x = match.wizard(view, t)
        if x["side"] != me:
            return -1.0
        return min(x["max"] - x["life"], 2.5) * 0.6
    if key in ("bane", "entanglement"):
        x = match.wizard(view, t)
        return 1.2 if x["side"] != me else -1.0
    if key == "teleport":
        return 0.0
    own = view.effects.get(f"{w['id']}:{key}")
    foes = [as_hex(x["hex"]) for x in match.on_board(view) if x["side"] != me]
    if not foes:
        return 0.0
    if key == "guardian-hydra":
        h = as_hex(t)
        near = min(distance(h, f) for f in foes)
        return (1.6 if own is None else 0.4) - 0.05 * near if near <= 8 else 0.0
    if key == "spell-totem":
        return 0.9 if own is None else 0.1
    if key == "power-circle":
        h = as_hex(t)
        return (1.1 if own is None else 0.2) if h == as_hex(w["hex"]) else 0.0
    if key == "blaze":
        c = as_hex(t)
        area = {c, *neighbours(c)}
        n_foes = sum(1 for f in foes if f in area)
        n_friends = sum(1 for x in match.on_board(view) if x["side"] == me and as_hex(x["hex"]) in area)
        return (1.0 * n_foes - 1.0 * n_friends) * (1.0 if own is None else 0.6)
    if key == "fog-wall":
        return 0.2 if own is None else 0.0
    return 0.0


def _close_enough(view, w, me) -> bool:
    return view.turn["moved"]


def _goal(view, me, w) -> tuple[int, int] | None:
    """Where this wizard wants to go: its crystal, home with it, or the weakest foe."""
    scenario = view.scenario
    colour = view.sides[me]["team"]
    here = as_hex(w["hex"])
    if scenario == "crystal-sap":
        stacks = [as_hex(c["hex"]) for c in view.crystals if colour in c["colours"]]
        if stacks:
            return min(stacks, key=lambda h: (distance(h, here), h))
    if scenario == "capture-the-crystal":
        if w.get("carrying"):
            a = match.arena(view)
            zone = a.tile_hexes[view.sides[me]["zone"]]
            edge = sorted(h for h in zone if h in a.partial)
            return min(edge, key=lambda h: (distance(h, here), h)) if edge else None
        mine = [as_hex(c["hex"]) for c in view.crystals if c["colour"] == colour and c["hex"] is not None]
        carried = any(c["colour"] == colour and c["carrier"] for c in view.crystals)
        if mine and not carried:
            return min(mine, key=lambda h: (distance(h, here), h))
    power = match.kind(w).power
    foes = [x for x in match.on_board(view) if x["side"] != me]
    if not foes:
        return None
    target = min(foes, key=lambda x: (x["life"] - (2 if dice.ward_level(view, x, power) == "1D" else 0),
                                      distance(here, as_hex(x["hex"])), x["id"]))
    return as_hex(target["hex"])


def _step(view, me, w, steps, cast_done, rng):
    here = as_hex(w["hex"])
    foes = [as_hex(x["hex"]) for x in match.on_board(view) if x["side"] != me]
    objective = view.scenario in ("crystal-sap", "capture-the-crystal")
    if cast_done and not objective:
        # keep out of range: step away from the nearest foes if they are close
        if not foes or min(distance(here, f) for f in foes) > 6:
            return None
        return max(steps, key=lambda a: (min(distance(as_hex(a["to"]), f) for f in foes), rng.random()))
    if w.get("carrying"):
        edge = [a for a in steps if as_hex(a["to"]) in match.arena(view).partial]
        if edge:
            return edge[0]
    goal = _goal(view, me, w)
    if goal is None:
        return None
    g = Ground(view)
    walk = g.walk_distance(w, goal, [here, *(as_hex(a["to"]) for a in steps)])
    now = walk.get(here, distance(here, goal) * 2 + 50)
    if distance(here, goal) <= 1 and not (objective and w.get("carrying")):
        return None

    def remaining(a):
        h = as_hex(a["to"])
        return walk.get(h, distance(h, goal) * 2 + 50)

    best = min(steps, key=lambda a: (remaining(a), rng.random()))
    if remaining(best) >= now and not (w.get("carrying") and as_hex(best["to"]) in match.arena(view).partial):
        return None
    return best


# --- planning the whole turn: where to stand and what to cast from there --------------------------
HEAL_WEIGHT = 1.0  # a life point given back, against one taken
FIGHTS = ("battle-royale", "shifting-arena", "solo")  # the scenarios won by fighting alone
STIR_AFTER = 2  # quiet rounds after which every seat plays to hurt, so no match drifts to the stalemate
PRESS_ROUND = 30  # a match this long is drifting: every seat presses (no stepping back, little healing)


def _pressing(view) -> bool:
    """Whether the match drifts toward the stalemate, so the AI plays to end it."""
    return view.quiet >= STIR_AFTER or view.round >= PRESS_ROUND


LASTING = {"guardian-hydra": 2.0, "power-circle": 1.5, "bane": 1.2, "entanglement": 1.0}  # x the general value
THREAT = {"sorcerer": 1.0, "sorceress": 1.0, "arcane-knight": 0.8, "shaman": 0.6, "shadow-weaver": 0.5,
          "druid": 0.7}


def _kill_value(view, me, x, hits: float) -> float:
    """What `hits` expected on wizard x are worth: the life taken, a kill, and the threat it was."""
    if x["side"] == me:
        return -1.5 * min(hits, x["life"])
    value = min(hits, x["life"]) + THREAT.get(x["type"], 0.5) * min(hits, x["life"]) / x["max"]
    if hits >= x["life"]:
        value += 3.0 + THREAT.get(x["type"], 0.5) * 2
    return value + 0.5 * (x["max"] - x["life"]) / x["max"] * (hits > 0.3)


def _expected_hits(view, caster, x, key: str) -> float:
    spell = load().spells[key]
    power = match.kind(caster).power
    wands = dice.expected_wands({"dice": spell.dice, "plus": spell.plus})
    return max(0.0, wands - dice.expected_wards(dice.ward_roll(view, x, power)))


def _aims(view, me, w, start) -> list[tuple[int, list[tuple[Hex, frozenset, float, dict]]]]:
    """What w's damage and healing spells could do, wherever it casts from: per spell its range and
    each target (the hex aimed at, the area a Meteor Storm covers, the value, the cast). A target's
    value does not depend on where w stands, so a turn's plan weighs it once, not once per hex."""
    board = list(match.on_board(view))
    found = []
    for key in load().wizards[w["id"]].spells:
        spell = load().spells[key]
        aims: list[tuple[Hex, frozenset, float, dict]] = []
        if key in DAMAGE and spell.target == "wizard":
            for x in board:
                xh = as_hex(x["hex"])
                if x["side"] == me or key == "spectral-rush" and (start is None or distance(start, xh) < 3):
                    continue
                v = _kill_value(view, me, x, _expected_hits(view, w, x, key))
                aims.append((xh, frozenset(), v, {"kind": "cast", "spell": key, "target": x["id"]}))
        elif key == "meteor-storm":
            centres = {c for x in board if x["side"] != me for c in (as_hex(x["hex"]), *neighbours(as_hex(x["hex"])))}
            caught = [_kill_value(view, me, x, _expected_hits(view, w, x, key)) for x in board]
            arena = match.arena(view)
            for c in sorted(centres):
                if c not in arena.whole:
                    continue
                area = frozenset((c, *neighbours(c)))  # not cast with the caster inside it
                v = sum(caught[i] for i, x in enumerate(board) if as_hex(x["hex"]) in area)
                aims.append((c, area, v, {"kind": "cast", "spell": key, "target": list(c)}))
        elif key in HEALING:
            for x in board:
                if x["side"] != me:
                    continue
                v = HEAL_WEIGHT * min(x["max"] - x["life"], 2.6) * (0.4 if _pressing(view) else 1.0)
                aims.append((as_hex(x["hex"]), frozenset(), v, {"kind": "cast", "spell": key, "target": x["id"]}))
        else:
            continue
        found.append((spell.range, aims))
    return found


def _best_cast_from(aims, h, sees) -> tuple[float, dict | None]:
    """The most valuable of `aims` (_aims: damage or healing) w could cast standing on h: in range,
    in sight, and not an area holding h itself; the first of equals."""
    best: tuple[float, dict | None] = (0.0, None)
    for reach, targets in aims:
        for at, area, v, action in targets:
            if distance(h, at) > reach or not sees(h, at) or h in area:
                continue
            if v > best[0]:
                best = (v, action)
    return best


def _mates(view, me, w) -> list[Hex]:
    """Where w's team-mates stand."""
    return [as_hex(x["hex"]) for x in match.on_board(view) if x["side"] == me and x["id"] != w["id"]]


def _standing_value(mates: list[Hex], h) -> float:
    """Where to stand: apart from team-mates (one Meteor Storm should not catch two)."""
    return -0.6 * sum(1 for m in mates if distance(m, h) <= 2)


def _knights(view, me) -> list[Hex]:
    """Where the opposing Arcane Knights stand (Retribution)."""
    return [as_hex(k["hex"]) for k in match.on_board(view) if k["type"] == "arcane-knight" and k["side"] != me]


def _retribution_cost(knights: list[Hex], path, here) -> float:
    left = [here] + [as_hex(p) for p in path[:-1]]
    return sum(1.2 for frm in left for k in knights if distance(frm, k) == 1) if path else 0.0


def spots(view, w) -> dict[Hex, tuple[int, list[Hex]]]:
    """Where the active wizard w can still end its movement this turn: hex -> (cost, path of hexes
    entered), its own hex included (Movement & Terrain; Shadow Dance's five points)."""
    t = view.turn
    here = as_hex(w["hex"])
    mp = t["mp"] if not t["halted"] and not (t["locked"] and match.ability(w) != "shadow-dance") else 0
    if t["locked"] and match.ability(w) == "shadow-dance":
        mp = max(0, min(t["mp"], 5 - t["spent"]))
    reach = Ground(view).reachable(w, here, mp) if mp > 0 else {}
    reach.setdefault(here, (0, []))
    return reach


def blows(view, me, w, reach: dict[Hex, tuple[int, list[Hex]]]) -> list[tuple[float, Hex, list[Hex], dict]]:
    """Every hex of `reach` w could cast from, with the best spell from there, best first:
    (score, hex, path, cast), the score weighing the blow, the standing and Retribution paid."""
    here = as_hex(w["hex"])
    t = view.turn
    sees = sight.seer(match.arena(view), sight.blocking(view, me, ignore=(here,)))
    start = as_hex(t["start"]) if t.get("start") else None
    aims, mates, knights = _aims(view, me, w, start), _mates(view, me, w), _knights(view, me)
    found = []
    for h, (cost, path) in sorted(reach.items()):
        value, action = _best_cast_from(aims, h, sees)
        if action is None:
            continue
        score = value + _standing_value(mates, h) - _retribution_cost(knights, path, here) - 0.01 * cost
        found.append((score, h, path, dict(action)))
    found.sort(key=lambda b: -b[0])  # stable: the first hex in order among equals, as before
    return found


def _planned(view, me, w, legal):
    """Choose the hex to end on and the spell to cast from it, and take the first step there
    (or cast, or spread out after casting)."""
    t = view.turn
    here = as_hex(w["hex"])
    reach = spots(view, w)
    steps = {tuple(a["to"]) for a in legal if a["kind"] == "step"}
    if not t["cast"]:
        ranked = blows(view, me, w, reach)
        best = ranked[0] if ranked else None
        lasting = [a for a in legal if a["kind"] == "cast" and a["spell"] in LASTING and view.quiet < STIR_AFTER
                   and view.scenario != "solo" and f"{w['id']}:{a['spell']}" not in view.effects]
        if lasting:
            top = max(lasting, key=lambda a: (_value(view, me, w, a), repr(a)))
            if _value(view, me, w, top) * LASTING[top["spell"]] > (best[0] if best else 0.0):
                return top  # a persistent spell worth more than the best blow within reach
        if best is not None:
            _, h, path, action = best
            if h == here:
                return action if action in legal else None
            if path and tuple(path[0]) in steps:
                return {"kind": "step", "to": list(path[0])}
            return None
        if view.quiet >= STIR_AFTER or view.scenario == "solo" or _reach(w) - match.kind(w).movement <= 4:
            return None  # nothing to cast from anywhere: the general play closes in (close fighters always)
        return _approach(view, me, w, reach, steps, legal)
    # after the spell: spread out from team-mates if that costs no Retribution
    if not steps:
        return {"kind": "end"} if {"kind": "end"} in legal else None
    foes = [as_hex(x["hex"]) for x in match.on_board(view) if x["side"] != me]
    mates, knights = _mates(view, me, w), _knights(view, me)

    def after(h) -> float:
        # out of the foes' reach, as far as seven hexes (not in the solo game: the attackers always come)
        away = (0.0 if view.scenario == "solo" or not foes or _pressing(view)
                else 0.25 * min(min(distance(h, f) for f in foes), 7))
        return _standing_value(mates, h) + away

    now = after(here)
    ranked = sorted(((after(h) - _retribution_cost(knights, p, here), h, p)
                     for h, (_, p) in reach.items() if h != here), key=lambda x: (-x[0], x[1]))
    if ranked and ranked[0][0] > now + 0.1 and tuple(ranked[0][2][0]) in steps:
        return {"kind": "step", "to": list(ranked[0][2][0])}
    return {"kind": "end"} if {"kind": "end"} in legal else None


def _reach(x) -> int:
    """How far a wizard's damage reaches on its next turn: its movement and its longest damage spell."""
    ranges = [load().spells[k].range for k in load().wizards[x["id"]].spells if k in DAMAGE]
    return match.kind(x).movement + max(ranges, default=0)


def threat(foes, h) -> float:
    """How hard `foes` could answer on hex h next turn: the threat of each one whose reach covers it."""
    return sum(THREAT.get(x["type"], 0.5) for x in foes if distance(h, as_hex(x["hex"])) <= _reach(x))


def _approach(view, me, w, spots, steps, legal):
    """Nothing to cast this turn: close in, but stop where no foe can answer next turn if such
    a hex lies nearer the goal (the first to walk into reach is the first one hit)."""
    goal = _goal(view, me, w)
    if goal is None:
        return None
    foes = [x for x in match.on_board(view) if x["side"] != me]
    here = as_hex(w["hex"])
    walk = Ground(view).walk_distance(w, goal, [here, *spots])

    def far(h):
        return walk.get(h, distance(h, goal) * 2 + 50)

    best = min(spots.items(), key=lambda kv: (threat(foes, kv[0]), far(kv[0]), kv[0]))
    h, (_, path) = best
    if h == here or far(h) >= far(here) and threat(foes, h) >= threat(foes, here):
        return {"kind": "end"} if {"kind": "end"} in legal else None
    if path and tuple(path[0]) in steps:
        return {"kind": "step", "to": list(path[0])}
    return None
