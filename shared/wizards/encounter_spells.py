"""The Encounter Spells (11.22-11.2242): Animal Summoning, Demon Dispelling, Dragon Taming
and Escaping, cast as choices inside the encounters they answer.

    11.1     one die; a 6 fails (7.3043 c: a Demon Dazed player succeeds only on 1-3)
    11.22    cast only when beset by the force the Spell affects (Animal Summoning apart)
    11.221   Animal Summoning: from a space where a Random Encounter is possible, when he
             had no Specific or Random Encounter this turn and no Animal is with him
    11.222   Demon Dispelling: offered at each Demon encounter (adversaries.py)
    11.223   Dragon Taming: offered at each Dragon encounter (adversaries.py)
    11.224   Escaping: offered when a Trap is met, before its effect is rolled (adversaries.py);
    11.2242  at Rank FOUR, except Wizards, also against an unwanted transport (the
             "transport" item of fate.py: `escape_offer`)
    11.24    Encounter Spells once for each adversary met: one offer per encounter item.

Every offer is the choice {"kind": "encounter_spell", "spell": s, "cast": true | false}.

Readings:
* AMB12 (11.221 with 11.24): Animal Summoning is offered once a turn, at the Encounter
  Segment of a turn on which nothing was encountered; a failed cast is not tried again
  that turn, since there is no adversary to count a second cast against.
* When in the turn (11.221): at the end of movement, in the Encounter Segment, once it is
  known that no Specific Encounter is due and no Random Encounter happens (red die 4-6 or
  a space of 8.1 f... only spaces where a Random Encounter is possible qualify). A lost
  turn (8.3, 7.304 1) offers nothing: the whole turn is lost.
* AMB16 (11.2242): Escaping dodges the transports that encounters cause (Player
  Encounters, Demons, Dragons, High Hollow, Wizard Card and Event transports); a transport
  the player asked for (a rescue, 7.30311) or one that is no encounter (the Day 14 moves of
  12.11) carries "escapable": false.
"""
from __future__ import annotations

from shared.engine import d6
from shared.wizards import encounters, resolution, spells
from shared.wizards.encounters import random_possible
from shared.wizards.resolution import Handler, Item, done, handler, push
from shared.wizards.state import WizardsState, current_turn, hx, player
from shared.wizards.world import world_for

KIND = "encounter_spell"
NAMES = {"animal_summoning": "Animal Summoning", "demon_dispelling": "Demon Dispelling",
         "dragon_taming": "Dragon Taming", "escaping": "Escaping"}


def label(action: dict) -> str:
    name = NAMES.get(str(action.get("spell")), str(action.get("spell")))
    return f"cast {name}" if action.get("cast") else f"do not cast {name}"


def can_cast(state: WizardsState, seat: int, spell: str, against: str | None = None) -> bool:
    """May the player attempt this Encounter Spell now (10.1x, 7.3043 b, 7.3051 c)?
    `against` for Escaping: "traps" or "transporting" (11.2241, 11.2242)."""
    p = player(state, seat)
    if not spells.may_cast(p, spell):
        return False
    if against is None:
        return True
    return any(against in e.get("against", ()) for e in spells.entries(p, spell))


def offers(spell: str) -> list[dict]:
    return [{"kind": KIND, "spell": spell, "cast": True}, {"kind": KIND, "spell": spell, "cast": False}]


def cast_pool(state: WizardsState, seat: int, spell: str) -> list:
    on = "1-3" if "demon_dazed" in player(state, seat)["afflictions"] else "1-5"
    return [d6(f"die: casting {NAMES[spell]} ({on} succeeds)")]


def cast_result(state: WizardsState, seat: int, spell: str, faces: list, events: list) -> bool:
    """11.1 / 7.3043 c: the cast die read, and the cast announced."""
    ok = spells.succeeds(player(state, seat), faces[0][0])
    events.append({"type": "spell_cast", "seat": seat, "spell": spell, "die": faces[0][0], "success": ok})
    return ok


