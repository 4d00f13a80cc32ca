"""docs/tower-realm.md: the Wizard's Realm, the Characters, the combat table, the tokens and
the Ramp of Time of Tower of the Wizard King, from its content pack.

The realm is three rings of territories round the Tower. The map cuts the rings open and lays
them out as strips, outer ring on top, each territory as wide as its share of its ring: two
territories of neighbouring rings touch exactly where their strips overlap, so the strip map
shows every border the pack lists (the test suite checks that it does).
"""
from __future__ import annotations

from fractions import Fraction
from functools import cache

from docs.origins import authored_section
from shared.tower.pack import ROCKY, TERRAINS, load_raw, pack

PATH = "docs/tower-realm.md"
FOLDER = "shared/tower/content/"
AUTHORED_MARK = "†"
RINGS = ("outer", "middle", "inner")  # top to bottom on the strip map
SCALE = 114  # about this many text columns round the strip map: some 6 for each outer territory
CAVE = "*"  # after the terrain letter on the strip map


def codes() -> dict[str, str]:
    """A three-letter code per territory: its initials, filled out from its first word."""
    out: dict[str, str] = {}
    for tid in sorted(pack().territories, key=lambda t: (pack().territories[t].ring, pack().territories[t].position)):
        words = pack().territories[tid].name.replace("'", "").split()
        first = words[0]
        tries = [first[:3]] if len(words) == 1 else [first[0] + words[1][:2], first[:2] + words[1][0]]
        tries += [first[0] + first[i] + first[j] for i in range(1, len(first)) for j in range(i + 1, len(first))]
        out[tid] = next(c.upper() for c in tries if c.upper() not in out.values())
    return out


def _ring(name: str) -> list[str]:
    p = pack()
    return sorted((t for t in p.territory_ids if p.territories[t].ring == name),
                  key=lambda t: p.territories[t].position)


@cache
def columns() -> tuple[Fraction, ...]:
    """The strip map's text columns, each as the point of the circle (0 to 1) it stands for.

    Every stretch between two territory edges of any ring gets at least one column, so two
    territories whose strips overlap at all share a column."""
    sizes = {len(_ring(name)) for name in RINGS}
    edges = sorted({Fraction(i, n) for n in sizes for i in range(n)} | {Fraction(1)})
    out: list[Fraction] = []
    for a, b in zip(edges, edges[1:]):
        out += [(a + b) / 2] * max(1, round((b - a) * SCALE))
    return tuple(out)


def width() -> int:
    return len(columns())


def cell_at(ring: list[str], column: int) -> str:
    """The territory of a ring under a text column of the strip map."""
    return ring[int(columns()[column % width()] * len(ring))]


def _starts(ring: list[str]) -> set[int]:
    return {x for x in range(width()) if x == 0 or cell_at(ring, x) != cell_at(ring, x - 1)}


def crossing(a: str, b: str) -> str | None:
    """'-' plain border, '~' a river without a bridge, '=' a bridge; None if a and b do not touch."""
    for c in pack().crossings[a]:
        if c.to == b:
            return "-" if c.river is None else "=" if c.bridge else "~"
    return None


def strip_map() -> list[str]:
    p = pack()
    code = codes()
    rings = {name: _ring(name) for name in RINGS}
    out: list[str] = []
    for i, name in enumerate(RINGS):
        ring, starts = rings[name], _starts(rings[name])
        top, bottom = [" "] * (width() + 1), [" "] * (width() + 1)
        for x in range(width() + 1):
            if x in starts or x == width():
                here, before = cell_at(ring, x % width()), cell_at(ring, (x - 1) % width())
                mark = {"-": "|"}.get(crossing(before, here) or "?", crossing(before, here) or "?")
                top[x] = bottom[x] = mark
        for t in ring:
            x = min(c for c in range(width()) if cell_at(ring, c) == t) + 1
            top[x:x + 3] = list(code[t])
            terr = p.territories[t]
            label = terr.terrain[0] + (CAVE if terr.cave else "")
            bottom[x:x + len(label)] = list(label)
        out += [f"{name:<7}" + "".join(top), " " * 7 + "".join(bottom)]
        if i + 1 < len(RINGS):
            inner = rings[RINGS[i + 1]]
            line = [crossing(cell_at(ring, x), cell_at(inner, x)) or "?" for x in range(width())]
            out.append(" " * 7 + "".join(line) + line[0])
    touches = set(p.rocky_touches)
    out.append(" " * 7 + "".join("-" if cell_at(rings["inner"], x) in touches else " " for x in range(width() + 1)))
    out.append(" " * 7 + "ROCKY SPACE ROUND THE TOWER".center(width() + 1).rstrip())
    return [line.rstrip() for line in out]


