"""The content pack: tiles, layouts, wizard boards, spells and dice, read once and checked.

The rulebook prints the spells and the solo tables; the tiles, layouts, wizard boards and
dice faces are authored (see RULE-GAPS.md). Everything lives in content/incantris.json,
validated against content/schema.json when the package is first used, so a person who owns
the game can replace an authored value by editing data.

Beyond the schema the loader refuses what the rulebook rules out and a schema cannot see:
a layout that lays one double-sided tile twice, an obstacle of a layout standing anywhere but
plain open ground on a single tile, a board spell the reference does not print, and a
printed spell on no board (README.md, "Readings").
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import jsonschema

from shared.hexgrid import Hex, distance, iter_within, rotate, sub

_HERE = Path(__file__).parent / "content"


@dataclass(frozen=True)
class Spell:
    """One spell as printed in the Spell & Magical Ability Reference."""

    key: str
    name: str
    range: int
    target: str  # "wizard" | "hex" | "area" | "two-hexes"
    dice: int  # casting dice rolled (0 for Auto)
    plus: int  # wands added to the roll
    auto: bool  # no roll at all (Teleport: only on the caster's own team)
    persistent: bool


@dataclass(frozen=True)
class WizardType:
    key: str
    name: str
    power: str
    life: int
    movement: int
    ward: dict  # power source -> "2D+1" | "2D" | "1D"
    ability: str


@dataclass(frozen=True)
class Wizard:
    id: str
    team: str
    type: str
    spells: tuple[str, ...]


def parse_dice(text: str) -> tuple[int, int]:
    """ "3D+2" -> (3, 2); "Auto" -> (0, 0)."""
    m = re.fullmatch(r"(\d)D(?:\+(\d))?", text)
    if not m:
        return (0, 0)
    return (int(m.group(1)), int(m.group(2) or 0))


class Pack:
    """The validated content pack with the lookups the rules need."""

    def __init__(self, data: dict):
        self.data = data
        self.radius: int = data["tile_radius"]["value"]
        self.dice_count: int = data["dice"]["count"]["value"]
        self.faces: tuple[str, ...] = tuple(data["dice"]["faces"]["value"])
        self.spells: dict[str, Spell] = {}
        for key, s in data["spells"].items():
            n, k = parse_dice(s["dice"].split("/")[0])
            self.spells[key] = Spell(key, s["name"], s["range"], s["target"], n, k, s["dice"] == "Auto",
                                     s["persistent"])
        self.types: dict[str, WizardType] = {
            key: WizardType(key, t["name"], t["power"]["value"], t["life"]["value"], t["movement"]["value"],
                            dict(t["ward"]["value"]), t["ability"])
            for key, t in data["wizard_types"].items()
        }
        self.wizards: dict[str, Wizard] = {
            w["id"]: Wizard(w["id"], w["team"], w["type"], tuple(w["spells"])) for w in data["wizards"]
        }
        self.teams: dict[str, tuple[str, ...]] = {
            k: tuple(v) for k, v in data["teams"].items() if k in ("red", "blue", "purple", "grey")
        }
        self.layouts: dict[str, dict] = {lay["id"]: lay for lay in data["layouts"]}
        self.attacking = data["attacking"]
        self.campaign = data["campaign"]
        self.obstacle_rules = data["obstacles"]
        self.full_faces: dict[tuple[str, str], dict[Hex, str]] = {}
        self.half_faces: dict[tuple[str, str], dict[Hex, str]] = {}
        full_cells = sorted(iter_within((0, 0), self.radius), key=lambda h: (h[1], h[0]))
        half_cells = [h for h in full_cells if h[1] >= 0]
        for group, cells, out in (("full", full_cells, self.full_faces), ("half", half_cells, self.half_faces)):
            for tile in data["tiles"][group]:
                for side, rows in tile["sides"].items():
                    chars = "".join(rows)
                    if len(chars) != len(cells):
                        raise ValueError(f"tile {tile['id']}{side}: {len(chars)} hexes, expected {len(cells)}")
                    out[(tile["id"], side)] = dict(zip(cells, chars))
        self._check_boards()
        for lay in data["layouts"]:
            self._check_layout(lay)

    def _check_boards(self) -> None:
        """Every board spell is printed in the Spell & Magical Ability Reference, and each of its
        twenty spells is on some wizard's board (Flame Darts is the hydra's "but with 2D+1", so a
        wizard casts it at its printed 1D+2)."""
        on_boards: set[str] = set()
        for w in self.wizards.values():
            unknown = [s for s in w.spells if s not in self.spells]
            if unknown or len(set(w.spells)) != len(w.spells):
                raise ValueError(f"wizard {w.id}: spells {list(w.spells)} name an unknown spell or one twice")
            on_boards.update(w.spells)
        missing = sorted(set(self.spells) - on_boards)
        if missing:
            raise ValueError(f"spells on no wizard's board: {missing}")

    def _check_layout(self, lay: dict) -> None:
        """Game Components: "8 Double-Sided Tiles ... 6 Double-Sided Half Tiles" - a tile shows
        one side at a time, so a layout lays each tile once. Obstacles stand on plain open ground
        inside one tile: never stream or ocean (Movement & Terrain sorts hexes into stream,
        ocean, "otherwise impassable" and open ground, so an obstacle takes the place of open
        ground), and in an authored layout never on a bridge, the stream's crossing."""
        tiles = [t["tile"] for t in lay["tiles"]]
        twice = sorted({t for t in tiles if tiles.count(t) > 1})
        if twice:
            raise ValueError(f"layout {lay['id']}: tile {', '.join(twice)} laid twice (a double-sided tile "
                             "shows one side at a time)")
        for o in lay["obstacles"]:
            for h in o["hexes"]:
                ground = self.ground_under(lay, (h[0], h[1]))
                if ground != ".":
                    what = {None: "not a whole hex of a single tile", "~": "stream", "#": "ocean",
                            "=": "a bridge"}[ground]
                    raise ValueError(f"layout {lay['id']}: {o['kind']} on hex {list(h)}, {what}: obstacles stand on "
                                     "open ground")

    def ground_under(self, lay: dict, h: Hex) -> str | None:
        """The terrain character of a layout's hex inside one tile (None: on no tile, or on a
        tile edge, where pieces of tiles meet)."""
        found = []
        for p in lay["tiles"]:
            half, face = self.face(p["tile"], p["side"])
            local = rotate(sub(h, (p["centre"][0], p["centre"][1])), -p["rotation"])
            if local in face:
                inside = distance(local, (0, 0)) < self.radius and not (half and local[1] == 0)
                found.append(face[local] if inside else None)
        return found[0] if len(found) == 1 else None

    def face(self, tile: str, side: str) -> tuple[bool, dict[Hex, str]]:
        """(is_half, local hex -> terrain character) of one side of a tile."""
        if (tile, side) in self.full_faces:
            return False, self.full_faces[(tile, side)]
        return True, self.half_faces[(tile, side)]

    def team_of(self, colour: str) -> tuple[str, ...]:
        return self.teams[colour]


@lru_cache(maxsize=1)
def load() -> Pack:
    """Read and validate the pack once (the only I/O the rules do)."""
    data = json.loads((_HERE / "incantris.json").read_text())
    schema = json.loads((_HERE / "schema.json").read_text())
    jsonschema.validate(data, schema)
    return Pack(data)
