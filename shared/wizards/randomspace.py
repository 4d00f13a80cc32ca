"""Random Territories and exact spaces (section 4), skipping lost Territories (12.45).

A "where" names a space the way the cards do:
    {"random": "COMMON OR MAGIC"}           4.1 listing: dice pick type and Territory
    {"territory": "E4"}                     SPECIFIC Territory, exact space rolled (4.2)
    {"territory": "E4", "space": "A5"}      an exact space: no roll (4.22)
    {"place": "star_crest"}                 a named place on the islands: no roll
    {"any": "mountains"}                    ANY: the player chooses (4.1, 4.22)

`pools_for` gives the dice a where needs, in one chance step (territory dice first,
then the exact-space dice); `read` turns the faces into (tile, label) or None when
the Territory rolled is lost to Evil or not on the board (then roll over, 12.45).
An ANY where rolls nothing: `any_spaces` lists the spaces the player may choose.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from shared.engine import DicePool, d6
from shared.wizards.pack import CIRCLE_TILE, COTTAGE_TILE, LAIR_TILE, TILE_TYPES, pack

LISTINGS = ("COMMON", "ELVEN", "MAGIC", "COMMON OR ELVEN", "COMMON OR MAGIC", "ELVEN OR MAGIC", "RANDOM")

# A named place and the (tile, label) it stands on, for places fixed by Appendix C / section 6.
FIXED_PLACES = {"lair_center": (LAIR_TILE, "Center"), "hamdrel": (COTTAGE_TILE, "Center"),
                "circle_center": (CIRCLE_TILE, "Center")}
PLACE_KINDS = {"star_crest": "star_crest", "high_hollow": "high_hollow", "shrineheart_abbey": "abbey"}


def listing_types(listing: str) -> tuple[str, ...]:
    """The Territory types a listing may fall in, in white-die order (4.1 table)."""
    if listing == "RANDOM":
        return TILE_TYPES
    return tuple(part.lower() for part in listing.split(" OR "))


def type_from_white(listing: str, white: int) -> str:
    """4.1: two types split the white die 1-3 / 4-6; RANDOM splits it 1-2 / 3-4 / 5-6."""
    types = listing_types(listing)
    if len(types) == 2:
        return types[0] if white <= 3 else types[1]
    return types[(white - 1) // 2]


def letter_from_white(white: int) -> str:
    """4.211: 1 or 2 is A, 3 or 4 is B, 5 or 6 is C."""
    return "ABC"[(white - 1) // 2]


def territory_pools(listing: str) -> list[DicePool]:
    types = listing_types(listing)
    if len(types) == 1:
        # 4.1: a single type rolls ONLY the red die.
        return [d6(f"red die: {types[0].title()} Territory")]
    split = "1-3 / 4-6" if len(types) == 2 else "1-2 / 3-4 / 5-6"
    names = " / ".join(t.title() for t in types)
    return [d6(f"white die: Territory type ({names}: {split})"), d6("red die: Territory number")]


def space_pools() -> list[DicePool]:
    return [d6("white die: space letter (1-2 A, 3-4 B, 5-6 C)"), d6("red die: space number")]


def pools_for(where: Mapping) -> list[DicePool]:
    """The dice a where needs; [] when it names its space outright."""
    if "random" in where:
        return territory_pools(where["random"]) + space_pools()
    if "territory" in where and "space" not in where:
        return space_pools()
    return []


def available_tiles(listing: str, unavailable: Sequence[str]) -> list[str]:
    out = []
    for t in listing_types(listing):
        for n in range(1, 7):
            tid = f"{t[0].upper()}{n}"
            if tid not in unavailable:
                out.append(tid)
    return out


def effective(where: Mapping, unavailable: Sequence[str]) -> Mapping:
    """The where actually rolled for, once lost Territories are accounted for.

    12.41: a player sent to a specific Territory that is lost goes to a random
    Dragon's Lair space instead; so does one sent to a named place on a lost tile (the
    Star Crest, Hamdrel's Cottage, a Tower: a place is in its Territory). 12.45 re-rolls
    lost Territories; when a listing has no Territory left at all, re-rolling could never
    end, so (authored) the roll is made as RANDOM instead."""
    if "territory" in where and where["territory"] in unavailable:
        return {"territory": LAIR_TILE}
    if "place" in where:
        fixed = fixed_place(where)
        if fixed is not None and fixed[0] in unavailable:
            return {"territory": LAIR_TILE}
    if "random" in where and not available_tiles(where["random"], unavailable):
        return {"random": "RANDOM"}
    return where


def read(where: Mapping, faces: Sequence[Sequence[int]], unavailable: Sequence[str]) -> tuple[str, str] | None:
    """(tile, label) from the faces rolled for pools_for(where); None means roll over (12.45)."""
    flat = [int(f[0]) for f in faces]
    if "random" in where:
        listing = where["random"]
        types = listing_types(listing)
        if len(types) == 1:
            tile_type, red = types[0], flat[0]
            rest = flat[1:]
        else:
            tile_type, red = type_from_white(listing, flat[0]), flat[1]
            rest = flat[2:]
        tile = f"{tile_type[0].upper()}{red}"
        if tile in unavailable:
            return None
        return tile, f"{letter_from_white(rest[0])}{rest[1]}"
    if "territory" in where:
        if "space" in where:
            return where["territory"], where["space"]
        return where["territory"], f"{letter_from_white(flat[0])}{flat[1]}"
    raise ValueError(f"where {dict(where)} is not rolled for")


def fixed_place(where: Mapping) -> tuple[str, str] | None:
    """The (tile, label) of a named place or exact space, or None if the where names none."""
    if "place" in where:
        name = where["place"]
        if name in FIXED_PLACES:
            return FIXED_PLACES[name]
        kind = PLACE_KINDS[name]
        for tid, tile in pack().tiles.items():
            for label, space in tile["spaces"].items():
                if space["kind"] == kind:
                    return tid, label
        return None
    if "territory" in where and "space" in where:
        return where["territory"], where["space"]
    return None


def any_spaces(where: Mapping, unavailable: Sequence[str]) -> list[tuple[str, str]]:
    """4.1 ANY / 4.22: every space of the type named that the player may choose, in tile and
    label order; none in a Territory lost to Evil or not on the board (12.41: a taken tile is
    never entered)."""
    kind = where["any"]
    out = []
    for tid in pack().tile_ids:
        if tid in unavailable:
            continue
        for label, space in pack().tiles[tid]["spaces"].items():
            if space["kind"] == kind:
                out.append((tid, label))
    return out
