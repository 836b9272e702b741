"""Following a session waits out Kafka errors that say "not yet", here a topic that does not
exist yet when the follower starts (the CI flake: a follower that gave up on
NOT_LEADER_FOR_PARTITION right after the topic was created)."""

from __future__ import annotations

import logging
import threading
import time
import uuid

import pytest

from services.common.events import AnswerEvent
from services.common.kafka_io import Publisher, now_ms
from services.common.settings import KafkaSettings
from services.sdk import Client
from topics.apply import apply_topics
from topics.registry import ANSWERS

pytestmark = pytest.mark.integration


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_follow_started_before_its_topic_exists_retries_and_streams(kafka_settings, caplog):
    kafka = KafkaSettings(
        kafka_bootstrap_servers=kafka_settings.kafka_bootstrap_servers,
        eduanima_topic_prefix=f"{kafka_settings.eduanima_topic_prefix}late{uuid.uuid4().hex[:6]}.",
    )
    session = str(uuid.uuid4())
    got: list[AnswerEvent] = []
    failed: list[BaseException] = []

    def follow() -> None:
        try:
            got.extend(Client(kafka).follow(session, timeout=60, since_ms=now_ms() - 1000))
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            failed.append(exc)

    caplog.set_level(logging.WARNING, logger="services.common.faults")
    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    # the fault landed: the follower met the missing topic and is retrying it
    wait_for(
        lambda: any("kafka unavailable" in r.getMessage() for r in caplog.records),
        timeout=20,
        what="the follower to retry",
    )
    assert "Unknown topic or partition" in caplog.text or "UNKNOWN_TOPIC" in caplog.text

    apply_topics(kafka)
    publisher = Publisher(kafka)
    publisher.publish(ANSWERS, session, AnswerEvent(session, 0, "PROGRESS", now_ms()))
    publisher.publish(
        ANSWERS, session, AnswerEvent(session, 1, "FINAL", now_ms(), status="ANSWERED")
    )
    publisher.flush()
    follower.join(timeout=60)
    assert not failed, failed
    assert [e.kind for e in got] == ["PROGRESS", "FINAL"]
