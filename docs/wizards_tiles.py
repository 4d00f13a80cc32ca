"""docs/wizards-tiles.md: the 18 Wizards territory tiles drawn from the content pack.

Each tile is drawn unturned (rotation 0, north up) as pointy-top hexes four text columns per
half hex, so every hex has room for its label and glyph and every hex side its own character:
a wall is '#' on that side, whichever way the side runs.
"""
from __future__ import annotations

from docs.origins import authored_section
from shared.hexgrid import DIRECTION_NAMES, DIRECTIONS, add, side_key
from shared.wizards.geometry import LABELS, board
from shared.wizards.pack import load_documents, pack
from shared.wizards.render import GLYPH

PATH = "docs/wizards-tiles.md"
FOLDER = "shared/wizards/content/"
WALL = "#"
SIDE = ("|", "/", "\\", "|", "/", "\\")  # E, SE, SW, W, NW, NE outlines of a pointy-top hex
TEXTURE = {"woods": "%", "mountains": "^"}  # repeated in a hex's top and bottom points
KIND_NAMES = {
    "plains": "Plains", "woods": "Woods", "mountains": "Mountains", "town": "Town", "dwelling": "Dwelling",
    "abbey": "Shrineheart Abbey", "tower": "Master Sorcerer's Tower", "cottage": "Hamdrel's Cottage",
    "lair": "the Dragon's Lair", "high_hollow": "High Hollow", "star_crest": "the Star Crest",
    "circle": "Center of the Sacred Circle", "stone": "Sacred Circle stone",
}
TYPE_NAMES = {"common": "Common", "elven": "Elven", "magic": "Magic"}


def _short(label: str) -> str:
    return "Ctr" if label == "Center" else label


def _glyph(space: dict) -> str:
    return f"({space['dots']})" if space["kind"] == "stone" else GLYPH[space["kind"]]


def tile_drawing(tile: dict) -> list[str]:
    """The tile's 19 hexes as text: label and glyph in each hex, walls '#' on their sides."""
    labels = pack().labels
    walls = {side_key(labels[lab], DIRECTION_NAMES.index(d)) for lab, d in tile["walls"]}
    radius = max(max(abs(q), abs(r), abs(q + r)) for q, r in labels.values())
    height, width = 4 * radius + 3, 16 * radius + 9
    grid = [[" "] * width for _ in range(height)]
    for lab, (q, r) in labels.items():
        line, x = 2 * (r + radius) + 1, 4 * (2 * q + r) + 8 * radius + 4
        space = tile["spaces"][lab]
        text = f"{_short(lab):>3} {_glyph(space):<3}"
        grid[line][x - 3:x + 4] = list(text)
        point = TEXTURE.get(space["kind"], " ") * 3
        grid[line - 1][x - 1:x + 2] = list(point)
        grid[line + 1][x - 1:x + 2] = list(point)
        for d in range(6):
            sl, sx = {0: (line, x + 4), 1: (line + 1, x + 2), 2: (line + 1, x - 2), 3: (line, x - 4),
                      4: (line - 1, x - 2), 5: (line - 1, x + 2)}[d]
            grid[sl][sx] = WALL if side_key((q, r), d) in walls else SIDE[d]
    return ["".join(row).rstrip() for row in grid]


def _neighbour_label(label: str, direction: str) -> str:
    at = {tuple(h): lab for lab, h in pack().labels.items()}
    return at.get(add(pack().labels[label], DIRECTIONS[DIRECTION_NAMES.index(direction)]), "the tile edge")


