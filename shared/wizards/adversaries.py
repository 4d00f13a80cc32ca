"""Demons, the Dragon and Traps (7.304-7.3044, 7.305-7.3051, 8.2, 8.3-8.31), with the
Encounter Spells that answer them (11.222 Demon Dispelling, 11.223 Dragon Taming,
11.224 Escaping).

Items:
    {"do": "demons", "seat", "at"}          7.304 (7.4 e, 8.2, 7.5 a Demon placed on him);
        "optional": true  offered at the start of his turn while he stands with Demons (11.222
                        "whenever"): only if he casts Demon Dispelling, and failing, they attack
        "bound": seat   the equivalent encounter of meeting that Dragonbound player (7.3042,
                        7.3051 i: no Demon Dispelling; 6 transports the Dragonbound player)
        "group": true   one of the Demon attacks of a Player Encounter (7.302 1): the marker
                        goes only when every player dispels it (meetings.py keeps the tally)
    {"do": "place_demon", "rule", "at": [q, r] | "where": randomspace where, "seat"?}
        a Demon Marker put on the board (7.3041, 8.2, 9.9, 12.14); players in that space
        meet it at once (7.5), the item's seat first and then clockwise
    {"do": "dragon", "seat", "at"}          7.305 (the Lair's Center or the Dragon's space; met
        also when the Dragon called by 8.42 has gone straight home, 8.421: he met it first)
    {"do": "trap", "seat", "rule", "effect"?}
        8.3 (no effect: the table is rolled) or a Trap given by a card: effect
        {"lose_turns": n | {"dice": 1} | "fortnight", "roll_to_leave": [5, 6],
         "transport": where} (Event Card Traps 8.51, Wizard Card Traps 8.73)
    {"do": "lose_least", "seat", "rule", "times"}  one die (times 2 for the Dragon) from
        the type he has least of (7.304 2, 7.305 4)

Readings:
* AMB3: between non-zero types tied for least the player chooses; with every type at zero
  nothing is lost.
* 7.304 2 / 7.305 4 at Rank FOUR are read as result 3 (theft), as printed; a player outside
  any Order loses no points (3.73) but still meets the result as rolled.
* 7.3041: "a RANDOM space in the SAME Territory" is a space of the tile the encounter was in
  (SPECIFIC Territory, space rolled); in Water, a RANDOM space. A space holding a Demon
  already gets none, and neither does a full supply: 48 Demon Markers (components list).
* 8.452 / 8.461 / 8.442: a Horse or Hound leaves at the start of any Demon or Dragon
  encounter, a Winged Horse at the start of a Dragon encounter, before any spell.
* 11.222 / 11.24: Demon Dispelling is offered at each Demon encounter before its table, and at
  the start of his turn while a Demon Marker shares his space; once for each adversary: one
  cast against the Demons of a space until he leaves it ("dispel_tried"); after a
  failed cast the table is rolled with 6 rolled again. In a Player Encounter's attack
  (7.302 1) a player who dispels or rolls 6 gains his die but the marker stays unless
  everyone in the encounter did.
* 11.223 / 12.512: the cast die is the Taming table (1-3 a Secret Wizard shown, 4-5 no
  effect, 6 fails and the 7.305 table is rolled, 6 again rolled over). "Uses a Dragon
  Taming Spell" is read as a successful one: then the Lair Time Marker goes back THREE days,
  otherwise ONE, on the Lair tile, before the table is rolled.
* 7.305 5 already in the Center: "dragon_again": on his next turn he does not roll or move and
  meets the Dragon again (a turn he loses anyway is not that turn).
* 8.3 / 7.3032: a Trap of lost turns ends with the last turn lost ({"lose_turns": n}); result 1,
  "ALL turns until the end of the present Fortnight", loses one turn for each day left in it
  (14 - today); result 5 holds him until he rolls 5-6 (turns.py). Transports by a Trap are not
  offered Escaping again: the Trap's own Escaping was its one chance (11.24).
"""
from __future__ import annotations

from shared.engine import d6
from shared.hexgrid import Hex
from shared.wizards import lair, randomspace, record, resolution, turns
from shared.wizards.afflictions import become_demon_dazed, become_dragonbound, become_trapped
from shared.wizards.encounter_spells import SpellStages, can_cast
from shared.wizards.encounters import Encounter
from shared.wizards.pack import LAIR_TILE
from shared.wizards.resolution import Item, done, handler, higher, push, two_dice
from shared.wizards.setup import unavailable
from shared.wizards.state import WizardsState, hx, ls, player
from shared.wizards.world import world_for