def _realm() -> list[str]:
    p = pack()
    code = codes()
    realm = load_raw()["realm"]
    sizes = ", ".join(f"{len(_ring(r))} in the {r} ring" for r in reversed(RINGS))
    terrain_counts = ", ".join(f"{t} {len(p.by_terrain[t])}" for t in TERRAINS)
    out = [
        "## The Wizard's Realm", "",
        f"{len(p.territories)} territories in three rings round the Tower ({sizes}), and the rocky space round "
        f"the Tower where everyone starts. Terrain: {terrain_counts}. The whole map is authored{AUTHORED_MARK} "
        "(the scan prints none); the reason is listed at the end.", "",
        "The strip map below cuts the rings open at one seam and lays them out flat, outer ring on top and the "
        "rocky space at the bottom; each territory is as wide as its share of its ring, the right end of each "
        "strip meets its left end, and two territories touch exactly where they meet on the map. Each territory "
        "shows its code and, below it, its terrain (F Forest, P Plains, M Mountains, S Swamp) with `*` for a cave. "
        "Borders: `|` and `-` plain, `~` a river with no bridge, `=` a river crossed by a bridge.", "",
        "```", *strip_map(), "```", "",
        "| code | territory | ring, position | terrain | cave | touches (`~` across a river, `=` over a bridge) |",
        "|---|---|---|---|---|---|",
    ]
    for ring in reversed(RINGS):
        for t in _ring(ring):
            terr = p.territories[t]
            touching = [p.territories[c.to].name + ("" if c.river is None else " =" if c.bridge else " ~")
                        for c in sorted(p.crossings[t], key=lambda c: (RINGS.index(p.territories[c.to].ring),
                                                                       p.territories[c.to].position))]
            if t in p.rocky_touches:
                touching.append("the rocky space")
            out.append(f"| {code[t]} | {terr.name} | {terr.ring} {terr.position} | {terr.terrain} | "
                       f"{'yes' if terr.cave else ''} | {', '.join(touching)} |")
    rivers: dict[str, list[dict]] = {}
    for b in realm["borders"]:
        if b["river"]:
            rivers.setdefault(b["river"], []).append(b)
    out += ["", "### Rivers and bridges", "",
            "All Characters except the Dragon and Skeleton cross rivers only at a bridge (Movement on the Board).", ""]
    for river, borders in rivers.items():
        parts = [f"{p.territories[b['a']].name} - {p.territories[b['b']].name}" + (" (bridge)" if b["bridge"] else "")
                 for b in borders]
        out.append(f"- {river} runs between: " + "; ".join(parts) + ".")
    caves = [p.territories[t] for t in p.caves]
    bonus = [f"the {c.name} {c.cave_bonus[1]} more after leaving a {c.cave_bonus[0]} cave"
             for c in p.characters.values() if c.cave_bonus]
    out += ["", "### Caves and the rocky space", "",
            f"- Caves ({len(caves)}): " + "; ".join(f"{t.name} ({t.terrain})" for t in caves)
            + ". A Character who lands in a cave territory may go underground to any other cave as one space "
            "(Caves); " + " and ".join(bonus) + ".",
            f"- The rocky space round the Tower touches {len(p.rocky_touches)} territories: "
            + ", ".join(p.territories[t].name for t in _ring("inner") if t in p.rocky_touches)
            + ". Everyone starts there and it may not be re-entered.", ""]
    return out


def _characters() -> list[str]:
    p = pack()
    raw = {c["name"]: c for c in load_raw()["characters"]["characters"]}

    def cell(name: str, field: str, text: str) -> str:
        origin = raw[name]["origin"].get(field, {})
        return text + (AUTHORED_MARK if origin.get("origin") == "authored" else "")

    rows = ["| Character | moves | home terrain | Home Castle | crosses rivers | cave bonus | fears and powers |",
            "|---|---|---|---|---|---|---|"]
    for name in p.character_names:
        c = p.characters[name]
        home = p.homes[name]
        powers = ([f"fearless against {', '.join(c.fearless_against)}"] if c.fearless_against else []) + \
                 ([f"afraid of {', '.join(c.afraid_of)}"] if c.afraid_of else []) + \
                 [f"places {n} Pennants when he defeats a {loser}" for loser, n in c.victory_pennants.items()]
        bonus = f"+{c.cave_bonus[1]} after a {c.cave_bonus[0]} cave" if c.cave_bonus else ""
        rows.append(f"| {name} | {cell(name, 'moves', f'up to {c.moves}')} | "
                    f"{cell(name, 'home_terrain', c.home_terrain)} | {home.name} (add {home.pennants} Pennants or go "
                    f"again) | {'anywhere' if c.crosses_rivers else 'at a bridge'} | {bonus} | {'; '.join(powers)} |")
    return ["## The eight Characters", "",
            f"Values marked {AUTHORED_MARK} are authored; the others quote the rulebook.", "", *rows, ""]


