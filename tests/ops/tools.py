"""System tools the monitoring tests run (Prometheus and promtool, from Debian's
`prometheus` package, installed by .ci/run). Missing locally they skip the test with
the command that installs them; missing in CI they fail it."""
from __future__ import annotations

import os
import shutil

import pytest


def need(tool: str, package: str = "prometheus") -> str:
    path = shutil.which(tool)
    if path:
        return path
    message = f"{tool} is not installed: apt-get install -y {package} (.ci/run does)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)
