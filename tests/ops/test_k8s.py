"""deploy/k8s: every manifest is valid against the Kubernetes schemas (offline, the schemas
kubernetes-validate ships), and the pieces fit: probes, requests, autoscalers, disruption
budgets, Services, configuration and commands that exist in the code."""
from __future__ import annotations

import copy
import re
import shutil
import subprocess
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from services.runtime.app import SERVICE_NAMES
from tests.ops.promql import ROOT

K8S = ROOT / "deploy" / "k8s"
VERSION = "1.30.0"  # gRPC probes are GA from 1.27, autoscaling/v2 and policy/v1 long before
FILES = sorted(p for p in K8S.rglob("*.yaml") if p.name != "kustomization.yaml")
HEALTH = {name: f"archmage.{name}.v1.{name.capitalize()}" for name in SERVICE_NAMES}


def docs(paths=FILES) -> list[dict]:
    return [d for p in paths for d in yaml.safe_load_all(p.read_text()) if d]


def of_kind(kind: str, paths=FILES) -> dict[str, dict]:
    return {d["metadata"]["name"]: d for d in docs(paths) if d["kind"] == kind}


def workloads() -> dict[str, dict]:
    return {**of_kind("Deployment"), **of_kind("StatefulSet")}


def platform_workloads() -> dict[str, dict]:
    monitoring = set(K8S.joinpath("monitoring").glob("*.yaml"))
    return {n: w for n, w in workloads().items()
            if all(n not in of_kind(w["kind"], [p]) for p in monitoring)}


def test_every_manifest_is_valid_against_the_kubernetes_schemas():
    assert FILES
    for path in FILES:
        for doc in yaml.safe_load_all(path.read_text()):
            try:
                kubernetes_validate.validate(doc, VERSION, strict=True)
            except kubernetes_validate.ValidationError as exc:
                pytest.fail(f"{path.relative_to(ROOT)} {doc['kind']}/{doc['metadata']['name']}: {exc}")


