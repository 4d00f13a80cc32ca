"""A real Prometheus (the system's binary) scraping a split-mode platform: the committed
split configuration with its targets moved to the ports the platform got, scraping and
evaluating the committed rules every second."""
from __future__ import annotations

import json
import urllib.parse
import urllib.request
from pathlib import Path

import yaml

from services.runtime.launcher import free_port
from tests.ops.promql import ROOT
from tests.support.processes import Child

SPLIT_CONFIG = ROOT / "deploy" / "prometheus" / "prometheus-split.yml"


def config_for(ports: dict[str, int]) -> dict:
    """prometheus-split.yml with each component's first process's target on `ports[component]`
    (the platform under test runs one process per service: the others' targets are left out)."""
    config = yaml.safe_load(SPLIT_CONFIG.read_text())
    config["global"].update(scrape_interval="1s", scrape_timeout="1s", evaluation_interval="1s")
    config["rule_files"] = [str(SPLIT_CONFIG.parent / f) for f in config["rule_files"]]
    for job in config["scrape_configs"]:
        groups = [g for g in job["static_configs"] if g["labels"].get("proc", "0") == "0"]
        for group in groups:
            group["targets"] = [f"127.0.0.1:{ports[group['labels']['component']]}"]
        job["static_configs"] = groups
    return config


class Prometheus:
    def __init__(self, binary: str, ports: dict[str, int], workdir: Path):
        self.port = free_port()
        config = workdir / "prometheus.yml"
        config.write_text(yaml.safe_dump(config_for(ports)))
        self.child = Child("prometheus", [binary, f"--config.file={config}",
                                          f"--storage.tsdb.path={workdir / 'data'}",
                                          f"--web.listen-address=127.0.0.1:{self.port}", "--log.level=warn"])
        self.url = f"http://127.0.0.1:{self.port}"
        try:
            self.child.wait_until(self._ready, 30, what="Prometheus to be ready")
        except BaseException:
            self.stop()
            raise

    def _ready(self) -> bool:
        try:
            return urllib.request.urlopen(self.url + "/-/ready", timeout=1).status == 200
        except OSError:
            return False

    def api(self, path: str, **params) -> dict:
        url = f"{self.url}/api/v1/{path}" + ("?" + urllib.parse.urlencode(params) if params else "")
        try:
            with urllib.request.urlopen(url, timeout=10) as reply:
                return json.loads(reply.read())
        except urllib.error.HTTPError as exc:  # a bad query answers 400 with the error in JSON
            return json.loads(exc.read())

    def query(self, expr: str) -> dict:
        return self.api("query", query=expr)

    def stop(self) -> None:
        self.child.stop(20)
        self.child.log_path.unlink(missing_ok=True)
