"""Which Magic Spells a player may cast and how they succeed (10.11-10.13, 11.1, 11.24,
7.3043 b-c, 7.3051 c). The Movement Spells (type A) are cast in casting.py, the Encounter
Spells in encounter_spells.py and the Special Spells in special_spells.py."""
from __future__ import annotations

from shared.wizards.pack import pack
from shared.wizards.state import Player

DAZED_SPELLS = ("boat_summoning", "transporting", "escaping")  # 7.3043 b


def known(p: Player) -> list[dict]:
    """The Spell Table entries of the player's Order and Rank."""
    if not p["order"] or p["rank"] < 1:
        return []
    return [dict(s) for s in pack().orders[p["order"]]["spells"][str(p["rank"])]]


def may_cast(p: Player, spell: str) -> bool:
    if "dragonbound" in p["afflictions"]:  # 7.3051 c: no magic of any kind
        return False
    if "demon_dazed" in p["afflictions"] and spell not in DAZED_SPELLS:
        return False
    return any(s["spell"] == spell for s in known(p))


def entries(p: Player, spell: str) -> list[dict]:
    return [s for s in known(p) if s["spell"] == spell]


def succeeds(p: Player, face: int) -> bool:
    """11.1: a 6 fails; 7.3043 c: a Demon Dazed player succeeds only on 1-3."""
    return face <= (3 if "demon_dazed" in p["afflictions"] else 5)


def boat_range(p: Player) -> int | None:
    """The largest Boat Summoning range the player has; None means unlimited."""
    ranges = [s.get("range") for s in entries(p, "boat_summoning")]
    if None in ranges:
        return None
    return max(r for r in ranges if r is not None) if ranges else 0


def swiftness_terrain(p: Player) -> list[str]:
    terrain: set[str] = set()
    for s in entries(p, "swiftness"):
        terrain.update(s["terrain"])
    return sorted(terrain)


def transports(p: Player, on_stone: bool) -> list[dict]:
    """Transporting entries usable from where the player stands (10.13: Druids from a
    Sacred Circle Stone, or from any space to a random Stone at Rank FOUR)."""
    return [s for s in entries(p, "transporting") if s["from"] == "any" or on_stone]
