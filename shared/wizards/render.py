"""Text drawing of a Wizards view for a terminal client, and one line per event.

The board is drawn row by row in its odd-r layout, one character per hex and one
between hexes ('|' where a wall runs between east-west neighbours). ANSI colour
(by Territory type) is optional.
"""
from __future__ import annotations

from shared.hexgrid import Hex, neighbour, spiral
from shared.wizards.geometry import board
from shared.wizards.pack import pack
from shared.wizards.world import world_of

GLYPH = {
    "plains": ".", "woods": "%", "mountains": "^", "town": "T", "dwelling": "E", "abbey": "A", "tower": "M",
    "cottage": "H", "lair": "L", "high_hollow": "O", "star_crest": "*", "circle": "@",
}
COLOUR = {"common": "\033[33m", "elven": "\033[32m", "magic": "\033[35m", "water": "\033[34m"}
RESET = "\033[0m"
LEGEND = ("~ water  . plains  % woods  ^ mountains  T town  E dwelling  A Shrineheart Abbey  M Sorcerer's Tower  "
          "H Hamdrel's Cottage  L Dragon's Lair  O High Hollow  * Star Crest  1-6 Sacred Circle stones (dots)  "
          "@ Center of the Sacred Circle  ? face-down tile  | wall\n"
          "a-f players (seat 0-5)  D Dragon  B Boat  x Demon  W Wizard marker  t your Task Marker")


def _world(view: dict):
    return world_of(tuple(sorted((t["tile"], t["at"][0], t["at"][1], t["rotation"])
                                 for t in view["tiles"]["placed"] if t["tile"])))


def _space(w, h) -> str:
    return w.space_name(h) if h is not None else "-"


