"""`make bench`: the platform's figures, measured in one run on this machine, printed as
a table and written to bench/results.json. Figures to track, not pass/fail tests.

    echo_rps, echo_p99_ms          bare grpc.aio unary echo, separate processes, 16 in flight
    combat_rps, combat_p50_ms,     Combat.Resolve battles through the split platform (combat
    combat_p99_ms                  service, Redis, dice), from a client process, 16 in flight
    combat_vs_echo, combat_p99_vs_echo
    engine_battles_per_s           the engine's battle resolution alone, in process
    ai_matches_per_min             all-AI Tower matches, services split, two Celery workers
    metrics_overhead_pct           instrumentation's cost on resolution (with vs without)
    policy_<game>_p50_ms, _p99_ms  each game's AI policy, per choice, in process
    games_per_s_<game>, copy_vs_json_<game>   the engines alone (bench/engines.py)
    wizards_rank2_share, wizards_encounters_*  all-AI Wizards, 28 days (bench/wizards_life.py)
    wizards4_*                     all-AI 4-player Wizards matches to their end (bench/wizards_match.py)
    durability_*                   a resolution with the AOF fsynced every second vs always (bench/durability.py)
    tower_climbs_<n>p_<cause>_share  what moves the Wizard King in all-AI Tower matches, 2-4 players
                                   (bench/tower_clock.py)
    incantris_*                    Incantris AI: the solo win rate over 200 games (and a greedy player's),
                                   the red/blue balance of 2-player self-play, the longest match
                                   (bench/incantris_play.py)
and, when the matchmaking benchmark is present, its figures (mm_*).

How the platform recovers from faults (Redis killed, a worker killed, an orphan match, a drain,
a Cluster master lost) is measured apart, by `make bench-recovery` (bench/recovery.py).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from bench.split import SplitPlatform
from services.runtime.launcher import free_port, wait_healthy
from tests.support.processes import Child

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).with_name("results.json")
INFLIGHT = 16


def run_echo(seconds: float) -> dict:
    port = free_port()
    with Child("echo-server", [sys.executable, "-m", "bench.echo", "serve", str(port)]) as server:
        server.wait_until(lambda: _channel_ready(f"127.0.0.1:{port}"), 15, what="the echo server")
        out = subprocess.run([sys.executable, "-m", "bench.echo", "load", f"127.0.0.1:{port}", str(seconds),
                              str(INFLIGHT)], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _channel_ready(addr: str) -> bool:
    import grpc

    with grpc.insecure_channel(addr) as ch:
        try:
            grpc.channel_ready_future(ch).result(timeout=1)
            return True
        except grpc.FutureTimeoutError:
            return False


def run_combat(p: SplitPlatform, redis_url: str, seconds: float) -> dict:
    wait_healthy(p.addr["combat"])
    out = subprocess.run([sys.executable, "-m", "bench.combat_load", p.addr["combat"], p.addr["matchmaking"],
                          redis_url, str(seconds), str(INFLIGHT)], cwd=ROOT, capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"the combat load failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


ROWS = [  # figure, unit, what it is
    ("echo_rps", "calls/s", "bare grpc.aio unary echo, 16 in flight"),
    ("echo_p99_ms", "ms", "its p99 latency"),
    ("combat_rps", "battles/s", "Combat.Resolve end to end (split, Redis, dice), 16 in flight"),
    ("combat_p50_ms", "ms", "its median latency"),
    ("combat_p99_ms", "ms", "its p99 latency"),
    ("combat_vs_echo", "x", "combat_rps / echo_rps"),
    ("combat_p99_vs_echo", "x", "combat_p99_ms / echo_p99_ms"),
    ("engine_battles_per_s", "battles/s", "the engine alone, in process"),
    ("games_per_s_tower", "games/s", "random full Tower games, 2 seats, in process"),
    ("games_per_s_incantris", "games/s", "random full Incantris battle-royale games, 2 seats, in process"),
    ("games_per_s_wizards", "games/s", "random full Wizards games, 2 seats, in process"),
    ("copy_vs_json_tower", "x", "one step's state copy / a JSON round trip of the same state"),
    ("copy_vs_json_incantris", "x", "the same for Incantris"),
    ("copy_vs_json_wizards", "x", "the same for Wizards"),
    ("wizards_rank2_share", "share", "Wizards players at Rank 2+ after 28 days, all-AI 3 seats"),
    ("wizards_order_share", "share", "of them, players who joined an Order"),
    ("wizards_tasks_completed", "tasks", "Tasks completed per 28-day match"),
    ("tower_climbs_2p_attack_share", "share", "Tower, 2 players: climbs by an attacker's transformation"),
    ("tower_climbs_2p_patience_share", "share", "Tower, 2 players: climbs by the King's patience (safety net)"),
    ("tower_climbs_3p_attack_share", "share", "the same, 3 players"),
    ("tower_climbs_3p_patience_share", "share", "the same, 3 players"),
    ("tower_climbs_4p_attack_share", "share", "the same, 4 players"),
    ("tower_climbs_4p_patience_share", "share", "the same, 4 players"),
    ("incantris_solo_win_rate", "share", "Incantris solo games won by the AI against the attacking wizards (200)"),
    ("incantris_solo_greedy_rate", "share", "the same for a greedy player (the baseline to beat)"),
    ("incantris_red_share", "share", "2-player AI self-play: red (seat 0) wins against blue (seat 1)"),
    ("incantris_red_share_swapped", "share", "the same with blue in seat 0: red's share"),
    ("incantris_seat0_share", "share", "seat 0's share over both orders (the first player's edge)"),
    ("incantris_max_rounds", "rounds", "the longest of those matches (the stalemate ends any by round 100)"),
    ("ai_matches_per_min", "matches/min", "all-AI 2-seat Tower matches, split, 2 Celery workers"),
    ("ai_actions_per_s", "actions/s", "AI turns played in those matches"),
    ("metrics_overhead_pct", "%", "CPU of a resolution with vs without metrics (in process, paired)"),
    ("metrics_cpu_us_per_resolution", "us", "that cost per resolution"),
    ("metric_updates_us_per_resolution", "us", "the metric updates of one resolution, timed alone"),
    ("resolution_us_without_metrics", "us", "one resolution in process (Redis, rules, dice), median"),
]


def table(figures: dict) -> str:
    lines = [f"{'figure':<34} {'value':>12}  {'unit':<12} what", "-" * 100]
    shown = set()
    for name, unit, what in ROWS:
        if name in figures:
            lines.append(f"{name:<34} {figures[name]:>12,.2f}  {unit:<12} {what}")
            shown.add(name)
    for name in sorted(set(figures) - shown):
        if isinstance(figures[name], (int, float)):
            lines.append(f"{name:<34} {figures[name]:>12,.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10, help="length of each timed load")
    parser.add_argument("--ai-seconds", type=float, default=45, help="length of the all-AI run")
    parser.add_argument("--no-matchmaking", action="store_true", help="skip the matchmaking benchmark")
    args = parser.parse_args(argv)
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    started = time.monotonic()
    figures: dict = {}

    print("echo baseline...", flush=True)
    echo = run_echo(args.seconds)
    figures.update(echo_rps=echo["rps"], echo_p50_ms=echo["p50_ms"], echo_p99_ms=echo["p99_ms"])

    print("engine battles and instrumentation cost, in process...", flush=True)
    from bench.battles import armed_state, engine_battles_per_s
    from bench.overhead import measure

    state, seat = armed_state()
    figures["engine_battles_per_s"] = engine_battles_per_s(state, seat, 3.0)
    from bench.policies import measure as policy_times

    figures.update(policy_times())
    from bench.engines import measure as engine_figures

    figures.update(engine_figures())
    from bench.wizards_life import measure as wizards_life

    figures.update(wizards_life())
    from bench.tower_clock import measure as tower_clock

    print("Tower: what moves the Wizard King in all-AI matches...", flush=True)
    figures.update(tower_clock())
    from bench.wizards_match import measure as wizards_matches

    figures.update(wizards_matches())
    print("Incantris AI: solo games and red/blue self-play...", flush=True)
    from bench.incantris_play import measure as incantris_play

    figures.update(incantris_play())
    figures.update(measure(redis_url))
    from bench.durability import measure as durability

    figures.update(durability())

    print("split platform: combat load, then all-AI matches...", flush=True)
    env = {"DICE_MODE": "inprocess", "MATCH_TTL_S": "3600", "FINISHED_TTL_S": "600"}
    with SplitPlatform(redis_url, workers=2, env=env) as p:
        combat = run_combat(p, redis_url, args.seconds)
        figures.update(combat_rps=combat["rps"], combat_p50_ms=combat["p50_ms"], combat_p99_ms=combat["p99_ms"],
                       combat_errors=sum(combat["errors"].values()))
        from bench.ai_matches import play

        figures.update(play(p.addr["board"], p.addr["matchmaking"], args.ai_seconds))
    figures["combat_vs_echo"] = figures["combat_rps"] / figures["echo_rps"]
    figures["combat_p99_vs_echo"] = figures["combat_p99_ms"] / figures["echo_p99_ms"]

    if not args.no_matchmaking and (ROOT / "bench" / "matchmaking_bench.py").exists():
        print("matchmaking...", flush=True)
        from bench import matchmaking_bench

        figures.update(matchmaking_bench.main())

    meta = {"cores": os.cpu_count(), "python": platform.python_version(), "inflight": INFLIGHT,
            "dice_mode": "inprocess", "seconds_per_load": args.seconds, "ai_seconds": args.ai_seconds,
            "bench_seconds": round(time.monotonic() - started, 1),
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    results = {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}
    results["meta"] = meta
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print()
    print(table(figures))
    print(f"\nwritten to {RESULTS.relative_to(ROOT)} in {meta['bench_seconds']}s", flush=True)
    return results


if __name__ == "__main__":
    main()
