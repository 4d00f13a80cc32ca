"""Campaigns: four games in order, victory points, experience stars and items (Campaigns,
Experience).

A campaign match is one game of the four. Its record travels in
MatchConfig.options["campaign"]:
    {"game": 1..4, "vp": [per seat], "stars": [per seat], "items": {wizard id: [item, ...]}}
and the match's outcome carries the record updated for the next game. Between games a
player spends stars on items (the shop at the start of the next game); an item belongs to
one wizard and is used once.
"""
from __future__ import annotations

from shared.engine import RuleViolation
from shared.incantris import match, scenarios, turns, wounds
from shared.incantris.pack import load
from shared.incantris.state import CampaignRecord, IncantrisState
from shared.incantris.tasks import Clause

ITEMS = ("crystal-coin", "power-ring", "amulet", "red-potion", "winged-boots")


def blank_record(seats: int) -> CampaignRecord:
    return {"game": 1, "vp": [0] * seats, "stars": [0] * seats, "items": {}}


def scenario_of(record: CampaignRecord) -> str:
    return load().campaign["games"][record["game"] - 1]


def price(item: str) -> int:
    return int(load().campaign["items"][item])


# --- the shop between games ----------------------------------------------------------------
def shop_options(state: IncantrisState, side: int) -> list[dict]:
    """"As soon as an item is purchased it must be assigned to a wizard." """
    stars = state.sides[side]["stars"]
    out = [{"kind": "ready"}]
    for item in ITEMS:
        if price(item) <= stars:
            for w in match.living(state):
                if w["side"] == side:
                    out.append({"kind": "buy", "item": item, "wizard": w["id"]})
    return out


def buy(state: IncantrisState, side: int, action: dict, ev: list) -> None:
    state.edit("sides", side)["stars"] -= price(action["item"])
    match.wizard(state, action["wizard"])["items"].append(action["item"])
    match.event(ev, "item-bought", side=side, item=action["item"], wizard=action["wizard"])


# --- items on a wizard's turn ----------------------------------------------------------------
def item_options(state: IncantrisState) -> list[dict]:
    t = state.turn
    w = turns.active(state)
    if t is None or w is None or t["ending"] or not match.in_arena(w):
        return []
    out = []
    # Red Potion: "may choose to drink it instead of casting a spell ... may still move"
    if "red-potion" in w["items"] and not t["cast"] and not t["sapped"]:
        out.append({"kind": "potion"})
    # Winged Boots: "one additional movement point to the wizard on that turn only"
    if "winged-boots" in w["items"] and not t["boots"] and not t["halted"]:
        out.append({"kind": "boots"})
    return out


def potion(state: IncantrisState, ev: list) -> None:
    w = turns.acting(state)
    w["items"].remove("red-potion")
    state.edit("used_items").append([w["id"], "red-potion"])
    # in place of the turn's spell; movement is not split by it
    turns.used_cast(state, "red-potion", closes=False)
    match.event(ev, "item-used", wizard=w["id"], item="red-potion")
    wounds.heal(state, w, 2, ev)


def boots(state: IncantrisState, ev: list) -> None:
    w = turns.acting(state)
    t = turns.current(state)
    w["items"].remove("winged-boots")
    state.edit("used_items").append([w["id"], "winged-boots"])
    t["boots"] = True
    t["mp"] += 1
    match.event(ev, "item-used", wizard=w["id"], item="winged-boots")


# --- the end of a game -------------------------------------------------------------------------
def awarded_vp(state: IncantrisState) -> list[int]:
    n = len(state.sides)
    scenario = state.scenario
    c = load().campaign
    if scenario == "crystal-sap":
        return [s["sapped"] for s in state.sides]  # "one victory point for each crystal sapped"
    if scenario == "capture-the-crystal":
        won = set(match.winners(state))
        return [c["capture_vp"][str(n)] if i in won else 0 for i in range(n)]
    table = c["place_vp"][str(n)]
    # "victory points by place"; sides sharing a place each get that place's points
    return [table[p - 1] for p in scenarios.places(state)]


def updated_record(state: IncantrisState) -> CampaignRecord:
    record = state.campaign
    assert record is not None, "not a campaign game"
    n = len(state.sides)
    vp = awarded_vp(state)
    stars = []
    for s in state.sides:
        earned = s["kills"] + (s["sapped"] if state.scenario == "crystal-sap" else 0)
        stars.append(s["stars"] + earned)
    out: CampaignRecord = {
        "game": record["game"] + 1,
        "vp": [record["vp"][i] + vp[i] for i in range(n)],
        "stars": stars,
        "items": {wid: list(w["items"]) for wid, w in sorted(state.wizards.items()) if w["items"]},
        "awarded": vp,
    }
    if record["game"] >= 4:
        best = max(out["vp"])
        out["complete"] = True
        out["champions"] = [i for i in range(n) if out["vp"][i] == best]
    return out


POTION = Clause("Experience", "The wizard who bears the red potion may choose to drink it instead of casting a spell.")
BOOTS = Clause("Experience", "Use these boots on the wizard's turn who bears them. They provide one additional "
                             "movement point to the wizard on that turn only.")
ONCE = Clause("Experience", "Items can only be used once and are discarded after they are used.")


def refuse_item(state: IncantrisState, action: dict) -> RuleViolation:
    w = turns.acting(state)
    t = turns.current(state)
    item = "red-potion" if action["kind"] == "potion" else "winged-boots"
    if item not in w["items"]:
        return ONCE.violated(f"{w['id']} bears no {item}")
    if item == "red-potion":
        return POTION.violated(f"{w['id']} has used its spell this turn")
    if t["boots"]:
        return BOOTS.violated("the boots were used this turn")
    return BOOTS.violated(f"{w['id']} stopped next to an opposing Shaman (Bear Presence ends all movement)")
