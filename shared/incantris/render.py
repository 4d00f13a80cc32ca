"""Text pictures of the arena and one-line stories of events, for a terminal client.

The arena is drawn row by row (pointy-top hexes, odd rows shifted half a cell). Every cell has
a name, a column letter and a row number ("Q17"), printed on a ruler above and below the map and
beside every row, and the action labels name cells the same way (`cell`), so a choice can be
found on the map. A column's cells stand under its letter in even rows and half a cell to the
right in odd rows. The names are the same in every arena (the centre of the arena is Q17):
    column  q + (r - (r & 1)) / 2, lettered from A (-16) on: A..Z, then AA..AG
    row     r + 17
Symbols (the legend under the map repeats them):
  .  open ground     ~  stream     #  ocean     :  partial hex (off limits)
  T  tree   l  low wall   H  high wall   h  hydra   t  spell totem   f  fog wall
  *  crystal   1-3  the attacking wizards' entry points (solo)   A-L  wizards (listed below)
  b / p  blaze / power circle (drawn where nothing else stands)
"""
from __future__ import annotations

from shared.hexgrid import Hex
from shared.incantris import match, movement
from shared.incantris.arena import OCEAN, STREAM, as_hex
from shared.incantris.pack import load
from shared.incantris.state import IncantrisState

# Every roll of this game is drawn by its own events (a spell's casting and warding dice, re-rolls
# included: "dice"; the solo game's attacking turn token: "token-drawn"), so a terminal client need
# not print the platform's roll lines too.
ROLLS_SHOWN = True

COLOURS = {"red": "\033[31m", "blue": "\033[34m", "purple": "\033[35m", "grey": "\033[90m"}
RESET = "\033[0m"
COLUMN0 = -16  # the column lettered A
ROW0 = -17  # row 1 is r = -16
LEGEND = [(".", "open ground"), ("~", "stream"), ("#", "ocean"), (":", "partial hex, off limits"), ("T", "tree"),
          ("l", "low wall"), ("H", "high wall"), ("h", "hydra"), ("t", "spell totem"), ("f", "fog wall"),
          ("*", "crystal"), ("b", "blaze"), ("p", "power circle"), ("1-3", "entry points"), ("A-L", "wizards")]


def column(h: Hex) -> int:
    """The offset column of a hex (odd rows shifted right)."""
    q, r = h
    return q + (r - (r & 1)) // 2


def column_name(col: int) -> str:
    n = col - COLUMN0
    if n < 0:
        return f"({col})"
    return chr(65 + n) if n < 26 else "A" + chr(65 + n - 26)


def cell(h) -> str:
    """A hex's name as the map prints it: column letter, then row number ("Q17")."""
    h = as_hex(h)
    return f"{column_name(column(h))}{h[1] - ROW0}"


def _letters(view: IncantrisState) -> dict[str, str]:
    return {wid: "ABCDEFGHIJKL"[i] for i, wid in enumerate(sorted(view.wizards))}


