"""``bench loop``'s floor: a question relayed through three do-nothing hops, each one committed
transaction, arrives once at the far end, through the StageRunners and through the plain
librdkafka relay that takes turns with them."""

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
    for relay in ("stage_runner", "plain_librdkafka"):
        assert 0 < floor[relay]["p50_ms"] <= floor[relay]["p90_ms"]
    consumer = make_consumer(isolated_kafka, f"audit-{uuid.uuid4()}")
    try:
        per_topic = [
            [
                m.key()
                for m in read_to_end(
                    consumer,
                    full_name(
                        TopicSpec(name, 6, "QuestionAsked", "session_id"),
                        isolated_kafka.eduanima_topic_prefix,
                    ),
                    give_up_after_s=10,
                )
            ]
            for relay in ("relay", "relay.plain")
            for name in [f"{relay}.{i}" for i in range(HOPS + 1)]
        ]
    finally:
        consumer.close()
    # 5 untimed warm-up questions and 3 timed ones, each once on every topic of its relay
    ours, plain = per_topic[: HOPS + 1], per_topic[HOPS + 1 :]
    for relay in (ours, plain):
        assert all(len(keys) == 8 and sorted(keys) == sorted(relay[0]) for keys in relay)
    assert not set(ours[0]) & set(plain[0])
