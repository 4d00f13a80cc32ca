"""Matchmaking metrics (labels: game and variant, both bounded)."""
from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

QUEUE_DEPTH = Gauge("archmage_matchmaking_queue_depth", "Tickets waiting, per queue", ["game", "variant"])
OLDEST_WAIT = Gauge("archmage_matchmaking_oldest_wait_seconds", "Wait of the oldest queued ticket", ["game", "variant"])
TIME_TO_MATCH = Histogram("archmage_matchmaking_time_to_match_seconds", "From ticket to assignment",
                          ["game"], buckets=(0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600))
MATCHES_FORMED = Counter("archmage_matchmaking_matches_formed_total", "Matches formed from tickets", ["game", "kind"])
AI_SEATS = Counter("archmage_matchmaking_ai_seats_total", "Seats filled by AI opponents", ["game"])
TICKETS = Counter("archmage_matchmaking_tickets_total", "Tickets by what became of them", ["game", "result"])
CYCLE_SECONDS = Histogram("archmage_matchmaking_cycle_seconds", "One matching cycle over one queue",
                          buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30))
