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
_OWN_METRICS_DIR = None
if (os.environ.get("METRICS_PORT") and "worker" in sys.argv[1:] and "prometheus_client" not in sys.modules
        and not os.environ.get("PROMETHEUS_MULTIPROC_DIR")):
    _OWN_METRICS_DIR = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="archmage-worker-metrics-")

settings = Settings.from_env()

app = Celery("archmage", broker=settings.redis_url, include=["services.ai.tasks"])
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
    port = int(os.environ.get("METRICS_PORT") or 0)
    if port:
        from services.core.metrics import serve_worker_metrics

        serve_worker_metrics(port, os.environ.get("METRICS_HOST", "127.0.0.1"))


@signals.worker_shutdown.connect
def _drop_metrics_files(**_) -> None:
    if _OWN_METRICS_DIR:
        import shutil

        shutil.rmtree(_OWN_METRICS_DIR, ignore_errors=True)
