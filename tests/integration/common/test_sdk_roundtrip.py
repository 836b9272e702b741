"""The SDK's events through the real broker: published, consumed, decoded, equal field by field."""

from __future__ import annotations

import dataclasses
import uuid

import pytest

from services.common.events import IngestJob, QuestionAsked
from services.common.kafka_io import codec_for, make_consumer, now_ms
from services.sdk import Client
from topics.apply import admin_client, apply_topics, describe, plan_changes
from topics.registry import INGEST_JOBS, QUESTIONS, full_name

pytestmark = pytest.mark.integration


def read_one(settings, spec, key: str, cls):
    consumer = make_consumer(settings, f"test-{uuid.uuid4()}")
    consumer.subscribe([full_name(spec, settings.eduanima_topic_prefix)])
    try:
        for _ in range(300):
            msg = consumer.poll(0.2)
            if msg is not None and not msg.error() and msg.key() == key.encode():
                return msg, codec_for(settings).decode(
                    cls, msg.value(), msg.topic(), msg.partition(), msg.offset()
                )
        raise AssertionError(f"no message with key {key} on {spec.name}")
    finally:
        consumer.close()


def test_ingest_job_round_trip(kafka_settings):
    job = IngestJob(
        job_id=str(uuid.uuid4()),
        idempotency_key=uuid.uuid4().hex,
        subject_id="stats",
        user_id="t1",
        blob_uri="gs://b/stats/abc/lecture.pdf",
        filename="lecture.pdf",
        mime_type="application/pdf",
        sha256="ab" * 32,
        size_bytes=1234,
        submitted_at_ms=now_ms(),
        title="第1回 講義",
        visibility="private",
        material_key="stats/lecture",
    )
    Client(kafka_settings).publish_ingest_job(job)
    msg, got = read_one(kafka_settings, INGEST_JOBS, job.idempotency_key, IngestJob)
    for field in dataclasses.fields(IngestJob):
        assert getattr(got, field.name) == getattr(job, field.name), field.name
    assert msg.key() == job.idempotency_key.encode()


def test_question_round_trip_is_keyed_by_session(kafka_settings):
    client = Client(kafka_settings)
    session = client.ask(
        "stats", "alice", "標準偏差とは何ですか？", max_iterations=3, timeout_ms=5000
    )
    msg, got = read_one(kafka_settings, QUESTIONS, session, QuestionAsked)
    assert got.session_id == session and got.question == "標準偏差とは何ですか？"
    assert (got.subject_id, got.user_id, got.max_iterations, got.timeout_ms) == (
        "stats",
        "alice",
        3,
        5000,
    )


def test_sdk_refuses_oversized_and_empty_questions(kafka_settings):
    client = Client(kafka_settings)
    with pytest.raises(ValueError, match="at most"):
        client.ask("stats", "alice", "x" * 5000)
    with pytest.raises(ValueError, match="empty"):
        client.ask("stats", "alice", "   ")


def test_topics_apply_is_idempotent_and_state_topic_compacted(kafka_settings):
    # the fixture applied everything already: a second run changes nothing
    assert apply_topics(kafka_settings) == []
    assert describe(kafka_settings, "search.sessions")["cleanup.policy"] == "compact,delete"
    assert describe(kafka_settings, "questions.dlq")["cleanup.policy"] == "delete"


def test_topics_apply_fixes_drift_and_refuses_to_shrink(kafka_settings):
    from confluent_kafka.admin import NewTopic

    from topics.apply import TopicDriftError
    from topics.registry import TopicSpec

    prefix = f"drift{uuid.uuid4().hex[:6]}."
    settings = type(kafka_settings)(
        kafka_bootstrap_servers=kafka_settings.kafka_bootstrap_servers, eduanima_topic_prefix=prefix
    )
    spec = TopicSpec("demo.stream", 2, None, "k", retention_ms=60_000)
    admin = admin_client(settings)
    admin.create_topics([NewTopic(prefix + "demo.stream", 1, 1, config={"retention.ms": "5000"})])[
        prefix + "demo.stream"
    ].result(30)
    changes = apply_topics(settings, (spec,))
    assert {c.action for c in changes} == {"partitions", "config"}
    assert plan_changes(admin, prefix, (spec,)) == []
    with pytest.raises(TopicDriftError, match="refusing to shrink"):
        apply_topics(settings, (TopicSpec("demo.stream", 1, None, "k", retention_ms=60_000),))
    admin.delete_topics([prefix + "demo.stream"])
