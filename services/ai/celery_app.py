"""The Celery application of the AI workers: Redis as broker, tasks acknowledged
late (a worker that dies mid-turn leaves the task for another), one task at a
time per worker process, time limits well below the broker's visibility timeout."""
from __future__ import annotations

from celery import Celery

from services.core.config import Settings

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
