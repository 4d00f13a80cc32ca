"""Text drawing of a Wizards view for a terminal client, and one line per event.

The board is drawn as pointy-top hexes in its odd-r layout, two text lines per board
row. Each hex is three characters wide: its terrain glyph in the middle, a player on
the left, a marker (Dragon, Wizard, Demon, Boat, Task Marker) on the right. Every hex
side has its own character between the hexes: '#' is a wall (whatever way the side
runs), '|' '/' '\\' outline each Territory tile, and sides inside a tile are blank.
Once every tile is down the drawing is cropped to the islands and a ring of Water.
ANSI colour (by Territory type, walls in red) is optional.
"""
from __future__ import annotations

from dataclasses import dataclass

from shared.hexgrid import Hex, neighbour, spiral
from shared.wizards.geometry import board
from shared.wizards.pack import pack
from shared.wizards.world import view_world

GLYPH = {
    "plains": ".", "woods": "%", "mountains": "^", "town": "T", "dwelling": "E", "abbey": "A", "tower": "M",
    "cottage": "H", "lair": "L", "high_hollow": "O", "star_crest": "*", "circle": "@",
}
WATER, FACE_DOWN, WALL, TAKEN = "~", "?", "#", "X"
# The character of an outlined side in each direction (E, SE, SW, W, NW, NE): pointy-top hexes.
OUTLINE = ("|", "/", "\\", "|", "/", "\\")
COLOUR = {"common": "\033[33m", "elven": "\033[32m", "magic": "\033[35m", "water": "\033[34m", "wall": "\033[1;31m"}
RESET = "\033[0m"
PLAYERS = "abcdef"
POINT_LETTER = {"knowledge": "K", "perception": "P", "power": "W"}  # as in each player's line
MARGIN = 9  # "r12 q -3 " before each row: the row (r) and the q of its first hex
LEGEND = (
    "~ water  . plains  % woods  ^ mountains  T town  E dwelling  A Shrineheart Abbey  M Sorcerer's Tower\n"
    "H Hamdrel's Cottage  L Dragon's Lair  O High Hollow  * Star Crest  1-6 Sacred Circle stones (dots)\n"
    "@ Center of the Sacred Circle  ? face-down tile  X a Territory taken by Evil (12.12)  # wall  | / \\ tile edges\n"
    "left of a space: a-f players (seat 0-5); right of it: D Dragon  W Wizard marker  S Secret Wizard marker\n"
    "x Demon  B Boat  t your Task Marker  o another's Task Marker  + more than one (see the list below)")


def _space(w, h) -> str:
    return w.space_name(h) if h is not None else "-"