def board_lines(view: dict, seat: int | None, colour: bool = False) -> list[str]:
    w = _world(view)
    b = board()
    hidden = set()
    for t in view["tiles"]["placed"]:
        if t["tile"] is None:
            hidden.update(spiral(tuple(t["at"]), 2))
    marks: dict[Hex, str] = {}
    for m in view["task_markers"]:
        if m["seat"] == seat:
            marks[tuple(m["at"])] = "t"
    for d in view["demons"]:
        marks[tuple(d)] = "x"
    for at in view["wizard_markers"].values():
        if at:
            marks[tuple(at)] = "W"
    for boat in view["boats"]:
        marks[tuple(boat["at"])] = "B"
    if view["dragon"]:
        marks[tuple(view["dragon"])] = "D"
    for p in view["players"]:
        if p["at"]:
            marks[tuple(p["at"])] = "abcdef"[p["seat"]]
    lines = []
    for row in range(b.rows):
        cells = [" " if row & 1 else ""]
        for col in range(b.columns):
            h = (col - (row - (row & 1)) // 2, row)
            s = w.spaces.get(h)
            if h in marks:
                g = marks[h]
            elif h in hidden:
                g = "?"
            elif s is None:
                g = "~"
            elif s.kind == "stone":
                g = str(s.dots)
            else:
                g = GLYPH[s.kind]
            if colour:
                g = f"{COLOUR[s.tile_type if s else 'water']}{g}{RESET}"
            east = neighbour(h, 0)
            sep = "|" if w.wall_between(h, east) else " "
            cells.append(g + sep)
        lines.append("".join(cells).rstrip())
    return lines


def render(view: dict, seat: int | None, colour: bool = False) -> str:
    w = _world(view)
    cal = view["calendar"]
    out = [f"WIZARDS - Day {cal['day']} of Fortnight {cal['fortnight']} (days played {cal['days_played']}/{view['days_limit']})"
           f" - Completion {view['completion']}, Thwart: {view['thwart']}"]
    if view["result"]:
        out.append(f"Match over: {view['result']['summary']}")
    elif view["await"]:
        who = view["await"]["seat"]
        out.append(f"Waiting for seat {who} ({'you' if who == seat else 'abcdef'[who]}): {view['await']['for'].replace('_', ' ')}")
    elif view["chance"]:
        out.append("Waiting for dice: " + "; ".join(view["chance"]["purposes"][:4]) + (" ..." if len(view["chance"]["purposes"]) > 4 else ""))
    out += board_lines(view, seat, colour)
    out.append(LEGEND)
    t = view["turn"]
    if t and t.get("roll"):
        out.append(f"Turn of seat {t['seat']}: white {t['roll']['white']}, red {t['roll']['red']}, "
                   f"{t['mp']} Movement Points left{' (movement over)' if t['ended'] else ''}")
    for p in view["players"]:
        at = tuple(p["at"]) if p["at"] else None
        order = p["order"] or "no Order"
        animal = f", {p['animal']['kind'].replace('_', ' ')} ({p['animal']['turns']} turns)" if p["animal"] else ""
        aff = f", {' and '.join(a.replace('_', ' ') for a in p['afflictions'])}" if p["afflictions"] else ""
        lair = f", Lair Time day {p['lair_time']}" if p["lair_time"] else ""
        boat = f", in Boat {p['boat']}" if p["boat"] is not None else ""
        pts = p["points"]
        out.append(f"{'abcdef'[p['seat']]} seat {p['seat']} {p['colour'] or ''}: {_space(w, at)}{boat} - {order} rank {p['rank']}, "
                   f"K{pts['knowledge']} P{pts['perception']} W{pts['power']}{animal}{aff}{lair}")
    if seat is not None and 0 <= seat < len(view["players"]):
        me = view["players"][seat]
        if me["gems"] or me["secret_record"] or me["false_wizard"]:
            out.append(f"Your secret records: gems {me['gems']}, secret wizards {me['secret_record']}, false wizard {me['false_wizard']}")
    hands = view["tiles"]["hands"]
    if any(hands):
        out.append("Tiles in hand: " + "; ".join(f"seat {i}: {', '.join(pack().tiles[x]['name'] for x in h)}" for i, h in enumerate(hands) if h))
    if view["tiles"]["stack"]:
        out.append(f"Face-down tiles to place: {view['tiles']['stack']}")
    return "\n".join(out)


def _dice(rolls: list[dict]) -> str:
    return ", ".join(f"{r['purpose'].split(':')[0]} {'+'.join(map(str, r['faces']))}" for r in rolls)


def render_events(events: list[dict]) -> list[str]:
    lines = []
    for e in events:
        t = e["type"]
        who = f"seat {e['seat']}" if "seat" in e else ""
        if t == "dice":
            if e.get("secret"):
                lines.append(f"dice rolled in secret for {e['for'].replace('_', ' ')} ({len(e['rolls'])} dice)")
            else:
                lines.append(f"dice for {e['for'].replace('_', ' ')}: {_dice(e['rolls'])}")
        elif t == "tile_placed":
            lines.append(f"{who} placed {e['name'] or 'a face-down tile'} at {e['at']} turned {e['rotation']}/6")
        elif t == "moved":
            lines.append(f"{who} {e['by']}s to {e['space']} for {e['cost']} MP ({e['points_left']} left)")
        elif t == "movement_roll":
            lines.append(f"{who} rolls white {e['white']} ({e['points']} MP), red {e['red']}"
                         f" ({'a Random Encounter may follow' if e['random_encounter'] else 'no Random Encounter'})")
        elif t == "encounter_due":
            kinds = ", ".join(x["kind"].replace("_", " ") for x in e["specific"]) or "none"
            lines.append(f"{who} encounters due - specific: {kinds}; random: {'yes' if e['random'] else 'no'}")
        elif t == "start_space":
            lines.append(f"{who} starts in {e['space']} (dice {e['dice']})")
        elif t == "dragon_moved" or t == "dragon_placed":
            lines.append(f"the Dragon goes to {e['space']} (dice {e['dice']})")
        elif t == "spell_cast":
            lines.append(f"{who} casts {e['spell'].replace('_', ' ')}: die {e['die']}, {'success' if e['success'] else 'fails'}")
        elif t == "transported":
            lines.append(f"{who} is transported to {e['space']} (dice {e['dice']})")
        elif t == "day_advanced":
            lines.append(f"the Day Marker moves to Day {e['day']} (Fortnight {e['fortnight']})")
        else:
            rest = ", ".join(f"{k} {v}" for k, v in e.items() if k not in ("type", "seat", "visible_to"))
            lines.append(f"{who + ' ' if who else ''}{t.replace('_', ' ')}{': ' + rest if rest else ''}")
    return lines
