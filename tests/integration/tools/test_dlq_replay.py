"""``eduanima dlq replay`` re-publishes each dead letter once, and ``--dry-run`` changes nothing."""

from __future__ import annotations

import uuid

import pytest
from confluent_kafka import Producer

from services.common.kafka_io import make_consumer, read_to_end
from tools.replay import replay_dead_letters
from topics.registry import QUESTIONS, dlq_name, full_name

pytestmark = pytest.mark.integration


def dead_letter(kafka, key: str) -> None:
    producer = Producer({"bootstrap.servers": kafka.kafka_bootstrap_servers})
    producer.produce(
        dlq_name(QUESTIONS, kafka.eduanima_topic_prefix),
        key=key.encode(),
        value=f"bytes of {key}".encode(),
        headers=[("error.class", b"AvroDecodeError"), ("stage", b"professor.plan")],
    )
    assert producer.flush(10) == 0


def source_messages(kafka) -> list[tuple[str, bytes, dict]]:
    consumer = make_consumer(kafka, f"audit-{uuid.uuid4()}")
    try:
        return [
            (m.key().decode(), m.value(), dict(m.headers() or []))
            for m in read_to_end(
                consumer, full_name(QUESTIONS, kafka.eduanima_topic_prefix), give_up_after_s=10
            )
        ]
    finally:
        consumer.close()


def test_a_second_replay_re_publishes_nothing_twice(isolated_kafka):
    for key in ("a", "b", "c"):
        dead_letter(isolated_kafka, key)

    preview = replay_dead_letters("questions", isolated_kafka, dry_run=True)
    assert sorted(r["key"] for r in preview) == ["a", "b", "c"]
    assert preview[0]["headers"]["error.class"] == "AvroDecodeError"
    assert source_messages(isolated_kafka) == []  # a dry run publishes nothing
    assert len(replay_dead_letters("questions", isolated_kafka, dry_run=True)) == 3  # nor moves

    assert sorted(r["key"] for r in replay_dead_letters("questions", isolated_kafka)) == [
        "a",
        "b",
        "c",
    ]
    replayed = source_messages(isolated_kafka)
    assert sorted((k, v) for k, v, _ in replayed) == [
        ("a", b"bytes of a"),
        ("b", b"bytes of b"),
        ("c", b"bytes of c"),
    ]
    dlq = dlq_name(QUESTIONS, isolated_kafka.eduanima_topic_prefix)
    assert all(h["replayed.from"].decode().startswith(f"{dlq}[") for _, _, h in replayed)

    assert replay_dead_letters("questions", isolated_kafka) == []  # nothing twice
    dead_letter(isolated_kafka, "d")
    assert [r["key"] for r in replay_dead_letters("questions", isolated_kafka, dry_run=True)] == [
        "d"
    ]
    assert [r["key"] for r in replay_dead_letters("questions", isolated_kafka)] == ["d"]
    assert sorted(k for k, _, _ in source_messages(isolated_kafka)) == ["a", "b", "c", "d"]


def test_replay_of_a_topic_without_dead_letters_is_refused(isolated_kafka):
    with pytest.raises(ValueError, match="has no dead-letter topic"):
        replay_dead_letters("answers", isolated_kafka)
