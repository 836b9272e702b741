"""A DDSketch: approximate quantiles with a relative-error guarantee, mergeable by adding.

Why this sketch (latency p50/p95 per subject, per stage and per window):

- **Mergeable exactly.** A sketch is a count per logarithmic bucket, so merging is adding
  counts bucket by bucket: order-independent and lossless. The insights tables keep one
  partial sketch per source partition; the views add them up, and any grouping of
  partitions (one instance, two, a rebalance in between) gives the same answer.
- **Relative error.** Every quantile is within ``alpha`` (1 %) of a value in the data:
  a p95 of 800 ms is reported between 792 and 808 ms, and one of 40 s within 0.4 s.
  Latencies span milliseconds (a search) to minutes (a Gemini answer), where a rank-error
  sketch such as t-digest or KLL can be off by a large factor at the tail.
- **Small and plain.** A few dozen non-zero buckets in practice (1 % buckets from 1 ms to a
  day are 913 at most; the lowest are collapsed past ``MAX_BUCKETS``), stored as a JSON
  object inside a table value. Deterministic: replaying the same events gives the same
  sketch, which t-digest's merge order does not.

Reference: Masson, Rim, Lee, "DDSketch: a fast and fully-mergeable quantile sketch with
relative-error guarantees", VLDB 2019.
"""

from __future__ import annotations

import math
from typing import Any

ALPHA = 0.01
GAMMA = (1 + ALPHA) / (1 - ALPHA)
LOG_GAMMA = math.log(GAMMA)
# Values below this (ms) count as zero: clock skew between hosts can even make them negative.
MIN_VALUE = 1.0
MAX_BUCKETS = 1024


def empty() -> dict[str, Any]:
    """A sketch as a table value holds it: zero count and bucket index → count."""
    return {"z": 0, "b": {}}


def bucket_index(value: float) -> int:
    return math.ceil(math.log(value) / LOG_GAMMA)


def bucket_value(index: int) -> float:
    """The bucket's representative: within ALPHA of every value the bucket holds."""
    return 2 * GAMMA**index / (GAMMA + 1)


def add(sketch: dict[str, Any], value: float, count: int = 1) -> dict[str, Any]:
    """A new sketch with ``value`` added ``count`` times."""
    if value < MIN_VALUE:
        return {"z": sketch["z"] + count, "b": dict(sketch["b"])}
    buckets = dict(sketch["b"])
    key = str(bucket_index(value))
    buckets[key] = buckets.get(key, 0) + count
    return _bounded({"z": sketch["z"], "b": buckets})


def merge(*sketches: dict[str, Any]) -> dict[str, Any]:
    """The sketch of all values of ``sketches`` together."""
    buckets: dict[str, int] = {}
    zero = 0
    for sketch in sketches:
        zero += sketch["z"]
        for key, n in sketch["b"].items():
            buckets[key] = buckets.get(key, 0) + n
    return _bounded({"z": zero, "b": buckets})


def _bounded(sketch: dict[str, Any]) -> dict[str, Any]:
    """Collapse the lowest buckets into one past MAX_BUCKETS (the tail stays exact)."""
    buckets = sketch["b"]
    if len(buckets) <= MAX_BUCKETS:
        return sketch
    ordered = sorted(buckets, key=int)
    keep = ordered[-MAX_BUCKETS:]
    lowest = keep[0]
    collapsed = {key: buckets[key] for key in keep}
    collapsed[lowest] += sum(buckets[key] for key in ordered[:-MAX_BUCKETS])
    return {"z": sketch["z"], "b": collapsed}


def count(sketch: dict[str, Any]) -> int:
    return sketch["z"] + sum(sketch["b"].values())


def quantile(sketch: dict[str, Any], q: float) -> float | None:
    """The q-quantile (0 ≤ q ≤ 1), or None for an empty sketch.

    The value of rank ``round(q * (n - 1))`` in the sorted data (the rank the benchmarks'
    ``percentile`` takes), within ALPHA relative error.
    """
    if not 0 <= q <= 1:
        raise ValueError(f"quantile {q} is outside [0, 1]")
    n = count(sketch)
    if n == 0:
        return None
    rank = min(n - 1, max(0, round(q * (n - 1))))
    seen = sketch["z"]
    if rank < seen:
        return 0.0
    for key in sorted(sketch["b"], key=int):
        seen += sketch["b"][key]
        if rank < seen:
            return bucket_value(int(key))
    raise AssertionError("rank beyond the sketch's count")  # unreachable: rank < n


def summary(sketch: dict[str, Any]) -> dict[str, Any]:
    """count, p50 and p95 (ms, rounded to 0.1) for a view."""
    p50, p95 = quantile(sketch, 0.5), quantile(sketch, 0.95)
    return {
        "count": count(sketch),
        "p50": None if p50 is None else round(p50, 1),
        "p95": None if p95 is None else round(p95, 1),
    }


def cumulative(sketch: dict[str, Any], bounds: list[float]) -> list[int]:
    """How many values are ≤ each bound (ascending): the buckets of a Prometheus histogram,
    each count exact up to the values within ALPHA of that bound."""
    ordered = sorted((bucket_value(int(k)), n) for k, n in sketch["b"].items())
    out, seen, i = [], sketch["z"], 0
    for bound in bounds:
        while i < len(ordered) and ordered[i][0] <= bound:
            seen += ordered[i][1]
            i += 1
        out.append(seen)
    return out