DEMON_MARKERS = 48  # components: 48 Demon Markers
SHY_OF_DEMONS = ("horse", "hound")  # 8.452, 8.461
SHY_OF_DRAGONS = ("horse", "hound", "winged_horse")  # 8.452, 8.461, 8.442


def here(v) -> Hex:
    """A space that is surely there (an item's "at", a player on the board) as a hex."""
    h = hx(v)
    assert h is not None
    return h


def clockwise(state: WizardsState, first: int, seats) -> list[int]:
    """`seats` in the order of 7.3021: `first`, then clockwise (on his left, 3.74)."""
    n = state.seats
    return sorted(set(seats), key=lambda s: (s - first) % n)


def demon_at(state: WizardsState, h: Hex) -> bool:
    return any(hx(d) == h for d in state.demons)


def remove_demon(state: WizardsState, h: Hex, rule: str, events: list) -> None:
    state.demons = [d for d in state.demons if hx(d) != h]
    events.append({"type": "demon_removed", "at": ls(h), "rule": rule})


def animals_flee(state: WizardsState, seat: int, kinds: tuple[str, ...], rule: str, events: list) -> None:
    p = player(state, seat)
    if p["animal"] is not None and p["animal"]["kind"] in kinds:
        events.append({"type": "animal_departs", "seat": seat, "animal": p["animal"]["kind"], "rule": rule})
        p["animal"] = None


def territory_where(state: WizardsState, h: Hex) -> dict:
    """7.3041: a RANDOM space in the SAME Territory; in Water, a RANDOM space."""
    tile = world_for(state).tile_of(h)
    return {"territory": tile} if tile else {"random": "RANDOM"}


def demon_tally(state: WizardsState) -> Item | None:
    """The Player Encounter whose Demon attack (7.302 1) is being resolved, if any."""
    for it in reversed(state.pending):
        if "dispelled" in it:
            return it
    return None


def dispel_open(state: WizardsState, seat: int, at: Hex) -> bool:
    """11.222 / 11.24: he has the Spell and has not yet cast it against the Demons of this space
    (since he last came into it)."""
    return can_cast(state, seat, "demon_dispelling") and ls(at) not in player(state, seat)["dispel_tried"]


def _dispel_offer(state: WizardsState, seat: int) -> dict | None:
    """11.222 "whenever a Demon Marker is in the same space": at the start of his turn, standing with
    Demons he has not yet cast against, he may cast Demon Dispelling; failing, the Demons attack."""
    p = player(state, seat)
    at = hx(p["at"])
    if at is None or p["trap"] is not None or not demon_at(state, at) or not dispel_open(state, seat, at):
        return None
    return {"do": "demons", "seat": seat, "at": ls(at), "rule": "11.222", "optional": True}


turns.TURN_START_HOOKS.append(_dispel_offer)


def table_rolled(h, state: WizardsState, item: Item, faces: list, events: list, extra: dict | None = None) -> None:
    """The faces of a Demon or Dragon encounter: the spell's cast die, or the table's two dice (the
    higher counts); after a failed spell a 6 is rolled again (11.222, 11.223)."""
    if item["stage"] == "casting":
        h.cast_rolled(state, item, faces, events)
        return
    r = higher(faces)
    if r == 6 and item.get("no_six"):
        events.append({"type": "reroll", "seat": item["seat"], "dice": [f[0] for f in faces], "rule": h.spell_rule})
        two_dice(state, item, h.purpose)
        return
    item["result"] = r
    item["stage"] = "effect"
    events.append({"type": h.event, "seat": item["seat"], "roll": r, "rule": h.table, **(extra or {})})


