"""The content pack: the Wizard's Realm, the Characters, the Tokens and the numbers
the rulebook leaves to the box. Loaded once from the JSON files beside this module,
validated against `content/schema.json`, then checked against the constraints the
rulebook states (6 castle tokens per terrain, 15 spell tokens, 8 Battle dice...)
so an edited pack that breaks a rule fails at load, not in play."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import jsonschema

CONTENT = Path(__file__).with_name("content")
FILES = ("realm", "characters", "tokens", "rules")
TERRAINS = ("Forest", "Plains", "Mountains", "Swamp")
ROCKY = "rocky"


@dataclass(frozen=True)
class Territory:
    id: str
    name: str
    terrain: str
    cave: bool
    ring: str
    position: int


@dataclass(frozen=True)
class Character:
    name: str
    moves: int
    home_terrain: str
    crosses_rivers: bool
    cave_bonus: tuple[str, int] | None  # (terrain of the exit cave, extra spaces)
    fearless_against: tuple[str, ...]
    afraid_of: tuple[str, ...]
    victory_pennants: dict[str, int]  # loser -> Pennants placed instead of the usual 1


@dataclass(frozen=True)
class HomeCastle:
    character: str
    name: str
    pennants: int
    terrain: str


@dataclass(frozen=True)
class Wizard:
    id: str
    name: str
    title: str
    colour: str


@dataclass(frozen=True)
class Crossing:
    """One border seen from one side: where it leads and the river it crosses, if any."""

    to: str
    river: str | None
    bridge: bool


class Pack:
    """Everything the engine reads from data, in the shapes the rules ask for."""

    def __init__(self, raw: dict):
        realm, chars, tokens, rules = (raw[k] for k in FILES)
        self.territories: dict[str, Territory] = {t["id"]: Territory(**t) for t in realm["territories"]}
        self.territory_ids: tuple[str, ...] = tuple(sorted(self.territories))
        self.rocky_touches: tuple[str, ...] = tuple(sorted(realm["rocky"]["touches"]))
        crossings: dict[str, list[Crossing]] = {t: [] for t in self.territories}
        for b in realm["borders"]:
            crossings[b["a"]].append(Crossing(b["b"], b["river"], b["bridge"]))
            crossings[b["b"]].append(Crossing(b["a"], b["river"], b["bridge"]))
        self.crossings = {t: tuple(sorted(c, key=lambda x: x.to)) for t, c in crossings.items()}
        self.caves: tuple[str, ...] = tuple(t for t in self.territory_ids if self.territories[t].cave)
        self.by_terrain: dict[str, tuple[str, ...]] = {
            terrain: tuple(t for t in self.territory_ids if self.territories[t].terrain == terrain)
            for terrain in TERRAINS
        }

        self.characters: dict[str, Character] = {}
        for c in chars["characters"]:
            bonus = (c["cave_bonus"]["terrain"], c["cave_bonus"]["spaces"]) if c["cave_bonus"] else None
            self.characters[c["name"]] = Character(
                c["name"], c["moves"], c["home_terrain"], c["crosses_rivers"], bonus,
                tuple(c["fearless_against"]), tuple(c["afraid_of"]), dict(c["victory_pennants"]),
            )
        self.character_names: tuple[str, ...] = tuple(c["name"] for c in chars["characters"])
        self.dice: dict[str, dict[str, int]] = chars["combat"]["dice"]

        self.homes: dict[str, HomeCastle] = {
            h["character"]: HomeCastle(h["character"], h["name"], h["pennants"],
                                       self.characters[h["character"]].home_terrain)
            for h in tokens["home_castles"]
        }
        self.symbols_per_terrain: dict[str, int] = dict(tokens["wizard_symbols"]["per_wizard"])
        self.map_spells: dict[str, dict] = {s["spell"]: s for s in tokens["map_spells"]}
        self.ramp_spells: dict[str, dict] = {s["spell"]: s for s in tokens["ramp_spells"]}

        self.wizards: tuple[Wizard, ...] = tuple(
            Wizard(w["id"], w["name"], w["title"], w["colour"]) for w in rules["wizards"]
        )
        self.wizard_ids: tuple[str, ...] = tuple(w.id for w in self.wizards)
        self.pennants: int = rules["pennants_per_colour"]["value"]
        self.ramp_steps: int = rules["ramp"]["steps"]["value"]
        self.ramp_stretches: int = rules["ramp"]["token_stretches"]["value"]
        self.king_patience: int = rules["king_patience"]["value"]  # rounds of regular turns
        self.chambers: int = rules["tower"]["chambers"]["value"]
        self.pulls: tuple[int, ...] = tuple(rules["tower"]["pulls"]["value"])
        self.castle_tokens: dict[int, int] = {int(k): v for k, v in rules["castle_tokens"]["value"].items()}
        battle = rules["battle"]
        self.die_faces: tuple[int, ...] = tuple(range(1, battle["die_faces"]["value"] + 1))
        self.victory_pennants: int = battle["victory_pennants"]["value"]
        self.rerolls: dict[int, tuple[int, int]] = {
            r["pennants"]: (r["single"], r["multi"]) for r in battle["rerolls"]["value"]
        }
        self._check()

    # --- derived tables -----------------------------------------------------------
    def castle_tokens_of(self, terrain: str, removed: tuple[str, ...] | list[str] = ()) -> list[str]:
        """The castle tokens whose backs are this terrain's colour, in a fixed order
        (Set up the Game 1: 'green Tokens go in the tree-filled Forests...')."""
        homes = [f"home:{c}" for c in self.character_names if self.homes[c].terrain == terrain and c not in removed]
        symbols = [f"symbol:{w}" for w in self.wizard_ids for _ in range(self.symbols_per_terrain.get(terrain, 0))]
        return homes + symbols

    def spell_tokens(self) -> list[str]:
        return [f"spell:{s}" for s, d in sorted(self.map_spells.items()) for _ in range(d["count"])]

    def ramp_tokens(self) -> list[str]:
        return [f"ramp:{s}" for s in sorted(self.ramp_spells)]

    def reroll_allowance(self, pennants: int) -> tuple[int, int]:
        """(times one die may be re-rolled, dice that may be re-rolled at once) for a
        defender with this many Pennants in the Castle; 5 or more count as 5."""
        if pennants <= 0:
            return (0, 0)
        return self.rerolls[min(pennants, max(self.rerolls))]

    # --- the constraints the rulebook prints --------------------------------------
    def _check(self) -> None:
        need = _need
        ids = set(self.territories)
        need(len(ids) == 39, "39 territories hold tokens (24 castles + 15 spells)")
        need(set(self.rocky_touches) <= ids and len(self.rocky_touches) >= 2, "the rocky space touches territories")
        for t, cs in self.crossings.items():
            need(all(c.to in ids for c in cs), f"{t}: border to an unknown territory")
            need(len({c.to for c in cs}) == len(cs), f"{t}: a border listed twice")
        need(set(self.characters) == set(self.dice) == set(self.homes), "one row, one Home Castle per Character")
        for a, row in self.dice.items():
            need(set(row) == set(self.characters), f"{a}: combat row must name all 8 Characters")
            for b in row:
                need(a == b or row[b] + self.dice[b][a] <= 8, f"{a} v {b}: more than the 8 Battle dice")
        per_terrain = {t: len(self.castle_tokens_of(t)) for t in TERRAINS}
        need(all(n == 6 for n in per_terrain.values()), f"6 castle tokens per terrain, got {per_terrain}")
        for t in TERRAINS:
            need(len(self.by_terrain[t]) >= 6, f"{t}: needs 6 territories for its castle tokens")
        need(len(self.spell_tokens()) == 15, "15 spell tokens for the 15 remaining territories")
        need(len(self.ramp_tokens()) == 6 and self.ramp_steps % self.ramp_stretches == 0,
             "6 Ramp tokens, one per stretch")
        need(len(self.wizards) == 4 and self.castle_tokens == {4: 24, 3: 23, 2: 22}, "4 Wizards; 24/23/22 Castles")


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(f"content pack: {message}")


def load_raw() -> dict:
    return {k: json.loads((CONTENT / f"{k}.json").read_text()) for k in FILES}


def validate(raw: dict) -> Pack:
    """Schema first (names the bad field), then the rulebook's own constraints."""
    schema = json.loads((CONTENT / "schema.json").read_text())
    jsonschema.validate(raw, schema)
    return Pack(raw)


@cache
def pack() -> Pack:
    """The pack, loaded and validated on first use and shared after that."""
    return validate(load_raw())
