"""The eval answers report: percentiles that hold for a handful of questions."""

from __future__ import annotations

from tools.evaluation.answers import Outcome, summarise


def outcome(latency_s: float, right: bool = True) -> Outcome:
    return Outcome("q", "fact", "ANSWERED", right, right, right, True, 1, latency_s, 0)


def test_the_p95_latency_of_two_questions_is_the_slower_one():
    report = summarise([outcome(0.5), outcome(0.1)])
    assert report["latency_s"] == {"p50": 0.3, "p95": 0.5, "max": 0.5}
    assert report["strict_right"] == 1.0
