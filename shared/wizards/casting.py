"""Casting the Movement Spells (11.21): Boat Summoning, Swiftness and Transporting,
and being transported to a space rolled for (section 4).

    pre-roll   Transporting, cast in place of the Movement Roll (11.213)
    movement   Swiftness at any time (11.212); Boat Summoning on a Coastal space
               with a Movement Point left (11.211)
Each Movement Spell at most once a turn (11.24); one die, a 6 fails (11.1).
"""
from __future__ import annotations

from shared.engine import MalformedAction, RuleViolation, d6
from shared.hexgrid import Hex
from shared.wizards import randomspace, spells
from shared.wizards.arrival import arrive
from shared.wizards.boats import move_boat, water_distances
from shared.wizards.dice import ask
from shared.wizards.setup import unavailable
from shared.wizards.state import Player, WizardsState, current_turn, hx, ls, player, position
from shared.wizards.world import world_for

# 10.13 Druid: "to a Random Sacred Circle Stone" (authored: one die names the stone by its dots)
STONE = {"stone": True}


def _on_stone(state: WizardsState, seat: int) -> bool:
    w = world_for(state)
    return w.kind(position(player(state, seat))) == "stone"


def transport_casts(state: WizardsState, seat: int) -> list[dict]:
    """The Transporting casts open to a player before his Movement Roll."""
    p = player(state, seat)
    if not spells.may_cast(p, "transporting") or "transporting" in current_turn(state)["cast"]:
        return []
    out: list[dict] = []
    for entry in spells.transports(p, _on_stone(state, seat)):
        if entry["to"] == "ANY":  # a random space in ANY Territory: he names the Territory (4.1 ANY)
            avail = [t for t in sorted({t["tile"] for t in state.tiles["placed"]}) if t not in state.taken]
            out += [{"kind": "cast", "spell": "transporting", "to": "ANY", "territory": t} for t in avail]
        else:
            out.append({"kind": "cast", "spell": "transporting", "to": entry["to"]})
    unique = {tuple(sorted(a.items())): a for a in out}
    return [unique[k] for k in sorted(unique)]


def movement_casts(state: WizardsState, seat: int) -> list[dict]:
    p, t = player(state, seat), current_turn(state)
    out = []
    w = world_for(state)
    at = position(p)
    if spells.may_cast(p, "boat_summoning") and "boat_summoning" not in t["cast"] and t["mp"] >= 1 \
            and at in w.coast and p["boat"] is None:
        out.append({"kind": "cast", "spell": "boat_summoning"})
    if spells.may_cast(p, "swiftness") and "swiftness" not in t["cast"]:
        out.append({"kind": "cast", "spell": "swiftness"})
    return out


def refuse_cast(state: WizardsState, seat: int, action: dict, phase: str) -> RuleViolation:
    """Why a cast is not allowed now."""
    p = player(state, seat)
    spell: str = action["spell"]  # act_cast has checked it is a string
    if "dragonbound" in p["afflictions"]:
        return RuleViolation("7.3051 c", "a Dragonbound player may not use magic of any kind")
    if "demon_dazed" in p["afflictions"] and spell not in spells.DAZED_SPELLS:
        return RuleViolation("7.3043 b", "a Demon Dazed player may only attempt Boat Summoning, "
                                         "Transporting and Escaping")
    if not spells.entries(p, spell):
        return RuleViolation("10.1", f"the player's Order and Rank give no {spell} Spell")
    if spell in current_turn(state)["cast"]:
        return RuleViolation("11.24", "no Movement Spell may be attempted more than once in any single turn")
    if spell == "transporting":
        if phase != "pre_roll":
            return RuleViolation("11.213", "Transporting is cast in the place of a Movement Roll")
        return RuleViolation("10.1", "no such Transporting for this Order and Rank from this space")
    if spell == "boat_summoning":
        return RuleViolation("11.211", "Boat Summoning is cast on a Coastal space "
                                       "with at least one Movement Point left")
    return RuleViolation("11.21", "Movement Spells are cast during the Movement segment")


def act_cast(state: WizardsState, seat: int, action: dict, events: list) -> None:
    spell = action.get("spell")
    if not isinstance(spell, str):
        raise MalformedAction("cast needs 'spell'")
    extra = set(action) - {"kind", "spell", "to", "territory"}
    if extra or any(k in action and not isinstance(action[k], str) for k in ("to", "territory")):
        raise MalformedAction("cast takes 'spell' and, for Transporting, 'to' and 'territory' (strings)")
    phase = state.step
    legal = transport_casts(state, seat) if phase == "pre_roll" else movement_casts(state, seat)
    if action not in legal:
        raise refuse_cast(state, seat, action, phase)
    current_turn(state)["cast"].append(spell)
    then = {"do": "spell_cast", "seat": seat, "spell": spell}
    if spell == "transporting":
        then["to"] = action["to"]
        then["territory"] = action.get("territory")
        then["from_stone"] = _on_stone(state, seat)
    p = player(state, seat)
    succeeds_on = "1-3" if "demon_dazed" in p["afflictions"] else "1-5"
    ask(state, [d6(f"die: casting {spell.replace('_', ' ').title()} ({succeeds_on} succeeds)")], then)


