"""Casting a spell: declare spell and target, confirm range, confirm line of sight, roll.

Targets (Casting Spells):
  Single Hex    one hex unoccupied by a wizard (Guardian Hydra, Spell Totem: an unoccupied,
                empty open ground or stream hex);
  Single Wizard any wizard, of any team, or the caster;
  Area          a whole hex of the arena, occupied or not; the six around it are affected too
                (they may lie in partial hexes or off the arena);
  Fog Wall      up to two adjacent empty open ground or stream hexes.
Range counts hexes from the caster (or the Spell Totem) to the target hex; sight runs to the
centre of the target hex.
"""
from __future__ import annotations

from typing import Any

from shared.hexgrid import Hex, distance, neighbours
from shared.incantris import attack, dice, effects, flow, match, sight, turns
from shared.incantris.arena import OCEAN, as_hex
from shared.incantris.pack import load
from shared.incantris.state import IncantrisState, Wizard


def origins(state: IncantrisState, w: Wizard) -> list[tuple[str | None, Hex]]:
    """Where the wizard may cast from: its hex, and its Spell Totem placed on an earlier turn
    ("On future turns the caster may cast spells ... from the totem's location")."""
    out: list[tuple[str | None, Hex]] = [(None, as_hex(w["hex"]))]
    e = state.effects.get(f"{w['id']}:spell-totem")
    if e is not None and e["since"] < state.serial:
        out.append(("totem", as_hex(e["hex"])))
    return out


def bonus_at(state: IncantrisState, h: Hex) -> int:
    """Power Circle: "All spells cast within the Power Circle that require the roll of
    casting dice receive an additional +1"."""
    return 1 if match.in_power_circle(state, h) else 0


def _free_ground(a, occupied, h: Hex, ground_tokens: set, own_fog: set) -> bool:
    """An empty open ground or stream hex: whole, no wizard, obstacle, crystal or token."""
    if h not in a.whole or a.terrain[h] == OCEAN:
        return False
    if h in ground_tokens and h not in own_fog:
        return False
    return h not in occupied


def _ground_tokens(state: IncantrisState) -> set:
    return (match.obstacle_hexes(state) | match.crystal_hexes(state) | match.token_hexes(state)
            | set(match.fog_hexes(state)))


def spell_targets(state: IncantrisState, w: Wizard, key: str, origin: Hex) -> list[Any]:
    """Every legal target of one spell cast from `origin` (JSON-ready)."""
    spell = load().spells[key]
    a = match.arena(state)
    sees = sight.seer(a, sight.blocking(state, w["side"], ignore=(as_hex(w["hex"]),)))

    def seen(h: Hex) -> bool:
        return distance(origin, h) <= spell.range and sees(origin, h)

    if spell.target == "wizard":
        ids: list[str] = []
        start = turns.start_hex(state)
        for t in match.on_board(state):
            h = as_hex(t["hex"])
            if key == "spectral-rush" and (start is None or distance(start, h) < 3):
                continue  # "only if the caster began the turn at least three hexes away"
            if key in ("bane", "entanglement") and match.has_effect_on(state, key, t["id"]):
                continue  # "may only be affected by a single Bane/Entanglement spell at a time"
            if seen(h):
                ids.append(t["id"])
        return ids
    near = [h for h in a.whole if distance(origin, h) <= spell.range]
    if spell.target == "area":
        return [list(h) for h in sorted(near) if seen(h)]
    tokens = _ground_tokens(state)
    own_fog: set = set()
    if key == "fog-wall":  # recasting moves the wall, so its own hexes count as free

        own = state.effects.get(f"{w['id']}:fog-wall")
        own_fog = {as_hex(h) for h in own["hexes"]} if own else set()
    occupied = match.occupied(state)
    free = sorted(h for h in near if _free_ground(a, occupied, h, tokens, own_fog) and seen(h))
    if spell.target == "hex":
        return [list(h) for h in free]
    # Fog Wall: one hex, or two adjacent hexes
    out = [[list(h)] for h in free]
    fs = set(free)
    for h in free:
        for n in neighbours(h):
            if n in fs and h < n:
                out.append([list(h), list(n)])
    return out


def may_cast(state: IncantrisState) -> bool:
    t = state.turn
    w = turns.active(state)
    if t is None or w is None or t["ending"] or t["cast"] or t["sapped"] or not match.in_arena(w):
        return False
    here = as_hex(w["hex"])
    # a wizard passing through a team-mate's hex or a fog wall has not ended its movement
    return match.arena(state).is_whole(here) and _movement_may_end(state, w, here)


def _movement_may_end(state: IncantrisState, w: Wizard, here: Hex) -> bool:
    from shared.incantris.movement import Ground

    return Ground(state).may_stop(w, here)


