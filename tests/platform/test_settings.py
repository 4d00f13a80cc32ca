"""Every environment variable is read once, through Settings, and a bad or missing one
stops start-up naming it; the launcher finds Debian's redis-server or says what to install."""
from __future__ import annotations

import pytest

from services.core.config import ConfigError, Settings
from services.runtime import launcher


def test_the_broker_follows_redis_url_unless_told_otherwise():
    plain = Settings.from_env({"REDIS_URL": "redis://10.0.0.1:6379/0"})
    assert (plain.redis_cluster, plain.broker_url) == (False, "redis://10.0.0.1:6379/0")
    apart = Settings.from_env({"REDIS_URL": "redis://a:6379/0", "BROKER_URL": "redis://b:6379/0"})
    assert apart.broker_url == "redis://b:6379/0"


def test_a_cluster_needs_a_broker_of_its_own_while_ai_plays():
    with pytest.raises(ConfigError, match="BROKER_URL"):
        Settings.from_env({"REDIS_URL": "redis://a:7000/0", "REDIS_CLUSTER": "1"})
    clustered = Settings.from_env({"REDIS_URL": "redis://a:7000/0", "REDIS_CLUSTER": "1",
                                   "BROKER_URL": "redis://b:6379/0"})
    assert (clustered.redis_cluster, clustered.broker_url) == (True, "redis://b:6379/0")
    assert Settings.from_env({"REDIS_CLUSTER": "1", "AI_ENABLED": "0"}).redis_cluster
    with pytest.raises(ConfigError, match="REDIS_CLUSTER"):
        Settings.from_env({"REDIS_CLUSTER": "yes"})


def test_the_command_line_and_metrics_settings_come_from_the_environment():
    s = Settings.from_env({"ARCHMAGE_ADDR": "10.1.1.1:443", "ARCHMAGE_TOKEN": "tok", "METRICS_HOST": "0.0.0.0",
                           "LOG_LEVEL": "DEBUG", "PROMETHEUS_MULTIPROC_DIR": "/tmp/m"})
    assert (s.client_addr, s.client_token, s.metrics_host, s.log_level, s.metrics_multiproc_dir) == (
        "10.1.1.1:443", "tok", "0.0.0.0", "DEBUG", "/tmp/m")
    with pytest.raises(ConfigError, match="LOG_LEVEL"):
        Settings.from_env({"LOG_LEVEL": "LOUD"})


def test_the_services_read_no_environment_variable_of_their_own():
    """Only services/core/config.py reads os.environ for a setting; the launcher copies it whole
    to hand to its children (and reads it through Settings), the AI worker sets one variable
    for prometheus_client, which reads it itself."""
    import ast
    from pathlib import Path

    root = Path(launcher.ROOT) / "services"
    readers = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv") \
                    and isinstance(node.value, ast.Name) and node.value.id == "os":
                readers.append(str(path.relative_to(root.parent)))
    assert sorted(set(readers)) == ["services/ai/celery_app.py", "services/core/config.py",
                                    "services/runtime/launcher.py"]


def test_no_redis_server_runs_the_install_script_then_says_what_to_install(monkeypatch, tmp_path):
    ran = tmp_path / "ran"
    script = tmp_path / "install-system-tools.sh"
    script.write_text(f'echo "$@" > {ran}\n')  # installs nothing, as on a machine where apt-get may not
    monkeypatch.setattr(launcher, "INSTALL_TOOLS", script)
    monkeypatch.setattr(launcher.shutil, "which", lambda name: None)
    with pytest.raises(launcher.NoRedisServer, match="apt-get install redis-server"):
        launcher.redis_server_binary()
    assert ran.read_text().split() == ["redis-server"]  # only what the launcher lacks


def test_the_install_script_is_the_one_the_suite_uses(monkeypatch):
    assert launcher.INSTALL_TOOLS.exists()
    found = "/usr/bin/redis-server"
    monkeypatch.setattr(launcher.shutil, "which", lambda name: found if name == "redis-server" else None)
    assert launcher.redis_server_binary() == found
