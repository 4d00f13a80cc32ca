"""Text pictures of the arena and one-line stories of events, for a terminal client.

The arena is drawn row by row (pointy-top hexes, odd rows shifted half a cell):
  .  open ground     ~  stream     #  ocean     :  partial hex (off limits)
  T  tree   l  low wall   H  high wall   h  hydra   t  spell totem   f  fog wall
  *  crystal   1-4 / A-L  wizards (the legend below the map names them)
  b / p  blaze / power circle (drawn where nothing else stands)
"""
from __future__ import annotations

from shared.incantris import match
from shared.incantris.arena import OCEAN, STREAM, as_hex
from shared.incantris.state import IncantrisState

COLOURS = {"red": "\033[31m", "blue": "\033[34m", "purple": "\033[35m", "grey": "\033[90m"}
RESET = "\033[0m"


def _letters(view: IncantrisState) -> dict[str, str]:
    return {wid: "ABCDEFGHIJKL"[i] for i, wid in enumerate(sorted(view.wizards))}


def render(view: dict, seat: int | None, colour: bool = False) -> str:
    seen = IncantrisState.of_view(view)
    a = match.arena(seen)
    letters = _letters(seen)
    marks: dict = {}
    for e in match.effects(seen):
        if e["spell"] in ("blaze", "power-circle"):
            for h in match.effect_hexes(e):
                marks.setdefault(h, "b" if e["spell"] == "blaze" else "p")
    for o in seen.obstacles:
        for spot in o["hexes"]:
            marks[as_hex(spot)] = {"tree": "T", "low-wall": "l", "high-wall": "H"}[o["kind"]]
    for e in match.effects(seen):
        if e["spell"] == "fog-wall":
            for spot in e["hexes"]:
                marks[as_hex(spot)] = "f"
        elif e["spell"] == "guardian-hydra":
            marks[as_hex(e["hex"])] = "h"
        elif e["spell"] == "spell-totem":
            marks[as_hex(e["hex"])] = "t"
    for h in match.crystal_hexes(seen):
        marks[h] = "*"
    team = {w["id"]: seen.sides[w["side"]]["team"] for w in seen.wizards.values()}
    for w in match.on_board(seen):
        c = letters[w["id"]]
        marks[as_hex(w["hex"])] = (COLOURS[team[w["id"]]] + c + RESET) if colour else c
    hexes = list(a.coverage)
    rmin, rmax = min(h[1] for h in hexes), max(h[1] for h in hexes)
    xmin = min(2 * h[0] + h[1] for h in hexes)
    lines = []
    for r in range(rmin, rmax + 1):
        row = [h for h in hexes if h[1] == r]
        if not row:
            continue
        cells = {2 * h[0] + h[1] - xmin: h for h in row}
        width = max(cells) + 1
        text = []
        for x in range(width):
            cell = cells.get(x)
            if cell is None:
                text.append(" ")
            elif cell in marks:
                text.append(marks[cell])
            elif cell in a.partial:
                text.append(":")
            else:
                text.append({OCEAN: "#", STREAM: "~"}.get(a.terrain[cell], "."))
        lines.append(f"{r:4d} " + "".join(text).rstrip())
    lines.append("")
    for wid in sorted(seen.wizards):
        w = seen.wizards[wid]
        where = "dead" if not w["alive"] else ("outside" if w["hex"] is None else f"at {w['hex']}")
        extra = []
        if w.get("sapped"):
            extra.append(f"sapped {w['sapped']}")
        if w.get("carrying"):
            extra.append("carrying the crystal")
        if w.get("items"):
            extra.append("items " + ", ".join(w["items"]))
        for e in match.effects(seen):
            if e.get("wizard") == wid:
                extra.append(e["spell"])
        lines.append(f"  {letters[wid]} {wid:22s} life {w['life']:2d}/{w['max']:2d} {where}"
                     + (" (" + "; ".join(extra) + ")" if extra else ""))
    t = seen.turn
    if seen.phase == "over":
        lines.append("  game over: winners " + ", ".join(seen.sides[i]["team"] for i in match.winners(seen)))
    elif t:
        who = seen.sides[t["side"]]["team"]
        doing = f" with {t['wizard']} ({t['mp']} movement left)" if t.get("wizard") else ""
        lines.append(f"  round {seen.round}, {who} to act{doing}")
    if seat is not None:
        lines.append(f"  you are seat {seat}")
    return "\n".join(lines)


def describe(action: dict) -> str:
    k = action.get("kind")
    if k == "cast":
        via = " from the totem" if action.get("from") else ""
        ring = " with the Power Ring" if action.get("ring") else ""
        return f"cast {action['spell']} at {action['target']}{via}{ring}"
    if k == "step":
        return f"step to {action['to']}"
    if k == "activate":
        return f"activate {action['wizard']}"
    if k == "place":
        return f"place {action['wizard']} at {action['hex']}"
    if k == "post":
        return f"post {action['wizard']} at entry {action['entry']}"
    if k == "end":
        return "end the turn"
    if k == "blaze":
        return "burn with the Blaze" if action["burn"] else "let the Blaze rest"
    if k in ("teleport", "reach", "relocate"):
        return f"{k} to {action['to']}"
    if k in ("hydra", "chain"):
        return f"{k} at {action['target']}"
    if k in ("cleanse", "cancel"):
        return f"{k} {action['effect']}"
    if k in ("sap", "pick-up"):
        return f"{k} the crystal at {action['hex']}"
    if k == "buy":
        return f"buy {action['item']} for {action['wizard']}"
    return " ".join([str(k)] + [f"{a}={b}" for a, b in sorted(action.items()) if a != "kind"])


def render_events(events: list[dict]) -> list[str]:
    out = []
    for e in events:
        t = e.get("type")
        if t == "dice":
            parts = [f"{p} {e[p]}" for p in ("cast", "ward") if p in e]
            again = " (reroll)" if e.get("reroll") else ""
            out.append(f"dice for {e['spell']} on {e['target']}: " + "; ".join(parts) + again)
        elif t == "hits":
            out.append(f"{e['spell']} on {e['target']}: {e['wands']} wands against {e['wards']} wards, "
                       f"{e['hits']} hits")
        elif t == "damage":
            out.append(f"{e['wizard']} loses {e['points']} life ({e['life']} left)")
        elif t == "heal":
            out.append(f"{e['wizard']} regains {e['points']} life ({e['life']})")
        elif t == "death":
            out.append(f"{e['wizard']} dies")
        elif t == "step":
            out.append(f"{e['wizard']} steps to {e['to']} ({e['cost']} movement)")
        elif t == "cast":
            out.append(f"{e['wizard']} casts {e['spell']} at {e['target']}")
        elif t == "activate":
            out.append(f"{e['wizard']} is activated ({e['movement']} movement points)")
        elif t == "token-drawn":
            out.append(f"the attacking team draws {e['wizard']}'s turn token")
        else:
            rest = ", ".join(f"{k}={v}" for k, v in sorted(e.items()) if k != "type")
            out.append(f"{t}: {rest}" if rest else str(t))
    return out
