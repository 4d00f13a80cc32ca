"""Counting a process-wide metric around a step of a test. The session's server (tests/conftest.py
`platform`) may share the process, and its background work (the clock sweeper, the stalled-AI sweeper, the
matchmaker) may count into the same series inside the window. That only ever adds, so a test counts its step
a few times and keeps the fewest (`fewest`), which an extra count of the step itself still raises."""
from __future__ import annotations

TRIES = 3  # how many times a test counts its step


def fewest(seen: list[dict[str, float]]) -> dict[str, float]:
    """Each key's fewest count over the tries `seen`."""
    return {key: min(counts[key] for counts in seen) for key in seen[0]}
