"""Every resolution handler (resolution.py), registered by importing the module that
holds it; the engine imports this module once."""
from __future__ import annotations

from shared.wizards import decks, fate, places, record  # noqa: F401  (registration)
from shared.wizards.resolution import HANDLERS

REGISTERED = tuple(sorted(HANDLERS))
