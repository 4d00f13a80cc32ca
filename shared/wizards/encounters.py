"""Which encounters a space calls for (sections 7, 7.4, 8.1), and whether entering it
ends a player's movement (7.2).

`resolve_encounters` puts what is due on the resolution stack (resolution.py), one
item per encounter in the order of 7.4; each kind's handler lives in the module named
for it. `Encounter` is their base: an encounter of a space is skipped once its player
has been transported out of that space (7.4 "or until he is transported out").
"""
from __future__ import annotations

from shared.hexgrid import Hex
from shared.wizards import remaining, resolution
from shared.wizards.cards import held_effects
from shared.wizards.pack import COTTAGE_TILE, LAIR_TILE, TOWER_TILES, pack
from shared.wizards.state import Board, WizardsState, current_turn, hx, player, position
from shared.wizards.taskmarkers import encounterable
from shared.wizards.world import World

# 7 c-h: places that always call for a Specific Encounter (and so end movement, 6 / 7.2).
PLACE_ENCOUNTERS = {
    "town": "common_folk", "dwelling": "elves", "abbey": "shrineheart_abbey", "tower": "master_sorcerer",
    "cottage": "hamdrel", "lair": "dragon", "high_hollow": "high_hollow", "star_crest": "star_crest",
    "circle": "ruktal",
}


def wizard_markers_at(state: Board, h: Hex) -> list[str]:
    """High Wizard markers on a space, in order of rank (7.4 b), then Secret Wizard markers."""
    names = [n for n in pack().high_wizards if hx(state.wizard_markers.get(n)) == h]
    names += [f"secret:{s['letter']}" for s in state.secret_wizards if hx(s.get("at")) == h]
    return names


def meets_player(state: Board, seat: int, other: int) -> bool:
    """7.302: a Player Encounter if both are Rank ONE or higher; a Rescue (7.303) and
    meeting a Dragonbound player (7.3051 i) happen whatever the Ranks."""
    me, them = player(state, seat), player(state, other)
    if them["trap"] is not None or them.get("stranded"):
        return True
    if "dragonbound" in them["afflictions"] or "dragonbound" in me["afflictions"]:
        return True
    return me["rank"] >= 1 and them["rank"] >= 1


def players_met(state: Board, seat: int, h: Hex) -> list[int]:
    return [p["seat"] for p in state.players
            if p["seat"] != seat and hx(p["at"]) == h and meets_player(state, seat, p["seat"])]


def stops_for(state: Board, w: World, seat: int):
    """Whether entering a space ends the player's movement (7.2): a Specific Encounter space, or
    one where something that moves is (movement_stoppers). The player's own Task Markers do not
    stop him: passing one is ignoring it, the one encounter a player may avoid (7.312). A walk
    asks this of every space it reaches, on a state that does not change meanwhile."""
    stoppers = movement_stoppers(state, seat)
    return lambda h: w.kind(h) in PLACE_ENCOUNTERS or h in stoppers


def movement_stoppers(state: Board, seat: int) -> frozenset[Hex]:
    """The spaces where the Dragon, a Demon, a High or Secret Wizard marker (wizard_markers_at) or a
    player he meets (players_met) is: each ends his movement there (7.2)."""
    at = {hx(state.dragon), *(hx(d) for d in state.demons)}
    at.update(hx(state.wizard_markers.get(n)) for n in pack().high_wizards)
    at.update(hx(s.get("at")) for s in state.secret_wizards)
    at.update(hx(p["at"]) for p in state.players
              if p["seat"] != seat and meets_player(state, seat, p["seat"]))
    at.discard(None)
    return frozenset(at)  # type: ignore[arg-type]


def specific_due(state: WizardsState, w: World, seat: int, h: Hex, ignore_tasks: bool = False) -> list[dict]:
    """The Specific Encounters of a space for a player, in the order of 7.4.

    AMB1 (7.311): a marker whose prerequisites are not done is not encountered and the
    space is read as if it held no marker (as 7.312 reads an ignored one): no Specific
    Encounter for it, so a Random Encounter may happen there. `ignore_tasks`: the player
    has chosen to ignore his markers here (7.312)."""
    due: list[dict] = []
    markers = [] if ignore_tasks else encounterable(state, seat, h)
    if markers:  # 7.4 a (7.31: only his own markers, 7.311 prerequisites done, 7.3051 d)
        due.append({"kind": "task_marker", "tasks": sorted({m["task"] for m in markers})})
    for name in wizard_markers_at(state, h):  # 7.4 b
        due.append({"kind": "high_wizard", "wizard": name})
    place = PLACE_ENCOUNTERS.get(w.kind(h))
    if place and place != "dragon":  # 7.4 c
        due.append({"kind": place})
    others = players_met(state, seat, h)
    if others:  # 7.4 d: one encounter with everyone met there (meetings.py)
        due.append({"kind": "player", "others": others})
    if h in (hx(d) for d in state.demons):  # 7.4 e
        due.append({"kind": "demons"})
    if hx(state.dragon) == h or w.kind(h) == "lair":  # 7.4 f, 7.305
        due.append({"kind": "dragon"})
    return due


