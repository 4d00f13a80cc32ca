"""The Celery application of the AI workers: Redis as broker, tasks acknowledged
late (a worker that dies mid-turn leaves the task for another), one task at a
time per worker process, time limits well below the broker's visibility timeout."""
from __future__ import annotations

import os
import sys
import tempfile

from celery import Celery, signals

from services.core.config import Settings

# A worker with METRICS_PORT serves /metrics. Its turns run in forked pool processes,
# which share their metrics through files: the directory must be known before
# prometheus_client is first imported, so it is chosen here (see services/core/metrics.py).
# (prometheus_client reads PROMETHEUS_MULTIPROC_DIR from the environment itself: it is set there)
settings = Settings.from_env()
_OWN_METRICS_DIR = None
if (settings.metrics_port and "worker" in sys.argv[1:] and "prometheus_client" not in sys.modules
        and not settings.metrics_multiproc_dir):
    _OWN_METRICS_DIR = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="archmage-worker-metrics-")
    settings = Settings.from_env()

# the broker: BROKER_URL, or REDIS_URL's Redis (a Redis Cluster cannot be one: see services/core/config.py)
app = Celery("archmage", broker=settings.broker_url, include=["services.ai.tasks"])
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    task_time_limit=60,
    task_soft_time_limit=45,
    broker_transport_options={"visibility_timeout": 300},
    task_default_queue=settings.ai_queue,
    task_ignore_result=True,
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
)


@signals.worker_init.connect
def _serve_metrics(**_) -> None:
    if settings.metrics_port:
        from services.core.metrics import serve_worker_metrics

        serve_worker_metrics(settings.metrics_port, settings.metrics_host, settings.metrics_multiproc_dir)


@signals.worker_shutdown.connect
def _drop_metrics_files(**_) -> None:
    if _OWN_METRICS_DIR:
        import shutil

        shutil.rmtree(_OWN_METRICS_DIR, ignore_errors=True)
