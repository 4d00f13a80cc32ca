"""The monitoring, live: the platform split into real processes (`make run MODE=split`,
two AI worker processes), a real Prometheus scraping them with the committed split
configuration and evaluating the committed alert rules, while AI seats play Tower
matches, matchmaking forms matches and clients make a few mistakes. Then: every target
is up, every metric a dashboard or alert names is exposed by the running processes, every
dashboard query returns data and every alert rule evaluates without error."""
from __future__ import annotations

import secrets
import time
import urllib.request

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

from bench.split import SplitPlatform
from tests.ops.prometheus_run import Prometheus
from tests.ops.promql import dashboard_queries, exposed_names, metric_names, rule_queries, rules
from tests.ops.tools import need
from tests.support.processes import wait_for
from tests.support.redis_db import RedisServer
from tests.trust.support import identity

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]

# Dashboard panels allowed to be empty after a short healthy run, and why.
MAY_BE_EMPTY = {
    "Server errors by service and method": "only INTERNAL/UNKNOWN/UNAVAILABLE/DEADLINE_EXCEEDED: none when healthy",
}
COMBAT_P99 = ('histogram_quantile(0.99, sum by (le) (rate(archmage_resolution_seconds_bucket'
              '{domain="combat",game="tower"}[1m])))')
PLAY_S = 12  # AI matches play this long (at least) while Prometheus scrapes every second


def drive(p: SplitPlatform) -> list[str]:
    """Traffic for every panel: all-AI matches, tickets (matched with AI, and cancelled),
    and a few refused calls. Returns the ids of the all-AI matches."""
    mm = matchmaking_pb2_grpc.MatchmakingStub(grpc.insecure_channel(p.addr["matchmaking"]))
    board = board_pb2_grpc.BoardStub(grpc.insecure_channel(p.addr["board"]))
    ai = matchmaking_pb2.CreateMatchRequest(game="tower", seats=[matchmaking_pb2.SeatSpec(kind="ai")] * 2)
    matches = [mm.CreateMatch(ai, timeout=30).match_id for _ in range(3)]
    invite = "ops-" + secrets.token_hex(4)
    signing_in = grpc.insecure_channel(p.addr["matchmaking"])
    for _ in range(2):  # two players meet
        mm.CreateTicket(matchmaking_pb2.CreateTicketRequest(game="tower", seats=2, invite_code=invite),
                        metadata=identity(signing_in).meta, timeout=30)
    mm.CreateTicket(matchmaking_pb2.CreateTicketRequest(  # one player, an AI opponent at once
        game="tower", seats=2, ai_welcome=True, max_wait_s=0, invite_code=invite + "-ai"),
        metadata=identity(signing_in).meta, timeout=30)
    alone = identity(signing_in)
    waiting = mm.CreateTicket(matchmaking_pb2.CreateTicketRequest(
        game="tower", seats=4, invite_code=invite + "-alone"), metadata=alone.meta, timeout=30)
    time.sleep(0.5)
    mm.CancelTicket(matchmaking_pb2.TicketRef(ticket_id=waiting.ticket_id), metadata=alone.meta, timeout=30)
    for call in (lambda: board.GetMatch(board_pb2.GetMatchRequest(match_id="no-such-match")),
                 lambda: board.Move(common_pb2.ActRequest(match_id=matches[0], action_id="x", action_json="{"))):
        with pytest.raises(grpc.RpcError):
            call()
    return matches


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A Redis of its own: the suite's database holds matches other tests left with AI turns due,
    and this platform's sweeper would queue every one of them to its two workers."""
    binary = need("prometheus")
    env = {"DICE_MODE": "inprocess", "MATCH_TTL_S": "900", "FINISHED_TTL_S": "120", "TICKET_TTL_S": "120",
           "MM_INTERVAL_S": "0.1"}
    with RedisServer(durable=False) as own_redis, SplitPlatform(own_redis.url, workers=2, env=env) as p:
        prom = Prometheus(binary, p.all_metrics_ports(), tmp_path_factory.mktemp("prometheus"))
        try:
            wait_for(lambda: all(t["health"] == "up" for t in prom.api("targets")["data"]["activeTargets"]),
                     60, what="every scrape target to be up")
            started = time.monotonic()
            matches = drive(p)
            board = board_pb2_grpc.BoardStub(grpc.insecure_channel(p.addr["board"]))

            mm = matchmaking_pb2_grpc.MatchmakingStub(grpc.insecure_channel(p.addr["matchmaking"]))
            more_ai = matchmaking_pb2.CreateMatchRequest(game="tower", seats=[matchmaking_pb2.SeatSpec(kind="ai")] * 2)
            playing = list(matches)

            def finished(match_id: str) -> bool:
                return board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), timeout=10).status == "finished"

            def played_enough() -> bool:
                """Long enough for every panel, an all-AI match over, and battles inside the rate window.
                A new AI match starts whenever one ends, so the traffic goes on at a pace the workers hold."""
                playing[:] = [m for m in playing if not finished(m)]
                while len(playing) < 3:
                    playing.append(mm.CreateMatch(more_ai, timeout=30).match_id)
                p99 = prom.query(COMBAT_P99)["data"]["result"]
                return (time.monotonic() - started >= PLAY_S and any(finished(m) for m in matches) and bool(p99)
                        and 0 < float(p99[0]["value"][1]) < float("inf"))

            # a bound, not a sleep: on a loaded machine the first all-AI match takes much longer
            wait_for(played_enough, 200, interval=0.5, what="AI matches to be played and scraped")
            # every rule evaluated at least once since the traffic began
            deadline = time.monotonic() + 10
            while not all(r.get("lastEvaluation", "0001").startswith("20") for r in _rules(prom)):
                assert time.monotonic() < deadline, "the rules were not evaluated"
                time.sleep(0.2)
            yield p, prom, sum(finished(m) for m in matches)
        finally:
            prom.stop()


