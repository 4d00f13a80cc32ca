"""One roll of the casting dice against one wizard, from declaration to hits.

Stages, each a point where the match may wait:
  amulet     the target's seat may use an Amulet before warding (+1 ward)
  roll       the caster's dice and the target's ward dice (one chance step)
  coin-cast  a Crystal Coin on the caster: reroll the casting dice and keep either roll
  coin-ward  a Crystal Coin on the target: the same for the ward dice
  resolve    wands minus wards are the hits; the spell takes effect (spells.resolve)
Attacking wizards in the solo game never roll: a fixed number of wands or wards.
"""
from __future__ import annotations

from typing import Callable

from shared.engine import ChanceRequest
from shared.incantris import dice, flow, match
from shared.incantris.state import HexList, IncantrisState, Roll, Task
from shared.incantris.tasks import Clause
from shared.incantris.tasks import Task as Step

Resolve = Callable[[IncantrisState, Task, int, int, list], None]


def new(state: IncantrisState, spell: str, by: str | None, side: int, source: str, target: str, cast: Roll,
        ward: Roll | None, *, bonus: int | None = None, hit: list[str] | None = None,
        target_hex: HexList | None = None) -> Task:
    """An attack task; `cast`/`ward` are {"dice": n, "plus": k} or {"fixed": n}; ward None for healing.
    A spell's Power Circle or Power Ring `bonus`, the wizards a Scorching Chain has `hit` and the
    hex the target stood on (`target_hex`) travel with the task when given."""
    t = match.wizard(state, target)
    tside = state.sides[t["side"]]
    stages = []
    if ward and ward.get("dice") and "amulet" in t["items"] and tside["seat"] is not None:
        stages.append("amulet")
    stages.append("roll")
    roller = match.wizard(state, by) if by else None
    seated = state.sides[side]["seat"] is not None
    if cast.get("dice") and roller is not None and "crystal-coin" in roller["items"] and seated:
        stages.append("coin-cast")
    if ward and ward.get("dice") and "crystal-coin" in t["items"] and tside["seat"] is not None:
        stages.append("coin-ward")
    stages.append("resolve")
    task: Task = {"t": "attack", "spell": spell, "by": by, "side": side, "source": source, "target": target,
                  "cast": cast.copy(), "ward": ward.copy() if ward else None, "stages": stages,
                  "rolls": {}, "second": {}}
    if bonus is not None:
        task["bonus"] = bonus
    if hit is not None:
        task["hit"] = hit
    if target_hex is not None:
        task["target_hex"] = target_hex
    return task


def _pools(task: Task, which: tuple[str, ...]):
    pools = []
    for part in which:
        spec = task["cast"] if part == "cast" else task["ward"]
        if spec and spec.get("dice"):
            who = task["by"] or task["spell"] if part == "cast" else task["target"]
            pools.append((part, dice.pool(f"{part} {task['spell']} ({who})", spec["dice"])))
    return pools


def _still_held(state: IncantrisState, task: Task, stage: str) -> bool:
    owner = task["by"] if stage == "coin-cast" else task["target"]
    item = "amulet" if stage == "amulet" else "crystal-coin"
    return owner is not None and item in match.wizard(state, owner)["items"]


def _use_item(state: IncantrisState, wid: str, item: str, ev: list) -> None:
    w = match.wizard(state, wid)
    w["items"].remove(item)
    state.edit("used_items").append([wid, item])
    match.event(ev, "item-used", wizard=wid, item=item)


AMULET = Clause("Experience", "Use this amulet before the wizard who bears it rolls the casting dice to ward "
                           "against a spell.")
COIN = Clause("Experience", "The player may immediately reroll the dice and may select which of the two rolls he "
                            "or she would like to use.")


