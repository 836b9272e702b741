"""``bench loop``'s floor: a question relayed through three do-nothing StageRunners, each hop
one committed transaction, arrives once per question at the far end."""

from __future__ import annotations

import uuid

import pytest

from services.common.kafka_io import make_consumer, read_to_end
from tools.bench.relay import HOPS, relay_floor
from topics.registry import TopicSpec, full_name

pytestmark = pytest.mark.integration


def test_each_relayed_question_crosses_every_hop_once(isolated_kafka):
    floor = relay_floor(isolated_kafka, samples=3)

    assert floor["hops"] == HOPS == 3
    assert 0 < floor["p50_ms"] <= floor["p90_ms"]
    consumer = make_consumer(isolated_kafka, f"audit-{uuid.uuid4()}")
    try:
        per_topic = [
            [
                m.key()
                for m in read_to_end(
                    consumer,
                    full_name(
                        TopicSpec(f"relay.{i}", 6, "QuestionAsked", "session_id"),
                        isolated_kafka.eduanima_topic_prefix,
                    ),
                    give_up_after_s=10,
                )
            ]
            for i in range(HOPS + 1)
        ]
    finally:
        consumer.close()
    # 5 untimed warm-up questions and 3 timed ones, each once on every topic of the relay
    assert all(len(keys) == 8 for keys in per_topic)
    assert all(sorted(keys) == sorted(per_topic[0]) for keys in per_topic)