class SpellStages(Handler):
    """Helpers for a handler that offers an Encounter Spell before its table:
    `offer_spell` asks, `choose` rolls the cast die or declines, `rolled` stores the faces;
    the handler reads item["cast"] (None declined, True succeeded, False failed) in its stages."""

    kinds: tuple[str, ...] = (KIND,)

    @staticmethod
    def label(action: dict) -> str:
        if action.get("kind") == "take_points":
            from shared.wizards.record import Points
            return Points.label(action)
        return label(action)

    def offer_spell(self, state: WizardsState, item: Item, spell: str, next_stage: str) -> None:
        item["stage"], item["spell"], item["after_spell"] = "offer", spell, next_stage
        resolution.ask(state, item["seat"])

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        if item.get("stage") == "offer" and seat == item["seat"]:
            return offers(item["spell"])
        return []

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        if action["cast"]:
            item["stage"] = "casting"
            resolution.roll(state, item, cast_pool(state, seat, item["spell"]))
            return
        events.append({"type": "spell_declined", "seat": seat, "spell": item["spell"]})
        item["cast"] = None
        item["stage"] = item["after_spell"]

    def cast_rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        item["cast"] = cast_result(state, item["seat"], item["spell"], faces, events)
        item["cast_die"] = faces[0][0]
        item["stage"] = item["after_spell"]


# --- Animal Summoning (11.221) -----------------------------------------------------------
def summoning_due(state: WizardsState, seat: int, due: dict) -> bool:
    """11.221 at the Encounter Segment: nothing encountered this turn, no Animal, a space
    where a Random Encounter is possible, the Spell known and castable."""
    t = current_turn(state)
    p = player(state, seat)
    if due["specific"] or due["random"] or t.get("lost") or p["animal"] is not None:
        return False
    if t.get("encountered") or "animal_summoning" in t["cast"]:
        return False
    if not can_cast(state, seat, "animal_summoning"):
        return False
    at = hx(p["at"])
    return at is not None and random_possible(state, world_for(state), seat, at)


def _segment_offer(state: WizardsState, seat: int, due: dict) -> list[dict]:
    if summoning_due(state, seat, due):
        return [{"do": "animal_summoning", "seat": seat, "at": player(state, seat)["at"], "rule": "11.221"}]
    return []


encounters.SEGMENT_HOOKS.append(_segment_offer)


@handler("animal_summoning")
class AnimalSummoning(SpellStages):
    """{"do": "animal_summoning", "seat", "at"}: cast or not; on success the 8.4 table."""

    rule = "11.221"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        stage = item.get("stage")
        if stage is None:
            self.offer_spell(state, item, "animal_summoning", "result")
            return
        if stage == "result":
            done(state, item)
            if item.get("cast") is not None:
                current_turn(state)["cast"].append("animal_summoning")  # AMB12: one attempt a turn
            if item.get("cast"):
                push(state, {"do": "animal", "seat": item["seat"], "at": item["at"], "rule": "11.221"})

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        self.cast_rolled(state, item, faces, events)


# --- Escaping (11.224-11.2242) ---------------------------------------------------------------
def escape_offer(state: WizardsState, item: Item) -> bool:
    """Whether a "transport" item offers Escaping first: "escapable" true (the default: an
    encounter's transport, 11.2242 at Rank FOUR except Wizards, AMB16), "trap" (the transport is
    a Trap's effect, a Wizard Card Trap: any Escaping against Traps, 11.2241) or false."""
    how = item.get("escapable", True)
    if how is False:
        return False
    if how == "trap":
        return can_cast(state, item["seat"], "escaping", "traps")
    return can_cast(state, item["seat"], "escaping", "transporting")


@handler("escape")
class Escape(SpellStages):
    """{"do": "escape", "seat", "rule", "against": "trap"}: pushed before a Trap takes effect
    (a Trap Event, 8.51): Escaping offered (11.224); success sets "escaped": true on the item
    beneath, which springs the Trap or not."""

    rule = "11.224"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        stage = item.get("stage")
        if stage is None:
            if can_cast(state, item["seat"], "escaping", "traps"):
                self.offer_spell(state, item, "escaping", "escaped")
                return
            stage = "escaped"
        if stage == "escaped" and item.get("cast"):
            below = state.pending[-2] if len(state.pending) > 1 else None
            if below is not None:
                below["escaped"] = True
            events.append({"type": "trap_escaped", "seat": item["seat"], "rule": "11.224", "for": item["rule"]})
        done(state, item)

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        self.cast_rolled(state, item, faces, events)
