"""A player's Record Sheet in play: points, Orders and Ranks (3.73, 10, 13, 14.2).

    3.73     no points of any kind before joining an Order
    7.3051e  a Dragonbound player gains no points and does not advance
    10.2     advancing needs the points and a meeting with a Mentor, one Rank at a time
    10.21    at least three days between two advancements (reading below)
    10.22    never demoted; points never below zero
    10.3     changing Orders: Apprentice again, points kept, Mandatory Tasks become Optional
    13       at Rank FOUR no Tasks are assigned and no points gained or lost
    App. B   in the partnership game the points one partner gains the other gains too (`share`)

Reading of 10.21 (AMB7): "a gap of at least THREE days must transpire" counts days
played (the Calendar's `days_played`, which runs on across Day 14 and Day 1): promoted
on day n, the next promotion is allowed from day n + 3. Joining an Order starts the count.
"""
from __future__ import annotations

from shared.engine import d6
from shared.wizards import resolution
from shared.wizards.pack import pack
from shared.wizards.resolution import Handler, Item, handler
from shared.wizards.state import POINT_TYPES, Player, WizardsState, partner_of, player

MENTORS = {"wizards": "high_wizard", "sorcerers": "master_sorcerer", "druids": "ruktal"}
ORDER_OF_MENTOR = {v: k for k, v in MENTORS.items()}
PROMOTION_GAP_DAYS = 3  # 10.21


def days_played(state: WizardsState) -> int:
    return state.calendar["days_played"]


def points_frozen(state: WizardsState, seat: int) -> str | None:
    """The rule that keeps a player from gaining or losing points now, if any."""
    p = player(state, seat)
    if p["order"] is None:
        return "3.73"
    if p["rank"] >= 4:
        return "13"
    return None


def may_gain(state: WizardsState, seat: int) -> str | None:
    """None when the player may gain points, else the rule that stops it."""
    frozen = points_frozen(state, seat)
    if frozen:
        return frozen
    if "dragonbound" in player(state, seat)["afflictions"]:
        return "7.3051 e"
    return None


def gain(state: WizardsState, seat: int, amounts: dict[str, int], rule: str, events: list) -> bool:
    """Add points by type; False (and an event saying why) when the player may not gain.
    Appendix B: the points a player gains are gained by his partner too (`share`)."""
    stop = may_gain(state, seat)
    if stop:
        events.append({"type": "no_points", "seat": seat, "rule": stop, "for": rule})
        return False
    p = player(state, seat)
    for t, n in amounts.items():
        p["points"][t] += n
    events.append({"type": "points_gained", "seat": seat, "points": dict(amounts), "rule": rule,
                   "total": dict(p["points"])})
    share(state, seat, amounts, rule, events)
    return True


def share(state: WizardsState, seat: int, amounts: dict[str, int], rule: str, events: list) -> None:
    """Appendix B, AMB8 (reading 1): "all points gained by one are also gained by the other",
    whatever their Orders. Only gains are shared (losses are not named), and the partner gains
    them as he gains any points: not at Rank 0 (3.73), at Rank FOUR (13) or Dragonbound
    (7.3051 e). Points the player himself could not gain (he was stopped) are not gained, so
    not shared."""
    other = partner_of(state, seat)
    if other is None or not any(amounts.values()):
        return
    stop = may_gain(state, other)
    if stop:
        events.append({"type": "no_points", "seat": other, "rule": stop, "for": "Appendix B", "partner": seat})
        return
    q = player(state, other)
    for t, n in amounts.items():
        q["points"][t] += n
    events.append({"type": "points_gained", "seat": other, "points": dict(amounts), "rule": "Appendix B",
                   "from_partner": seat, "for": rule, "total": dict(q["points"])})


def lose(state: WizardsState, seat: int, amounts: dict[str, int], rule: str, events: list) -> None:
    """Take points away, never below zero (10.22); nothing at Rank FOUR or outside an Order (13, 3.73)."""
    if points_frozen(state, seat):
        events.append({"type": "no_points", "seat": seat, "rule": points_frozen(state, seat), "for": rule})
        return
    p = player(state, seat)
    lost = {t: min(n, p["points"][t]) for t, n in amounts.items()}
    for t, n in lost.items():
        p["points"][t] -= n
    events.append({"type": "points_lost", "seat": seat, "points": lost, "rule": rule, "total": dict(p["points"])})


def least_types(state: WizardsState, seat: int) -> list[str]:
    """The types the player has the least of, leaving out types at zero (7.304 2, 7.305 4)."""
    pts = player(state, seat)["points"]
    held = {t: v for t, v in pts.items() if v > 0}
    if not held:
        return []
    low = min(held.values())
    return [t for t in POINT_TYPES if held.get(t) == low]


def rank_table(order: str) -> list[dict]:
    return [dict(r) for r in pack().orders[order]["ranks"]]


