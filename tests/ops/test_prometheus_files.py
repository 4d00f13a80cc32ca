"""deploy/prometheus: the scrape configurations and alert rules load in Prometheus's own
checker, and every alert fires on the series it is meant for (promtool's rule tests)."""
from __future__ import annotations

import subprocess

import yaml

from services.runtime.launcher import SERVICES
from tests.ops.promql import ROOT, RULE_FILES, rules
from tests.ops.tools import need

PROM = ROOT / "deploy" / "prometheus"
CONFIGS = sorted(PROM.glob("prometheus-*.yml"))


def promtool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([need("promtool"), *args], cwd=PROM, capture_output=True, text=True, timeout=60)


def test_there_is_a_scrape_configuration_for_split_compose_and_kubernetes():
    assert {p.name for p in CONFIGS} >= {"prometheus-split.yml", "prometheus-compose.yml", "prometheus-k8s.yml"}


def test_every_scrape_configuration_passes_promtool_check_config():
    for config in CONFIGS:
        done = promtool("check", "config", config.name)
        assert done.returncode == 0, f"{config.name}:\n{done.stdout}{done.stderr}"


def test_the_alert_rules_pass_promtool_check_rules():
    done = promtool("check", "rules", *[str(p) for p in RULE_FILES])
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(rules())} rules found" in done.stdout


def test_every_alert_fires_on_its_series_and_stays_quiet_on_healthy_ones():
    done = promtool("test", "rules", "tests/archmage-alerts.test.yml")
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_alert_has_a_rule_test_a_severity_and_an_entry_in_the_operations_guide():
    tests = yaml.safe_load((PROM / "tests" / "archmage-alerts.test.yml").read_text())
    fired = {case["alertname"] for t in tests["tests"] for case in t["alert_rule_test"] if case.get("exp_alerts")}
    guide = (ROOT / "docs" / "operations.md").read_text()
    for rule in rules():
        name = rule["alert"]
        assert name in fired, f"{name} has no rule test that makes it fire"
        assert rule["labels"]["severity"] in ("page", "warning"), name
        assert rule["annotations"]["summary"], name
        assert f"`{name}`" in guide, f"docs/operations.md does not explain {name}"


def test_the_split_configuration_scrapes_the_ports_the_launcher_gives():
    """`make run MODE=split` with METRICS_PORT=9100: services on 9101.., their second serving
    processes 10 above, the worker on 9109 (services/runtime/launcher.py)."""
    from services.runtime.launcher import PROC_METRICS_STRIDE, WORKER_METRICS_OFFSET

    config = yaml.safe_load((PROM / "prometheus-split.yml").read_text())
    seen = set()
    for job in config["scrape_configs"]:
        for group in job["static_configs"]:
            for target in group["targets"]:
                labels = group["labels"]
                seen.add((job["job_name"], labels["component"], labels.get("proc"), int(target.rsplit(":", 1)[1])))
    expected = {("archmage", name, str(k), 9100 + 1 + i + PROC_METRICS_STRIDE * k)
                for i, name in enumerate(SERVICES) for k in (0, 1)}
    expected.add(("archmage-ai-worker", "ai-worker", None, 9100 + WORKER_METRICS_OFFSET))
    assert seen == expected


def test_every_configuration_names_the_same_jobs_and_loads_the_rules():
    for config_path in CONFIGS:
        config = yaml.safe_load(config_path.read_text())
        assert {j["job_name"] for j in config["scrape_configs"]} == {"archmage", "archmage-ai-worker"}, config_path
        assert config["rule_files"], config_path
