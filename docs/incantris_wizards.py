"""docs/incantris-wizards.md: the twelve Incantris wizards, the casting dice and the arena tiles.

Tiles are drawn as pointy-top hex rows (a hex every two text columns, odd rows shifted one
column), as the game's terminal board draws the arena; a layout is drawn from the arena the
engine builds out of its tiles, so half hexes joined across a tile edge show as one hex.
"""
from __future__ import annotations

from fractions import Fraction

from docs.origins import authored_section
from shared.hexgrid import Hex
from shared.incantris.arena import OCEAN, STREAM, arena_of, as_hex
from shared.incantris.pack import load, parse_dice

PATH = "docs/incantris-wizards.md"
FOLDER = "shared/incantris/content/"
FILE = "incantris.json"
AUTHORED_MARK = "†"
OBSTACLE = {"tree": "T", "low-wall": "l", "high-wall": "H"}


def _mark(valued: dict) -> str:
    return AUTHORED_MARK if valued.get("origin") == "authored" else ""


def _name(w: dict) -> str:
    return f"{w['team'].capitalize()} {load().types[w['type']].name}"


def _wizards_table() -> list[str]:
    p = load()
    data = p.data
    powers = data["powers"]
    head = ["wizard", "life", "movement", "power source", "spells", "magical ability"] + [f"ward v {x}" for x in powers]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for members in p.teams.values():
        for wid in members:
            w = next(x for x in data["wizards"] if x["id"] == wid)
            t = data["wizard_types"][w["type"]]
            spells = ", ".join(p.spells[s].name for s in w["spells"]) + (AUTHORED_MARK if w["origin"] == "authored"
                                                                          else "")
            wards = [f"{t['ward']['value'][x]}{_mark(t['ward'])}" for x in powers]
            cells = [_name(w), f"{t['life']['value']}{_mark(t['life'])}",
                     f"{t['movement']['value']}{_mark(t['movement'])}", f"{t['power']['value']}{_mark(t['power'])}",
                     spells, data["abilities"][t["ability"]]["name"], *wards]
            rows.append("| " + " | ".join(cells) + " |")
    return [
        "## The twelve wizards", "",
        f"Four teams of three ({data['teams']['section']}). Values marked {AUTHORED_MARK} are authored "
        "(the reference boards of Figure 8 are not printed in the rulebook's text); the reasons are listed "
        "at the end. A ward roll is the casting dice the wizard rolls against a spell of that power source; "
        "the caster counts wands, the target counts wards on its own roll, each ward cancels one wand "
        "and the wands left are the hits.", "", *rows, "",
    ]


def _spells_table() -> list[str]:
    p = load()
    holders: dict[str, list[str]] = {}
    for w in p.data["wizards"]:
        for s in w["spells"]:
            holders.setdefault(s, []).append(_name(w))
    rows = ["| spell | range | target | casting dice | persistent | on the boards of |", "|---|---|---|---|---|---|"]
    for key, s in sorted(p.data["spells"].items(), key=lambda kv: kv[1]["name"]):
        rows.append(f"| {s['name']} | {s['range']} | {s['target']} | {s['dice']} | "
                    f"{'yes' if s['persistent'] else 'no'} | {', '.join(holders.get(key, [])) or 'no one'} |")
    abilities = ["| magical ability | wizards | rulebook |", "|---|---|---|"]
    for key, a in p.data["abilities"].items():
        who = ", ".join(t.name for t in p.types.values() if t.ability == key)
        abilities.append(f"| {a['name']} | {who} | {a['section'].replace('|', '/')} |")
    return ["## Spells and magical abilities", "",
            "As printed in the Spell & Magical Ability Reference.", "", *rows, "", *abilities, ""]


def _dice() -> list[str]:
    p = load()
    data = p.data["dice"]
    faces = p.faces
    wand = sum(1 for f in faces if "wand" in f)
    ward = sum(1 for f in faces if "ward" in f)
    n = len(faces)
    levels = sorted({s["dice"].split("/")[0] for s in p.data["spells"].values() if s["dice"] != "Auto"}
                    | {lvl for t in p.types.values() for lvl in t.ward.values()}, key=lambda x: parse_dice(x))
    rows = ["| roll | mean wands when casting | mean wards when warding |", "|---|---|---|"]
    for lvl in levels:
        k, plus = parse_dice(lvl)
        mean_wands, mean_wards = Fraction(k * wand, n) + plus, Fraction(k * ward, n) + plus
        rows.append(f"| {lvl} | {float(mean_wands):.2f} | {float(mean_wards):.2f} |")
    return [
        "## The casting dice", "",
        f"{data['count']['value']} eight-sided casting dice ({data['count']['section']}). "
        f"Their faces are authored{AUTHORED_MARK}:", "",
        "| die face | " + " | ".join(str(i + 1) for i in range(n)) + " |",
        "|---|" + "---|" * n,
        "| shows | " + " | ".join(faces) + " |", "",
        f"A wand shows on {wand} faces in {n} and a ward on {ward} in {n}. \"nD+k\" rolls n dice and adds k "
        "(wands when casting, wards when warding), so on average:", "", *rows, "",
    ]


