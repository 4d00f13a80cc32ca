"""The Mentors and Hamdrel: High Wizards (7.32-7.327), Rüktal (7.33-7.337), the Master
Sorcerers (7.34-7.3461), Hamdrel (7.35-7.354); joining Orders and advancing (10, 10.2,
10.3, record.py); healing (7.3044); Perception (11.233).

Items:
    "high_wizard"       a High Wizard or Secret Wizard marker met (7.4 b): the marker goes
                        back, its cards are reshuffled, a Secret Wizard is revealed to all,
                        then he is met ("meet_high_wizard")
    "meet_high_wizard"  {"seat", "wizard"}: a High Wizard met in the player's space
    "ruktal", "master_sorcerer", "hamdrel"   the place encounters of 7 c

A Mentor does, in this order:
    heal      an afflicted player is healed and nothing more (7.322, 7.332, 7.342)
    initiate  a player not in the Mentor's Order is offered membership (choice
              `join_order`): accepting makes him an Apprentice with a Mandatory Task
              from his new Mentor (7.321, 10, 10.3) and that is the ONE thing done
    member    for a member, AS MANY as possible, every time (7.327, 7.337, 7.347):
              fulfil a Task, assign a (Mandatory, 9.41) Task, promote (10.2), and the
              Gems (7.326, choice `attempt_gem`; a Master Sorcerer: Gem Summoning, 7.346)
    one       otherwise ONE thing: the first of fulfil, assign (an Optional Task, 9.42),
              give Gems that applies

Readings (README):
* "ONE of the following": the first that applies in the printed order; only the
  membership offer is the player's to refuse, and declining it goes on down the list.
  Healing comes first: 7.3044 makes it automatic, and nothing else is gained from it.
* AMB15: "Nothing more may be done for a player on the turn he is healed" ends the
  encounters still due to him in that space this turn (the later items of 7.4 are
  dropped). Hamdrel and the Abbey heal under 7.3044 only ("nothing else can be gained
  from the encounter"), so their healing ends only that encounter.
* 7.3461 "in the company of": a Sorcerer meets the High Wizard in the same space as a
  Master Sorcerer (a Tower's Center), as Hamdrel (her Cottage) or as another player at
  Rank FOUR in the Order of Wizards or Druids.
* 7.3 Task Cards naming a Master Sorcerer are fulfilled by that one: the name
  ("megmoran", "meligar", "melekok") is what `tasks.fulfil_meeting` is asked about.
"""
from __future__ import annotations

from shared.wizards import gems, lair, record, wizardcards
from shared.wizards.encounters import Encounter
from shared.wizards.pack import pack
from shared.wizards.resolution import Handler, Item, ask, done, handler, higher, push, top, two_dice
from shared.wizards.state import WizardsState, hx, player, position
from shared.wizards.world import world_for

ENCOUNTER_KINDS = ("task_marker", "high_wizard", "meet_high_wizard", "common_folk", "elves", "shrineheart_abbey",
                   "master_sorcerer", "hamdrel", "high_hollow", "star_crest", "ruktal", "player", "demons", "dragon",
                   "random_encounter")
ORDER_NAMES = {"wizards": "Order of Wizards", "sorcerers": "Order of Sorcerers", "druids": "Order of Druids"}


# --- shared steps ------------------------------------------------------------------------
def fulfil(state: WizardsState, seat: int, whom: str, events: list) -> bool:
    """A Task requirement to meet `whom` fulfilled (7.323, 7.333, 7.343, 7.352), by the Task rules."""
    tasks = wizardcards.tasks_module()
    if tasks is None or not hasattr(tasks, "fulfil_meeting"):
        return False
    return bool(tasks.fulfil_meeting(state, seat, whom, events))


def may_get_task(state: WizardsState, seat: int) -> str | None:
    """None when a Task may be assigned, else the rule that stops it: the rules that stop
    points stop Tasks too (3.73, 13)."""
    return record.points_frozen(state, seat)


