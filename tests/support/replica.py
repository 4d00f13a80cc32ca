"""A platform process for tests: the real entry point, with the test game registered.

    python -m tests.support.replica matchmaking
"""
import sys

from shared.engine import registry

registry.register("race", "tests.support.race:RaceGame")
registry.POLICIES["race"] = "tests.support.race:choose"

from services.runtime.main import main  # noqa: E402

if __name__ == "__main__":
    main(sys.argv[1:])
