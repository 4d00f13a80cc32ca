"""Every resolution handler (resolution.py), registered by importing the module that
holds it; the engine imports this module once."""
from __future__ import annotations

from shared.wizards import (  # noqa: F401  (registration)
    adversaries,
    decks,
    encounter_spells,
    eventcards,
    fate,
    gems,
    meetings,
    mentors,
    partnership,
    places,
    randoms,
    record,
    solitaire,
    special_spells,
    tasks,
    wizardcards,
)
from shared.wizards.resolution import HANDLERS

REGISTERED = tuple(sorted(HANDLERS))
