"""docs/metrics.md against the code, and the monitoring files against both: every metric
the code exports is in the catalogue with its type and labels, the catalogue names
nothing the code lacks, and every dashboard and alert query reads catalogued metrics.
(tests/ops/test_live_monitoring.py checks the same queries against running processes.)"""
from __future__ import annotations

import json
import re

import yaml

from tests.ops.promql import DASHBOARDS, ROOT, dashboard_queries, metric_names, rule_queries

SUFFIXES = {"counter": ["_total"], "histogram": ["_bucket", "_count", "_sum"], "gauge": [""]}


def catalogue() -> dict[str, tuple[str, tuple[str, ...]]]:
    """exported name -> (type, labels), from the tables of docs/metrics.md."""
    out = {}
    for line in (ROOT / "docs" / "metrics.md").read_text().splitlines():
        m = re.match(r"\|\s*`(archmage_\w+)`\s*\|\s*(\w+)\s*\|([^|]*)\|", line)
        if m:
            labels = tuple(sorted(x.strip() for x in m.group(3).split(",") if x.strip()))
            out[m.group(1)] = (m.group(2), labels)
    return out


def exported_by_code() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every archmage_* family the code defines: live metrics, the scrape-time probe, the
    matchmaking service's and the web service's metrics, with their exposed names."""
    from prometheus_client import REGISTRY

    import services.core.metrics  # noqa: F401  (defines METRICS)
    import services.matchmaking.metrics  # noqa: F401
    import services.web.metrics  # noqa: F401
    from services.core.metrics import PlatformProbe

    out = {}
    collectors = list(REGISTRY._collector_to_names) + [PlatformProbe("redis://unused", ["ai"], ["tower"], 1)]
    for collector in collectors:
        families = collector.describe() if hasattr(collector, "describe") else []
        for family in families:
            if not family.name.startswith("archmage_"):
                continue
            labels = getattr(collector, "_labelnames", None)
            if labels is None:  # a probe family declares its labels on its samples
                labels = family.samples[0].labels.keys() if family.samples else _probe_labels(family.name)
            name = family.name + ("_total" if family.type == "counter" else "")
            out[name] = (family.type, tuple(sorted(labels)))
    return out


def _probe_labels(name: str) -> tuple[str, ...]:
    return {"archmage_ai_queue_depth": ("queue",), "archmage_active_matches": ("game",)}.get(name, ())


def all_queries():
    return [q for _, _, q in dashboard_queries()] + [expr for _, expr in rule_queries()]


def test_the_catalogue_lists_every_exported_metric_with_its_type_and_labels():
    code, docs = exported_by_code(), catalogue()
    assert len(code) > 30
    assert code == docs, {"missing from docs": sorted(set(code) - set(docs)),
                          "not in code": sorted(set(docs) - set(code)),
                          "differ": sorted(k for k in set(code) & set(docs) if code[k] != docs[k])}


def test_no_label_can_carry_an_identifier():
    for name, (_, labels) in exported_by_code().items():
        identifiers = {"match", "match_id", "seat", "token", "player", "ticket", "ticket_id", "session"}
        assert not identifiers & set(labels), name


def test_every_dashboard_and_alert_query_reads_catalogued_metrics():
    known = set()
    for name, (kind, _) in catalogue().items():
        base = name.removesuffix("_total")
        known |= {base + s for s in SUFFIXES[kind]}
    queries = all_queries()
    assert len(queries) > 50
    for query in queries:
        names = metric_names(query)
        assert names, query
        assert names <= known | {"up"}, (query, names - known)


def test_the_five_dashboards_exist_and_use_the_provisioned_datasource():
    source = yaml.safe_load((ROOT / "deploy/grafana/provisioning/datasources/prometheus.yml").read_text())
    uid = source["datasources"][0]["uid"]
    titles, uids = set(), set()
    for path in DASHBOARDS:
        board = json.loads(path.read_text())
        titles.add(board["title"])
        uids.add(board["uid"])
        assert board["panels"], path.name
        for panel in board["panels"]:
            assert panel["datasource"]["uid"] == uid
            assert panel["targets"] and all(t["datasource"]["uid"] == uid and t["expr"] for t in panel["targets"])
            assert {"x", "y", "w", "h"} <= set(panel["gridPos"])
            assert len({t["refId"] for t in panel["targets"]}) == len(panel["targets"])
        ids = [p["id"] for p in board["panels"]]
        assert len(ids) == len(set(ids)), path.name
    assert len(uids) == len(DASHBOARDS)
    assert {"Archmage · Combat hot path", "Archmage · Matches and AI", "Archmage · Matchmaking",
            "Archmage · RPC errors", "Archmage · Redis"} <= titles


def test_the_combat_dashboard_reads_the_combat_path_by_game_and_kind():
    board = json.loads((ROOT / "deploy/grafana/dashboards/combat-hot-path.json").read_text())
    exprs = [t["expr"] for p in board["panels"] for t in p["targets"]]
    latency = [e for e in exprs if "archmage_resolution_seconds_bucket" in e]
    assert latency and all('domain="combat"' in e for e in latency)
    assert any("by (game, kind)" in e for e in exprs) and any("by (kind, le)" in e for e in exprs)
