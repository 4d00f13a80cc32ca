"""A Celery worker for tests: the real AI app, with the test game registered too.

    celery -A tests.support.worker worker
"""
from tests.support import race

race.host()

from services.ai.celery_app import app  # noqa: E402

__all__ = ["app"]
