"""What each spell does once its dice are read (Spell & Magical Ability Reference).

Damage spells: "Target suffers 1 point of damage per hit." Healing spells: "The target
regains 1 life point for each wand rolled." Bane, Entanglement, Teleport, Primal Reach and
Scorching Chain need at least one hit and may leave a choice to the caster, which becomes a
task waiting for the caster's seat (or runs by itself for an attacking wizard).
"""
from __future__ import annotations

from shared.engine import MalformedAction
from shared.hexgrid import distance
from shared.incantris import attack, dice, effects, flow, match, sight, wounds
from shared.incantris.arena import as_hex
from shared.incantris.movement import ADJACENT, SHARE, Ground
from shared.incantris.state import HexList, IncantrisState, Task, Wizard
from shared.incantris.tasks import Clause
from shared.incantris.tasks import Task as Step

HEALING = ("breath-of-life", "healing-warmth")


def resolve(state: IncantrisState, task: Task, wands: int, hits: int, ev: list) -> None:
    spell = task["spell"]
    target = match.wizard(state, task["target"])
    side = task["side"]
    if spell in HEALING:
        wounds.heal(state, target, wands, ev)
        return
    if spell in ("bane", "entanglement"):
        caster = task["by"]
        if hits >= 1:
            assert caster is not None, "Bane and Entanglement are cast by a wizard"
            effects.place(state, match.wizard(state, caster), spell, {"wizard": target["id"]}, ev)
        return
    if spell == "teleport":
        if hits >= 1:
            flow.push_front(state, {"t": "teleport", "by": task["by"], "side": side, "target": target["id"]})
        return
    lost = wounds.damage(state, target, hits, side, ev)
    if spell == "primal-reach" and lost >= 1 and target["alive"]:
        # "he or she may move the target one hex for each point of damage inflicted"
        flow.push_front(state, {"t": "shove", "by": task["by"], "side": side, "target": target["id"], "steps": lost})
    if spell == "scorching-chain" and lost >= 1:
        hit = task.get("hit", []) + [target["id"]]
        flow.push_front(state, {"t": "chain", "by": task["by"], "side": side,
                                "from": origin_of_chain(state, target, task), "from_side": target["side"],
                                "hit": hit, "bonus": task.get("bonus", 0)})


def origin_of_chain(state: IncantrisState, target: Wizard, task: Task) -> HexList | None:
    """The hex the chain jumps from: where the damaged wizard stood (even if it died)."""
    return target["hex"] if target["hex"] is not None else task.get("target_hex")


def enter(state: IncantrisState, w: Wizard, to, ev: list, how: str) -> list[Task]:
    """Put a wizard on a hex by spell (no movement points, no Retribution); Blaze still
    bites on entering (FAQ 7)."""
    frm = w["hex"]
    w["hex"] = list(to)
    match.event(ev, how, wizard=w["id"], frm=frm, to=list(to))
    return effects.blaze_on_enter(state, w, as_hex(to))


class TeleportChoice(Step):
    """Teleport: "The caster may move the target wizard up to four hexes ... The caster
    does not need to see the hex to which the wizard is teleported." """

    kind = "teleport"
    rule = Clause("Teleport", "The caster may move the target wizard up to four hexes from his or her current "
                              "location in any direction")
    IMPASSABLE = Clause("Teleport", "The target may not be teleported to an impassable hex (though he or she may be "
                                    "teleported through them).")

    def refuse(self, state, task, action):
        if action["kind"] != "teleport":
            return super().refuse(state, task, action)
        target = match.wizard(state, task["target"])
        to = as_hex(action["to"])
        if distance(to, as_hex(target["hex"])) > 4:
            return self.rule.violated(f"{list(to)} is more than four hexes from {target['id']}")
        why = Ground(state).no_standing(target, to)
        if why is not None and why is not SHARE:
            return self.IMPASSABLE.violated(f"{list(to)}: {why.text}")
        return SHARE.violated(f"{list(to)} is taken")

    def waits(self, state, task):
        if not match.in_arena(match.wizard(state, task["target"])):
            return None
        return ("seat", state.sides[task["side"]]["seat"])

    def options(self, state, task):
        target = match.wizard(state, task["target"])
        return [{"kind": "teleport", "to": list(h)} for h in Ground(state).teleport_spots(target)]

    def choose(self, state, task, action, ev):
        flow.pop(state)
        target = match.wizard(state, task["target"])
        if list(action["to"]) != target["hex"]:
            for t in enter(state, target, action["to"], ev, "teleported"):
                flow.push_front(state, t)

    def run(self, state, task, ev):
        flow.pop(state)


