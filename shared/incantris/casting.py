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

from shared.engine import MalformedAction, RuleViolation
from shared.hexgrid import Hex, distance, neighbours
from shared.incantris import attack, dice, effects, flow, match, sight, turns
from shared.incantris.arena import OCEAN, as_hex
from shared.incantris.movement import passing_through
from shared.incantris.pack import load
from shared.incantris.state import IncantrisState, Wizard
from shared.incantris.tasks import Clause


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


def caster_context(state: IncantrisState, w: Wizard) -> tuple:
    """What every spell `w` may cast now reads of the arena: the arena, the caster's sight (what
    blocks it is the same from every origin, the caster's own hex never blocking), the hexes with
    something on the ground and the hexes occupied. Found once for all its spells and origins."""
    a = match.arena(state)
    sees = sight.seer(a, sight.blocking(state, w["side"], ignore=(as_hex(w["hex"]),)))
    return a, sees, _ground_tokens(state), match.occupied(state)


def spell_targets(state: IncantrisState, w: Wizard, key: str, origin: Hex, context: tuple | None = None) -> list[Any]:
    """Every legal target of one spell cast from `origin` (JSON-ready); `context` is caster_context's."""
    spell = load().spells[key]
    a, sees, tokens, occupied = context or caster_context(state, w)

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
    own_fog: set = set()
    if key == "fog-wall":  # recasting moves the wall, so its own hexes count as free

        own = state.effects.get(f"{w['id']}:fog-wall")
        own_fog = {as_hex(h) for h in own["hexes"]} if own else set()
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
    return not passing_through(state, w, as_hex(w["hex"]))


def cast_options(state: IncantrisState, only: str | None = None) -> list[dict]:
    """Every legal cast of the active wizard (of spell `only`, when given)."""
    if not may_cast(state):
        return []
    w = turns.acting(state)
    pack = load()
    ring = "power-ring" in w["items"]
    out: list[dict] = []
    context = caster_context(state, w)
    for key in match_spells(w):
        if only is not None and key != only:
            continue
        spell = pack.spells[key]
        for via, origin in origins(state, w):
            for target in spell_targets(state, w, key, origin, context):
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


# --- refusals: the clause that forbids a cast ----------------------------------------------------
CS = "Casting Spells"
BOARD = Clause(CS, "A wizard may cast one spell from the list on the wizard's reference board per turn.")
ONE_SPELL = Clause("Sequence of Play", "A wizard may only cast a single spell per turn.")
CLEANSED = Clause("Cleansing Fire", "If this ability is used, the Sorceress/Sorcerer may not cast a spell on the same "
                                    "turn.")
POTION = Clause("Experience", "The wizard who bears the red potion may choose to drink it instead of casting a spell.")
SAPPED = Clause("Crystal Sap", "A wizard may not sap a crystal and cast a spell on the same turn.")
PASSING = Clause("Turns", "A wizard casts, saps or ends its turn only on a hex where its movement may end (not "
                          "while passing through a team-mate or its own Fog Wall)", reading=True)
TOTEM_LATER = Clause("Spell Totem", "On future turns the caster may cast spells or use magical abilities from the "
                                    "totem's location as if he or she is standing in that hex.")
RING = Clause("Experience", "Use this ring before the wizard who bears it rolls the casting dice to cast a spell.")
TARGET = {
    "wizard": Clause(CS, "Single Wizard - Any wizard on his or her team, another team, or on himself or herself."),
    "hex": Clause(CS, "Single Hex - One hex unoccupied by a wizard."),
    "area": Clause(CS, "the central targeted hex must always be a whole hex in the arena."),
    "two-hexes": Clause("Fog Wall", "The fog wall may be placed in empty open ground or stream hexes."),
}
FOG_SHAPE = Clause("Fog Wall", "Target: Up to Two Adjacent Hexes")
GROUND = {"guardian-hydra": Clause("Guardian Hydra", "The hex must be an unoccupied open ground or stream hex. Hydras "
                                                     "may not be placed in the ocean."),
          "spell-totem": Clause("Spell Totem", "The caster places a spell totem in an empty open ground or stream "
                                               "hex.")}