def assign_task(state: WizardsState, seat: int, rule: str, mandatory: bool, events: list) -> bool:
    """A Task Card drawn for the player (9.41 Mandatory from his Mentor, 9.42 Optional)."""
    stop = may_get_task(state, seat)
    if stop:
        events.append({"type": "no_task", "seat": seat, "rule": stop, "for": rule})
        return False
    push(state, {"do": "draw_task", "seat": seat, "rule": rule, "mandatory": mandatory})
    return True


def heal(state: WizardsState, seat: int, by: str, rule: str, events: list) -> bool:
    """7.3044 / 7.30511: meeting a healer cures Demon Daze and Dragonbinding."""
    p = player(state, seat)
    if not p["afflictions"]:
        return False
    cured = list(p["afflictions"])
    p["afflictions"] = []
    events.append({"type": "healed", "seat": seat, "by": by, "afflictions": cured, "rule": rule})
    if "dragonbound" in cured:
        # (authored, RULE-GAPS) cured in the Lair, his Lair Time starts again as if he had just entered
        lair.track(state, world_for(state), seat, None, position(p), events)
    return True


def end_encounters_this_turn(state: WizardsState, seat: int, events: list) -> None:
    """AMB15: nothing more is done for him on the turn he is healed (7.322, 7.332, 7.342)."""
    keep = []
    dropped = []
    for i in state.pending[:-1]:
        if i.get("seat") == seat and "at" in i and i["do"] in ENCOUNTER_KINDS:
            dropped.append(i["do"])
        else:
            keep.append(i)
    if dropped:
        state.pending[:-1] = keep
        events.append({"type": "encounters_end", "seat": seat, "dropped": dropped, "rule": "7.322"})


def perception(state: WizardsState, seat: int, events: list) -> None:
    """11.233: a Druid reaching Rank FOUR learns, secretly, which High Wizard is False."""
    p = player(state, seat)
    false = next(n for n, g in state.gem_boxes.items() if wizardcards.gem_card(g).get("false_wizard"))
    p["false_wizard"] = false
    events.append({"type": "false_wizard_known", "seat": seat, "wizard": false, "rule": "11.233",
                   "visible_to": [seat]})


def advance(state: WizardsState, seat: int, by: str, events: list) -> bool:
    """10.2 (record.promote), with Perception for a Druid reaching Rank FOUR (11.233)."""
    if not record.promote(state, seat, by, events):
        return False
    p = player(state, seat)
    if p["order"] == "druids" and p["rank"] == 4:
        perception(state, seat, events)
    return True


def in_company(state: WizardsState, seat: int) -> bool:
    """7.3461 (reading above)."""
    at = hx(player(state, seat)["at"])
    if at is None:
        return False
    if world_for(state).kind(at) in ("tower", "cottage"):
        return True
    return any(q["seat"] != seat and hx(q["at"]) == at and q["rank"] >= 4 and q["order"] in ("wizards", "druids")
               for q in state.players)


def offers_gems(state: WizardsState, seat: int) -> bool:
    """7.326 with 7.3461: a High Wizard offers him the chance of a Gem (what he may then ask
    for, by AMB20, depends on his secret Gem Record: wizardcards.gem_choice_legal)."""
    if not wizardcards.gathering_gems(state, seat):
        return False
    return player(state, seat)["order"] != "sorcerers" or in_company(state, seat)


def settled(state: WizardsState, item: Item) -> bool:
    """The item is still on top and nothing is awaited: its handler may go on now."""
    return bool(state.pending) and top(state) is item and state.await_ is None and state.chance is None