def _ruler(cols: range, indent: int) -> str:
    text = [" "] * (2 * len(cols) + 2)
    for i, c in enumerate(cols):
        name = column_name(c)
        text[2 * i:2 * i + len(name)] = list(name)
    return " " * indent + "".join(text).rstrip()


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
    entry_at = {as_hex(en["at"]): str(i + 1) for i, en in enumerate(seen.entries)}
    team = {w["id"]: seen.sides[w["side"]]["team"] for w in seen.wizards.values()}
    for w in match.on_board(seen):
        c = letters[w["id"]]
        marks[as_hex(w["hex"])] = (COLOURS[team[w["id"]]] + c + RESET) if colour else c
    hexes = set(a.coverage) | set(entry_at)
    rmin, rmax = min(h[1] for h in hexes), max(h[1] for h in hexes)
    cols = range(min(column(h) for h in hexes), max(column(h) for h in hexes) + 1)
    indent = 5
    lines = [_ruler(cols, indent)]
    for r in range(rmin, rmax + 1):
        row = {h for h in hexes if h[1] == r}
        if not row:
            continue
        text = [" "] * (2 * len(cols) + 1)
        for h in row:
            x = 2 * (column(h) - cols.start) + (r & 1)
            if h in entry_at:
                text[x] = entry_at[h]
            elif h in marks:
                text[x] = marks[h]
            elif h in a.partial:
                text[x] = ":"
            else:
                text[x] = {OCEAN: "#", STREAM: "~"}.get(a.terrain[h], ".")
        lines.append(f"{r - ROW0:>3}  " + "".join(text).rstrip() + f"  {r - ROW0}")
    lines.append(_ruler(cols, indent))
    lines.append("  " + "   ".join(f"{k} {v}" for k, v in LEGEND[:8]))
    lines.append("  " + "   ".join(f"{k} {v}" for k, v in LEGEND[8:]))
    for i, en in enumerate(seen.entries):
        lines.append(f"  entry point {i + 1} at {cell(en['at'])}: steps into "
                     + " or ".join(cell(h) for h in en["hexes"]))
    lines.append("")
    for wid in sorted(seen.wizards):
        w = seen.wizards[wid]
        if not w["alive"]:
            where = "dead"
        elif w["hex"] is not None:
            where = f"at {cell(w['hex'])}"
        elif w["entry"] is not None:
            where = f"outside, at entry point {w['entry'] + 1}"
        else:
            where = "outside"
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
        if seen.result and seen.result.get("stalemate"):
            lines.append("  (a stalemate: " + ("ten quiet rounds" if seen.result["stalemate"] == "quiet"
                                               else "the round limit") + ")")
    elif t:
        who = seen.sides[t["side"]]["team"]
        doing = f" with {t['wizard']} ({t['mp']} movement left)" if t.get("wizard") else ""
        lines.append(f"  round {seen.round}, {who} to act{doing}")
    if seat is not None:
        lines.append(f"  you are seat {seat}")
    return "\n".join(lines)


def _target(t) -> str:
    """A spell's target as the map names it: a wizard, a cell, or the cells of a Fog Wall."""
    if isinstance(t, str):
        return t
    if t and isinstance(t[0], (list, tuple)):
        return " and ".join(cell(h) for h in t)
    return cell(t)


def describe(action: dict) -> str:
    k = action.get("kind")
    if k == "cast":
        via = " from the totem" if action.get("from") else ""
        ring = " with the Power Ring" if action.get("ring") else ""
        t = action["target"]
        on = "at" if isinstance(t, str) else ("on" if t and isinstance(t[0], (list, tuple)) else "at")
        return f"cast {action['spell']} {on} {_target(t)}{via}{ring}"
    if k == "step":
        return f"step to {cell(action['to'])}"
    if k == "activate":
        return f"activate {action['wizard']}"
    if k == "place":
        return f"place {action['wizard']} at {cell(action['hex'])}"
    if k == "post":
        return f"post {action['wizard']} at entry point {action['entry'] + 1}"
    if k == "end":
        return "end the turn"
    if k == "blaze":
        return "burn with the Blaze" if action["burn"] else "let the Blaze rest"
    if k in ("teleport", "reach", "relocate"):
        return f"{k} to {cell(action['to'])}"
    if k in ("hydra", "chain"):
        return f"{k} at {action['target']}"
    if k in ("cleanse", "cancel"):
        return f"{k} {action['effect']}"
    if k in ("sap", "pick-up"):
        return f"{k} the crystal at {cell(action['hex'])}"
    if k == "buy":
        return f"buy {action['item']} for {action['wizard']}"
    return " ".join([str(k)] + [f"{a}={b}" for a, b in sorted(action.items()) if a != "kind"])


def _effect(ref: str) -> str:
    """An effect's id ("caster:spell") as words: "red-sorceress's guardian-hydra"."""
    caster, _, spell = str(ref).partition(":")
    return f"{caster}'s {spell}" if spell else caster


def _at(e: dict, field: str) -> str:
    return cell(e[field])  # a missing field falls back to the fields as they are (_plain)