@handler("place_demon")
class PlaceDemon(resolution.Handler):
    """A Demon Marker put on a space (given, or rolled for); 7.5: whoever stands there meets it."""

    rule = "7.3041"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        if len(state.demons) >= DEMON_MARKERS:
            events.append({"type": "no_demon_marker", "rule": item["rule"], "reason": "all 48 are on the board"})
            done(state, item)
            return
        if "at" in item:
            self.place(state, item, here(item["at"]), events)
            return
        where = dict(randomspace.effective(item["where"], unavailable(state)))
        item["rolled_where"] = where
        resolution.roll(state, item, randomspace.pools_for(where))

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        got = randomspace.read(item["rolled_where"], faces, unavailable(state))
        h = world_for(state).hex_of.get(got) if got else None
        if h is None:  # 12.45: roll over
            events.append({"type": "reroll", "dice": [f[0] for f in faces], "rule": "12.45"})
            resolution.roll(state, item, randomspace.pools_for(item["rolled_where"]))
            return
        self.place(state, item, h, events)

    def place(self, state: WizardsState, item: Item, h: Hex, events: list) -> None:
        done(state, item)
        w = world_for(state)
        if demon_at(state, h):  # 7.3041: only one Demon Marker need be in any one space
            events.append({"type": "no_demon_marker", "at": ls(h), "rule": "7.3041",
                           "reason": "a Demon Marker is there already"})
            return
        state.demons.append(ls(h))
        events.append({"type": "demon_placed", "at": ls(h), "space": w.space_name(h), "rule": item["rule"]})
        if item.get("meet", True) is False:
            return
        first = item.get("seat")
        if first is None:
            first = state.turn["seat"] if state.turn else 0
        there = [p["seat"] for p in state.players if here(p["at"]) == h and p["trap"] is None]  # 8.31
        push(state, *[{"do": "demons", "seat": s, "at": ls(h), "rule": "7.5"} for s in clockwise(state, first, there)])


@handler("demons")
class Demons(Encounter, SpellStages):
    """7.304: Demon Dispelling first if he can (11.222), then the table."""

    rule = "7.304"
    kinds = SpellStages.kinds + ("take_points",)

    def start(self, state: WizardsState, item: Item, events: list) -> None:
        at = here(item["at"])
        if "bound" not in item and not demon_at(state, at):
            done(state, item)  # the Demons are gone (dispelled by someone before him)
            return
        if state.solitaire:  # Appendix A: stranded in Water, Demons that leave him there drown him
            from shared.wizards import solitaire
            solitaire.watch(state, item)
        if not item.get("optional"):
            animals_flee(state, item["seat"], SHY_OF_DEMONS, "8.452 / 8.461", events)
        if "bound" not in item and dispel_open(state, item["seat"], at):  # 7.3051 i, 11.24
            self.offer_spell(state, item, "demon_dispelling", "after_cast")
            return
        item["stage"] = "table"
        self.resume(state, item, events)

    def resume(self, state: WizardsState, item: Item, events: list) -> None:
        stage = item["stage"]
        if stage == "after_cast":
            if item["cast"] is not None:
                player(state, item["seat"])["dispel_tried"].append(list(item["at"]))  # 11.24
            if item["cast"]:
                self.depart(state, item, "11.222", events)
                return
            if item["cast"] is None and item.get("optional"):
                done(state, item)  # not cast while merely standing with the Demons: no encounter
                return
            if item.get("optional"):
                animals_flee(state, item["seat"], SHY_OF_DEMONS, "8.452 / 8.461", events)
            item["no_six"] = item["cast"] is False  # 11.222: re-roll if the result is 6
            item["stage"] = "table"
        if item["stage"] == "table":
            item["stage"] = "table_roll"
            two_dice(state, item, self.purpose)
            return
        if stage == "effect":
            self.effect(state, item, events)
            return
        done(state, item)

    table, purpose, spell_rule, event = "7.304", "Demons (7.304)", "11.222", "demons"

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        table_rolled(self, state, item, faces, events,
                     {"dragonbound": item["bound"]} if "bound" in item else {})

    def depart(self, state: WizardsState, item: Item, rule: str, events: list) -> None:
        """The Demons are dispelled or depart (7.304 6, 11.222): the marker goes, a die of points."""
        done(state, item)
        seat, at = item["seat"], here(item["at"])
        if item.get("group"):
            tally = demon_tally(state)
            if tally is not None:
                tally["dispelled"].append(seat)
        elif demon_at(state, at):
            remove_demon(state, at, rule, events)
        push(state, {"do": "points", "seat": seat, "dice": 1, "rule": rule})

    def effect(self, state: WizardsState, item: Item, events: list) -> None:
        seat, r, at = item["seat"], item["result"], here(item["at"])
        p = player(state, seat)
        if r == 6:
            if "bound" in item:  # 7.3042: the Dragonbound player is transported; no points
                done(state, item)
                push(state, {"do": "transport", "seat": item["bound"], "where": {"random": "RANDOM"},
                             "rule": "7.3042"})
                return
            self.depart(state, item, "7.304 6", events)
            return
        done(state, item)
        if r == 2 and p["rank"] >= 4:
            r = 3  # 7.304 2 at Rank FOUR
        then: list[dict] = []
        if r == 1:
            then.append({"do": "lose_turns", "seat": seat, "dice": 1, "rule": "7.304 1"})
        elif r == 2:
            then.append({"do": "lose_least", "seat": seat, "times": 1, "rule": "7.304 2"})
        elif r == 3:
            then.append({"do": "theft", "seat": seat, "rule": "7.304 3"})
        elif r == 4:
            become_demon_dazed(state, seat, events)
        elif r == 5:
            then.append({"do": "transport", "seat": seat, "where": {"territory": LAIR_TILE}, "rule": "7.304 5"})
        if "bound" not in item:  # 7.3041 (7.3042: none for meeting a Dragonbound player)
            then.append({"do": "place_demon", "where": territory_where(state, at), "rule": "7.3041", "seat": seat})
        push(state, *then)


