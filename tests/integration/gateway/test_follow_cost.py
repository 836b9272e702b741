"""What following one session costs: its own partition of ``answers``, from its start.

The SSE endpoint (and ``Client.follow`` under it) used to read the whole topic from ten
minutes back for every stream. Here the topic is first filled with other sessions'
events (older than the followed session, as a busy deployment's topic is), and the
number of messages a stream reads is taken from the follower's own counter
(``eduanima_follow_messages_read_total``, on the gateway's /metrics).
"""

from __future__ import annotations

import json
import uuid

import pytest
from confluent_kafka import Producer
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY

from services.common.events import AnswerEvent
from services.common.kafka_io import Publisher, codec_for, make_consumer, now_ms, partition_for
from services.common.materials import enroll, ensure_subject
from services.common.settings import KafkaSettings
from services.gateway.app import create_app
from services.gateway.settings import GatewaySettings
from services.sdk import Client
from topics.apply import apply_topics
from topics.registry import ANSWERS, full_name

pytestmark = pytest.mark.integration

STUDENT = {"Authorization": "Bearer tok-student"}
HOUR_MS = 60 * 60 * 1000


def gateway_for(kafka, db_settings, storage_settings) -> TestClient:
    settings = GatewaySettings(
        kafka_bootstrap_servers=kafka.kafka_bootstrap_servers,
        eduanima_topic_prefix=kafka.eduanima_topic_prefix,
        database_url=db_settings.database_url,
        storage_emulator_host=storage_settings.storage_emulator_host,
        gcs_bucket=storage_settings.gcs_bucket,
        gateway_tokens="tok-student=student-1",
        gateway_session_wait_s=5.0,
        gateway_follow_timeout_s=30.0,
    )
    return TestClient(create_app(settings))


def fresh_topics(kafka) -> KafkaSettings:
    """Topics of their own: a history appended after a session (with older timestamps) would
    sit inside the time range a later follower reads, which real topics never have."""
    settings = KafkaSettings(
        kafka_bootstrap_servers=kafka.kafka_bootstrap_servers,
        eduanima_topic_prefix=f"{kafka.eduanima_topic_prefix}{uuid.uuid4().hex[:6]}.",
    )
    apply_topics(settings)
    return settings


def reads(topic: str) -> float:
    value = REGISTRY.get_sample_value("eduanima_follow_messages_read_total", {"topic": topic})
    return value or 0.0


def other_sessions_history(kafka, count: int, age_ms: int) -> None:
    """``count`` events of other sessions on every partition, ``age_ms`` old."""
    topic = full_name(ANSWERS, kafka.eduanima_topic_prefix)
    codec = codec_for(kafka)
    producer = Producer({"bootstrap.servers": kafka.kafka_bootstrap_servers, "linger.ms": 20})
    stamp = now_ms() - age_ms
    for i in range(count):
        other = f"other-{uuid.uuid4()}"
        event = AnswerEvent(other, i, "PROGRESS", stamp, stage="plan", message="busy")
        producer.produce(
            topic, key=other.encode(), value=codec.encode(event, topic), timestamp=stamp
        )
        if i % 10_000 == 0:
            producer.poll(0)
    assert producer.flush(60) == 0


def answer_a_session(db_conn, kafka, subject: str) -> str:
    """A planned session (its row) and its three answer events, as the professor writes them."""
    session = str(uuid.uuid4())
    db_conn.execute(
        "INSERT INTO sessions (session_id, subject_id, user_id, question, status)"
        " VALUES (%s, %s, 'student-1', 'What is a p-value?', 'RUNNING')",
        (session, subject),
    )
    db_conn.commit()
    publisher = Publisher(kafka)
    for event in (
        AnswerEvent(session, 0, "PROGRESS", now_ms(), stage="plan", message="1 task(s)"),
        AnswerEvent(session, 1001, "DELTA", now_ms(), stage="answer", delta="p値とは"),
        AnswerEvent(session, 1002, "FINAL", now_ms(), stage="answer", status="ANSWERED"),
    ):
        publisher.publish(ANSWERS, session, event)
    publisher.flush()
    return session


def stream(gateway: TestClient, session: str) -> list[str]:
    kinds = []
    with gateway.stream("GET", f"/v1/sessions/{session}/events", headers=STUDENT) as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            if line.startswith("event:"):
                kinds.append(line.split(":", 1)[1].strip())
            elif line.startswith("data:") and kinds and kinds[-1] == "error":
                raise AssertionError(json.loads(line.split(":", 1)[1]))
    return kinds


def test_a_streams_reads_do_not_grow_with_other_sessions_messages(
    isolated_kafka, db_settings, storage_settings, db_conn, subject_id
):
    ensure_subject(db_conn, subject_id)
    enroll(db_conn, subject_id, "student-1", "student")
    db_conn.commit()

    cost = {}
    for history in (600, 12_000):  # other sessions' events in the topic, an hour old
        kafka = fresh_topics(isolated_kafka)
        topic = full_name(ANSWERS, kafka.eduanima_topic_prefix)
        other_sessions_history(kafka, history, age_ms=HOUR_MS)
        session = answer_a_session(db_conn, kafka, subject_id)
        before = reads(topic)
        with gateway_for(kafka, db_settings, storage_settings) as gateway:
            assert stream(gateway, session) == ["progress", "delta", "final"]
        cost[history] = reads(topic) - before
    # its own three events, nothing of the others: the same with 20 times the history
    assert cost == {600: 3, 12_000: 3}

    # The control: the same counter sees a follower that starts an hour and a half back
    # read the history of its partition (about 1/6 of 12,000), so it could see a scan.
    before = reads(topic)
    events = list(Client(kafka).follow(session, timeout=30, since_ms=now_ms() - 3 * HOUR_MS // 2))
    assert [e.kind for e in events] == ["PROGRESS", "DELTA", "FINAL"]
    assert reads(topic) - before > 12_000 / 6 / 2


def test_partition_for_is_where_the_producers_put_a_key(isolated_kafka):
    topic = full_name(ANSWERS, isolated_kafka.eduanima_topic_prefix)
    publisher = Publisher(isolated_kafka)
    keys = [str(uuid.uuid4()) for _ in range(60)]
    for key in keys:
        publisher.publish(ANSWERS, key, AnswerEvent(key, 0, "PROGRESS", now_ms()))
    publisher.flush()
    consumer = make_consumer(isolated_kafka, f"audit-{uuid.uuid4()}")
    consumer.subscribe([topic])
    placed: dict[str, int] = {}
    try:
        for _ in range(300):
            msg = consumer.poll(0.2)
            if msg is not None and not msg.error():
                placed[msg.key().decode()] = msg.partition()
            if len(placed) == len(keys):
                break
    finally:
        consumer.close()
    assert placed == {key: partition_for(key, ANSWERS.partitions) for key in keys}
    assert len(set(placed.values())) == ANSWERS.partitions  # the keys really spread out