def summon_choices(state: WizardsState, seat: int) -> list[list]:
    """11.211: any one unoccupied Boat within range, into any Water space adjacent to the player.

    11.2111: range counts only Water spaces, from the player to the Boat: a Boat in a Water
    space next to him is one space away (its own space counted), one beyond that two, and
    so on. A Boat in range may be brought to any Water space next to the player that it can
    reach without crossing land."""
    p = player(state, seat)
    w = world_for(state)
    at = position(p)
    targets = [n for n in w.neighbours(at) if w.is_water(n)]
    reach = spells.boat_range(p)
    out = []
    for b in state.boats:
        if b["rider"] is not None:
            continue
        dist = water_distances(w, hx(b["at"]))
        reachable = [n for n in targets if n in dist]
        if not reachable:
            continue
        away = 1 + min(dist[n] for n in reachable)
        if reach is None or away <= reach:
            out += [[b["id"], ls(n)] for n in reachable]
    return sorted(out, key=lambda c: (c[0], c[1][1], c[1][0]))


def legal_summons(state: WizardsState, seat: int) -> list[dict]:
    return [{"kind": "summon_boat", "boat": b, "to": to} for b, to in current_turn(state)["summon"] or []]


def act_summon_boat(state: WizardsState, seat: int, action: dict, events: list) -> None:
    boat, to = action.get("boat"), action.get("to")
    if type(boat) is not int or not (isinstance(to, list) and len(to) == 2 and all(type(v) is int for v in to)):
        raise MalformedAction("summon_boat needs 'boat' (an id) and 'to': [q, r]")
    if [boat, to] not in (current_turn(state)["summon"] or []):
        raise RuleViolation("11.211", "the summoned Boat must be unoccupied, within range over Water, and placed in a "
                                      "Water space adjacent to the player")
    move_boat(state, boat, to, events)  # with a Demon left in it (12.141)
    current_turn(state)["summon"] = None
    events.append({"type": "boat_summoned", "seat": seat, "boat": boat, "to": to})
    state.step = "movement"


def transport_where(then: dict, p: Player) -> dict:
    if then["to"] == "RANDOM":
        return {"random": "RANDOM"}
    if then["to"] == "ANY":
        return {"territory": then["territory"]}
    return dict(STONE)


def transport_pools(where: dict) -> list:
    if where.get("stone"):
        return [d6("die: the Sacred Circle Stone with this many dots")]
    return randomspace.pools_for(where)


def ask_transport(state: WizardsState, seat: int, where: dict, reason: str, resume: str, events: list,
                  extra_turn: bool = False, avoid: list | None = None) -> None:
    """Transport the player to `where`, rolling for the space first when it is random (section 4);
    a space in `avoid` is rolled over (7.30311: a different island)."""
    if not where.get("stone"):
        where = dict(randomspace.effective(where, unavailable(state)))
    then = {"do": "transported", "seat": seat, "where": where, "reason": reason, "resume": resume,
            "extra_turn": extra_turn}
    if avoid:
        then["avoid"] = avoid
    pools = transport_pools(where)
    if pools:
        ask(state, pools, then)
    else:
        on_transported(state, then, [], events)


def on_spell_cast(state: WizardsState, then: dict, faces: list, events: list) -> None:
    seat, spell = then["seat"], then["spell"]
    p, t = player(state, seat), current_turn(state)
    ok = spells.succeeds(p, faces[0][0])
    events.append({"type": "spell_cast", "seat": seat, "spell": spell, "die": faces[0][0], "success": ok})
    state.step = "movement"
    if spell == "swiftness" and ok:
        t["swiftness"] = spells.swiftness_terrain(p)  # 11.212: for the rest of this turn
    elif spell == "boat_summoning" and ok:
        choices = summon_choices(state, seat)
        if choices:
            t["summon"] = choices
            state.step = "summon_boat"
        else:
            events.append({"type": "no_boat_in_range", "seat": seat})
    elif spell == "transporting":
        if not ok:  # 11.213: if it fails, the player may not move on that turn
            t["ended"] = True
            return
        extra = bool(then["from_stone"] and p["order"] == "druids")  # 11.2131
        ask_transport(state, seat, transport_where(then, p), "transporting", "movement", events, extra)


def _stone_with_dots(state: WizardsState, dots: int) -> Hex | None:
    w = world_for(state)
    for h in w.find("stone"):
        if w.spaces[h].dots == dots:
            return h
    return None


def on_transported(state: WizardsState, then: dict, faces: list, events: list) -> None:
    seat, where = then["seat"], then["where"]
    w = world_for(state)
    if where.get("stone"):
        h = _stone_with_dots(state, faces[0][0])
    else:
        got = randomspace.fixed_place(where) or randomspace.read(where, faces, unavailable(state))
        h = w.hex_of.get(got) if got else None
    if h is None or (then.get("avoid") and ls(h) in then["avoid"]):  # 12.45 (7.30311): roll over
        rule = "12.45" if h is None else "7.30311"
        events.append({"type": "reroll", "seat": seat, "dice": [f[0] for f in faces], "rule": rule})
        ask(state, transport_pools(where), then)
        return
    p = player(state, seat)
    old = hx(p["at"])
    arrive(state, seat, old, h, "transport", events)
    events.append({"type": "transported", "seat": seat, "reason": then["reason"], "to": ls(h), "space": w.space_name(h),
                   "dice": [f[0] for f in faces]})
    t = state.turn
    if t and t.get("seat") == seat:
        t["moved"] = t["arrived"] = t["ended"] = True
    if then.get("extra_turn"):
        p["extra_turns"] += 1
        events.append({"type": "extra_turn", "seat": seat, "rule": "11.2131"})
    state.step = then["resume"]
