"""The casting dice: wands for the caster, wards for the target, hits are what is left.

"nD+k" rolls n casting dice and adds k (wands when casting, wards when warding). Each
ward cancels one wand; the wands left are the hits. Attacking wizards in the solo game
never roll: their wands come from Table 1 and their wards from Table 3.
"""
from __future__ import annotations

from shared.engine import DicePool
from shared.incantris import match
from shared.incantris.pack import load, parse_dice
from shared.incantris.state import IncantrisState, Roll, Wizard


def pool(purpose: str, count: int) -> DicePool:
    return DicePool(purpose, count, load().faces)


def wands(faces) -> int:
    return sum(1 for f in faces if "wand" in str(f))


def wards(faces) -> int:
    return sum(1 for f in faces if "ward" in str(f))


def ward_level(state: IncantrisState, w: Wizard, source: str) -> str:
    """The printed ward roll of w against a power source; Bane drops it to 1D."""
    if match.has_effect_on(state, "bane", w["id"]):
        return "1D"
    return match.kind(w).ward[source]


def ward_roll(state: IncantrisState, w: Wizard, source: str) -> Roll:
    """{"dice": n, "plus": k} for a player's wizard, {"fixed": n} for an attacking wizard.

    Crystal Sap: "ward with an additional 1D ... for each crystal he or she has sapped";
    Capture the Crystal: "A wizard carrying a crystal receives an additional 1D ward"."""
    level = ward_level(state, w, source)
    if state.sides[w["side"]]["auto"]:
        return {"fixed": int(load().attacking["wards"][level])}  # Table 3
    n, k = parse_dice(level)
    n += w.get("sapped", 0) + (1 if w.get("carrying") else 0)
    return {"dice": n, "plus": k}


def expected_wands(roll: Roll) -> float:
    if "fixed" in roll:
        return float(roll["fixed"])
    faces = load().faces
    return roll["dice"] * wands(faces) / len(faces) + roll["plus"]


def expected_wards(roll: Roll) -> float:
    if "fixed" in roll:
        return float(roll["fixed"])
    faces = load().faces
    return roll["dice"] * wards(faces) / len(faces) + roll["plus"]