@handler("lose_least")
class LoseLeast(resolution.Handler):
    """One die (times `times`) of points lost from the type he has least of (AMB3: he chooses
    between tied types; none lost with every type at zero)."""

    rule = "7.304"
    kinds = ("take_points",)

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        stop = record.points_frozen(state, seat)
        if stop or not record.least_types(state, seat):
            if stop:
                events.append({"type": "no_points", "seat": seat, "rule": stop, "for": item["rule"]})
            else:
                events.append({"type": "points_lost", "seat": seat, "points": {}, "rule": item["rule"],
                               "total": dict(player(state, seat)["points"])})
            done(state, item)
            return
        if "amount" not in item:
            resolution.roll(state, item, [d6(f"points lost ({item['rule']})")])
            return
        types = record.least_types(state, seat)
        if len(types) == 1:
            record.lose(state, seat, {types[0]: item["amount"]}, item["rule"], events)
            done(state, item)
            return
        resolution.ask(state, seat)

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        item["amount"] = faces[0][0] * item.get("times", 1)

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        held = player(state, seat)["points"]
        return [{"kind": "take_points", "points": {t: -min(item["amount"], held[t])}}
                for t in record.least_types(state, seat)]

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        record.lose(state, seat, {t: -n for t, n in action["points"].items()}, item["rule"], events)
        done(state, item)