class PrimalReachChoice(Step):
    """Primal Reach moves the target hex by hex; streams do not slow it; Blaze bites in
    each hex it enters (FAQ 7). The attacking Shaman pulls "the target directly toward him"."""

    kind = "shove"
    rule = Clause("Primal Reach", "he or she may move the target one hex for each point of damage inflicted.")
    IMPASSABLE = Clause("Primal Reach", "The caster may not move the target into or through any impassable hex.")
    STOPS = Clause("Primal Reach", "the target is never moved into an occupied or Fog Wall hex, since it may stop "
                                   "after any step", reading=True)

    def refuse(self, state, task, action):
        if action["kind"] != "reach":
            return super().refuse(state, task, action)
        target = match.wizard(state, task["target"])
        to = as_hex(action["to"])
        if distance(to, as_hex(target["hex"])) != 1:
            return ADJACENT.violated(f"Primal Reach moves {target['id']} one hex at a time")
        why = Ground(state).impassable(target, to)
        if why is not None:
            return self.IMPASSABLE.violated(f"{list(to)}: {why.text}")
        return self.STOPS.violated(f"{list(to)} is occupied or fog")

    def waits(self, state, task):
        target = match.wizard(state, task["target"])
        if not match.in_arena(target) or task["steps"] <= 0:
            return None
        if state.sides[task["side"]]["auto"]:
            return None
        return ("seat", state.sides[task["side"]]["seat"])

    def options(self, state, task):
        target = match.wizard(state, task["target"])
        spots = Ground(state).shove_steps(target, as_hex(target["hex"]))
        return [{"kind": "reach", "to": list(h)} for h in spots] + [{"kind": "reach-stop"}]

    def choose(self, state, task, action, ev):
        if action["kind"] == "reach-stop":
            flow.pop(state)
            return
        self._step(state, task, action["to"], ev)

    def _step(self, state, task, to, ev):
        target = match.wizard(state, task["target"])
        task["steps"] -= 1
        if task["steps"] <= 0:
            flow.pop(state)
        for t in enter(state, target, to, ev, "pulled"):
            flow.push_front(state, t)

    def run(self, state, task, ev):
        target = match.wizard(state, task["target"])
        if not match.in_arena(target) or task["steps"] <= 0:
            flow.pop(state)
            return
        caster = match.wizard(state, task["by"])
        if not match.in_arena(caster):
            flow.pop(state)
            return
        here = as_hex(target["hex"])
        toward = as_hex(caster["hex"])
        spots = [h for h in Ground(state).shove_steps(target, here) if distance(h, toward) < distance(here, toward)]
        if not spots:
            flow.pop(state)
            return
        self._step(state, task, min(spots, key=lambda h: (distance(h, toward), h)), ev)


class ScorchingChainChoice(Step):
    """Scorching Chain: "the fiery chain may jump to another wizard of the caster's choice.
    The chain can jump up to three hexes away to a new target within the damaged wizard's
    line of sight ... may not affect the same wizard twice in a single casting." """

    kind = "chain"
    rule = Clause("Scorching Chain", "the fiery chain may jump to another wizard of the caster's choice.")
    TWICE = Clause("Scorching Chain", "Scorching Chain may not affect the same wizard twice in a single casting.")
    REACH = Clause("Scorching Chain", "The chain can jump up to three hexes away to a new target within the damaged "
                                      "wizard's line of sight.")

    def refuse(self, state, task, action):
        if action["kind"] != "chain":
            return super().refuse(state, task, action)
        if action["target"] not in state.wizards:
            raise MalformedAction(f"no wizard {action['target']!r}")
        if action["target"] in task["hit"]:
            return self.TWICE.violated(f"{action['target']} was hit by this chain already")
        return self.REACH.violated(f"{action['target']} is not within three hexes and in sight")

    def waits(self, state, task):
        if not self.targets(state, task):
            return None
        return ("seat", state.sides[task["side"]]["seat"])

    def targets(self, state, task) -> list[Wizard]:
        if task["from"] is None:
            return []
        here = as_hex(task["from"])
        arena = match.arena(state)
        blocked = sight.blocking(state, task["from_side"])
        out = []
        for w in match.on_board(state):
            h = as_hex(w["hex"])
            if w["id"] in task["hit"] or distance(h, here) > 3:
                continue
            if sight.can_see(arena, here, h, blocked):
                out.append(w)
        return out

    def options(self, state, task):
        return [{"kind": "chain", "target": w["id"]} for w in self.targets(state, task)] + [{"kind": "chain-stop"}]

    def choose(self, state, task, action, ev):
        flow.pop(state)
        if action["kind"] == "chain-stop":
            return
        target = match.wizard(state, action["target"])
        source = "elemental" if task["by"] is None else match.kind(match.wizard(state, task["by"])).power
        flow.push_front(state, attack.new(state, "scorching-chain", task["by"], task["side"], source, target["id"],
                                          {"dice": 2, "plus": 1 + task["bonus"]}, dice.ward_roll(state, target, source),
                                          hit=task["hit"], bonus=task["bonus"], target_hex=target["hex"]))
        match.event(ev, "chain-jump", to=target["id"])

    def run(self, state, task, ev):
        flow.pop(state)
