"""Counting a process-wide metric around a step of a test. The session's server (tests/conftest.py
`platform`) may share the process, and its background work (the clock sweeper, the stalled-AI sweeper, the
matchmaker) may count into the same series inside the window. That only ever adds, so a test counts its step
a few times and keeps the fewest (`fewest`), which an extra count of the step itself still raises."""
from __future__ import annotations

from prometheus_client import REGISTRY

TRIES = 3  # how many times a test counts its step


def store_round_trips(*ops: str) -> dict[str, float]:
    """The match store's round trips counted so far in this process, by operation (`archmage_store_seconds`)."""
    return {op: REGISTRY.get_sample_value("archmage_store_seconds_count", {"op": op}) or 0.0 for op in ops}


def since(before: dict[str, float]) -> dict[str, float]:
    """The round trips counted since `before` (store_round_trips' figures), by the same operations."""
    return {op: n - before[op] for op, n in store_round_trips(*before).items()}


def fewest(seen: list[dict[str, float]]) -> dict[str, float]:
    """Each key's fewest count over the tries `seen`."""
    return {key: min(counts[key] for counts in seen) for key in seen[0]}