@dataclass(frozen=True)
class Frame:
    """The rows and columns of board hexes drawn, and where each hex and side lands in the text."""

    col0: int
    col1: int
    row0: int
    row1: int

    def hexes(self) -> list[Hex]:
        return [(col - (row - (row & 1)) // 2, row) for row in range(self.row0, self.row1 + 1)
                for col in range(self.col0, self.col1 + 1)]

    def cell(self, h: Hex) -> tuple[int, int]:
        """(line, column) of the middle character of hex h: its terrain glyph."""
        col, row = board().offset(h)
        return 2 * (row - self.row0) + 1, MARGIN + 4 * (col - self.col0) + 2 * (row & 1) + 2

    def side(self, h: Hex, direction: int) -> tuple[int, int]:
        """(line, column) of the character drawn for the side of h in `direction` (0 = E, clockwise)."""
        line, x = self.cell(h)
        return {0: (line, x + 2), 1: (line + 1, x + 1), 2: (line + 1, x - 1), 3: (line, x - 2),
                4: (line - 1, x - 1), 5: (line - 1, x + 1)}[direction]

    @property
    def size(self) -> tuple[int, int]:
        return 2 * (self.row1 - self.row0 + 1) + 1, MARGIN + 4 * (self.col1 - self.col0 + 1) + 4


def frame_for(view: dict) -> Frame:
    """The whole board while tiles are still to be placed; afterwards the islands and one ring of Water."""
    b = board()
    t = view["tiles"]
    placing = t["stack"] or any(t["hands"]) or not t["placed"]
    if placing:
        return Frame(0, b.columns - 1, 0, b.rows - 1)
    land = [h for p in t["placed"] for h in spiral(tuple(p["at"]), 3)]
    cols = [b.offset(h)[0] for h in land if h in b.hexes]
    rows = [b.offset(h)[1] for h in land if h in b.hexes]
    return Frame(min(cols), max(cols), min(rows), max(rows))


def _tokens(view: dict, seat: int | None) -> tuple[dict, dict]:
    """Per hex: the players (left of the glyph) and the markers (right of it), in drawing order."""
    players: dict[Hex, list[str]] = {}
    marks: dict[Hex, list[str]] = {}
    for p in view["players"]:
        if p["at"]:
            players.setdefault(tuple(p["at"]), []).append(PLAYERS[p["seat"]])

    def mark(at, c):
        if at:
            marks.setdefault(tuple(at), []).append(c)
    mark(view["dragon"], "D")
    for at in view["wizard_markers"].values():
        mark(at, "W")
    for sw in view["secret_wizards"]:
        mark(sw.get("at"), "S")
    for d in view["demons"]:
        mark(d, "x")
    for boat in view["boats"]:
        mark(boat["at"], "B")
    for m in view["task_markers"]:
        mark(m["at"], "t" if m["seat"] == seat else "o")
    return players, marks


def board_lines(view: dict, seat: int | None, colour: bool = False) -> list[str]:
    w = view_world(view)
    frame = frame_for(view)
    hidden: dict[Hex, bool] = {}
    tile_at: dict[Hex, str] = {}  # which tile covers a hex (face-down ones by their position)
    for i, t in enumerate(view["tiles"]["placed"]):
        for h in spiral(tuple(t["at"]), 2):
            tile_at[h] = t["tile"] or f"face-down {i}"
            if t["tile"] is None:
                hidden[h] = True
    players, marks = _tokens(view, seat)
    taken = set(view.get("taken") or ())
    height, width = frame.size
    grid = [[" "] * width for _ in range(height)]
    style: dict[tuple[int, int], str] = {}
    for h in frame.hexes():
        line, x = frame.cell(h)
        s = w.spaces.get(h)
        if h in hidden:
            glyph = FACE_DOWN
        elif s is not None and s.tile in taken:
            glyph = TAKEN
        elif s is None:
            glyph = WATER
        elif s.kind == "stone":
            glyph = str(s.dots)
        else:
            glyph = GLYPH[s.kind]
        grid[line][x] = glyph
        style[(line, x)] = s.tile_type if s else ("magic" if h in hidden else "water")
        left, right = players.get(h, []), marks.get(h, [])
        rest = left[1:] + right
        grid[line][x - 1] = left[0] if left else " "
        grid[line][x + 1] = rest[0] if len(rest) == 1 else ("+" if rest else " ")
        for d in range(6):
            n = neighbour(h, d)
            if w.wall_between(h, n):
                char = WALL
                style[frame.side(h, d)] = "wall"
            elif tile_at.get(h) != tile_at.get(n):
                char = OUTLINE[d]
            else:
                continue
            sl, sx = frame.side(h, d)
            grid[sl][sx] = char
    for row in range(frame.row0, frame.row1 + 1):
        first = (frame.col0 - (row - (row & 1)) // 2, row)
        label = f"r{row:<2} q{first[0]:>3} "
        line = 2 * (row - frame.row0) + 1
        grid[line][:MARGIN] = list(label.ljust(MARGIN))
    out = []
    for i, chars in enumerate(grid):
        if colour:
            chars = [f"{COLOUR[style[(i, j)]]}{c}{RESET}" if (i, j) in style else c for j, c in enumerate(chars)]
        out.append("".join(chars).rstrip())
    return out


def tile_key(view: dict, width: int = 110) -> list[str]:
    """Which tile lies where: its id, name and the [q, r] of its Center, a few to a line."""
    parts = []
    for t in view["tiles"]["placed"]:
        name = f"{t['tile']} {pack().tiles[t['tile']]['name']}" if t["tile"] else "face-down tile"
        parts.append(f"{name} at {t['at']}")
    if not parts:
        return ["Tiles: none placed yet"]
    lines, line = [], "Tiles:"
    for part in parts:
        if len(line) + len(part) + 2 > width:
            lines.append(line + ";")
            line = "      "
        line += (" " if line.endswith(":") or not line.strip() else "; ") + part
    return lines + [line]


def _markers(view: dict, w) -> list[str]:
    """Where the Dragon, Boats, Demons and Wizard and Task Markers stand, by space name."""
    at = lambda h: _space(w, tuple(h)) if h else "-"
    out = [f"Dragon: {at(view['dragon'])}"] if view["dragon"] else []
    if view["boats"]:
        boats = [f"{b['id']} {at(b['at'])}" + (f" ({PLAYERS[b['rider']]} aboard)" if b["rider"] is not None else "")
                 for b in view["boats"]]
        out.append("Boats: " + "; ".join(boats))
    if view["demons"]:
        out.append("Demons: " + "; ".join(at(d) for d in view["demons"]))
    wizards = [f"{name} {at(h)}" for name, h in view["wizard_markers"].items() if h]
    wizards += [f"Secret {sw['letter']} {at(sw['at'])}" for sw in view["secret_wizards"] if sw.get("at")]
    if wizards:
        out.append("Wizard markers: " + "; ".join(wizards))
    if view["task_markers"]:
        out.append("Task Markers: " + "; ".join(f"{PLAYERS[m['seat']]} {at(m['at'])}" for m in view["task_markers"]))
    return out


def _player_line(p: dict, w) -> str:
    at = tuple(p["at"]) if p["at"] else None
    order = p["order"] or "no Order"
    animal = f", {p['animal']['kind'].replace('_', ' ')} ({p['animal']['turns']} turns)" if p["animal"] else ""
    aff = f", {' and '.join(a.replace('_', ' ') for a in p['afflictions'])}" if p["afflictions"] else ""
    lair = f", Lair Time day {p['lair_time']}" if p["lair_time"] else ""
    boat = f", in Boat {p['boat']}" if p["boat"] is not None else ""
    pts = p["points"]
    return (f"{PLAYERS[p['seat']]} seat {p['seat']} {p['colour'] or ''}: {_space(w, at)}{boat} - {order} "
            f"rank {p['rank']}, K{pts['knowledge']} P{pts['perception']} W{pts['power']}{animal}{aff}{lair}")


def calendar_line(view: dict) -> str:
    """The Day Marker, the coming Evil attack on Day 14 (12.1) and what stands against it (12.2)."""
    cal = view["calendar"]
    limit = view.get("days_limit")
    played = f"days played {cal['days_played']}" + (f" of {limit}" if limit else "")
    to_attack = (14 - cal["day"]) % 14
    attack = "the Evil attacks today" if to_attack == 0 else f"the Evil attacks on Day 14, in {to_attack} days"
    banked = view.get("thwarts") or 0
    thwarted = f"thwarted ({banked} banked)" if view["thwart"] == "thwarted" else "not thwarted"
    line = (f"WIZARDS - Day {cal['day']} of Fortnight {cal['fortnight']} ({played}) - {attack}, {thwarted}; "
            f"Tasks completed {view['completion']} (one thwart per 10)")
    if view.get("taken"):
        line += "\nLost to Evil: " + ", ".join(pack().tiles[t]["name"] for t in view["taken"])
    return line


def record_lines(view: dict, seat: int) -> list[str]:
    """The seat's own Record Sheet (14.2): Order and Rank, points against the next Rank, Tasks
    and their markers, Gems, Secret Wizards and the spells it may cast now. Drawn for its own
    seat only: the Gem and Secret Wizard Records are confidential (14.3)."""
    from shared.wizards.queries import record_sheet

    w = view_world(view)
    r = record_sheet(view, seat)
    pts, nxt = r["points"], r["next_rank"]
    order = f"{r['order'].title()}, rank {r['rank']} ({r['title']})" if r["order"] else "no Order yet"
    want = " - next rank at " + " ".join(f"{POINT_LETTER[t]}{n}" for t, n in nxt.items()) if nxt else ""
    out = ["Your Record Sheet:", f"  {order}: K{pts['knowledge']} P{pts['perception']} W{pts['power']}{want}"]
    for task in r["tasks"]:
        card = pack().task(task["card"])
        steps = " > ".join(("[x] " if s["done"] else "[ ] ") + _step_text(s, w) for s in task["steps"])
        out.append(f"  Task {task['card']} {card['name']} ({'Mandatory' if task['mandatory'] else 'Optional'}): "
                   f"{steps}")
    gems = ", ".join(f"{g} from {who}" for who, g in r["gems"].items()) if r["gems"] else "none"
    out.append(f"  Gems: {gems}" + (f"; False Wizard: {r['false_wizard']}" if r["false_wizard"] else ""))
    if r["secret_record"]:
        out.append("  Secret Wizards: " + ", ".join(f"{k} {v}" for k, v in r["secret_record"].items()))
    spells = sorted({s["spell"].replace("_", " ") for s in r["spells"]})
    out.append(f"  Spells you may cast: {', '.join(spells) or 'none'}")
    return out


def _step_text(step: dict, w) -> str:
    if step["do"] == "meet":
        return "meet " + step["whom"].replace("_", " ")
    if step["do"] == "visit_every":
        return f"visit every {step['kind']} ({len(step.get('visited', []))} so far)"
    where = _space(w, tuple(step["at"])) if step.get("at") else "not marked"
    return f"{step['do']} {step.get('object', '')} at {where}".replace("  ", " ")


def tile_preview(view: dict, seat: int | None) -> list[str]:
    """The shape of the tile the seat has chosen to place (3.21-3.23), turned as it would
    be laid, before it picks where and which way: its terrain, one glyph a space."""
    from shared.wizards.geometry import placed_hex

    chosen = view["tiles"].get("selected")
    if not chosen or not chosen.get("tile") or seat is None or view["tiles"]["placer"] != seat:
        return []
    spaces = pack().tiles[chosen["tile"]]["spaces"]
    cells = {placed_hex((0, 0), 0, label): GLYPH.get(spaces[label]["kind"], "?") for label in pack().labels}
    rows = sorted({r for _, r in cells})
    cols = [q + (r - (r & 1)) // 2 for q, r in cells]
    lines = [f"The tile you chose, {pack().tiles[chosen['tile']]['name']}, unturned (rotation 0):"]
    for r in rows:
        line = " " * (2 + (r & 1))
        for col in range(min(cols), max(cols) + 1):
            q = col - (r - (r & 1)) // 2
            line += (cells.get((q, r), " ") + " ")
        lines.append(line.rstrip())
    return lines


def render(view: dict, seat: int | None, colour: bool = False) -> str:
    w = view_world(view)
    out = [calendar_line(view)]
    if view["result"]:
        out.append(f"Match over: {view['result']['summary']}")
    elif view["await"]:
        who = view["await"]["seat"]
        out.append(f"Waiting for seat {who} ({'you' if who == seat else PLAYERS[who]}): "
                   f"{view['await']['for'].replace('_', ' ')}")
    elif view["chance"]:
        purposes = view["chance"]["purposes"]
        out.append("Waiting for dice: " + "; ".join(purposes[:4]) + (" ..." if len(purposes) > 4 else ""))
    out += board_lines(view, seat, colour)
    out.append(LEGEND)
    out += tile_key(view)
    t = view["turn"]
    if t and t.get("roll"):
        out.append(f"Turn of seat {t['seat']}: white {t['roll']['white']}, red {t['roll']['red']}, "
                   f"{t['mp']} Movement Points left{' (movement over)' if t['ended'] else ''}")
    out += [_player_line(p, w) for p in view["players"]]
    out += _markers(view, w)
    if seat is not None and 0 <= seat < len(view["players"]):
        out += record_lines(view, seat)
    out += tile_preview(view, seat)
    hands = view["tiles"]["hands"]
    if any(hands):
        held = [f"seat {i}: {', '.join(pack().tiles[x]['name'] for x in h)}" for i, h in enumerate(hands) if h]
        out.append("Tiles in hand: " + "; ".join(held))
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
            outcome = "success" if e["success"] else "fails"
            lines.append(f"{who} casts {e['spell'].replace('_', ' ')}: die {e['die']}, {outcome}")
        elif t == "transported":
            lines.append(f"{who} is transported to {e['space']} (dice {e['dice']})")
        elif t == "withdrew":
            lines.append(f"{who}{' (' + e['colour'] + ')' if e.get('colour') else ''} withdraws from the game")
        elif t == "turn_passed":
            lines.append(f"{who}'s turn is passed: the player withdrew")
        elif t == "chosen_for_withdrawn":
            lines.append(f"{who}, who withdrew, takes {str(e['action'].get('kind', 'a choice')).replace('_', ' ')}")
        elif t == "day_advanced":
            lines.append(f"the Day Marker moves to Day {e['day']} (Fortnight {e['fortnight']})")
        elif t == "evil_attacks":
            what = "a Territory falls" if e["takeover"] else "every player is transported"
            lines.append(f"Day 14: the Evil Spirit attacks ({what}, 12.1)")
        elif t == "attack_thwarted":
            lines.append(f"Day 14: the Evil is thwarted, turns as usual ({e['banked']} thwarts still banked, 12.21)")
        elif t == "territory_taken":
            lines.append(f"{e['name']} ({e['tile']}) is taken over by Evil ({e['markers']} markers, 12.12)")
        else:
            rest = ", ".join(f"{k} {v}" for k, v in e.items() if k not in ("type", "seat", "visible_to"))
            lines.append(f"{who + ' ' if who else ''}{t.replace('_', ' ')}{': ' + rest if rest else ''}")
    return lines


# --- help at a terminal prompt (services/cli/choosing.py) ----------------------------------------
SPELL_TYPES = {"A": "a Movement Spell", "B": "an Encounter Spell", "C": "a Special Spell"}
# the modules whose docstrings list the items an encounter is resolved through
ITEM_MODULES = ("adversaries", "eventcards", "evil", "fate", "meetings", "randoms", "tasks", "wizardcards")


def _item_docs() -> dict[str, str]:
    """What each kind of pending item is, as its module's docstring writes it (`{"do": kind, ...}`
    and the indented lines under it)."""
    import importlib
    import re

    out: dict[str, str] = {}
    for name in ITEM_MODULES:
        lines = (importlib.import_module(f"shared.wizards.{name}").__doc__ or "").splitlines()
        for i, line in enumerate(lines):
            m = re.match(r'(\s*)\{"do": "(\w+)"', line)
            if not m:
                continue
            text = [line.strip()]
            for more in lines[i + 1:]:
                if not more.strip() or len(more) - len(more.lstrip()) <= len(m.group(1)):
                    break
                text.append(more.strip())
            prose = re.sub(r'^\{[^}]*\}\??\s*', "", " ".join(text))  # the item's fields are not for a player
            if prose and not re.search(r'[{}\[\]"]', prose):  # plain words only, no field notes
                out.setdefault(m.group(2), prose)
    return out


def _encounter_help(view: dict, item: dict) -> list[str]:
    kind = str(item.get("do", ""))
    out = [f"Now: {kind.replace('_', ' ')}" + (f" (rule {item['rule']})" if item.get("rule") else "")]
    doc = _item_docs().get(kind)
    if doc:
        out.append(f"    {doc}")
    events = view.get("discards", {}).get("event") or []
    if str(item.get("rule", "")).startswith("8.5") and events:  # an Event Card's effect (8.5, 8.51)
        card = pack().event(events[-1])
        out.append(f"    the Event Card drawn last: {card['name']} ({card['type']}): {card['text']}")
    return out


def _spell_help(spell: str, known: list[dict]) -> str:
    """A spell's type (content/orders.json), the seat's own Spell Table entries for it, and how it succeeds."""
    kind = pack().raw["orders"]["spell_types"].get(spell)
    def shown(v) -> str:
        return "unlimited" if v is None else ", ".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)

    rows = ["; ".join(f"{k.replace('_', ' ')} {shown(v)}" for k, v in s.items() if k != "spell")
            for s in known if s["spell"] == spell]
    rows = [r for r in rows if r]
    at_rank = f" At your Order and Rank: {' | '.join(rows)}." if rows else ""
    return (f"{spell.replace('_', ' ').title()}: {SPELL_TYPES.get(kind, 'a spell')} (type {kind}).{at_rank} "
            "Cast with one die: 1-5 succeeds, a 6 fails (11.1); Demon Dazed, only 1-3 succeeds (7.3043 c).")


def help_text(view: dict, seat: int, actions: list[dict]) -> str:
    """The rules for what is on offer: the encounter being resolved (the item's rule and what it
    does, the Event Card drawn), the spells offered with the seat's own Spell Table entries, and
    the seat's Tasks."""
    from shared.wizards.queries import record_sheet

    out: list[str] = []
    record = record_sheet(view, seat) if seat is not None else None
    pending = view.get("pending") or []
    if view.get("step") == "resolve" and pending:
        out += _encounter_help(view, pending[-1])
    for spell in dict.fromkeys(a["spell"] for a in actions if isinstance(a.get("spell"), str)):
        out.append(_spell_help(spell, record["spells"] if record else []))
    if record:
        for task in record["tasks"]:
            card = pack().task(task["card"])
            out.append(f"Your Task {task['card']}, {card['name']}: {card['text']}")
    return "\n".join(out) if out else "choose by number: each choice is a legal action of the rules"
