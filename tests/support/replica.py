"""A platform process for tests: the real entry point, with the test game registered.

    python -m tests.support.replica matchmaking
"""
import sys

from tests.support import race

race.host()

from services.runtime.main import main  # noqa: E402

if __name__ == "__main__":
    main(sys.argv[1:])
