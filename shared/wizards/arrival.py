"""What follows a player into a new space, however he got there: Lair Time (12.511),
the Dragon coming home (8.421), Star Crest visits (7.37-7.3721), being transported
(8.41 the Animal leaves, 8.31 a Trap is left behind) and the Territories he has seen."""
from __future__ import annotations

from shared.hexgrid import Hex
from shared.wizards import lair, remaining
from shared.wizards.state import WizardsState, hx, player
from shared.wizards.world import world_for

# Ways of arriving that count as being "transported there" for the Star Crest (7.37):
# the Unicorn and Winged Horse may set a player down in it (8.43, 8.44).
CARRIED = ("transport", "fly", "ride")


def leave_boat(state: WizardsState, seat: int) -> None:
    p = player(state, seat)
    if p["boat"] is not None:
        state.edit("boats", p["boat"])["rider"] = None
        p["boat"] = None


def arrive(state: WizardsState, seat: int, old: Hex | None, new: Hex, how: str, events: list) -> None:
    """Set the player in `new` and apply everything that arriving there sets off."""
    w = world_for(state)
    p = player(state, seat)
    if how == "transport":
        leave_boat(state, seat)
        if p["animal"] is not None:  # 8.41: a transported player loses his Animal
            events.append({"type": "animal_departs", "seat": seat, "animal": p["animal"]["kind"], "rule": "8.41"})
            p["animal"] = None
        if p["trap"] is not None:  # 8.31: transport frees him from a Trap
            p["trap"] = None
            events.append({"type": "trap_ends", "seat": seat, "rule": "8.31"})
        if p.get("stranded") is not None:  # 7.3031: no longer where he asked for help
            p["stranded"] = None
    if old != new and p.get("dispel_tried"):
        p["dispel_tried"] = []  # 11.24: Demons met anew are a new adversary
    p["at"] = [new[0], new[1]]
    tile = w.tile_of(new)
    if tile and tile not in p["visited"]:
        p["visited"].append(tile)
    p["swum"] = p["swum"] + 1 if (w.is_water(new) and p["boat"] is None) else 0
    lair.track(state, w, seat, old, new, events)
    lair.recall_if_away(state, w, new)
    remaining.arrived(state, seat, old, new)
    crest = w.find("star_crest")
    if crest:
        _star_crest(state, seat, old, new, crest[0], how)
    if p["tasks"]:
        from shared.wizards.tasks import note_visit  # (tasks.py reads set-up, which places players here)
        note_visit(state, seat, new, events)  # Tasks to visit EVERY location of a kind (9)


def _star_crest(state: WizardsState, seat: int, old: Hex | None, new: Hex, crest: Hex, how: str) -> None:
    p = player(state, seat)
    sc = p["star_crest"]
    if old == crest and new != crest:
        sc["left_turn"] = p["turns_taken"]  # 7.372: re-entry only on his very next turn
    if new == crest and old != crest:
        own_marker = any(m["seat"] == seat and hx(m["at"]) == crest for m in state.task_markers)
        reentry = sc["visit"] == "initial" and sc["left_turn"] == p["turns_taken"] - 1
        fresh = how in CARRIED or p["star_crest_directed"] or own_marker or not reentry
        sc["visit"] = "initial" if fresh else "reentry"  # 7.3721: one re-entry per initial visit
        sc["left_turn"] = None
        p["star_crest_directed"] = False
