"""Every resolution handler (resolution.py), registered by importing the module that
holds it; the engine imports this module once."""
from __future__ import annotations

from shared.wizards import decks, eventcards, fate, places, record, tasks  # noqa: F401  (registration)
from shared.wizards.resolution import HANDLERS

REGISTERED = tuple(sorted(HANDLERS))