# --- the Mentors ---------------------------------------------------------------------------
class Mentor(Handler):
    """The steps every Mentor takes (module docstring). Subclasses name the Order, the
    sections and who fulfils a Task requirement."""

    order = "wizards"
    sections = {"heal": "7.322", "initiate": "7.321", "fulfil": "7.323", "assign": "7.324", "promote": "7.325",
                "gems": "7.326", "member": "7.327"}
    kinds: tuple[str, ...] = ("join_order", "attempt_gem")

    @staticmethod
    def label(action: dict) -> str:
        if action["kind"] == "join_order":
            name = ORDER_NAMES.get(str(action.get("order")), str(action.get("order")))
            return f"join the {name}" if action.get("accept") else f"decline the {name}"
        return wizardcards.gem_label(action)

    def who(self, state: WizardsState, item: Item) -> str:
        """The name a Task Card's meeting is checked against."""
        raise NotImplementedError

    def by(self, state: WizardsState, item: Item) -> str:
        return self.who(state, item)

    def blocked(self, state: WizardsState, item: Item, events: list) -> bool:
        return False

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        if "stage" not in item:
            if "at" in item and hx(player(state, item["seat"])["at"]) != hx(item["at"]):  # 7.4: carried off
                done(state, item)
                return
            if self.blocked(state, item, events):
                done(state, item)
                return
            item["stage"] = "heal"
        while settled(state, item):
            getattr(self, "s_" + item["stage"])(state, item, events)

    def s_heal(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        if heal(state, seat, self.by(state, item), self.sections["heal"], events):
            end_encounters_this_turn(state, seat, events)
            done(state, item)
            return
        item["stage"] = "member" if player(state, seat)["order"] == self.order else "offer"

    def s_offer(self, state: WizardsState, item: Item, events: list) -> None:
        item["stage"] = "offered"
        ask(state, item["seat"])

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        if seat != item["seat"]:
            return []
        if item["stage"] == "offered":
            return [{"kind": "join_order", "order": self.order, "accept": True},
                    {"kind": "join_order", "order": self.order, "accept": False}]
        if item["stage"] == "gem_offered":
            return wizardcards.gem_choice_legal(state, item)
        return []

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        if action["kind"] == "join_order":
            if action["accept"]:
                record.join(state, seat, self.order, self.by(state, item), events)
                assign_task(state, seat, self.sections["initiate"], True, events)  # 9.41: from his new Mentor
                item["stage"] = "finish"
            else:
                events.append({"type": "declined_order", "seat": seat, "order": self.order,
                               "rule": self.sections["initiate"]})
                item["stage"] = "one"
            return
        if action["kind"] == "attempt_gem":
            item["stage"] = "finish"
            if action["attempt"]:
                push(state, {"do": "gem_attempt", "seat": seat, "wizard": item["gem_from"],
                             "rule": self.sections["gems"]})
            return
        self.choose_more(state, item, seat, action, events)

    def choose_more(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        raise AssertionError(action)

    def s_finish(self, state: WizardsState, item: Item, events: list) -> None:
        done(state, item)

    # a member: as many as possible, in order
    def s_member(self, state: WizardsState, item: Item, events: list) -> None:
        fulfil(state, item["seat"], self.who(state, item), events)
        item["stage"] = "m_assign"

    def s_m_assign(self, state: WizardsState, item: Item, events: list) -> None:
        item["stage"] = "m_promote"
        seat = item["seat"]
        if may_get_task(state, seat) is None:
            assign_task(state, seat, self.sections["assign"], True, events)

    def s_m_promote(self, state: WizardsState, item: Item, events: list) -> None:
        advance(state, item["seat"], self.by(state, item), events)
        item["stage"] = "m_gems"

    def s_m_gems(self, state: WizardsState, item: Item, events: list) -> None:
        item["stage"] = "finish"

    # not a member: ONE thing
    def s_one(self, state: WizardsState, item: Item, events: list) -> None:
        seat = item["seat"]
        item["stage"] = "finish"
        if fulfil(state, seat, self.who(state, item), events):
            return
        if may_get_task(state, seat) is None:
            assign_task(state, seat, self.sections["assign"], False, events)  # 9.42: not his Mentor
            return
        self.one_gems(state, item, events)

    def one_gems(self, state: WizardsState, item: Item, events: list) -> None:
        events.append({"type": "nothing_done", "seat": item["seat"], "by": self.by(state, item),
                       "rule": self.sections["member"]})


@handler("meet_high_wizard")
class MeetHighWizard(Mentor):
    """A High Wizard met (7.32-7.327); the Gems (7.326) are an offer the player may refuse."""

    rule = "7.32"

    def who(self, state: WizardsState, item: Item) -> str:
        return item["wizard"]

    def blocked(self, state: WizardsState, item: Item, events: list) -> bool:
        if wizardcards.in_center(state, item["seat"]):  # 7.32
            events.append({"type": "high_wizard_forbidden", "seat": item["seat"], "wizard": item["wizard"],
                           "rule": "7.32"})
            return True
        events.append({"type": "meets_high_wizard", "seat": item["seat"], "wizard": item["wizard"],
                       "rule": item.get("rule", "7.32")})
        return False

    def _gems(self, state: WizardsState, item: Item, events: list) -> None:
        if offers_gems(state, item["seat"]):
            item["gem_from"] = item["wizard"]
            item["stage"] = "gem_offered"
            ask(state, item["seat"])

    def s_m_gems(self, state: WizardsState, item: Item, events: list) -> None:
        item["stage"] = "finish"
        self._gems(state, item, events)

    def one_gems(self, state: WizardsState, item: Item, events: list) -> None:
        self._gems(state, item, events)
        if item["stage"] == "finish":
            super().one_gems(state, item, events)


@handler("high_wizard")
class HighWizardMarker(Encounter):
    """7.32: landing on a High Wizard or Secret Wizard marker. The marker goes back to its
    box and the cards drawn in revealing him are reshuffled (8.74); a Secret Wizard's
    identity is shown to all. Forbidden in the Center of the Sacred Circle (the marker stays)."""

    rule = "7.32"

    def start(self, state: WizardsState, item: dict, events: list) -> None:
        seat = item["seat"]
        done(state, item)
        if wizardcards.in_center(state, seat):
            events.append({"type": "high_wizard_forbidden", "seat": seat, "wizard": item["wizard"], "rule": "7.32"})
            return
        key = item["wizard"]
        push(state, {"do": "meet_high_wizard", "seat": seat, "at": item["at"], "wizard": "?", "rule": "7.32"})
        meet = top(state)
        name = wizardcards.release_marker(state, key, events)
        if key.startswith("secret:"):
            events.append({"type": "secret_wizard_revealed", "letter": key.split(":", 1)[1], "wizard": name,
                           "seat": seat, "rule": "7.302"})
        meet["wizard"] = name


@handler("ruktal")
class Ruktal(Mentor):
    """7.33-7.337: Rüktal in the Center of the Sacred Circle, Mentor of the Druids.
    7.336 / 13: a player holding all six Sacred Gems gives them to him and wins (gems.py):
    before anything else Rüktal does, whatever the player's Order, once healing is past
    (an afflicted player is healed and nothing more, 7.332 / 7.3044)."""

    rule = "7.33"
    order = "druids"
    sections = {"heal": "7.332", "initiate": "7.331", "fulfil": "7.333", "assign": "7.334", "promote": "7.335",
                "gems": "7.336", "member": "7.337"}

    def who(self, state: WizardsState, item: Item) -> str:
        return "ruktal"

    def s_heal(self, state: WizardsState, item: Item, events: list) -> None:
        super().s_heal(state, item, events)
        if settled(state, item) and gems.holds_all(state, item["seat"]):
            gems.deliver(state, item["seat"], events)  # 7.336: the match is over

    def by(self, state: WizardsState, item: Item) -> str:
        return "Rüktal"


@handler("master_sorcerer")
class MasterSorcerer(Mentor):
    """7.34-7.347: a Master Sorcerer in his Tower's Center, Mentor of the Sorcerers; for a
    Sorcerer at Rank FOUR he aids the Gem Summoning Spell (7.346, 11.232: choice
    `gem_summoning`)."""

    rule = "7.34"
    order = "sorcerers"
    sections = {"heal": "7.342", "initiate": "7.341", "fulfil": "7.343", "assign": "7.344", "promote": "7.345",
                "gems": "7.346", "member": "7.347"}
    kinds = ("join_order", "attempt_gem", "gem_summoning")

    @staticmethod
    def label(action: dict) -> str:
        if action["kind"] == "gem_summoning":
            t = action.get("target")
            if t is None:
                return "do not cast Gem Summoning"
            if t == "random":
                return "cast Gem Summoning at random (1-2 succeeds)"
            return f"cast Gem Summoning to contact {t}"
        return Mentor.label(action)

    def who(self, state: WizardsState, item: Item) -> str:
        return self.by(state, item).lower()

    def by(self, state: WizardsState, item: Item) -> str:
        at = hx(item.get("at") or player(state, item["seat"])["at"])
        assert at is not None
        return world_for(state).spaces[at].master

    def s_m_gems(self, state: WizardsState, item: Item, events: list) -> None:
        item["stage"] = "finish"
        from shared.wizards import special_spells
        if special_spells.gem_summoning_open(state, item["seat"]):
            item["stage"] = "summon_offered"
            ask(state, item["seat"])

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        if item["stage"] == "summon_offered" and seat == item["seat"]:
            from shared.wizards import special_spells
            return special_spells.gem_summoning_choices(state, seat)
        return super().legal(state, item, seat)

    def choose_more(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        item["stage"] = "finish"
        if action["target"] is not None:
            from shared.wizards import special_spells
            special_spells.start_gem_summoning(state, seat, action["target"], events)


# --- Hamdrel -------------------------------------------------------------------------------
@handler("hamdrel")
class Hamdrel(Encounter):
    """7.35-7.354: heal, else fulfil a Task, else a gift from the table of his Rank
    (two dice, the higher): Rank 1-3: 1-2 one die doubled in points of any type, 3-4 a
    Task, 5-6 a High Wizard's location revealed (his marker to a RANDOM space, the cards
    kept). Rank 0 or 4: 1-2 nothing, 3-4 ONE Wizard Card (8.7), 5-6 a location revealed."""

    rule = "7.35"

    def start(self, state: WizardsState, item: dict, events: list) -> None:
        seat = item["seat"]
        events.append({"type": "meets_hamdrel", "seat": seat, "turn_of_visit": player(state, seat)["hamdrel"]["turns"],
                       "visit": player(state, seat)["hamdrel"]["visits"], "rule": "7.354"})
        if heal(state, seat, "Hamdrel", "7.351", events) or fulfil(state, seat, "hamdrel", events):
            done(state, item)
            return
        two_dice(state, item, "Hamdrel's gift (7.353)")

    def rolled(self, state: WizardsState, item: dict, faces: list, events: list) -> None:
        seat = item["seat"]
        p = player(state, seat)
        r = higher(faces)
        middle = 1 <= p["rank"] <= 3
        events.append({"type": "hamdrel_gift", "seat": seat, "roll": r, "table": "1-3" if middle else "0 or 4",
                       "rule": "7.353"})
        item["stage"] = "after"
        reveal = {"do": "wizard_card", "seat": seat, "rule": "7.353", "mode": "until_high_wizard", "place": True}
        if r >= 5:
            push(state, reveal)
        elif middle:
            if r <= 2:
                push(state, {"do": "points", "seat": seat, "dice": 1, "times": 2, "rule": "7.353"})
            else:
                assign_task(state, seat, "7.353", False, events)
        elif r >= 3:
            push(state, {"do": "wizard_card", "seat": seat, "rule": "7.353", "mode": "one"})


def mentor_names() -> dict[str, str]:
    """The Master Sorcerer of each Tower tile (Appendix C)."""
    return {tid: t["spaces"]["Center"].get("master", "") for tid, t in pack().tiles.items()
            if t["spaces"]["Center"]["kind"] == "tower"}
