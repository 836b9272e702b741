"""Prometheus metrics read from the insights tables at scrape time.

Each instance exports the partitions it owns, labelled with the partition, so summing over
instances (``sum by (subject)``) counts every partition once, whichever instance holds it.
Latencies are histograms built from the sketches, so ``histogram_quantile`` works across
partitions and instances as it does for any Prometheus histogram.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from services.insights import sketch


class Source(Protocol):
    """What the collector reads (the Insights app): its aggregate tables, the partitions it
    owns of each, and the last lag measurement."""

    loop: Mapping[str, Any]
    ingest: Mapping[str, Any]
    lag: list[dict[str, Any]]

    def owned(self) -> dict[str, list[int]]: ...


BOUNDS_S = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]


def histogram_buckets(sk: dict[str, Any]) -> list[tuple[str, int]]:
    counts = sketch.cumulative(sk, [b * 1000 for b in BOUNDS_S])
    return [(str(b), n) for b, n in zip(BOUNDS_S, counts, strict=True)] + [
        ("+Inf", sketch.count(sk))
    ]


def split_key(key: str) -> tuple[str, str, int]:
    """``kind/<name>/<p>`` or ``kind/<p>`` → (kind, name, partition); names may hold '/'."""
    kind, rest = key.split("/", 1)
    name, _, p = rest.rpartition("/")
    return kind, name, int(p)


class InsightsCollector(Collector):
    def __init__(self, insights: Source):
        self.insights = insights

    def collect(self) -> Iterator[Metric]:
        owned = self.insights.owned()
        questions = CounterMetricFamily(
            "eduanima_insights_questions",
            "Questions asked, per subject (this instance's partitions)",
            labels=["subject", "partition"],
        )
        answers = CounterMetricFamily(
            "eduanima_insights_answers",
            "Finished questions by status, per subject",
            labels=["subject", "partition", "status"],
        )
        iterations = CounterMetricFamily(
            "eduanima_insights_iterations",
            "Search iterations of finished questions, per subject",
            labels=["subject", "partition"],
        )
        latency = HistogramMetricFamily(
            "eduanima_insights_question_latency_seconds",
            "From asking to the final answer, per subject",
            labels=["subject", "partition"],
        )
        cited = CounterMetricFamily(
            "eduanima_insights_material_citations",
            "Answers citing each material",
            labels=["subject", "partition", "material_id"],
        )
        timing = HistogramMetricFamily(
            "eduanima_insights_stage_seconds",
            "Per stage, from its input record to its output record",
            labels=["stage", "partition"],
        )
        for table, name in ((self.insights.loop, "loop"), (self.insights.ingest, "ingest")):
            for key, value in list(table.items()):
                kind, subject, p = split_key(key)
                if p not in owned[name]:
                    continue
                labels = [subject, str(p)]
                if kind == "subject":
                    total = value["windows"]["total"]
                    questions.add_metric(labels, total["questions"])
                    for status in ("answered", "insufficient", "failed"):
                        answers.add_metric([*labels, status.upper()], total[status])
                    iterations.add_metric(labels, total["iterations"])
                    latency.add_metric(
                        labels,
                        histogram_buckets(total["latency"]),
                        sum_value=total["latency_sum_ms"] / 1000,
                    )
                    for material_id, c in value["cited"].items():
                        cited.add_metric([*labels, material_id], c["n"])
                elif kind == "timings":
                    for stage, windowed in value.items():
                        total = windowed["total"]
                        timing.add_metric(
                            [stage, str(p)],
                            histogram_buckets(total["sketch"]),
                            sum_value=total["sum_ms"] / 1000,
                        )
        lag = GaugeMetricFamily(
            "eduanima_insights_consumer_lag",
            "Messages a stage's consumer group has not consumed yet",
            labels=["stage", "group"],
        )
        for row in self.insights.lag:
            lag.add_metric([row["stage"], row["group"]], row["lag"])
        yield from (questions, answers, iterations, latency, cited, timing, lag)
