"""`make bench`: the platform's figures, measured in one run on this machine, printed as
a table and written to bench/results.json. Figures to track, not pass/fail tests.

    echo_rps, echo_p99_ms          bare grpc.aio unary echo, separate processes, 16 in flight
    combat_rps, combat_p50_ms,     Combat.Resolve battles through the split platform (combat
    combat_p99_ms                  service, Redis, dice in process), from a client process, 16 in flight;
    combat_cpu_us_per_action       and the CPU the combat and dice processes spent per battle
    combat_dice_service_*          the same with DICE_MODE=service (a gRPC hop to the dice service per
                                   chance step); dice_service_cost_us_per_action is the difference
    combat_vs_echo, combat_p99_vs_echo
    engine_battles_per_s           the engine's battle resolution alone, in process
    ai_matches_per_min             all-AI Tower matches, services split, two Celery workers
    metrics_overhead_pct           instrumentation's cost on resolution (with vs without)
    action_us_cached, _uncached    random Tower actions through the match driver on its copy of the
                                   match vs a load each, in process (bench/actions.py)
    play_*, play_split_*           ordinary random play end to end, embedded (as `make run`: one serving
                                   process per core, at most 2) and split, with the share of actions
                                   served on a copy (bench/play_load.py); play_one_proc_* with one
                                   serving process, procs_speedup the ratio
    ai_turn_p50_ms, _p95_ms        state change to the AI's action applied, watched (bench/ai_latency.py)
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
from bench.stats import publish
from services.runtime.launcher import default_procs, free_port, wait_healthy
from tests.support.processes import Child

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).with_name("results.json")
INFLIGHT = 16
DEFAULT_PROCS = default_procs()  # serving processes per service, as `make run` starts them here


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


SPLIT_ENV = {"MATCH_TTL_S": "3600", "FINISHED_TTL_S": "600"}


def combat_figures(p: SplitPlatform, redis_url: str, seconds: float, prefix: str) -> dict:
    """The combat load on `p`, with the CPU the combat and dice processes spent per battle
    (every answered call, the warm-up's too, over the CPU of the whole load)."""
    before = p.cpu_seconds("combat", "dice")
    combat = run_combat(p, redis_url, seconds)
    cpu = p.cpu_seconds("combat", "dice") - before
    name = lambda figure: f"{prefix}_{figure}" if prefix else f"combat_{figure}"
    return {name("rps"): combat["rps"], name("p50_ms"): combat["p50_ms"], name("p99_ms"): combat["p99_ms"],
            name("errors"): sum(combat["errors"].values()),
            name("cpu_us_per_action"): cpu / max(combat["answered"], 1) * 1e6}


CACHE_RESULTS = ("hit", "miss", "stale", "rechecked")


def run_play(p: SplitPlatform, redis_url: str, seconds: float) -> dict:
    out = subprocess.run([sys.executable, "-m", "bench.play_load", p.addr["board"], p.addr["combat"],
                          p.addr["matchmaking"], redis_url, str(seconds), str(INFLIGHT)], cwd=ROOT,
                         capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"the play load failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def redis_cpu(redis_url: str) -> float:
    """CPU seconds the Redis server has used (INFO cpu), the main thread and its children."""
    import redis

    with redis.Redis.from_url(redis_url) as client:
        info = client.info("cpu")
    return info["used_cpu_sys"] + info["used_cpu_user"]


def play_figures(p: SplitPlatform, redis_url: str, seconds: float, prefix: str) -> dict:
    """Ordinary random play on `p` (bench/play_load.py): its rate and latency, the CPU the
    serving processes spent per action, and the share of actions served on a copy."""
    serving = {p.metrics[name]: name for name in ("board", "combat")}.values()  # one of them when embedded

    def copies() -> dict:
        return {r: sum(p.counter("archmage_record_cache_total", s, result=r) for s in serving)
                for r in CACHE_RESULTS}

    before_cpu, before, before_redis = p.cpu_seconds("board", "combat", "dice"), copies(), redis_cpu(redis_url)
    play = run_play(p, redis_url, seconds)
    cpu, after = p.cpu_seconds("board", "combat", "dice") - before_cpu, copies()
    redis_spent = redis_cpu(redis_url) - before_redis
    served = {r: after[r] - before[r] for r in CACHE_RESULTS}
    return {f"{prefix}_rps": play["rps"], f"{prefix}_p50_ms": play["p50_ms"], f"{prefix}_p99_ms": play["p99_ms"],
            f"{prefix}_errors": sum(play["errors"].values()),
            f"{prefix}_cpu_us_per_action": cpu / max(play["answered"], 1) * 1e6,
            f"{prefix}_redis_cpu_us_per_action": redis_spent / max(play["answered"], 1) * 1e6,
            f"{prefix}_copy_hit_share": served["hit"] / max(sum(served.values()), 1),
            f"{prefix}_copy_stale_share": served["stale"] / max(sum(served.values()), 1)}


ROWS = [  # figure, unit, what it is
    ("echo_rps", "calls/s", "bare grpc.aio unary echo, 16 in flight"),
    ("echo_p99_ms", "ms", "its p99 latency"),
    ("combat_rps", "battles/s", "Combat.Resolve end to end (split, Redis, dice), 16 in flight"),
    ("combat_p50_ms", "ms", "its median latency"),
    ("combat_p99_ms", "ms", "its p99 latency"),
    ("combat_cpu_us_per_action", "us", "CPU of the combat and dice processes per battle"),
    ("combat_dice_service_rps", "battles/s", "the same load with DICE_MODE=service (a hop to dice per roll)"),
    ("combat_dice_service_p50_ms", "ms", "its median latency"),
    ("combat_dice_service_p99_ms", "ms", "its p99 latency"),
    ("combat_dice_service_cpu_us_per_action", "us", "CPU of the combat and dice processes per battle"),
    ("dice_service_cost_us_per_action", "us", "what the hop to the dice service adds per battle, in CPU"),
    ("dice_service_vs_inprocess_rps", "x", "combat_dice_service_rps / combat_rps"),
    ("play_rps", "actions/s", "random legal Tower play, embedded (as make run: a process per core), 16 in flight"),
    ("play_p50_ms", "ms", "its median latency"),
    ("play_p99_ms", "ms", "its p99 latency"),
    ("play_cpu_us_per_action", "us", "CPU of the serving process per action"),
    ("play_copy_hit_share", "share", "actions applied to the process's copy of the match: one round trip"),
    ("play_redis_cpu_us_per_action", "us", "Redis CPU per action (the client's read of the state included)"),
    ("play_vs_echo", "x", "play_rps / echo_rps"),
    ("play_one_proc_rps", "actions/s", "the same play with one serving process (SERVE_PROCS=1)"),
    ("play_one_proc_p99_ms", "ms", "its p99 latency"),
    ("procs_speedup", "x", "play_rps / play_one_proc_rps: what the second core's process adds"),
    ("play_split_rps", "actions/s", "the same play, split (board and combat in processes of their own)"),
    ("play_split_cpu_us_per_action", "us", "CPU of the board, combat and dice processes per action"),
    ("play_split_copy_hit_share", "share", "actions applied to a copy (one process's copy is stale after the other's)"),
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
    ("ai_turn_p50_ms", "ms", "AI turn, state change to the AI's action applied (watched), split, 2 workers"),
    ("ai_turn_p95_ms", "ms", "its p95"),
    ("action_us_cached", "us", "a random Tower action through the match driver on its copy, in process"),
    ("action_us_uncached", "us", "the same with a load per action (MATCH_CACHE=0)"),
    ("action_cpu_us_cached", "us", "its CPU, on the copy"),
    ("action_cpu_us_uncached", "us", "its CPU, with a load"),
    ("cached_vs_uncached", "x", "action_us_cached / action_us_uncached"),
    ("store_trips_per_action_cached", "trips", "the store's round trips per action, on the copy"),
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
    print("actions on the driver's copy of the match vs a load each, in process...", flush=True)
    from bench.actions import measure as copied_actions

    figures.update(copied_actions(redis_url))
    from bench.durability import measure as durability

    figures.update(durability())

    print("split platform, dice in process: combat load, then all-AI matches...", flush=True)
    with SplitPlatform(redis_url, workers=2, env=dict(SPLIT_ENV, DICE_MODE="inprocess"), procs=DEFAULT_PROCS) as p:
        figures.update(combat_figures(p, redis_url, args.seconds, ""))
        figures.update(play_figures(p, redis_url, args.seconds, "play_split"))
        # the turn's latency first, on a few matches: the all-AI throughput run leaves matches in play
        from bench.ai_latency import measure as ai_latency

        figures.update(ai_latency(p.addr["board"], p.addr["matchmaking"]))
        from bench.ai_matches import play

        figures.update(play(p.addr["board"], p.addr["matchmaking"], args.ai_seconds))
    print("split platform, dice from the dice service: combat load...", flush=True)
    with SplitPlatform(redis_url, workers=1, env=dict(SPLIT_ENV, DICE_MODE="service"), procs=DEFAULT_PROCS) as p:
        figures.update(combat_figures(p, redis_url, args.seconds, "combat_dice_service"))
    print(f"embedded, as make run starts it ({DEFAULT_PROCS} serving process(es)): ordinary play...", flush=True)
    with SplitPlatform(redis_url, workers=1, env=dict(SPLIT_ENV, DICE_MODE="inprocess"), mode="embedded",
                       procs=DEFAULT_PROCS) as p:
        figures.update(play_figures(p, redis_url, args.seconds, "play"))
    if DEFAULT_PROCS > 1:
        print("embedded, one serving process: ordinary play...", flush=True)
        with SplitPlatform(redis_url, workers=1, env=dict(SPLIT_ENV, DICE_MODE="inprocess"), mode="embedded",
                           procs=1) as p:
            figures.update(play_figures(p, redis_url, args.seconds, "play_one_proc"))
        figures["procs_speedup"] = figures["play_rps"] / figures["play_one_proc_rps"]
    figures["play_vs_echo"] = figures["play_rps"] / figures["echo_rps"]
    figures["dice_service_cost_us_per_action"] = (figures["combat_dice_service_cpu_us_per_action"]
                                                  - figures["combat_cpu_us_per_action"])
    figures["dice_service_vs_inprocess_rps"] = figures["combat_dice_service_rps"] / figures["combat_rps"]
    figures["combat_vs_echo"] = figures["combat_rps"] / figures["echo_rps"]
    figures["combat_p99_vs_echo"] = figures["combat_p99_ms"] / figures["echo_p99_ms"]

    if not args.no_matchmaking and (ROOT / "bench" / "matchmaking_bench.py").exists():
        print("matchmaking...", flush=True)
        from bench import matchmaking_bench

        figures.update(matchmaking_bench.main())

    results = {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}
    return publish(RESULTS, results, table(figures), started, python=platform.python_version(), inflight=INFLIGHT,
                   dice_modes=["inprocess", "service"], seconds_per_load=args.seconds, ai_seconds=args.ai_seconds)


if __name__ == "__main__":
    main()