def random_possible(state: WizardsState, w: World, seat: int, h: Hex, ignore_tasks: bool = False) -> bool:
    """8.1 (and 7.1, 7.3051 a, 8.31): may a Random Encounter happen in this space?"""
    p = player(state, seat)
    if "dragonbound" in p["afflictions"] or p["trap"] is not None:
        return False
    if held_effects(p, "no_random_encounters"):
        return False
    space = w.spaces.get(h)
    if space is None:  # e: any Water space
        return False
    if space.kind == "stone":  # a
        return False
    if space.tile in TOWER_TILES and space.kind == "mountains":  # b
        return False
    if space.tile in (COTTAGE_TILE, LAIR_TILE):  # c, d
        return False
    return not specific_due(state, w, seat, h, ignore_tasks)  # f


def encounters_due(state: WizardsState, w: World, seat: int) -> dict:
    """What the encounter segment holds for the player to act (5.2): the Specific
    Encounters of the space he entered this turn (7.6: none for staying put) and
    whether his red die (5.21) gives a Random Encounter."""
    turn = current_turn(state)
    p = player(state, seat)
    h = position(p)
    if p["trap"] is not None:  # 8.31: a trapped player may NOT have any other encounters
        return {"specific": [], "random": False, "red": False}
    if turn.get("dragon_again"):  # 7.305 5: he remained in the Center to meet the Dragon again
        return {"specific": [d for d in specific_due(state, w, seat, h) if d["kind"] == "dragon"], "random": False,
                "red": False}
    called = specific_due(state, w, seat, h) if turn["arrived"] else []
    # 7.6 / 7.354: the second-encounter limit; staying gives only Hamdrel or a detention
    specific = remaining.limit(state, seat, h, called) if turn["arrived"] else remaining.staying(state, seat)
    roll = turn["roll"]
    red = bool(roll and roll["red"] <= 3)
    random = bool(red and not called and not specific and random_possible(state, w, seat, h))
    return {"specific": specific, "random": random, "red": red}


def items_for(state: WizardsState, seat: int, due: dict) -> list[dict]:
    """Resolution items for what a space holds for a player. Place encounters know whether
    the player came to fulfil a Task there or a High Wizard is present, which stops their
    table rolls (7.3011, 7.361, 7.3712, 7.382, 7.391)."""
    at = player(state, seat)["at"]
    kinds = [d["kind"] for d in due["specific"]]
    context = {"fulfils": "task_marker" in kinds, "wizard_present": "high_wizard" in kinds}
    items = [{"do": d["kind"], "seat": seat, "at": at, **{k: v for k, v in d.items() if k != "kind"}, **context}
             for d in due["specific"]]
    for i in items:  # 7.312: ignoring his markers can leave a Random Encounter due (tasks.py)
        if i["do"] == "task_marker":
            i["red"] = bool(due.get("red"))
    if due["random"]:
        items.append({"do": "random_encounter", "seat": seat, "at": at})
    remaining.record(state, seat, items)  # 7.6, 7.354
    return items


# Offers the Encounter Segment makes when nothing is due (11.221 Animal Summoning):
# each hook gives items for (state, seat, due).
SEGMENT_HOOKS: list = []


def resolve_encounters(state: WizardsState, seat: int, due: dict, events: list, then_step: str) -> None:
    """The Encounter Segment (5.2): announce what is due, then resolve it in order."""
    p = player(state, seat)
    if due["specific"] or due["random"]:
        events.append({"type": "encounter_due", "seat": seat, "space": p["at"], **due})
    items = items_for(state, seat, due)
    for hook in SEGMENT_HOOKS:
        items += hook(state, seat, due)
    resolution.begin(state, items, then_step)


class Encounter(resolution.Handler):
    """An encounter of a space. Subclasses write `start` (the first run) and, as they
    need, `rolled`, `legal` and `choose`."""

    def run(self, state: WizardsState, item: dict, events: list) -> None:
        if "stage" not in item:
            if hx(player(state, item["seat"])["at"]) != hx(item["at"]):  # 7.4: transported out
                resolution.done(state, item)
                return
            item["stage"] = "start"
            self.start(state, item, events)
            return
        self.resume(state, item, events)

    def start(self, state: WizardsState, item: dict, events: list) -> None:
        raise NotImplementedError

    def resume(self, state: WizardsState, item: dict, events: list) -> None:
        """Runs again after items it pushed are resolved; by default it is finished."""
        resolution.done(state, item)