def _combat() -> list[str]:
    p = pack()
    combat = load_raw()["characters"]["combat"]
    names = p.character_names
    rows = ["| rolls \\ against | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for a in names:
        rows.append(f"| **{a}** | " + " | ".join(str(p.dice[a][b]) for b in names) + " |")
    printed = combat["printed"]
    return ["## The combat table", "",
            "Battle dice each Character rolls (row) against each opponent (column). The whole table is "
            f"authored{AUTHORED_MARK} (the scan's tables are unreadable) to fit what is printed: "
            f"{printed['section']}, {printed['card']} card: \"{printed['quote']}\". Both sides together never roll "
            f"more than the 8 Battle dice.", "", *rows, ""]


def _tokens() -> list[str]:
    p = pack()
    wizard_names = {w.id: w.name for w in p.wizards}
    terr_rows = ["| terrain | territories | Home Castles | Wizard symbols | castle tokens |", "|---|---|---|---|---|"]
    for t in TERRAINS:
        homes = [p.homes[c].name for c in p.character_names if p.homes[c].terrain == t]
        tokens = p.castle_tokens_of(t)
        symbols = len(tokens) - len(homes)
        terr_rows.append(f"| {t} | {len(p.by_terrain[t])} | {', '.join(homes)} | {symbols} (one per Wizard) | "
                         f"{len(tokens)} |")
    spells = [f"{s['name']} x{s['count']}" for s in p.map_spells.values()]
    ramp = [s["name"] + (f" (add {s['pennants']} Pennants)" if "pennants" in s else "") for s in p.ramp_spells.values()]
    total_castles = sum(len(p.castle_tokens_of(t)) for t in TERRAINS)
    counts = ", ".join(f"{n} with {k} players" for k, n in sorted(p.castle_tokens.items(), reverse=True))
    return [
        "## Tokens", "",
        f"- Castle tokens: {total_castles} ({counts}): 8 Home Castles and "
        f"{total_castles - len(p.homes)} Wizard symbols ({', '.join(wizard_names.values())}), face down on the "
        f"territories of their terrain colour{AUTHORED_MARK} (spread of the symbols):", "", *terr_rows, "",
        f"- Map spell tokens: {len(p.spell_tokens())} on the remaining territories: {', '.join(spells)} "
        f"(counts authored{AUTHORED_MARK}).",
        f"- Ramp tokens: {len(p.ramp_tokens())}, one of each Ramp spell: {'; '.join(ramp)}.",
        f"- Pennants: {p.pennants} per Wizard's colour.", "",
    ]


def _ramp_and_rules() -> list[str]:
    p = pack()
    rules = load_raw()["rules"]
    wizards = [f"{w.name}, {w.title} ({w.colour})" for w in p.wizards]
    rerolls = ["| Pennants in the Castle | re-roll one die, again and again | or re-roll dice once |", "|---|---|---|"]
    for n, (single, multi) in sorted(p.rerolls.items()):
        rerolls.append(f"| {n} | {single or '-'} time{'s' if single != 1 else ''} | {multi or '-'} "
                       f"{'die' if multi == 1 else 'dice'} |" if single or multi else f"| {n} | no advantage | |")
    stretch = p.ramp_steps // p.ramp_stretches
    return [
        "## The Wizards, the Ramp of Time and the Tower", "",
        f"- Wizards: {'; '.join(wizards)}. Only Solanos is legible in the scan; the rest and the colours are "
        f"authored{AUTHORED_MARK}.",
        f"- The Ramp: {p.ramp_steps} steps{AUTHORED_MARK} below the top of the Tower. The Wizard King climbs one step "
        f"each time a Character is transformed in the Tower; the game ends when he steps onto the top. The "
        f"{len(p.ramp_tokens())} Ramp tokens lie one on a random step of each of {p.ramp_stretches} stretches of "
        f"{stretch} steps{AUTHORED_MARK}.",
        f"- The King's patience, a safety net: after {p.king_patience} {rules['king_patience']['unit']}{AUTHORED_MARK}"
        " of turns (extra turns counted) without a climb, he climbs a step on his own, and the seat whose turn it was "
        "takes the Ramp token there (the reason is listed below).",
        f"- The Tower: a ring of {p.chambers} chambers, {p.chambers - 1} Characters and the empty one at the door; "
        f"a transforming player pulls the lever {' or '.join(map(str, p.pulls))} times.",
        f"- Battles: six-sided Battle dice with faces {p.die_faces[0]}-{p.die_faces[-1]}{AUTHORED_MARK}; the "
        f"victor places {p.victory_pennants} Pennant. The defender may re-roll by the Pennants in the Castle "
        f"(Defender's Special Pennant Power; more than {max(p.rerolls)} count as {max(p.rerolls)}, and the reading "
        f"of the two columns is authored{AUTHORED_MARK}):",
        "", *rerolls, "",
        "- First player: picked by a public draw among the seats, then clockwise. The set-up choices (eliminating "
        "Characters and Wizards with 2 or 3 players, selecting the Wizards) go round from the last player to the "
        "first; the match option `setup: chance` lets chance make them (`shared/tower/assembly.py`).", "",
    ]


def render() -> str:
    lines = [
        "# Tower of the Wizard King: the realm, the Characters and the tokens", "",
        f"Generated from the content pack (`{FOLDER}`) by `python -m docs.generate`; do not edit by hand. "
        f"Territory ids in the pack are the names in lower case with dashes; `{ROCKY}` is the rocky space.", "",
        *_realm(), *_characters(), *_combat(), *_tokens(), *_ramp_and_rules(),
        *authored_section({f"{name}.json": doc for name, doc in load_raw().items()}, FOLDER),
    ]
    return "\n".join(lines).rstrip() + "\n"
