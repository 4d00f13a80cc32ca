"""What the monitoring files ask of Prometheus: every PromQL expression of the Grafana
dashboards and the alert rules, and the metric names each one reads."""
from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DASHBOARDS = sorted((ROOT / "deploy" / "grafana" / "dashboards").glob("*.json"))
RULE_FILES = sorted((ROOT / "deploy" / "prometheus" / "rules").glob("*.yml"))

KEYWORDS = {"and", "or", "unless", "by", "without", "on", "ignoring", "group_left", "group_right", "bool",
            "offset", "inf", "nan", "atan2", "start", "end"}
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`')
_MATCHERS = re.compile(r"\{[^{}]*\}")
_RANGES = re.compile(r"\[[^\[\]]*\]")
_GROUPING = re.compile(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^()]*\)")
_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")


def metric_names(expr: str) -> set[str]:
    """The metric names an expression selects (functions, keywords and labels left out)."""
    text = _STRINGS.sub('""', expr)
    text = _MATCHERS.sub(" ", text)
    text = _RANGES.sub(" ", text)
    text = _GROUPING.sub(" ", text)
    text = re.sub(r"\$\w+", " ", text)  # Grafana variables outside strings
    names = set()
    for m in _NAME.finditer(text):
        word = m.group(0)
        before = text[m.start() - 1] if m.start() else " "
        if before.isdigit() or before == ".":  # 1e3, 0.99
            continue
        if text[m.end():].lstrip().startswith("(") or word.lower() in KEYWORDS:
            continue
        names.add(word)
    return names


def grafana_variables(dashboard: dict) -> dict[str, str]:
    """Each template variable with the value that selects everything (its allValue)."""
    return {v["name"]: v.get("allValue") or ".*" for v in dashboard.get("templating", {}).get("list", [])}


def as_query(expr: str, variables: dict[str, str], rate_interval: str = "1m") -> str:
    """A dashboard expression as Prometheus would receive it from Grafana."""
    expr = expr.replace("$__rate_interval", rate_interval).replace("$__interval", "15s").replace("$__range", "1h")
    for name, value in variables.items():
        expr = expr.replace("${" + name + "}", value).replace("$" + name, value)
    return expr


def dashboard_queries() -> list[tuple[str, str, str]]:
    """(dashboard title, panel title, query) for every target of every panel."""
    out = []
    for path in DASHBOARDS:
        board = json.loads(path.read_text())
        variables = grafana_variables(board)
        for panel in board["panels"]:
            for target in panel.get("targets", []):
                out.append((board["title"], panel["title"], as_query(target["expr"], variables)))
    return out


def rules() -> list[dict]:
    return [rule for path in RULE_FILES for group in yaml.safe_load(path.read_text())["groups"]
            for rule in group["rules"]]


def rule_queries() -> list[tuple[str, str]]:
    return [(rule.get("alert") or rule.get("record"), rule["expr"]) for rule in rules()]


def exposed_names(exposition: str) -> set[str]:
    """Every sample name a /metrics page can carry, read by prometheus_client's own parser: the
    names of its samples and, for each family (a labelled metric with no sample yet still
    declares one), the names its type gives it."""
    from prometheus_client.parser import text_string_to_metric_families

    suffixes = {"counter": ("_total", "_created"), "histogram": ("_bucket", "_count", "_sum", "_created"),
                "summary": ("", "_count", "_sum", "_created"), "gauge": ("",), "unknown": ("",)}
    names = set()
    for family in text_string_to_metric_families(exposition):
        names.add(family.name)
        names.update(family.name + s for s in suffixes.get(family.type, ("",)))
        names.update(sample.name for sample in family.samples)
    return names