def _tile_section(tile: dict) -> list[str]:
    origin = tile["origin"]
    out = [f"### {tile['id']} - {tile['numeral']} {tile['name']} ({TYPE_NAMES[tile['type']]} territory)", ""]
    name = origin.get("name", {})
    if name.get("origin") == "rulebook":
        out += [f"> {name['section']}: {name['quote']}", ""]
    out += ["```", *tile_drawing(tile), "```", ""]
    counts: dict[str, int] = {}
    for s in tile["spaces"].values():
        counts[s["kind"]] = counts.get(s["kind"], 0) + 1
    terrain = ", ".join(f"{KIND_NAMES[k]} {n}" for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
                        if k in ("plains", "woods", "mountains"))
    out.append(f"- Terrain: {terrain}.")
    special = [(lab, tile["spaces"][lab]) for lab in LABELS if tile["spaces"][lab]["kind"] not in TEXTURE
               and tile["spaces"][lab]["kind"] != "plains"]
    for lab, s in special:
        what = KIND_NAMES[s["kind"]]
        if s["kind"] == "stone":
            out.append(f"- {lab}: {what} with {s['dots']} dot{'s' if s['dots'] != 1 else ''}.")
        else:
            master = f", home of {s['master']}" if s.get("master") else ""
            named = f" \"{s['name']}\"" if s.get("name") and s["name"] != what else ""
            out.append(f"- {lab}: {what}{named}{master}.")
    if tile["walls"]:
        sides = [f"{lab} {d} (to {_neighbour_label(lab, d)})" for lab, d in tile["walls"]]
        out.append(f"- Walls ({len(sides)}): " + "; ".join(sides) + ".")
    else:
        out.append("- Walls: none.")
    layout = origin.get("layout", {})
    if layout.get("origin") == "authored":
        out.append(f"- Layout (authored): {layout['why']}")
    return out + [""]


def _legend() -> list[str]:
    glyphs = [f"`{GLYPH[k]}` {KIND_NAMES[k]}" for k in GLYPH if k in KIND_NAMES]
    return [
        "## Legend", "",
        "Each hex shows its label (`Ctr` is the Center) and its glyph: " + ", ".join(glyphs)
        + "; `(1)`-`(6)` a Sacred Circle stone with that many dots. Woods and Mountains repeat their glyph "
        "in the hex's top and bottom points (`%%%`, `^^^`). On the hex sides `|` `/` `\\` are open sides and "
        f"`{WALL}` is a wall (no one walks across it, section 6). The game's terminal board uses the same glyphs.",
        "",
    ]


def _labels_and_costs() -> list[str]:
    p = pack()
    kinds = p.terrain["kinds"]
    rows = ["| space | Movement Points | entering ends the move |", "|---|---|---|"]
    for k, spec in kinds.items():
        cost = spec["cost"] if spec["cost"] is not None else "the whole Movement Roll (see 6)"
        rows.append(f"| {KIND_NAMES[k]} | {cost} | {'yes' if spec['ends_movement'] else 'no'} |")
    return [
        "## Labels and terrain", "",
        "Every tile has the same 19 spaces: the Center and A1-A6, B1-B6, C1-C6 (4.2). "
        + p.raw["territories"]["origin"]["why"]
        + " Section 4's random spaces name these labels, so the red die and the labels together pick a space.",
        "", "Walking costs (section 6, `terrain.json`):", "", *rows, "",
    ]


def _board() -> list[str]:
    p = pack()
    b = board()
    spec = p.board
    land = len(p.tile_ids) * len(LABELS)
    return [
        "## The Game Board", "",
        f"A {spec['shape']} of water hexes, {b.columns} columns by {b.rows} rows ({len(b.hexes)} hexes, "
        f"pointy-top, rows laid out {spec['layout']}: odd rows shifted half a hex east). The {len(p.tile_ids)} tiles "
        f"cover {land} of them; everything else is Water. A tile's Center may go on any of {len(b.centers)} hexes "
        f"(where all 19 of its hexes lie on the board), and set-up counts room on a fixed lattice of "
        f"{len(b.cells)} tile-sized reserve cells so that every tile can still be placed (3.21). Tiles are laid "
        "turned any sixth of a turn; the drawings below show each one unturned, north up.", "",
    ]


def render() -> str:
    p = pack()
    lines = [
        "# Wizards: the territory tiles", "",
        f"Generated from the content pack (`{FOLDER}`) by `python -m docs.generate`; do not edit by hand. "
        "The rulebook (Appendix C) names and numbers the 18 tiles but prints no layouts: every layout below is "
        "authored, made to hold what the text puts on each tile.", "",
        *_board(), *_legend(), *_labels_and_costs(), "## The tiles", "",
    ]
    for tid in p.tile_ids:
        lines += _tile_section(p.tiles[tid])
    docs = load_documents()
    lines += authored_section({f"{name}.json": doc for name, doc in docs.items()}, FOLDER)
    return "\n".join(lines).rstrip() + "\n"
