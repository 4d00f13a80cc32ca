"""A player withdraws (authored: the rulebook prints no resignation; README "Withdrawing").

WIZARDS is a race to Rüktal with the Sacred Gems, played against the islands' Evil more than
against each other, so a player who gives up simply leaves the race:

* he takes no more turns: when his turn comes round it is passed at once (the Calendar
  still moves on when the dealer's turn comes round, 3.74, so the Day 14 attack keeps its
  time); his extra turns are dropped, and a turn of his under way ends;
* his Playing Piece stays where it stood, with what he holds: nothing is handed to the
  others, whom no rule lets take it;
* a choice the rules still ask of him (a step of an encounter under way, a set-up choice)
  is made for him: the one that ends the step, else the first listed;
* he cannot win (gems.end_match);
* the match ends when the rules leave nothing else: in the standard game when one player
  is left, who wins (no one is left to race him); in the partnership game when the
  players left are partners, who win together (Appendix B); in the solitaire game at once,
  lost (Appendix A: he has not delivered the Gems).
"""
from __future__ import annotations

from shared.engine import RuleViolation
from shared.wizards.gems import end_match
from shared.wizards.state import WizardsState, partner_of, player

WITHDRAWING = "Withdrawing (authored)"


def name(state: WizardsState, seat: int) -> str:
    colour = player(state, seat)["colour"]
    return f"the {colour} player" if colour else f"seat {seat}"


def withdraw(state: WizardsState, seat: int, events: list) -> None:
    """Take `seat` out of the race (a draft: the engine settles it after)."""
    if seat in state.resigned:
        raise RuleViolation(WITHDRAWING, f"seat {seat} has withdrawn already")
    state.resigned = state.resigned + [seat]
    p = player(state, seat)
    p["extra_turns"] = 0
    events.append({"type": "withdrew", "seat": seat, "colour": p["colour"]})
    left = [s for s in range(state.seats) if s not in state.resigned]
    gone = " and ".join(name(state, s) for s in state.resigned)
    if state.solitaire or not left:
        end_match(state, [], f"{gone} withdrew: the Enchanted Islands are not saved", "withdrew", events)
        return
    partners = {s: partner_of(state, s) for s in left}
    if len(left) == 1 or (len(left) == 2 and partners[left[0]] == left[1]):
        winners = " and ".join(name(state, s) for s in left)
        end_match(state, left, f"{gone} withdrew; {winners} won", "the others withdrew", events)
        return
    t = state.turn
    if (state.phase == "play" and t is not None and t["seat"] == seat and state.chance is None
            and state.await_ is not None and state.await_["for"] in ("pre_roll", "move") and not state.pending):
        # his turn under way ends here, before anything else happens in it
        state.await_ = None
        t["ended"] = True
        state.step = "next_turn"
