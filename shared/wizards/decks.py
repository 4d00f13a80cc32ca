"""Drawing from the Task, Event and Wizard decks, and shuffling them again.

A deck's order is secret (3.1, shuffled by a secret chance step); a draw takes the
top card (index 0). Readings where the rulebook is silent:
* a Task or Event deck that runs out is made again from its discard pile, shuffled
  (secret); a draw from an empty deck with no discards finds nothing;
* 8.74: Wizard Cards drawn go back into the deck after the encounter and the whole
  Wizard deck is shuffled again (secret); cards kept for a High Wizard whose marker was
  placed wait in `wizard_aside` until he is met (or his marker leaves the board).
"""
from __future__ import annotations

from shared.engine.chance import apply_shuffle, shuffle_request
from shared.wizards.resolution import Handler, Item, done, handler, push, roll
from shared.wizards.state import WizardsState

DECK_NAMES = {"task": "Task deck", "event": "Event deck", "wizard": "Wizard deck"}


def ready(state: WizardsState, deck: str) -> bool:
    """True when a card can be drawn now; otherwise a reshuffle of the discards is put
    on the stack first (the caller runs again after it) or, with nothing to shuffle, False
    with nothing pushed: `empty(state, deck)` tells the two apart."""
    if state.decks[deck]:
        return True
    if state.discards[deck]:
        push(state, {"do": "reshuffle", "deck": deck, "with_deck": False})
    return False


def empty(state: WizardsState, deck: str) -> bool:
    return not state.decks[deck] and not state.discards[deck]


def draw(state: WizardsState, deck: str):
    """The top card of a deck (call `ready` first)."""
    return state.edit("decks", deck).pop(0)


def shuffle_back(state: WizardsState, deck: str, cards: list) -> None:
    """Return cards to a deck and shuffle the whole deck (8.74)."""
    state.discards[deck].extend(cards)
    push(state, {"do": "reshuffle", "deck": deck, "with_deck": True})


@handler("reshuffle")
class Reshuffle(Handler):
    """Shuffle a deck's discards (and, for 8.74, the deck itself) into a new deck."""

    rule = "8.74"

    def _cards(self, state: WizardsState, item: Item) -> list:
        return (list(state.decks[item["deck"]]) if item["with_deck"] else []) + state.discards[item["deck"]]

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        cards = self._cards(state, item)
        if len(cards) < 2:
            self.rolled(state, item, [], events)
            return
        roll(state, item, shuffle_request(DECK_NAMES[item["deck"]], len(cards)), secret=True)

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        deck = item["deck"]
        state.edit("decks")[deck] = apply_shuffle(self._cards(state, item), faces)
        state.discards[deck] = []
        events.append({"type": "deck_shuffled", "deck": deck, "cards": len(state.decks[deck])})
        done(state, item)
