"""The DDSketch: quantiles within 1% of the exact ones, merging by adding buckets."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.insights import sketch
from tools.bench.machine import percentile

latencies = st.lists(st.floats(min_value=1.0, max_value=3_600_000.0), min_size=1, max_size=400)


def sketch_of(values: list[float]) -> dict:
    s = sketch.empty()
    for v in values:
        s = sketch.add(s, v)
    return s


@settings(max_examples=60, deadline=None)
@given(latencies, st.sampled_from([0.0, 0.5, 0.95, 0.99, 1.0]))
def test_a_quantile_is_within_one_percent_of_the_exact_one(values, q):
    exact = percentile(values, q * 100)  # the benchmarks' rank, round(q * (n - 1))
    got = sketch.quantile(sketch_of(values), q)
    assert abs(got - exact) <= sketch.ALPHA * exact + 1e-9


@settings(max_examples=40, deadline=None)
@given(st.lists(latencies, min_size=1, max_size=6))
def test_merging_partials_equals_one_sketch_of_everything_in_any_order(parts):
    whole = sketch_of([v for part in parts for v in part])
    partials = [sketch_of(part) for part in parts]
    assert sketch.merge(*partials) == whole
    assert sketch.merge(*reversed(partials)) == whole


def test_zero_and_negative_durations_count_as_zero():
    s = sketch_of([-5.0, 0.0, 0.4, 100.0])
    assert sketch.count(s) == 4
    assert sketch.quantile(s, 0.0) == 0.0 and sketch.quantile(s, 0.5) == 0.0
    assert sketch.quantile(s, 1.0) == pytest.approx(100.0, rel=sketch.ALPHA)


def test_an_empty_sketch_has_no_quantile_and_a_bad_q_is_refused():
    assert sketch.quantile(sketch.empty(), 0.5) is None
    assert sketch.summary(sketch.empty()) == {"count": 0, "p50": None, "p95": None}
    with pytest.raises(ValueError):
        sketch.quantile(sketch_of([1.0]), 1.5)


def test_past_the_bucket_limit_the_lowest_buckets_collapse_and_the_tail_stays_exact():
    rng = random.Random(3)
    values = [1.02**i for i in range(3000)] + [rng.uniform(5e5, 6e5) for _ in range(50)]
    s = sketch_of(values)
    assert len(s["b"]) <= sketch.MAX_BUCKETS
    assert sketch.count(s) == len(values)
    exact = percentile(values, 99)
    assert abs(sketch.quantile(s, 0.99) - exact) <= sketch.ALPHA * exact


def test_cumulative_counts_are_a_histogram():
    s = sketch_of([0.0, 40.0, 90.0, 400.0, 2000.0])
    assert sketch.cumulative(s, [50.0, 100.0, 1000.0, 5000.0]) == [2, 3, 4, 5]
