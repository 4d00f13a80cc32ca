"""The partnership game (Appendix B): two-man Telepathic Partnerships for FOUR or SIX players.

    partners       seats 0 and 1, 2 and 3, 4 and 5 (state.partner_of; public in the views)
    points         all points gained by one are gained by the other (record.share, AMB8)
    meeting        partners who meet have no normal Player Encounter and gain no points for
                   rescuing each other (meetings.py); instead they may exchange (item "partners"):
                     `partner_task`  give one of his Optional Tasks to his partner (9.2: card and
                                     markers move; Optional for the new holder, 9.42)
                     `partner_gem`   when both are gathering Gems, give him one Sacred Gem, secretly
                     `partner_done`  he gives nothing more
    takeover       TWO Territories at a time after the first two Fortnights (section 12's code)

Item: {"do": "partners", "seat": mover, "at", "other": partner, "giver": seat}: the mover gives
what he wishes first, then his partner; each gives as many as he wishes, one action at a time,
until he is done (so any exchange the two agree on can be made).

Readings (README):
* The partners are neighbours at the table (0-1, 2-3, 4-5): fixed, so a seat knows its partner
  from the match's set-up.
* While both are gathering Gems each partner is asked (and asked again after each Gem he gives)
  whatever he holds, so the flow shows nothing of his Gem Record; the number of secret actions
  in the log (shown to others as redacted entries) is all that others may count.
* "Gathering Gems": at Rank FOUR with every Mandatory Task done (9.41, 13), the player who may
  ask a High Wizard for a Gem (7.326). A Gem given is erased from the giver's Gem Record and
  written on the receiver's across from the same High Wizard (14.25); one the receiver holds
  from that High Wizard already cannot be given. The exchange is secret (14.3): its action and
  events are shown to the two partners alone, and the pending item shows no more than that the
  partners are exchanging.
* The Gem Records of partners stay hidden from each other (14.3): only points are shared.
* A Dragonbound partner still gives the other a Demon encounter (7.3051 i): it is the affliction,
  not a normal Player Encounter. Partners are stopped by each other as other players are (7.2):
  their meeting is their encounter. A rescue between partners happens, without points.
* Partners who are both in another player's encounter are both met by him as usual.
"""
from __future__ import annotations

from shared.wizards import resolution, tasks, wizardcards
from shared.wizards.pack import pack
from shared.wizards.resolution import Handler, Item, done, handler
from shared.wizards.state import WizardsState, hx, partner_of, player
from shared.wizards.taskmarkers import markers_free

SECRET_KINDS = ("partner_gem",)


def pairs(state: WizardsState) -> list[list[int]]:
    """The partnerships, for the views."""
    if state.config["variant"] != "partnership":
        return []
    return [[s, s + 1] for s in range(0, state.seats, 2)]


def gathering(state: WizardsState, seat: int) -> bool:
    """Appendix B "gathering Gems": Rank FOUR, every Mandatory Task done (7.326, 9.41, 13)."""
    return player(state, seat)["rank"] >= 4 and wizardcards.mandatory_done(state, seat)


def gifts(state: WizardsState, giver: int, taker: int) -> list[dict]:
    """What `giver` may give his partner now (without `partner_done`)."""
    out: list[dict] = []
    free = markers_free(player(state, taker))
    for t in player(state, giver)["tasks"]:
        if not t.get("mandatory") and free >= tasks.marked_count(pack().task(t["card"])):
            out.append({"kind": "partner_task", "task": t["card"]})
    if gathering(state, giver) and gathering(state, taker):
        theirs = player(state, taker)["gems"]
        out += [{"kind": "partner_gem", "wizard": w} for w in sorted(player(state, giver)["gems"]) if w not in theirs]
    return out


def action_visible_to(state: WizardsState, seat: int, action: dict) -> list[int] | None:
    """The secret gem exchange is read by the two partners only (14.3)."""
    other = partner_of(state, seat)
    if other is None or not isinstance(action, dict) or action.get("kind") not in SECRET_KINDS:
        return None
    return sorted([seat, other])


@handler("partners")
class Partners(Handler):
    """Appendix B: Telepathic Partners meet (module docstring)."""

    rule = "Appendix B"
    kinds = ("partner_task", "partner_gem", "partner_done")

    @staticmethod
    def label(action: dict) -> str:
        if action["kind"] == "partner_task":
            return f"give Optional Task {action.get('task')} to your partner (Appendix B)"
        if action["kind"] == "partner_gem":
            return f"secretly give your partner the Sacred Gem from {action.get('wizard')} (Appendix B)"
        return "give your partner nothing more"

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        item["stage"] = "exchange"
        mover, other = item["seat"], item["other"]
        at = hx(item["at"])
        if hx(player(state, mover)["at"]) != at or hx(player(state, other)["at"]) != at:
            done(state, item)  # one of them was carried off first (7.4)
            return
        giver = item.setdefault("giver", mover)
        taker = other if giver == mover else mover
        # Both gathering Gems, each is asked whatever he holds: whether he is asked, or asked again
        # after a Gem given, must not tell the other seats what his Gem Record holds (14.3).
        if gifts(state, giver, taker) or (gathering(state, giver) and gathering(state, taker)):
            resolution.ask(state, giver)
            return
        self.next_giver(state, item)

    def next_giver(self, state: WizardsState, item: Item) -> None:
        if item["giver"] == item["seat"]:
            item["giver"] = item["other"]
        else:
            done(state, item)

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        if seat != item.get("giver"):
            return []
        taker = item["other"] if seat == item["seat"] else item["seat"]
        return gifts(state, seat, taker) + [{"kind": "partner_done"}]

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        taker = item["other"] if seat == item["seat"] else item["seat"]
        if action["kind"] == "partner_done":
            self.next_giver(state, item)
            return
        if action["kind"] == "partner_task":
            assert tasks.transfer(state, seat, taker, action["task"], events)
            events[-1]["rule"] = "Appendix B"
            return
        name = action["wizard"]
        gem = player(state, seat)["gems"].pop(name)
        player(state, taker)["gems"][name] = gem
        events.append({"type": "gem_given", "from": seat, "to": taker, "wizard": name, "gem": gem,
                       "rule": "Appendix B", "visible_to": sorted([seat, taker])})
