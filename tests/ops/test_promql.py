"""The PromQL reader the monitoring tests rely on: it must find every metric and nothing else."""
from __future__ import annotations

from tests.ops.promql import as_query, exposed_names, metric_names


def test_names_leave_out_functions_keywords_labels_and_durations():
    expr = ('histogram_quantile(0.99, sum by (game, le) (rate(archmage_resolution_seconds_bucket'
            '{domain="combat",game=~"$game"}[$__rate_interval]))) > 0.1')
    assert metric_names(expr) == {"archmage_resolution_seconds_bucket"}


def test_names_across_binary_operators_and_vector_matching():
    expr = ('sum by (service, code) (rate(archmage_rpc_total{code=~"INTERNAL|UNKNOWN"}[5m]))\n'
            '  / ignoring (code) group_left\nsum by (service) (rate(archmage_rpc_total[5m])) > 0.01')
    assert metric_names(expr) == {"archmage_rpc_total"}
    assert metric_names('(sum(up{job="archmage-ai-worker"}) or vector(0)) == 0') == {"up"}
    assert metric_names("a_total unless on (x) b offset 5m and 1e3 < c") == {"a_total", "b", "c"}


def test_grafana_variables_become_what_grafana_sends():
    q = as_query('rate(x_total{game=~"$game"}[$__rate_interval])', {"game": ".*"})
    assert q == 'rate(x_total{game=~".*"}[1m])'


def test_exposed_names_include_declared_families_without_samples():
    page = ("# HELP a_seconds t\n# TYPE a_seconds histogram\n"
            "# HELP b_total t\n# TYPE b_total counter\nb_total{x=\"1\"} 2.0\n"
            "# HELP g t\n# TYPE g gauge\n")
    names = exposed_names(page)
    assert {"a_seconds_bucket", "a_seconds_count", "a_seconds_sum", "b_total", "g"} <= names
    assert "a_seconds_total" not in names
