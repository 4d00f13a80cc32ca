"""The Sacred Gems and winning (2, 13, 7.336) and the end of a match.

    13       at Rank FOUR no Tasks are assigned and no points gained or lost (record.points_frozen,
             tasks.receive_refused: the encounter that calls for them is ignored); unfinished
             MANDATORY Tasks come before the Gems (wizardcards.may_ask_gem, 7.326, 11.2312,
             special_spells.gem_summoning_open, 11.232)
    7.336    Rüktal receives the six Gems in the Center of the Sacred Circle: `deliver`
    13 / 2   the first to deliver them wins, and the match is over: `end_match`

The six Sacred Gems are Diamond, Sapphire, Ruby, Emerald, Topaz and Onyx (13); a player's
Gem Record (14.25) maps each High Wizard who gave him one to its type, so he holds all six
when the types on his record are the six.

Readings (README):
* 7.336 / 13: receiving the Gems is not one of the favours of "ONE of the following"
  (7.33): whenever a player holding all six meets Rüktal he delivers them, whatever his
  Order and before anything else Rüktal does, except healing: an afflicted player is healed
  first (7.332 / 7.3044 "nothing else can be gained from the encounter") and must meet him
  again. Delivering is automatic: nothing is gained by keeping the Gems.
* The delivery ends the match at once; the Gem Record of the winner is shown to all in the
  event (the Gems are given up), the other records stay hidden in the views (14.3).
* Appendix B, the partnership game: "he wins" is read as the partnership winning: the
  player who delivers and his Telepathic Partner are both winners (they share their
  thoughts and learning, and the game is played by partnerships).
* Scores: 1 for each winner, 0 for everyone else.
"""
from __future__ import annotations

from shared.wizards.pack import pack
from shared.wizards.state import WizardsState, partner_of, player


def six_gems() -> list[str]:
    """13: Diamond, Sapphire, Ruby, Emerald, Topaz and Onyx (the Gem Cards' gems)."""
    return [g["gem"] for g in pack().gem_cards if g.get("gem")]


def held(state: WizardsState, seat: int) -> set[str]:
    """The Gem types on his Gem Record (14.25)."""
    return set(player(state, seat)["gems"].values())


def holds_all(state: WizardsState, seat: int) -> bool:
    """13: he has collected all six Sacred Gems."""
    return held(state, seat) >= set(six_gems())


def end_match(state: WizardsState, winners: list[int], summary: str, reason: str, events: list) -> None:
    """The match is over: nothing more is resolved or awaited; `result` says who won."""
    state.phase = "over"
    state.step = "over"
    state.turn = None
    state.await_ = None
    state.chance = None
    # An Event Card still being resolved goes to the discards (8.5), so every card stays
    # somewhere once after the end (a withdrawal can end the match mid-card).
    state.discards["event"].extend(i["card"] for i in state.pending if i["do"] == "event_card" and "card" in i)
    state.pending = []
    state.interrupts = []
    won = sorted(set(winners) - set(state.resigned))  # a player who withdrew never wins (withdrawal.py)
    state.replace("result", {"scores": [1 if s in won else 0 for s in range(state.seats)], "winners": won,
                             "summary": summary, "reason": reason, "days": state.calendar["days_played"]})
    # no event: the platform logs the end, with outcome(), as "match_finished"


def deliver(state: WizardsState, seat: int, events: list) -> None:
    """7.336 / 13: Rüktal receives the six Gems; the Enchanted Islands are saved and he wins
    (in the partnership game, with his partner: reading above)."""
    p = player(state, seat)
    record = dict(p["gems"])
    p["gems"] = {}
    events.append({"type": "gems_delivered", "seat": seat, "gems": record, "rule": "7.336"})
    partner = partner_of(state, seat)
    winners = [seat] if partner is None else [seat, partner]
    colour = p["colour"] or f"seat {seat}"
    if partner is None:
        summary = f"the {colour} player brings the six Sacred Gems to Rüktal and saves the Enchanted Islands (13)"
    else:
        summary = (f"the {colour} player brings the six Sacred Gems to Rüktal: he and his Telepathic Partner, "
                   f"the {player(state, partner)['colour'] or f'seat {partner}'} player, save the Enchanted "
                   "Islands (13, Appendix B)")
    end_match(state, winners, summary, "gems delivered (7.336)", events)