RANGE = Clause(CS, "The range of a spell is the maximum number of hexes away from the caster the target of the spell "
                   "can be")
SIGHT = Clause(CS, "A wizard can see another hex if a straight line can be drawn from any part of the hex the caster "
                   "occupies to the center of the target hex and the line does not pass through any part of a hex "
                   "that blocks line of sight.")
RUSH = Clause("Spectral Rush", "This spell may only be cast if the caster began the turn at least three hexes away "
                               "from the target.")
SINGLE = {"bane": Clause("Bane", "A wizard may only be affected by a single Bane spell at a time."),
          "entanglement": Clause("Entanglement", "A wizard may only be affected by a single Entanglement spell at a "
                                                 "time.")}
DEAD = Clause("Damage and Death", "When a wizard reaches zero life points, he or she is dead and is removed from the "
                                  "arena.")
WAITING = Clause("Solo Play: Gameplay", "Attacking wizards that have not yet entered the arena may not be targeted by "
                                        "spells or otherwise affected by them.")
HYDRA_TURNS = Clause("Guardian Hydra", "On the caster's subsequent turns, the hydra casts Flame Darts with an "
                                       "elemental power source, but with 2D+1.")
HYDRA_ONCE = Clause("Guardian Hydra", "once on each of the caster's later turns, at any time of the turn, at a target "
                                      "the caster chooses", reading=True)
FLAME_DARTS = Clause("Flame Darts", "Range: 8")


def refuse_already(state: IncantrisState, what: str) -> RuleViolation | None:
    """The clause that forbids a spell (or what stands instead of one) after the turn's first."""
    t = turns.current(state)
    w = turns.acting(state)
    if t["sapped"]:
        return SAPPED.violated(f"{w['id']} sapped a crystal this turn")
    if t["cast"]:
        done = t.get("cast_as", "spell")
        clause = CLEANSED if done == "cleansing-fire" else POTION if done == "red-potion" else ONE_SPELL
        return clause.violated(f"{w['id']} used {done} this turn; no {what} after it")
    if not may_cast(state):
        return PASSING.violated(f"{w['id']} is passing through {list(as_hex(w['hex']))}")
    return None


def _wizard_target(state: IncantrisState, wid) -> Wizard:
    if not isinstance(wid, str):
        raise MalformedAction("the target must be a wizard id")
    if wid not in state.wizards:
        raise MalformedAction(f"no wizard {wid!r}")
    return state.wizards[wid]


