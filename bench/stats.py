"""Percentiles of the benchmarks' latencies, with the standard library's own reading."""
from __future__ import annotations

import statistics


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
