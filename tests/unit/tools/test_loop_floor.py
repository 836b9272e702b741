"""``bench loop``'s bound: a question's hops priced at the do-nothing relay's hop."""

from __future__ import annotations

from tools.bench.loop import at_the_floor


def floor(stage_runner_p50: float, plain_p50: float) -> dict:
    return {"stage_runner": {"p50_ms": stage_runner_p50}, "plain_librdkafka": {"p50_ms": plain_p50}}


def test_every_hop_of_a_question_is_priced_at_the_cheaper_relay_hop():
    alone = {"direct_mean_ms": 70.0, "mean_iterations": 2.0}
    bound = at_the_floor(alone, floor(stage_runner_p50=12.0, plain_p50=9.0))
    assert bound["ms_per_hop"] == 3.0  # 9 ms over the relay's three hops
    assert bound["transactional_hops_per_question"] == 7.0  # the plan's, then 3 an iteration
    assert bound["kafka_mean_ms"] == 91.0
    assert bound["ratio_kafka_over_direct"] == 1.3
    assert bound["per_iteration_overhead_ms"] == 10.5


def test_a_question_of_one_iteration_pays_the_plans_hop_too():
    alone = {"direct_mean_ms": 50.0, "mean_iterations": 1.0}
    bound = at_the_floor(alone, floor(stage_runner_p50=6.0, plain_p50=6.0))
    assert bound["kafka_mean_ms"] == 58.0  # 4 hops of 2 ms
    assert bound["per_iteration_overhead_ms"] == 8.0
