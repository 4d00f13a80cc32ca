"""docker-compose.yml, read statically (no Docker engine runs here): each service in its
own container, every command, module, file and volume it names exists, and Redis,
Prometheus and Grafana are wired to the files in deploy/."""
from __future__ import annotations

import importlib
import re
import shlex
from pathlib import Path

import yaml

from services.runtime.app import SERVICE_NAMES
from tests.ops.promql import ROOT

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
PLATFORM = [*SERVICE_NAMES, "ai-worker"]


def module_file(module: str) -> Path:
    base = ROOT / module.replace(".", "/")
    return base.with_suffix(".py") if base.with_suffix(".py").exists() else base / "__init__.py"


def mounts(service: str) -> dict[str, str]:
    """container path -> host path (or named volume)."""
    out = {}
    for spec in SERVICES[service].get("volumes", []):
        host, container = spec.split(":")[:2]
        out[container] = host
    return out


def test_every_service_runs_in_its_own_container_next_to_redis_prometheus_and_grafana():
    assert set(SERVICES) == {*PLATFORM, "web", "redis", "prometheus", "grafana"}
    for name in SERVICE_NAMES:
        assert SERVICES[name]["command"] == ["python", "-m", "services.runtime.main", name]


def test_commands_name_modules_that_exist():
    for name in PLATFORM:
        command = SERVICES[name]["command"]
        if command[0] == "python":
            assert command[1] == "-m" and module_file(command[2]).is_file(), command
            if command[2] == "services.runtime.main":
                assert set(command[3].split(",")) <= set(SERVICE_NAMES)
        else:
            assert command[:2] == ["celery", "-A"] and command[3] == "worker", command
            assert module_file(command[2]).is_file()
            assert command[command.index("-Q") + 1] == SERVICES[name]["environment"]["AI_QUEUE"]


def test_healthchecks_call_code_that_exists():
    for name in PLATFORM:
        test = SERVICES[name]["healthcheck"]["test"]
        assert test[:3] == ["CMD", "python", "-c"], name
        for module, attr in re.findall(r"from ([\w.]+) import (\w+)", test[3]):
            assert hasattr(importlib.import_module(module), attr), (name, module, attr)
        compile(test[3], name, "exec")


def test_the_image_is_built_from_files_that_exist():
    for name in PLATFORM:
        build = SERVICES[name]["build"]
        context = ROOT / build["context"]
        dockerfile = context / build["dockerfile"]
        assert dockerfile.is_file()
        text = dockerfile.read_text()
        for line in text.splitlines():
            if line.startswith("COPY "):
                sources = shlex.split(line)[1:-1]
                for source in sources:
                    assert (context / source).exists(), f"{dockerfile.name} copies missing {source}"
        cmd = re.search(r'^CMD \["python", "-m", "([\w.]+)"', text, re.M)
        assert cmd and module_file(cmd.group(1)).is_file()
        ignore = dockerfile.with_name(dockerfile.name + ".dockerignore").read_text().split()
        for line in text.splitlines():
            if line.startswith("COPY "):
                for source in shlex.split(line)[1:-1]:
                    assert f"!{source.rstrip('/')}" in [i.rstrip("/") for i in ignore], source


def test_configuration_names_only_settings_the_code_reads():
    source = (ROOT / "services/core/config.py").read_text()
    read = set(re.findall(r'_(?:get|int|float|choice)\(env, "([A-Z_]+)"', source))
    read |= {"METRICS_HOST", "LOG_LEVEL", "PROMETHEUS_MULTIPROC_DIR"}
    for name in PLATFORM:
        env = SERVICES[name]["environment"]
        assert set(env) <= read, (name, set(env) - read)
        host, port = env["REDIS_URL"].removeprefix("redis://").split("/")[0].split(":")
        assert host == "redis" and port == "6379"
        for key in ("DICE_ADDR", "BOARD_ADDR", "COMBAT_ADDR", "MATCHMAKING_ADDR"):
            host, port = env[key].split(":")
            assert host in SERVICES and port == "50051", key
    assert SERVICES["ai-worker"]["environment"]["PROMETHEUS_MULTIPROC_DIR"]


def test_the_web_service_reaches_the_platform_by_its_services_names():
    web = SERVICES["web"]
    assert web["command"] == ["python", "-m", "services.web.main"] and module_file("services.web.main").is_file()
    env = web["environment"]
    for key in ("ARCHMAGE_ADDR", "BOARD_ADDR", "COMBAT_ADDR"):
        host, port = env[key].split(":")
        assert host in SERVICES and port == "50051", key
    assert web["ports"] == [f"{env['WEB_PORT']}:{env['WEB_PORT']}"] and env["WEB_METRICS_PORT"] == "9100"
    assert env["WEB_PORT"] in web["healthcheck"]["test"][3]


def test_depends_on_and_volumes_name_things_that_exist():
    declared = set(COMPOSE["volumes"])
    for name, svc in SERVICES.items():
        for dep in svc.get("depends_on", []):
            assert dep in SERVICES, (name, dep)
        for host in mounts(name).values():
            if host.startswith("."):
                assert (ROOT / host).exists(), (name, host)
            else:
                assert host in declared, (name, host)


def test_redis_keeps_its_data_on_a_named_volume_with_the_append_only_file():
    redis = SERVICES["redis"]
    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert mounts("redis")["/data"] in COMPOSE["volumes"]


def test_prometheus_scrapes_every_container_on_its_metrics_port_and_loads_the_rules():
    config_host = mounts("prometheus")["/etc/prometheus/prometheus.yml"]
    assert (ROOT / config_host).resolve() == (ROOT / "deploy/prometheus/prometheus-compose.yml").resolve()
    config = yaml.safe_load((ROOT / config_host).read_text())
    scraped = {}
    for job in config["scrape_configs"]:
        for sd in job["dns_sd_configs"]:
            for host in sd["names"]:
                scraped[host] = sd["port"]
    assert set(scraped) == {*PLATFORM, "web"}
    for host, port in scraped.items():
        env = SERVICES[host]["environment"]
        assert int(env["WEB_METRICS_PORT" if host == "web" else "METRICS_PORT"]) == port
    [rules] = config["rule_files"]
    rules_dir = str(Path(rules).parent)
    assert (ROOT / mounts("prometheus")[rules_dir]).resolve() == (ROOT / "deploy/prometheus/rules").resolve()


def test_grafana_is_provisioned_with_the_datasource_and_every_dashboard():
    m = mounts("grafana")
    provisioning = ROOT / m["/etc/grafana/provisioning"]
    providers = yaml.safe_load((provisioning / "dashboards" / "archmage.yml").read_text())["providers"]
    [path] = [p["options"]["path"] for p in providers]
    assert (ROOT / m[path]).resolve() == (ROOT / "deploy/grafana/dashboards").resolve()
    [source] = yaml.safe_load((provisioning / "datasources" / "prometheus.yml").read_text())["datasources"]
    host, port = source["url"].removeprefix("http://").split(":")
    assert host == "prometheus" and f"{port}:{port}" in SERVICES["prometheus"]["ports"]
