"""A Celery worker for tests: the real AI app, with the test game registered too.

    celery -A tests.support.worker worker
"""
from shared.engine import registry

registry.register("race", "tests.support.race:RaceGame")
registry.POLICIES["race"] = "tests.support.race:choose"

from services.ai.celery_app import app  # noqa: E402

__all__ = ["app"]
