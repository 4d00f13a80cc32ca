"""Prometheus metrics of the platform, defined once. Labels are bounded: game
names, action domains, RPC methods and status codes, never match ids."""
from __future__ import annotations

from prometheus_client import Counter, Histogram

_FAST = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class _Metrics:
    def __init__(self) -> None:
        self.resolution_seconds = Histogram(
            "archmage_resolution_seconds", "Time to resolve one action end to end in the service "
            "(load, rules, dice, compare-and-set), by game and kind", ["game", "kind"], buckets=_FAST)
        self.resolutions = Counter(
            "archmage_resolutions_total", "Actions resolved, by game, kind and outcome",
            ["game", "kind", "outcome"])
        self.dice_calls = Histogram(
            "archmage_dice_draw_seconds", "Time to draw the dice of one chance step", ["game"], buckets=_FAST)
        self.cas_conflicts = Counter(
            "archmage_cas_conflicts_total", "Compare-and-set writes that lost a race and were retried", ["op"])
        self.matches_created = Counter("archmage_matches_created_total", "Matches created", ["game"])
        self.matches_finished = Counter("archmage_matches_finished_total", "Matches played to the end", ["game"])
        self.rpc_seconds = Histogram(
            "archmage_rpc_seconds", "gRPC handling time by method", ["method"], buckets=_FAST)
        self.rpc_total = Counter("archmage_rpc_total", "gRPC calls by method and status code", ["method", "code"])
        self.ai_turns = Counter("archmage_ai_turns_total", "AI turns played by workers, by game and result",
                                ["game", "result"])
        self.ai_turn_seconds = Histogram("archmage_ai_turn_seconds", "AI turn task latency (read, think, act)",
                                         ["game"], buckets=(0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
        self.ai_turns_queued = Counter("archmage_ai_turns_queued_total", "AI turns queued for workers", ["game"])


METRICS = _Metrics()