def _rows_of(cells: dict[Hex, str]) -> list[str]:
    """Hexes as text rows: a hex every two columns, each row shifted by half a hex."""
    xmin = min(2 * q + r for q, r in cells)
    out = []
    for r in range(min(h[1] for h in cells), max(h[1] for h in cells) + 1):
        row = {2 * q + rr - xmin: c for (q, rr), c in cells.items() if rr == r}
        if row:
            out.append("".join(row.get(x, " ") for x in range(max(row) + 1)))
        else:
            out.append("")
    return out


def _side_by_side(left: list[str], right: list[str], gap: int = 6) -> list[str]:
    width = max(len(x) for x in left) + gap
    return [a.ljust(width) + b for a, b in zip(left, right)]


def _tiles() -> list[str]:
    p = load()
    data = p.data["tiles"]
    legend = ", ".join(f"`{k}` {v}" for k, v in data["legend"].items())
    out = ["## The arena tiles", "",
           f"{len(data['full'])} double-sided tiles and {len(data['half'])} double-sided half tiles, all "
           f"authored{AUTHORED_MARK}. Each tile is a hexagon of radius {p.radius}{AUTHORED_MARK}: its corners sit on "
           "the centres of the hexes four steps out, so the outer ring of hexes is cut by the tile edge (half "
           "hexes; the six corners are thirds) and only becomes whole where another tile meets it. A half tile is "
           "the southern half of a tile, cut through the middle row. Legend: " + legend + ". Drawn unturned, "
           "north up, side A on the left.", ""]
    for group, faces in (("full", p.full_faces), ("half", p.half_faces)):
        for tile in data[group]:
            a = _rows_of(faces[(tile["id"], "A")])
            b = _rows_of(faces[(tile["id"], "B")])
            width = max(len(x) for x in a) + 6
            out += [f"### {tile['id']} ({'tile' if group == 'full' else 'half tile'})", "", "```",
                    "A".ljust(width) + "B", *_side_by_side(a, b), "```", ""]
    return out


def _layout_drawing(layout: dict) -> list[str]:
    arena = arena_of(layout["tiles"])
    cells: dict[Hex, str] = {}
    for h in arena.coverage:
        if h in arena.partial:
            cells[h] = ":"
        else:
            cells[h] = {OCEAN: "#", STREAM: "~"}.get(arena.terrain[h], ".")
    for seat, zone in enumerate(layout["zones"]):
        for h in arena.tile_hexes[zone]:
            if cells.get(h) == ".":
                cells[h] = str(seat + 1)
    for o in layout["obstacles"]:
        for h in o["hexes"]:
            cells[as_hex(h)] = OBSTACLE[o["kind"]]
    for c in layout.get("crystals", []):
        cells[as_hex(c["hex"])] = "*"
    for e in layout.get("entries", []):
        cells[as_hex(e["at"])] = "E"
    return _rows_of(cells)


def _layout_section(layout: dict) -> list[str]:
    players = f"{layout['players']} player{'s' if layout['players'] > 1 else ''}"
    out = [f"### {layout['id']} ({layout['scenario']}, {players})", "", "```", *_layout_drawing(layout), "```", ""]
    tiles = "; ".join(f"{i}: {t['tile']}{t['side']} at {t['centre']} turned {t['rotation']}"
                      for i, t in enumerate(layout["tiles"]))
    out.append(f"- Tiles (index: tile and side at its centre hex, sixths turned clockwise): {tiles}.")
    if layout["zones"]:
        out.append("- Starting zones: " + "; ".join(f"seat {s + 1} on tile {z}" for s, z in enumerate(layout["zones"]))
                   + ".")
    if layout["obstacles"]:
        out.append("- Obstacles: " + "; ".join(f"{o['kind']} on {', '.join(str(list(h)) for h in o['hexes'])}"
                                               for o in layout["obstacles"]) + ".")
    for c in layout.get("crystals", []):
        owner = f"in seat {c['zone'] + 1}'s starting zone" if "zone" in c else f"seat {c['seat'] + 1}'s crystal"
        out.append(f"- Crystal at {c['hex']} ({owner}).")
    if layout.get("arms"):
        out.append(f"- Arms (tile indices that turn together): {layout['arms']}; "
                   f"{layout['shift_per_round']} arm(s) turn each round.")
    for i, e in enumerate(layout.get("entries", [])):
        out.append(f"- Entry {i + 1} at {e['at']}, next to {e['hexes']}.")
    out.append(f"- Note: {layout['note']}")
    return out + [""]


def _layouts() -> list[str]:
    legend = ("`.` open, `~` stream (a bridge is open ground), `#` ocean, `:` partial hex (never entered), `1`-`4` "
              "open hex of that seat's starting zone, `T` tree, `l` low wall, `H` high wall, `*` crystal, "
              "`E` entry point of the attacking wizards (solo)")
    out = ["## Arena layouts", "",
           f"Figure 2 (and Figure 9 for the solo game) are not printed in the text, so every layout is "
           f"authored{AUTHORED_MARK}. Each is drawn from the arena the engine builds from its tiles. Legend: "
           f"{legend}.", ""]
    for layout in load().data["layouts"]:
        out += _layout_section(layout)
    return out


def render() -> str:
    lines = [
        "# Incantris: wizards, dice and arena", "",
        f"Generated from the content pack (`{FOLDER}{FILE}`) by `python -m docs.generate`; do not edit by hand.", "",
        *_wizards_table(), *_spells_table(), *_dice(), *_tiles(), *_layouts(),
        *authored_section({FILE: load().data}, FOLDER),
    ]
    return "\n".join(lines).rstrip() + "\n"