@handler("dragon")
class Dragon(Encounter, SpellStages):
    """7.305: Dragon Taming first if he can (11.223), Lair Time back (12.512), then the table."""

    rule = "7.305"

    def start(self, state: WizardsState, item: Item, events: list) -> None:
        w = world_for(state)
        at = here(item["at"])
        if hx(state.dragon) != at and w.kind(at) != "lair" and item.get("rule") != "8.42":
            done(state, item)  # the Dragon has gone
            return
        animals_flee(state, item["seat"], SHY_OF_DRAGONS, "8.442 / 8.452 / 8.461", events)
        if can_cast(state, item["seat"], "dragon_taming"):
            self.offer_spell(state, item, "dragon_taming", "after_cast")
            return
        item["stage"] = "after_cast"
        item["cast"] = None
        self.resume(state, item, events)

    def resume(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        stage = item["stage"]
        if stage == "after_cast":
            tamed = bool(item.get("cast"))
            self.lair_time(state, seat, 3 if tamed else 1, events)
            if tamed:
                done(state, item)
                events.append({"type": "dragon_tamed", "seat": seat, "die": item["cast_die"], "rule": "11.223"})
                if item["cast_die"] <= 3:
                    push(state, {"do": "secret_wizard", "seats": [seat], "rule": "11.223"})
                return
            item["no_six"] = item.get("cast") is False
            item["stage"] = "table_roll"
            two_dice(state, item, self.purpose)
            return
        if stage == "effect":
            self.effect(state, item, events)
            return
        done(state, item)

    @staticmethod
    def lair_time(state: WizardsState, seat: int, days: int, events: list) -> None:
        """12.512: on the Lair tile his Lair Time Marker goes back a day (three when tamed)."""
        p = player(state, seat)
        if p["lair_time"] is not None and world_for(state).in_lair(here(p["at"])):
            lair.move_back(p, days)
            events.append({"type": "lair_time_back", "seat": seat, "days": days, "day": p["lair_time"],
                           "rule": "12.512"})

    table, purpose, spell_rule, event = "7.305", "Dragon (7.305)", "11.223", "dragon_encounter"

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        table_rolled(self, state, item, faces, events)

    def effect(self, state: WizardsState, item: Item, events: list) -> None:
        done(state, item)
        seat, r = item["seat"], item["result"]
        p = player(state, seat)
        w = world_for(state)
        if r == 4 and p["rank"] >= 4:
            r = 3  # 7.305 4 at Rank FOUR
        if r == 1:
            become_dragonbound(state, seat, "7.305 1", events)
        elif r == 2:
            push(state, {"do": "lose_turns", "seat": seat, "dice": 1, "rule": "7.305 2"})
        elif r == 3:
            push(state, {"do": "theft", "seat": seat, "rule": "7.305 3"})
        elif r == 4:
            push(state, {"do": "lose_least", "seat": seat, "times": 2, "rule": "7.305 4"})
        elif r == 5:
            if w.kind(here(p["at"])) == "lair":  # already there: he remains and meets the Dragon again
                p["dragon_again"] = True
                events.append({"type": "must_remain", "seat": seat, "rule": "7.305 5"})
            else:
                push(state, {"do": "transport", "seat": seat, "where": {"place": "lair_center"},
                             "rule": "7.305 5"})


TRAP_TABLE: dict[int, dict] = {  # 8.3
    1: {"lose_turns": "fortnight"},
    2: {"transport": {"place": "lair_center"}},
    3: {"lose_turns": {"dice": 1}},
    4: {"transport": {"territory": LAIR_TILE}},
    5: {"roll_to_leave": [5, 6]},
    6: {"transport": {"random": "RANDOM"}},
}


@handler("trap")
class Trap(SpellStages):
    """8.3 / 8.51 TRAP / 8.73: Escaping before the effect (11.224), then the table or the card's Trap."""

    rule = "8.3"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        stage = item.get("stage")
        if stage is None:
            if can_cast(state, seat, "escaping", "traps"):  # 11.224, 11.2241
                self.offer_spell(state, item, "escaping", "escaped")
                return
            item["stage"] = stage = "escaped"
        if stage == "escaped":
            if item.get("cast"):
                events.append({"type": "trap_escaped", "seat": seat, "rule": "11.224", "for": item["rule"]})
                done(state, item)
                return
            if "effect" in item:
                self.spring(state, item, dict(item["effect"]), events)
                return
            item["stage"] = "table_roll"
            two_dice(state, item, "Trap (8.3)")
            return
        done(state, item)

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        if item["stage"] == "casting":
            self.cast_rolled(state, item, faces, events)
            return
        if item["stage"] == "turns_roll":  # 8.3 3: the die of turns lost
            self.spring(state, item, {"lose_turns": sum(f[0] for f in faces)}, events)
            return
        r = higher(faces)
        events.append({"type": "trap_roll", "seat": item["seat"], "roll": r, "rule": "8.3"})
        self.spring(state, item, TRAP_TABLE[r], events)

    def spring(self, state: WizardsState, item: Item, effect: dict, events: list) -> None:
        seat, rule = item["seat"], item["rule"]
        turns = effect.get("lose_turns")
        if isinstance(turns, dict):
            item["stage"] = "turns_roll"
            resolution.roll(state, item, [d6(f"turns lost ({rule})") for _ in range(turns["dice"])])
            return
        done(state, item)
        if "transport" in effect:
            push(state, {"do": "transport", "seat": seat, "where": dict(effect["transport"]), "rule": rule,
                         "escapable": False})
        if "roll_to_leave" in effect:
            become_trapped(state, seat, {"rule": rule, "roll_to_leave": list(effect["roll_to_leave"])}, events)
        if turns == "fortnight":  # ALL his turns to the end of the Fortnight: one a day left (Day 14 its last)
            turns = 14 - state.calendar["day"]
        if isinstance(turns, int) and turns > 0:
            become_trapped(state, seat, {"rule": rule, "lose_turns": turns}, events)
            player(state, seat)["lost_turns"] += turns
            events.append({"type": "turns_lost", "seat": seat, "turns": turns, "rule": rule,
                           "left": player(state, seat)["lost_turns"]})