def title(p: Player) -> str | None:
    if not p["order"]:
        return None
    return rank_table(p["order"])[p["rank"] - 1]["title"]


def promotion_due(state: WizardsState, seat: int) -> str | None:
    """Why the player cannot advance now (None: he advances on meeting his Mentor)."""
    return advance_barred(player(state, seat), days_played(state))


def advance_barred(p: Player, days: int) -> str | None:
    """`promotion_due` for a player's record as the state or a view holds it (the AI reads it from its view),
    `days` played so far."""
    if p["order"] is None or p["rank"] >= 4:
        return "10.1"
    if "dragonbound" in p["afflictions"]:
        return "7.3051 e"
    need = rank_table(p["order"])[p["rank"]]
    if any(p["points"][t] < need[t] for t in POINT_TYPES):
        return "10.2"
    if p["rank_day"] is not None and days < p["rank_day"] + PROMOTION_GAP_DAYS:
        return "10.21"
    return None


def promote(state: WizardsState, seat: int, by: str, events: list) -> bool:
    """10.2: one Rank up on meeting a Mentor, when due."""
    if promotion_due(state, seat) is not None:
        return False
    p = player(state, seat)
    p["rank"] += 1
    p["rank_day"] = days_played(state)
    events.append({"type": "promoted", "seat": seat, "order": p["order"], "rank": p["rank"], "title": title(p),
                   "by": by, "rule": "10.2"})
    return True


def join(state: WizardsState, seat: int, order: str, by: str, events: list) -> None:
    """10 / 10.3: an Apprentice of `order`; points kept; Mandatory Tasks of the old Order
    become Optional."""
    p = player(state, seat)
    old = p["order"]
    p["order"], p["rank"], p["rank_day"] = order, 1, days_played(state)
    for task in p["tasks"]:
        task["mandatory"] = False
    events.append({"type": "joined_order", "seat": seat, "order": order, "from": old, "by": by,
                   "rule": "10.3" if old else "10"})


def is_mentor(p: Player, mentor_kind: str) -> bool:
    return p["order"] is not None and MENTORS[p["order"]] == mentor_kind


def point_choices(amount: int, split: bool) -> list[dict]:
    """The ways to take `amount` points "of any type": one type (or, where the rules let
    him divide them, 7.3033, every split)."""
    if not split:
        return [{"kind": "take_points", "points": {t: amount}} for t in POINT_TYPES]
    out = []
    for k in range(amount + 1):
        for pe in range(amount - k + 1):
            pts = {"knowledge": k, "perception": pe, "power": amount - k - pe}
            out.append({"kind": "take_points", "points": {t: v for t, v in pts.items() if v}})
    return out


@handler("points")
class Points(Handler):
    """Points "of any type" gained or lost: {"do": "points", "seat", "rule", "sign": +1 | -1,
    and "amount": n or "dice": k with "times": m (the roll of k dice times m)}.

    Reading: "N points of any type" lets the player choose ONE type for all N (where the
    rules let him divide points they say so: rescue, 7.3033, gives "split": true). A loss
    "of any type" (7.301 2) is chosen the same way among the types he holds; he loses
    what that type holds if it is less."""

    kinds = ("take_points",)

    @staticmethod
    def label(action: dict) -> str:
        pts = action.get("points") or {}
        return ("take " if all(v >= 0 for v in pts.values()) else "lose ") + ", ".join(
            f"{abs(v)} {t.capitalize()}" for t, v in sorted(pts.items())) + " points"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        stop = may_gain(state, seat) if item.get("sign", 1) > 0 else points_frozen(state, seat)
        if stop:
            events.append({"type": "no_points", "seat": seat, "rule": stop, "for": item["rule"]})
            resolution.done(state, item)
            return
        if "amount" not in item:
            resolution.roll(state, item, [d6(f"points ({item['rule']})") for _ in range(item["dice"])])
            return
        if item.get("sign", 1) < 0 and not any(player(state, seat)["points"].values()):
            events.append({"type": "points_lost", "seat": seat, "points": {}, "rule": item["rule"],
                           "total": dict(player(state, seat)["points"])})
            resolution.done(state, item)
            return
        resolution.ask(state, seat)

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        item["amount"] = sum(f[0] for f in faces) * item.get("times", 1)

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        if item.get("sign", 1) < 0:
            held = player(state, seat)["points"]
            return [{"kind": "take_points", "points": {t: -min(item["amount"], held[t])}}
                    for t in POINT_TYPES if held[t] > 0]
        return point_choices(item["amount"], item.get("split", False))

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        amounts = action["points"]
        if item.get("sign", 1) < 0:
            lose(state, seat, {t: -n for t, n in amounts.items()}, item["rule"], events)
        else:
            gain(state, seat, amounts, item["rule"], events)
        resolution.done(state, item)
