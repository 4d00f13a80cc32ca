"""Percentiles of the benchmarks' latencies, with the standard library's own reading, and
how a benchmark script hands in its figures (a table printed, a JSON file written)."""
from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path


def percentiles(values, *points: int) -> list[float]:
    """The given percentiles (1-99) of `values`, by statistics.quantiles' inclusive method (the
    smallest and largest values are the 0th and 100th); NaN for each when there are none."""
    values = list(values)
    if not values:
        return [float("nan")] * len(points)
    if len(values) == 1:
        return [values[0]] * len(points)
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return [cuts[p - 1] for p in points]


def publish(path: Path, results: dict, shown: str, started: float, **meta) -> dict:
    """Write `results` with a `meta` entry (cores, seconds taken, when, and `meta`) to `path`,
    print the table `shown` and where the figures went; returns what was written."""
    meta = {"cores": os.cpu_count(), **meta, "bench_seconds": round(time.monotonic() - started, 1),
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    results = {**results, "meta": meta}
    path.write_text(json.dumps(results, indent=2, sort_keys=True, default=str) + "\n")
    print()
    print(shown)
    print(f"\nwritten to {path.name} in {meta['bench_seconds']}s", flush=True)
    return results