def cast_options(state: IncantrisState, only: str | None = None) -> list[dict]:
    """Every legal cast of the active wizard (of spell `only`, when given)."""
    if not may_cast(state):
        return []
    w = turns.acting(state)
    pack = load()
    ring = "power-ring" in w["items"]
    out: list[dict] = []
    for key in match_spells(w):
        if only is not None and key != only:
            continue
        spell = pack.spells[key]
        for via, origin in origins(state, w):
            for target in spell_targets(state, w, key, origin):
                action = {"kind": "cast", "spell": key, "target": target}
                if via:
                    action["from"] = via
                out.append(action)
                rolls = spell.dice and not (key == "teleport" and match.wizard(state, target)["side"] == w["side"])
                if ring and rolls:
                    out.append(dict(action, ring=True))
    return out


def match_spells(w: Wizard) -> tuple[str, ...]:
    return load().wizards[w["id"]].spells


def cast(state: IncantrisState, action: dict, ev: list) -> None:
    """Apply a legal cast action of the active wizard."""
    w = turns.acting(state)
    key = action["spell"]
    spell = load().spells[key]
    origin = dict((via, h) for via, h in origins(state, w))[action.get("from")]
    turns.used_cast(state)
    plus = bonus_at(state, origin)
    if action.get("ring"):
        w["items"].remove("power-ring")
        state.edit("used_items").append([w["id"], "power-ring"])
        match.event(ev, "item-used", wizard=w["id"], item="power-ring")
        plus += 1  # Power Ring: "grants +1 to the roll"
    match.event(ev, "cast", wizard=w["id"], spell=key, target=action["target"], origin=list(origin))
    power = match.kind(w).power
    target = action["target"]
    if key in ("blaze", "power-circle"):
        effects.place(state, w, key, {"centre": list(target)}, ev, bonus=plus if key == "blaze" else 0)
    elif key in ("guardian-hydra", "spell-totem"):
        effects.place(state, w, key, {"hex": list(target)}, ev)
    elif key == "fog-wall":
        effects.place(state, w, key, {"hexes": [list(h) for h in target]}, ev)
    elif key == "meteor-storm":
        centre = as_hex(target)
        area = {centre, *neighbours(centre)}
        hit = [x for x in match.on_board(state) if as_hex(x["hex"]) in area]
        # "Roll casting dice separately against each wizard in the target area."
        flow.push_front(state, *[attack.new(state, key, w["id"], w["side"], power, x["id"],
                                            {"dice": spell.dice, "plus": spell.plus + plus},
                                            dice.ward_roll(state, x, power)) for x in hit])
    else:
        t = match.wizard(state, target)
        if key == "teleport" and t["side"] == w["side"]:
            # "Teleport is automatically cast successfully if the target is the caster or a
            # wizard on the caster's team."
            flow.push_front(state, {"t": "teleport", "by": w["id"], "side": w["side"], "target": t["id"]})
            return
        ward = None if key in ("breath-of-life", "healing-warmth") else dice.ward_roll(state, t, power)
        flow.push_front(state, attack.new(state, key, w["id"], w["side"], power, t["id"],
                                          {"dice": spell.dice, "plus": spell.plus + plus}, ward,
                                          bonus=plus, target_hex=t["hex"]))


# --- the Guardian Hydra's Flame Darts --------------------------------------------------------
def hydra_options(state: IncantrisState) -> list[dict]:
    """"On the caster's subsequent turns, the hydra casts Flame Darts with an elemental power
    source, but with 2D+1." Reading (authored): the caster chooses its target (or lets it
    rest) once on each of his or her turns, at any time of the turn; sight and range (8) are
    the hydra's own."""
    t = state.turn
    w = turns.active(state)
    if t is None or w is None or t["ending"] or t["hydra"] or not match.in_arena(w):
        return []
    e = state.effects.get(f"{w['id']}:guardian-hydra")
    if e is None or e["since"] >= state.serial:
        return []
    here = as_hex(e["hex"])
    a = match.arena(state)
    sees = sight.seer(a, sight.blocking(state, w["side"], ignore=(here,)))
    reach = load().spells["flame-darts"].range
    out = []
    for x in match.on_board(state):
        h = as_hex(x["hex"])
        if distance(here, h) <= reach and sees(here, h):
            out.append({"kind": "hydra", "target": x["id"]})
    return out


def hydra(state: IncantrisState, action: dict, ev: list) -> None:
    w = turns.acting(state)
    turns.current(state)["hydra"] = True
    e = state.effects[f"{w['id']}:guardian-hydra"]
    x = match.wizard(state, action["target"])
    match.event(ev, "hydra", wizard=w["id"], target=x["id"])
    plus = 1 + bonus_at(state, as_hex(e["hex"]))
    flow.push_front(state, attack.new(state, "flame-darts", None, w["side"], "elemental", x["id"],
                                      {"dice": 2, "plus": plus}, dice.ward_roll(state, x, "elemental")))