def refuse_cast(state: IncantrisState, action: dict) -> RuleViolation:
    w = turns.acting(state)
    key = action["spell"]
    pack = load()
    if key not in match_spells(w):
        return BOARD.violated(f"{w['id']} has no spell {key!r} on its reference board")
    early = refuse_already(state, "spell")
    if early is not None:
        return early
    via = action.get("from")
    if via not in (None, "totem"):
        raise MalformedAction("cast.from is 'totem' when given")
    where = dict(origins(state, w))
    if via not in where:
        return TOTEM_LATER.violated(f"{w['id']} has no Spell Totem placed on an earlier turn")
    origin = where[via]
    spell = pack.spells[key]
    target = action["target"]
    if action.get("ring") and "power-ring" not in w["items"]:
        return RING.violated(f"{w['id']} bears no Power Ring")
    a = match.arena(state)
    if spell.target == "wizard":
        x = _wizard_target(state, target)
        if not x["alive"]:
            return DEAD.violated(f"{x['id']} is dead")
        if x["hex"] is None:
            return WAITING.violated(f"{x['id']} waits outside the arena")
        if action.get("ring") and key == "teleport" and x["side"] == w["side"]:
            return RING.violated("Teleport on the caster's team rolls no dice")
        hexes = [as_hex(x["hex"])]
    elif spell.target == "two-hexes":
        if not isinstance(target, list) or not target or not isinstance(target[0], list):
            return TARGET["two-hexes"].violated("Fog Wall takes a list of one or two hexes")
        hexes = [as_hex(h) for h in target]
        if len(hexes) == 2 and distance(*hexes) != 1:
            return FOG_SHAPE.violated("the two hexes do not touch")
    else:
        if not (isinstance(target, list) and len(target) == 2 and all(isinstance(v, int) for v in target)):
            return TARGET[spell.target].violated(f"{key} takes one hex [q, r]")
        hexes = [as_hex(target)]
    if spell.target != "wizard":
        occupied = match.occupied(state)
        tokens = _ground_tokens(state)
        own = state.effects.get(f"{w['id']}:fog-wall") if key == "fog-wall" else None
        own_fog = {as_hex(h) for h in own["hexes"]} if own else set()
        for h in hexes:
            if h not in a.whole:
                return TARGET["area"].violated(f"{list(h)} is not a whole hex of the arena")
            if spell.target == "hex" and h in occupied:
                return TARGET["hex"].violated(f"{occupied[h]['id']} stands on {list(h)}")
            if spell.target in ("hex", "two-hexes") and not _free_ground(a, occupied, h, tokens, own_fog):
                clause = GROUND.get(key, TARGET["two-hexes"])
                return clause.violated(f"{list(h)} is not empty open ground or stream")
    for h in hexes:
        if distance(origin, h) > spell.range:
            return RANGE.violated(f"{list(h)} is {distance(origin, h)} hexes away; {key} reaches {spell.range}")
    if key == "spectral-rush":
        start = turns.start_hex(state)
        if start is None or distance(start, hexes[0]) < 3:
            return RUSH.violated(f"{w['id']} began the turn within two hexes of {target}")
    if key in SINGLE and match.has_effect_on(state, key, target):
        return SINGLE[key].violated(f"{target} is under {key} already")
    return SIGHT.violated(f"{w['id']} cannot see {[list(h) for h in hexes]} from {list(origin)}")


def refuse_hydra(state: IncantrisState, action: dict) -> RuleViolation:
    w = turns.acting(state)
    t = turns.current(state)
    x = _wizard_target(state, action["target"])
    e = state.effects.get(f"{w['id']}:guardian-hydra")
    if e is None or e["since"] >= state.serial:
        return HYDRA_TURNS.violated(f"{w['id']} has no hydra placed on an earlier turn")
    if t["hydra"]:
        return HYDRA_ONCE.violated("the hydra cast Flame Darts this turn")
    if not match.in_arena(x):
        return (DEAD if not x["alive"] else WAITING).violated(f"{x['id']} is not in the arena")
    here = as_hex(e["hex"])
    if distance(here, as_hex(x["hex"])) > load().spells["flame-darts"].range:
        return FLAME_DARTS.violated(f"{x['id']} is more than 8 hexes from the hydra")
    return SIGHT.violated(f"the hydra cannot see {x['id']}")


# --- Cleansing Fire ---------------------------------------------------------------------------------
CLEANSE_REACH = Clause("Cleansing Fire", "The Sorceress/Sorcerer may cancel any persistent magical effect affecting "
                                         "him/her, in the hex he/she occupies, in an adjacent hex, or affecting an "
                                         "adjacent wizard.")


def cleanse_options(state: IncantrisState) -> list[dict]:
    wiz = turns.active(state)
    if wiz is None or match.ability(wiz) != "cleansing-fire" or not may_cast(state):
        return []
    out = []
    for via, h in origins(state, wiz):
        for eid in effects.cleanse_targets(state, wiz, h):
            a = {"kind": "cleanse", "effect": eid}
            if via:
                a["from"] = via
            out.append(a)
    return out


def refuse_cleanse(state: IncantrisState, action: dict) -> RuleViolation:
    w = turns.acting(state)
    if action["effect"] not in state.effects:
        raise MalformedAction(f"no persistent spell {action['effect']!r} in the arena")
    if match.ability(w) != "cleansing-fire":
        return CLEANSE_REACH.violated(f"{w['id']} is no Sorceress or Sorcerer")
    early = refuse_already(state, "Cleansing Fire")
    if early is not None:
        return early
    if action.get("from") not in dict(origins(state, w)):
        return TOTEM_LATER.violated(f"{w['id']} has no Spell Totem placed on an earlier turn")
    return CLEANSE_REACH.violated(f"{action['effect']} is out of reach")
