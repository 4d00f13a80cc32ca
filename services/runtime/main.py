"""Run services: `python -m services.runtime.main all` (embedded: all four in one
process, one address) or `python -m services.runtime.main dice` (split: one each)."""
from __future__ import annotations

import argparse
import asyncio
import logging

from services.core.config import ConfigError, Settings
from services.core.metrics import watch_platform
from services.runtime.app import SERVICE_NAMES, Platform, celery_notifier, start_metrics
from services.runtime.server import run_until_signalled


async def _main(names: list[str], settings: Settings) -> None:
    platform = Platform(settings, celery_notifier(settings))
    mounted = await platform.start(names)
    try:
        start_metrics(settings.metrics_port, settings.metrics_host)
    except OSError as exc:
        raise OSError(f"cannot serve /metrics on {settings.metrics_host}:{settings.metrics_port}: {exc}") from exc
    watch_platform(settings)  # Redis health, the AI queue and active matches, read at scrape time
    print(f"archmage {'+'.join(names)} listening on {settings.grpc_host}:{mounted.port}"
          f"{f', metrics on :{settings.metrics_port}/metrics' if settings.metrics_port else ''}", flush=True)
    await run_until_signalled([mounted], platform.close, settings.drain_s, settings.stop_grace_s)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("services", nargs="?", default="all",
                        help="all, or a comma list of " + ", ".join(SERVICE_NAMES))
    args = parser.parse_args(argv)
    names = list(SERVICE_NAMES) if args.services == "all" else args.services.split(",")
    unknown = [n for n in names if n not in SERVICE_NAMES]
    if unknown:
        parser.error(f"unknown service {unknown[0]!r}; choose from {', '.join(SERVICE_NAMES)}")
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        raise SystemExit(f"configuration error: {exc}") from None
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        asyncio.run(_main(names, settings))
    except OSError as exc:  # a port taken: say so in one line, where the launcher shows it
        raise SystemExit(f"archmage {'+'.join(names)}: {exc}") from None
    except ConfigError as exc:  # a secret file named but unreadable (AI_KEY_FILE), found at start
        raise SystemExit(f"configuration error: {exc}") from None


if __name__ == "__main__":
    main()