def test_the_schema_check_catches_a_misspelt_field():
    """The validation above can fail: a typo in a probe is refused (strict schemas)."""
    deployment = copy.deepcopy(of_kind("Deployment")["combat"])
    deployment["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["grpc"]["sevice"] = "x"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, VERSION, strict=True)


def test_kustomizations_list_every_manifest_and_build(tmp_path):
    listed = yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"]
    assert sorted(listed) == sorted(p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")
    full = yaml.safe_load((ROOT / "deploy" / "kustomization.yaml").read_text())
    monitoring = {f"k8s/monitoring/{p.name}" for p in K8S.joinpath("monitoring").glob("*.yaml")}
    assert set(full["resources"]) == {"k8s"} | monitoring
    for generator in full["configMapGenerator"]:
        for entry in generator["files"]:
            assert (ROOT / "deploy" / entry.split("=")[-1]).is_file(), entry
    dashboards = {Path(f).name for g in full["configMapGenerator"] if g["name"] == "grafana-dashboards"
                  for f in g["files"]}
    assert dashboards == {p.name for p in (ROOT / "deploy" / "grafana" / "dashboards").glob("*.json")}
    if shutil.which("kubectl") is None:
        pytest.skip("kubectl is not installed: the kustomize build is not run")
    built = subprocess.run(["kubectl", "kustomize", str(ROOT / "deploy")], capture_output=True, text=True, timeout=60)
    assert built.returncode == 0, built.stderr
    out = [d for d in yaml.safe_load_all(built.stdout) if d]
    for doc in out:
        kubernetes_validate.validate(doc, VERSION, strict=True)
        assert doc["kind"] == "Namespace" or doc["metadata"]["namespace"] == "archmage"
    config = next(d for d in out if d["kind"] == "ConfigMap" and d["metadata"]["name"].startswith("prometheus-config"))
    assert config["data"]["prometheus.yml"] == (ROOT / "deploy/prometheus/prometheus-k8s.yml").read_text()


def test_every_grpc_service_has_grpc_health_probes_requests_and_a_metrics_port():
    deployments = of_kind("Deployment")
    for name in SERVICE_NAMES:
        pod = deployments[name]["spec"]["template"]
        [c] = pod["spec"]["containers"]
        ports = {p["name"]: p["containerPort"] for p in c["ports"]}
        assert ports == {"grpc": 50051, "metrics": 9100}, name
        assert c["livenessProbe"]["grpc"]["port"] == ports["grpc"], name
        assert c["readinessProbe"]["grpc"] == {"port": ports["grpc"], "service": HEALTH[name]}, name
        assert c["command"] == ["python", "-m", "services.runtime.main", name]
        assert pod["metadata"]["annotations"]["prometheus.io/port"] == str(ports["metrics"])


def test_the_web_service_is_probed_over_http_and_reaches_the_platform_by_its_services_names():
    pod = of_kind("Deployment")["web"]["spec"]["template"]
    [c] = pod["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports == {"http": 8080, "metrics": 9100}
    assert c["command"] == ["python", "-m", "services.web.main"]
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        assert c[probe]["httpGet"] == {"path": "/healthz", "port": "http"}, probe
    env = {e["name"]: e.get("value") for e in c["env"]}
    services = of_kind("Service")
    for key in ("ARCHMAGE_ADDR", "BOARD_ADDR", "COMBAT_ADDR"):
        host, port = env[key].split(":")
        assert host in services and port == "50051", key
    assert env["WEB_PORT"] == "8080" and env["WEB_METRICS_PORT"] == str(ports["metrics"])


def test_the_readiness_probes_name_the_services_the_servers_register():
    """Each server sets health per registered service (services/runtime/server.py)."""
    import importlib

    registered = {name: importlib.import_module(f"services.{name}.handlers").SERVICE.full_name
                  for name in SERVICE_NAMES}
    assert registered == HEALTH


def test_every_container_requests_cpu_and_memory_and_caps_memory():
    for name, w in workloads().items():
        for c in w["spec"]["template"]["spec"]["containers"]:
            assert {"cpu", "memory"} <= set(c["resources"]["requests"]), name
            assert "memory" in c["resources"]["limits"], name


def test_every_platform_workload_has_a_disruption_budget_and_an_autoscaler_or_is_the_state_store():
    budgets = of_kind("PodDisruptionBudget")
    autoscalers = {h["spec"]["scaleTargetRef"]["name"]: h for h in of_kind("HorizontalPodAutoscaler").values()}
    for name, w in platform_workloads().items():
        labels = w["spec"]["template"]["metadata"]["labels"]
        assert any(b["spec"]["selector"]["matchLabels"].items() <= labels.items() for b in budgets.values()), name
        assert w["spec"]["selector"]["matchLabels"].items() <= labels.items(), name
        if w["kind"] == "Deployment":
            hpa = autoscalers[name]
            assert hpa["spec"]["scaleTargetRef"]["kind"] == "Deployment"
            assert hpa["spec"]["minReplicas"] >= 2 and hpa["spec"]["maxReplicas"] > hpa["spec"]["minReplicas"]
        else:
            assert name == "redis"


def test_celery_workers_scale_on_the_queue_length_the_platform_exports():
    from services.core.metrics import PlatformProbe

    hpa = of_kind("HorizontalPodAutoscaler")["ai-worker"]
    [external] = [m["external"] for m in hpa["spec"]["metrics"] if m["type"] == "External"]
    exported = {f.name: f for f in PlatformProbe("redis://unused", ["ai"], [], 1).describe()}
    assert external["metric"]["name"] in exported
    assert external["metric"]["selector"]["matchLabels"] == {"queue": of_kind("ConfigMap")["archmage-config"]
                                                             ["data"]["AI_QUEUE"]}
    adapter = yaml.safe_load(of_kind("ConfigMap")["prometheus-adapter-config"]["data"]["config.yaml"])
    assert adapter["externalRules"][0]["name"]["as"] == external["metric"]["name"]
    worker = of_kind("Deployment")["ai-worker"]["spec"]["template"]["spec"]["containers"][0]
    assert worker["command"][:4] == ["celery", "-A", "services.ai.celery_app", "worker"]
    assert worker["command"][worker["command"].index("-Q") + 1] == "ai"
    assert (ROOT / "services/ai/celery_app.py").is_file()
    assert {e["name"] for e in worker["env"]} == {"PROMETHEUS_MULTIPROC_DIR"}


def test_redis_keeps_state_on_a_persistent_volume_with_the_append_only_file():
    redis = of_kind("StatefulSet")["redis"]
    conf = of_kind("ConfigMap")["redis-config"]["data"]["redis.conf"]
    assert re.search(r"^appendonly yes$", conf, re.M) and re.search(r"^maxmemory-policy noeviction$", conf, re.M)
    [claim] = redis["spec"]["volumeClaimTemplates"]
    mounts = {m["name"]: m["mountPath"] for m in redis["spec"]["template"]["spec"]["containers"][0]["volumeMounts"]}
    assert mounts[claim["metadata"]["name"]] == "/data" and re.search(r"^dir /data$", conf, re.M)
    assert of_kind("ConfigMap")["archmage-config"]["data"]["REDIS_URL"].startswith("redis://redis:6379")
    assert of_kind("Service")["redis"]["spec"]["clusterIP"] == "None"


def test_services_select_pods_that_exist_and_name_their_ports():
    pods = [w["spec"]["template"] for w in workloads().values()]
    for name, svc in of_kind("Service").items():
        matched = [p for p in pods if svc["spec"]["selector"].items() <= p["metadata"]["labels"].items()]
        assert matched, f"Service {name} selects no pod"
        for port in svc["spec"]["ports"]:
            names = {p["name"] for pod in matched for c in pod["spec"]["containers"] for p in c.get("ports", [])}
            assert port["targetPort"] in names, f"Service {name} targets {port['targetPort']}"


def test_prometheus_finds_every_component_through_its_headless_metrics_service():
    config = yaml.safe_load((ROOT / "deploy/prometheus/prometheus-k8s.yml").read_text())
    srv = {name for job in config["scrape_configs"] for sd in job["dns_sd_configs"] for name in sd["names"]}
    services = of_kind("Service")
    expected = set()
    for component in [*SERVICE_NAMES, "ai-worker", "web"]:
        svc = services[f"{component}-metrics"]
        assert svc["spec"]["clusterIP"] == "None" and svc["spec"]["publishNotReadyAddresses"] is True
        assert [p["name"] for p in svc["spec"]["ports"]] == ["metrics"]
        expected.add(f"_metrics._tcp.{component}-metrics.archmage.svc.cluster.local")
    assert srv == expected


def test_configuration_names_only_settings_the_code_reads():
    source = (ROOT / "services/core/config.py").read_text()
    read = set(re.findall(r'_(?:get|int|float|choice)\(env, "([A-Z_]+)"', source))
    read |= {"METRICS_HOST", "LOG_LEVEL"}  # services/runtime/app.py and main.py
    config = of_kind("ConfigMap")["archmage-config"]["data"]
    assert set(config) <= read, set(config) - read
    for w in platform_workloads().values():
        for c in w["spec"]["template"]["spec"]["containers"]:
            for ref in c.get("envFrom", []):
                assert ref["configMapRef"]["name"] in of_kind("ConfigMap")