# one plain line for each event of the game's bookkeeping, so no field dump reaches the player
PLAIN = {
    "placed": lambda e: f"{e['wizard']} is placed at {_at(e, 'hex')}",
    "posted": lambda e: f"{e['wizard']} waits at entry point {e['entry'] + 1}",
    "round": lambda e: f"round {e['round']} begins",
    "turn": lambda e: f"round {e['round']}: seat {e['seat']}'s turn",
    "end-turn": lambda e: f"{e['wizard']} ends its turn",
    "round-end": lambda e: f"round {e['round']} ends" + (f" ({e['quiet']} quiet in a row)" if e.get("quiet") else ""),
    "effect-placed": lambda e: (f"{_effect(e['effect'])} is placed"
                                + next((f" at {_at(e, k)}" for k in ("hex", "centre") if e.get(k) is not None), "")),
    "effect-ended": lambda e: f"{_effect(e['effect'])} ends ({e.get('reason', 'over')})",
    "effect-moved": lambda e: (f"{_effect(e['effect'])} moves to "
                               + (e.get("wizard") or _at(e, "hex" if "hex" in e else "centre"))),
    "chain-jump": lambda e: f"the chain jumps to {e['to']}",
    "eliminated": lambda e: f"seat {e['seat']} is out of the match",
    "hydra": lambda e: f"{e['wizard']}'s hydra strikes at {e['target']}",
    "pick-up": lambda e: f"{e['wizard']} picks up the crystal at {_at(e, 'hex')}",
    "shift": lambda e: "the arena shifts: " + ", ".join(f"tile {t}" for t in e.get("tiles", [])),
    "cleansing-fire": lambda e: f"{e['wizard']}'s Cleansing Fire cancels {_effect(e['effect'])}",
    "retribution": lambda e: f"{e['knight']}'s Retribution strikes back at {e['target']}",
    "bear-presence": lambda e: f"{e['wizard']} stops at {_at(e, 'at')}: Bear Presence",
}


def _plain(e: dict) -> str | None:
    try:
        return PLAIN[e["type"]](e)
    except (KeyError, TypeError, IndexError):  # a field this line does not know: the fields as they are
        return None


def render_events(events: list[dict]) -> list[str]:
    out = []
    for e in events:
        t = e.get("type")
        if t == "dice":
            parts = [f"{p} {' '.join(map(str, e[p])) if isinstance(e[p], list) else e[p]}" for p in ("cast", "ward")
                     if p in e]
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
            out.append(f"{e['wizard']} steps to {cell(e['to'])} ({e['cost']} movement)")
        elif t == "cast":
            out.append(f"{e['wizard']} casts {e['spell']} at {_target(e['target'])}")
        elif t in ("teleported", "pulled", "relocated") and e.get("to") is not None:
            out.append(f"{e.get('wizard') or e.get('effect')} {t} to {cell(e['to'])}")
        elif t == "stalemate":
            out.append(f"stalemate: the match ends ({'ten quiet rounds' if e['why'] == 'quiet' else 'round limit'})")
        elif t == "activate":
            out.append(f"{e['wizard']} is activated ({e['movement']} movement points)")
        elif t == "player-resigned":
            out.append(f"seat {e['seat']} resigns: its wizards leave the arena")
        elif t == "chosen-for-resigned":
            out.append(f"seat {e['seat']}, who resigned, takes {describe(e['action'])}")
        elif t == "token-drawn":
            out.append(f"the attacking team draws {e['wizard']}'s turn token")
        elif t in PLAIN and (line := _plain(e)) is not None:
            out.append(line)
        else:
            rest = ", ".join(f"{k}={v}" for k, v in sorted(e.items()) if k != "type")
            out.append(f"{t}: {rest}" if rest else str(t))
    return out


# --- choosing at a terminal (services/cli/choosing.py) ------------------------------------------
# after the first drawing a terminal prints only the rows that changed, under the column ruler
REDRAW_CHANGES = 1