class Attack(Step):
    """One roll; `resolve` (spells.resolve) is what the hits do, given when the engine builds its
    table, so this module needs no rule that uses it."""

    kind = "attack"

    def __init__(self, resolve: Resolve):
        self.resolve = resolve

    def refuse(self, state, task, action):
        stage = task["stages"][0]
        what = {"amulet": "the Amulet: use true or false", "coin": "the Crystal Coin: reroll true or false",
                "keep": "which roll to keep: 1 or 2"}
        key = "amulet" if stage == "amulet" else "coin" if stage.startswith("coin-") else "keep"
        return (AMULET if key == "amulet" else COIN).violated(f"the roll waits for a choice about {what[key]}")

    def waits(self, state, task):
        stage = task["stages"][0]
        target = match.wizard(state, task["target"])
        if not match.in_arena(target):
            return None  # the target is gone: the step is dropped when run
        if stage in ("amulet", "coin-cast", "coin-ward") and not _still_held(state, task, stage):
            # an item is used once: a second roll planned with it (Meteor Storm rolls against
            # each wizard, a Retribution and a Blaze fall on one step) is no longer offered it
            return None
        if stage == "amulet":
            return ("seat", state.sides[target["side"]]["seat"])
        if stage == "roll":
            return "chance" if _pools(task, ("cast", "ward")) else None
        if stage in ("coin-cast", "keep-cast"):
            return ("seat", state.sides[task["side"]]["seat"])
        if stage in ("coin-ward", "keep-ward"):
            return ("seat", state.sides[target["side"]]["seat"])
        if stage in ("reroll-cast", "reroll-ward"):
            return "chance"
        return None

    def chance(self, state, task):
        stage = task["stages"][0]
        which = ("cast", "ward") if stage == "roll" else (stage.split("-")[1],)
        return ChanceRequest(tuple(p for _, p in _pools(task, which)))

    def options(self, state, task):
        stage = task["stages"][0]
        if stage == "amulet":
            return [{"kind": "amulet", "use": False}, {"kind": "amulet", "use": True}]
        if stage.startswith("coin-"):
            return [{"kind": "coin", "reroll": False}, {"kind": "coin", "reroll": True}]
        return [{"kind": "keep", "roll": 1}, {"kind": "keep", "roll": 2}]

    def choose(self, state, task, action, ev):
        stage = task["stages"][0]
        part = stage.split("-")[1] if "-" in stage else "ward"
        if stage == "amulet":
            task["stages"].pop(0)
            if action["use"]:
                _use_item(state, task["target"], "amulet", ev)
                task["ward"]["plus"] += 1  # Amulet: "grants +1 to the roll"
        elif stage.startswith("coin-"):
            task["stages"].pop(0)
            if action["reroll"]:
                owner = task["by"] if part == "cast" else task["target"]
                _use_item(state, owner, "crystal-coin", ev)
                task["stages"][0:0] = [f"reroll-{part}", f"keep-{part}"]
        else:  # keep
            task["stages"].pop(0)
            if action["roll"] == 2:
                task["rolls"][part] = task["second"][part]
            match.event(ev, "roll-kept", part=part, faces=task["rolls"][part])

    def roll(self, state, task, outcome, ev):
        stage = task["stages"].pop(0)
        if stage == "roll":
            parts = [p for p, _ in _pools(task, ("cast", "ward"))]
            for part, faces in zip(parts, outcome):
                task["rolls"][part] = list(faces)
            match.event(ev, "dice", spell=task["spell"], by=task["by"], target=task["target"],
                        **{part: list(faces) for part, faces in zip(parts, outcome)})
        else:
            part = stage.split("-")[1]
            task["second"][part] = list(outcome[0])
            match.event(ev, "dice", spell=task["spell"], by=task["by"], target=task["target"], reroll=True,
                        **{part: list(outcome[0])})

    def run(self, state, task, ev):
        target = match.wizard(state, task["target"])
        if not match.in_arena(target):
            flow.pop(state)
            return
        stage = task["stages"][0]
        if stage != "resolve":
            task["stages"].pop(0)  # a stage with nothing to wait for (no dice to roll)
            return
        flow.pop(state)
        wands = _count(task["cast"], task["rolls"].get("cast"), dice.wands)
        wards = _count(task["ward"], task["rolls"].get("ward"), dice.wards) if task["ward"] else 0
        hits = max(0, wands - wards)
        match.event(ev, "hits", spell=task["spell"], by=task["by"], target=task["target"],
                    wands=wands, wards=wards, hits=hits)
        self.resolve(state, task, wands, hits, ev)


def _count(spec: Roll, faces, counter) -> int:
    if "fixed" in spec:
        return spec["fixed"]
    return counter(faces or []) + spec.get("plus", 0)