def _rules(prom: Prometheus) -> list[dict]:
    return [r for g in prom.api("rules")["data"]["groups"] for r in g["rules"]]


def test_every_scrape_target_is_up(live):
    p, prom, _ = live
    targets = prom.api("targets")["data"]["activeTargets"]
    assert {(t["labels"]["job"], t["labels"]["component"]) for t in targets} == {
        *(("archmage", name) for name in p.metrics), ("archmage-ai-worker", "ai-worker")}
    assert all(t["health"] == "up" for t in targets), [(t["scrapeUrl"], t["lastError"]) for t in targets]


def test_the_ai_workers_played_through_the_public_api(live):
    _, prom, finished = live
    played = prom.query('sum(archmage_ai_turns_total{result="acted"})')["data"]["result"]
    assert played and float(played[0]["value"][1]) > 50
    assert finished >= 1, "no all-AI Tower match finished while the test watched"


def test_every_metric_a_dashboard_or_alert_names_is_exposed_by_the_running_processes(live):
    p, _, _ = live
    exposed = set()
    for port in p.all_metrics_ports().values():
        exposed |= exposed_names(urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode())
    queries = [q for _, _, q in dashboard_queries()] + [q for _, q in rule_queries()]
    missing = {name for q in queries for name in metric_names(q)} - exposed - {"up"}
    assert not missing, f"named in deploy/ but exported by no running process: {sorted(missing)}"


def test_every_dashboard_query_returns_data(live):
    _, prom, _ = live
    empty, failed = [], []
    for board, panel, query in dashboard_queries():
        answer = prom.query(query)
        if answer["status"] != "success":
            failed.append((board, panel, query, answer.get("error")))
        elif not answer["data"]["result"] and panel not in MAY_BE_EMPTY:
            empty.append((board, panel, query))
    assert not failed, failed
    assert not empty, empty


def test_the_combat_hot_path_reads_real_battles(live):
    _, prom, _ = live
    [p99] = prom.query(COMBAT_P99)["data"]["result"]
    assert 0 < float(p99["value"][1]) < 5
    kinds = {r["metric"]["kind"] for r in prom.query(
        'sum by (kind) (archmage_resolutions_total{domain="combat",game="tower"})')["data"]["result"]}
    assert "fight" in kinds or "transform" in kinds, kinds


def test_every_alert_rule_evaluates_without_error(live):
    _, prom, _ = live
    for name, expr in rule_queries():
        answer = prom.query(expr)
        assert answer["status"] == "success", (name, answer.get("error"))
    loaded = _rules(prom)
    assert {r["name"] for r in loaded} == {r["alert"] for r in rules()}
    assert all(r["health"] == "ok" for r in loaded), [(r["name"], r.get("lastError")) for r in loaded]
    firing = [r["name"] for r in loaded if r["state"] == "firing"]
    assert not [n for n in firing if n in ("RedisDown", "AiNoLiveWorkers", "ArchmageTargetDown")], firing