def group(action: dict) -> str | None:
    """The heading a choice is listed under first: a spell (then its target), a move (then where to)."""
    k = action.get("kind")
    if k == "cast":
        return f"cast {action['spell']}" + (" from the totem" if action.get("from") else "")  # as its labels name it
    if k == "step":
        return "move"
    if k == "place":
        return f"place {action['wizard']}"
    return None


def more_choices(view: dict, seat: int, actions: list[dict], ask) -> list[tuple[str, list[dict], str]]:
    """A whole path as one choice: every hex the active wizard can end its movement on, the way
    there being the engine's own cheapest path (the `reachable` query); each step is still checked
    by the engine as it is taken. One-hex moves are the step actions themselves."""
    turn = view.get("turn") or {}
    if not turn.get("wizard") or not any(a.get("kind") == "step" for a in actions):
        return []
    answer = ask({"kind": "reachable", "wizard": turn["wizard"]})
    out = []
    for spot in sorted(answer.get("hexes", []), key=lambda s: (s["cost"], len(s["path"]), s["hex"][1], s["hex"][0])):
        path = spot["path"]
        if len(path) < 2 or spot.get("partial"):
            continue
        by = " ".join(cell(h) for h in path[:-1])
        out.append((f"move to {cell(spot['hex'])} ({spot['cost']} movement, by {by})",
                    [{"kind": "step", "to": list(h)} for h in path], "move"))
    return out


def _spell_name(key: str) -> str:
    spell = load().spells.get(key)
    return spell.name if spell else key


def _spell_help(key: str) -> str:
    p = load()
    s, raw = p.spells[key], p.data["spells"][key]
    dice = "no roll (Auto)" if s.auto else f"{raw['dice']} casting dice"
    lasting = "; it stays in play (persistent)" if s.persistent else ""
    return (f"{s.name}: range {s.range}, target {s.target.replace('-', ' ')}, {dice}{lasting}.\n"
            f"    {raw.get('section', '')}")


def _wizard_help(view: dict, wid: str) -> str:
    p = load()
    w = view["wizards"].get(wid)
    if w is None:
        return wid
    kind = p.types[p.wizards[wid].type] if wid in p.wizards else None
    if kind is None:
        return wid
    ward = ", ".join(f"{src} {dice}" for src, dice in kind.ward.items())
    ability = p.data["abilities"].get(kind.ability, {})
    spells = ", ".join(_spell_name(s) for s in p.wizards[wid].spells)
    return (f"{wid} ({kind.name}): life {w['life']}/{kind.life}, movement {kind.movement}, "
            f"casts {kind.power} spells, wards {ward}; spells {spells}.\n"
            f"    {ability.get('name', kind.ability)}: {ability.get('section', '')}")


def help_text(view: dict, seat: int, actions: list[dict]) -> str:
    """The rules for what is on offer, from the pack (content/incantris.json): each spell's range,
    target and dice with its reference text; for a move or an activation, the wizard's card."""
    out = []
    spells = list(dict.fromkeys(a["spell"] for a in actions if a.get("kind") == "cast"))
    for key in spells:
        out.append(_spell_help(key))
    wizards = list(dict.fromkeys(a["wizard"] for a in actions if a.get("kind") in ("activate", "place", "post")))
    turn = view.get("turn") or {}
    if any(a.get("kind") == "step" for a in actions) and turn.get("wizard"):
        rules = [movement.ADJACENT, movement.STREAM_POINTS, movement.FOE, movement.SHARE, movement.OBSTACLE,
                 movement.PARTIAL, movement.OCEAN_HEX, movement.BEAR_STOP]
        out.append(f"moving: {turn['wizard']} has {turn['mp']} movement left (type part of a cell, e.g. Q17, to "
                   f"find a destination on the map). {movement.MT}: " + " ".join(f'"{c.text}"' for c in rules))
        wizards.insert(0, turn["wizard"])
    for wid in dict.fromkeys(wizards):
        out.append(_wizard_help(view, wid))
    if any(a.get("kind") == "end" for a in actions):
        out.append("end the turn: the wizard's turn is over; the next wizard is activated")
    return "\n".join(out) if out else "choose by number: each choice is a legal action of the rules"
