"""Run services: `python -m services.runtime.main all` (embedded: all four in one
process, one address) or `python -m services.runtime.main dice` (split: one each)."""
from __future__ import annotations

import argparse
import asyncio
import logging
import os

from services.core.config import ConfigError, Settings
from services.core.metrics import watch_platform
from services.runtime.app import SERVICE_NAMES, Platform, celery_notifier, start_metrics
from services.runtime.server import run_until_signalled


async def _main(names: list[str], settings: Settings) -> None:
    platform = Platform(settings, celery_notifier(settings))
    mounted = await platform.start(names)
    start_metrics(settings.metrics_port)
    watch_platform(settings)  # Redis health, the AI queue and active matches, read at scrape time
    print(f"archmage {'+'.join(names)} listening on {settings.grpc_host}:{mounted.port}"
          f"{f', metrics on :{settings.metrics_port}/metrics' if settings.metrics_port else ''}", flush=True)
    await run_until_signalled([mounted], platform.close)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("services", nargs="?", default="all",
                        help="all, or a comma list of " + ", ".join(SERVICE_NAMES))
    args = parser.parse_args(argv)
    names = list(SERVICE_NAMES) if args.services == "all" else args.services.split(",")
    unknown = [n for n in names if n not in SERVICE_NAMES]
    if unknown:
        parser.error(f"unknown service {unknown[0]!r}; choose from {', '.join(SERVICE_NAMES)}")
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"),
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        raise SystemExit(f"configuration error: {exc}") from None
    asyncio.run(_main(names, settings))


if __name__ == "__main__":
    main()
