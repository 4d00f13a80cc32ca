"""The benchmarks' percentiles are the standard library's."""
from __future__ import annotations

import math
import statistics

from bench.echo import summary
from bench.stats import percentiles


def test_percentiles_are_statistics_quantiles_inclusive():
    values = [float(v) for v in range(1, 101)]
    p50, p99 = percentiles(values, 50, 99)
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    assert (p50, p99) == (cuts[49], cuts[98]) == (50.5, 99.01)


def test_few_or_no_values():
    assert percentiles([0.2], 50, 99) == [0.2, 0.2]
    assert all(math.isnan(p) for p in percentiles([], 50, 99))


def test_the_echo_summary_reports_them_in_milliseconds():
    got = summary([0.001 * v for v in range(1, 101)], seconds=2.0)
    assert got["calls"] == 100 and got["rps"] == 50
    assert math.isclose(got["p50_ms"], 50.5) and math.isclose(got["p99_ms"], 99.01)
