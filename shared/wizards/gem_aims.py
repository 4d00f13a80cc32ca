"""The AI seat's gathering of the Sacred Gems and their keeping (13, 7.326, 11.232, 7.3263, 11.233),
read from the seat's own view only: its Gem Record, its note of the False Wizard and its Secret
Wizard Record are its own (14.3); the markers on the board and its encounters in a space are public.

Where it goes: a Sorcerer to a Master Sorcerer's Tower Center, where his aid summons a Gem
(7.346, 11.232). 7.6 lets a space give its encounter twice a visit of the tile: it steps out
of the Center and back in for the second, and then off the Tower's tile and back (or on to
another Tower). A player of another Order goes to the High Wizards whose markers are out (7.326),
never to the False Wizard it knows of while it holds Gems (Perception, 11.233, tells a Druid).
What it asks: never the False Wizard it knows of while it holds Gems; by Gem Summoning, a
High Wizard whose Gem it lacks, then a Secret Wizard it cannot name, then at random, then a
marker whose Gem it holds (it only clears the board for the random cast) and the False Wizard
only with no Gem to lose.
"""
from __future__ import annotations

from shared.wizards.pack import TOWER_TILES
from shared.wizards.remaining import VISITS_PER_TILE, key


def _me(view: dict, seat: int) -> dict:
    return view["players"][seat]


def held(view: dict, seat: int) -> dict:
    gems = _me(view, seat)["gems"]
    return gems if isinstance(gems, dict) else {}


def false_wizard(view: dict, seat: int) -> str | None:
    """The High Wizard it knows to be False: met (7.3263), or told by Rüktal (11.233)."""
    name = _me(view, seat).get("false_wizard")
    return name if isinstance(name, str) and name != "hidden" else None


def _name(view: dict, seat: int, key: str) -> str | None:
    """The High Wizard behind a marker key, when the seat knows him (a Secret Wizard named to it, 14.26)."""
    if not key.startswith("secret:"):
        return key
    record = _me(view, seat).get("secret_record")
    return record.get(key.split(":", 1)[1]) if isinstance(record, dict) else None


def worth_asking(view: dict, seat: int, wizard: str) -> bool:
    """7.326: a Gem he lacks, and never the False Wizard he knows while he holds Gems (7.3263)."""
    return wizard not in held(view, seat) and not (wizard == false_wizard(view, seat) and held(view, seat))


def summoning_offered(legal: list[dict]) -> bool:
    """The choice is the Gem Summoning offer alone (11.232): every action one of its targets (None: declining)."""
    return bool(legal) and all(a["kind"] == "gem_summoning" for a in legal)


def summon_target(view: dict, seat: int, legal: list[dict], cautious: bool = False) -> dict:
    """The Gem Summoning choice (11.2321-11.2322) in the order of the module docstring; `cautious`: not at random,
    where the False Wizard may be drawn (a keeper of pooled Gems whose partner summons for him)."""
    gems, false = held(view, seat), false_wizard(view, seat)

    def rank(a: dict) -> int:
        t = a["target"]
        if t is None:
            return 9
        if t == "random":
            return 10 if cautious else 2
        name = _name(view, seat, t)
        if name is None:
            return 1
        if name == false:
            return 4 if not gems else 10
        return 0 if name not in gems else 3
    best = min(legal, key=lambda a: (rank(a), str(a["target"])))
    return best if rank(best) < 10 else next(a for a in legal if a["target"] is None)


def summoner(view: dict, seat: int) -> bool:
    """A Sorcerer at Rank FOUR: his Gems come by Gem Summoning in a Tower (7.346, 11.232)."""
    me = _me(view, seat)
    return me["order"] == "sorcerers" and me["rank"] >= 4


def tower_goals(view: dict, seat: int, w, centres: list) -> list:
    """The Tower Centers that still give him a Master Sorcerer's encounter (7.6): the one he stands on
    is left for a space beside it, and a Center met twice on this visit of its tile for the
    spaces just off that tile."""
    at = tuple(_me(view, seat)["at"])
    here = w.tile_of(at)
    out = []
    for c in centres:
        if c == at:
            out += [n for n in w.neighbours(c) if w.is_land(n) and w.tile_of(n) == here and not w.wall_between(c, n)]
        elif w.tile_of(c) == here and met_out(view, seat, c):
            tile = set(w.tile_spaces(here))
            out += sorted({n for h in tile for n in w.neighbours(h)
                           if n not in tile and w.is_land(n) and w.tile_of(n) not in view["taken"]})
        else:
            out.append(c)
    return out


def fresh_towers(view: dict, seat: int, w) -> list:
    """The Tower tiles on the board, not taken by Evil, whose Master Sorcerer still meets him on this visit
    (7.6: another Tower's tile always, since arriving there clears the count; his own while its Center
    has met him fewer than twice)."""
    here = w.tile_of(tuple(_me(view, seat)["at"]))
    return [t for t in TOWER_TILES if t in w.tiles and t not in view["taken"]
            and not (t == here and met_out(view, seat, w.hex_of[(t, "Center")]))]


def met_out(view: dict, seat: int, centre) -> bool:
    """7.6: the Center has met him twice on this visit of its tile (remaining.VISITS_PER_TILE), so only leaving
    the tile gives another encounter there."""
    return (_me(view, seat).get("space_encounters") or {}).get(key(centre), 0) >= VISITS_PER_TILE


def marker_goals(view: dict, seat: int) -> list:
    """High Wizard markers worth meeting for a Gem (7.326); Secret Wizards it cannot name are worth the risk
    only with no Gem to lose."""
    out = [tuple(h) for name, h in view["wizard_markers"].items() if h and worth_asking(view, seat, name)]
    for s in view.get("secret_wizards", []):
        if s.get("at") is None:
            continue
        name = _name(view, seat, f"secret:{s['letter']}")
        if (name is None and not held(view, seat)) or (name is not None and worth_asking(view, seat, name)):
            out.append(tuple(s["at"]))
    return out


def gem_goals(view: dict, seat: int, w, towers: list) -> list:
    """Where a player gathering the Gems goes next (13)."""
    if summoner(view, seat):
        return tower_goals(view, seat, w, towers)
    return marker_goals(view, seat)

