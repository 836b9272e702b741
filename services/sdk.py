"""Python SDK for producers: publish IngestJob and QuestionAsked events, follow answers.

    from services.sdk import Client
    client = Client()
    session_id = client.ask("stats-101", "alice", "What is a p-value?")
    for event in client.follow(session_id):
        ...
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

from confluent_kafka import TopicPartition

from services.common.events import AnswerEvent, IngestJob, QuestionAsked
from services.common.kafka_io import Publisher, codec_for, make_consumer, now_ms
from services.common.settings import KafkaSettings
from topics.registry import ANSWERS, INGEST_JOBS, QUESTIONS, full_name

# Questions longer than this are refused before they reach Kafka.
MAX_QUESTION_CHARS = 2000


class Client:
    def __init__(self, settings: KafkaSettings | None = None):
        self.settings = settings or KafkaSettings()
        self.publisher = Publisher(self.settings)

    def publish_ingest_job(self, job: IngestJob, *, flush: bool = True) -> None:
        """Keyed by idempotency key: re-publishing the same job is harmless."""
        self.publisher.publish(INGEST_JOBS, job.idempotency_key, job)
        if flush:
            self.publisher.flush()

    def ask(
        self,
        subject_id: str,
        user_id: str,
        question: str,
        *,
        session_id: str | None = None,
        max_iterations: int | None = None,
        timeout_ms: int | None = None,
    ) -> str:
        """Publish a QuestionAsked event; return its session id (the key of every loop message)."""
        question = question.strip()
        if not question:
            raise ValueError("the question is empty")
        if len(question) > MAX_QUESTION_CHARS:
            raise ValueError(f"the question has {len(question)} characters; at most {MAX_QUESTION_CHARS}")
        session_id = session_id or str(uuid.uuid4())
        event = QuestionAsked(
            session_id=session_id, subject_id=subject_id, user_id=user_id, question=question,
            asked_at_ms=now_ms(), max_iterations=max_iterations, timeout_ms=timeout_ms,
        )
        self.publisher.publish(QUESTIONS, session_id, event)
        self.publisher.flush()
        return session_id

    def follow(self, session_id: str, timeout: float = 120.0) -> Iterator[AnswerEvent]:
        """Yield the session's AnswerEvents in order until the FINAL one (or the timeout)."""
        topic = full_name(ANSWERS, self.settings.eduanima_topic_prefix)
        consumer = make_consumer(self.settings, f"follow-{uuid.uuid4()}", **{"enable.partition.eof": False})
        codec = codec_for(self.settings)
        try:
            partitions = consumer.list_topics(topic, timeout=10).topics[topic].partitions
            # all of a session's answers are on one partition, but which one is the
            # producer's hash: read them all from the start of this session's lifetime
            start = now_ms() - 10 * 60 * 1000
            offsets = consumer.offsets_for_times(
                [TopicPartition(topic, p, start) for p in partitions], timeout=10
            )
            consumer.assign(offsets)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                msg = consumer.poll(0.2)
                if msg is None or msg.error() or msg.key() != session_id.encode():
                    continue
                event = codec.decode(AnswerEvent, msg.value(), msg.topic(), msg.partition(), msg.offset())
                yield event
                if event.kind == "FINAL":
                    return
            raise TimeoutError(f"no final answer for session {session_id} within {timeout}s")
        finally:
            consumer.close()
