"""Python SDK for producers: publish IngestJob and QuestionAsked events, follow answers.

from services.sdk import Client
client = Client()
session_id = client.ask("stats-101", "alice", "What is a p-value?")
for event in client.follow(session_id):
    ...
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from confluent_kafka import KafkaException
from prometheus_client import Counter

from services.common.events import AnswerEvent, ChunksStored, IngestJob, QuestionAsked
from services.common.faults import Backoff, retry_while_down
from services.common.kafka_io import (
    Publisher,
    codec_for,
    kafka_transient,
    make_consumer,
    not_ready,
    now_ms,
    partition_for,
    start_offsets,
    topic_partitions,
)
from services.common.settings import KafkaSettings
from topics.registry import ANSWERS, CHUNKS_STORED, INGEST_JOBS, QUESTIONS, full_name

if TYPE_CHECKING:
    from services.common.blobstore import BlobStore
    from services.common.settings import StorageSettings

# Questions longer than this are refused before they reach Kafka.
MAX_QUESTION_CHARS = 2000
# A follower that is not told when its session started reads back this far.
DEFAULT_LOOKBACK_MS = 10 * 60 * 1000
# Record timestamps come from the producing service's clock: start this much earlier.
CLOCK_SLACK_MS = 5_000
# Sessions whose start this client remembers (it asked them), for ``follow``.
REMEMBERED_SESSIONS = 10_000

FOLLOW_READS = Counter(
    "eduanima_follow_messages_read_total",
    "Messages followers read (their own and other keys' on the same partition)",
    ["topic"],
)


class Client:
    def __init__(self, settings: KafkaSettings | None = None):
        self.settings = settings or KafkaSettings()
        self.publisher = Publisher(self.settings)
        self._asked_at: OrderedDict[str, int] = OrderedDict()

    def publish_ingest_job(self, job: IngestJob, *, flush: bool = True) -> None:
        """Keyed by idempotency key: re-publishing the same job is harmless."""
        self.publisher.publish(INGEST_JOBS, job.idempotency_key, job)
        if flush:
            self.publisher.flush()

    def upload(
        self,
        path: Path,
        subject_id: str,
        user_id: str,
        *,
        title: str = "",
        visibility: str = "subject",
        storage: StorageSettings | None = None,
        blobs: BlobStore | None = None,
    ) -> IngestJob:
        """Upload an original to object storage; return the IngestJob that would ingest it."""
        path = Path(path)
        return self.upload_bytes(
            path.read_bytes(),
            path.name,
            subject_id,
            user_id,
            title=title,
            visibility=visibility,
            storage=storage,
            blobs=blobs,
        )

    def upload_bytes(
        self,
        data: bytes,
        filename: str,
        subject_id: str,
        user_id: str,
        *,
        title: str = "",
        visibility: str = "subject",
        storage: StorageSettings | None = None,
        blobs: BlobStore | None = None,
    ) -> IngestJob:
        """``upload`` for bytes that arrived under ``filename`` (the gateway's uploads)."""
        import mimetypes

        from services.common.blobstore import BlobStore
        from services.common.ids import ingest_key, sha256_hex
        from services.common.settings import StorageSettings

        if visibility not in ("subject", "private"):
            raise ValueError(f"visibility must be subject or private, not {visibility!r}")
        blobs = blobs or BlobStore(storage or StorageSettings())
        mime = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        uri = blobs.put(data, subject_id, filename, mime)
        return IngestJob(
            job_id=str(uuid.uuid4()),
            idempotency_key=ingest_key(
                subject_id, data, "subject" if visibility == "subject" else f"private:{user_id}"
            ),
            subject_id=subject_id,
            user_id=user_id,
            blob_uri=uri,
            filename=filename,
            mime_type=mime,
            sha256=sha256_hex(data),
            size_bytes=len(data),
            submitted_at_ms=now_ms(),
            title=title,
            visibility=visibility,
        )

    def upload_and_ingest(
        self, path: Path, subject_id: str, user_id: str, *, flush: bool = True, **options
    ) -> IngestJob:
        """Upload an original, then publish its IngestJob (options as for ``upload``)."""
        job = self.upload(path, subject_id, user_id, **options)
        self.publish_ingest_job(job, flush=flush)
        return job

    def ask(
        self,
        subject_id: str,
        user_id: str,
        question: str,
        *,
        session_id: str | None = None,
        max_iterations: int | None = None,
        timeout_ms: int | None = None,
        conversation_id: str | None = None,
    ) -> str:
        """Publish a QuestionAsked event; return its session id (the key of every loop message).

        ``conversation_id`` makes it a follow-up: the professor plans it with the earlier
        turns of that conversation (by the same user in the same subject)."""
        question = question.strip()
        if not question:
            raise ValueError("the question is empty")
        if len(question) > MAX_QUESTION_CHARS:
            raise ValueError(
                f"the question has {len(question)} characters; at most {MAX_QUESTION_CHARS}"
            )
        session_id = session_id or str(uuid.uuid4())
        event = QuestionAsked(
            session_id=session_id,
            subject_id=subject_id,
            user_id=user_id,
            question=question,
            asked_at_ms=now_ms(),
            max_iterations=max_iterations,
            timeout_ms=timeout_ms,
            conversation_id=conversation_id,
        )
        self.publisher.publish(QUESTIONS, session_id, event)
        self.publisher.flush()
        self._asked_at[session_id] = event.asked_at_ms
        while len(self._asked_at) > REMEMBERED_SESSIONS:
            self._asked_at.popitem(last=False)
        return session_id

    def wait_for_ingest(
        self, keys: set[str], timeout: float = 600.0, *, since_ms: int | None = None
    ) -> Iterator[ChunksStored]:
        """Yield the ChunksStored outcome of each idempotency key once, until all have one
        (outcomes announced from ``since_ms`` on; default: the last ten minutes)."""
        topic = full_name(CHUNKS_STORED, self.settings.eduanima_topic_prefix)
        since = since_ms if since_ms is not None else now_ms() - DEFAULT_LOOKBACK_MS
        yield from self._read_keyed(
            topic, ChunksStored, set(keys), timeout, lambda _e: True, since_ms=since
        )

    def follow(
        self,
        session_id: str,
        timeout: float = 120.0,
        *,
        stop: threading.Event | None = None,
        since_ms: int | None = None,
    ) -> Iterator[AnswerEvent]:
        """Yield the session's AnswerEvents in order until the FINAL one (or the timeout).

        Reads one partition of ``answers`` (the session's), from when the session started:
        ``since_ms``, else when this client asked it, else ten minutes ago. Its cost is
        the messages of that partition since then, never the topic's history. Broker
        restarts and leader moves are waited out within the timeout. Setting ``stop``
        ends the iteration quietly within one poll (an SSE client left).
        """
        topic = full_name(ANSWERS, self.settings.eduanima_topic_prefix)
        since = since_ms or self._asked_at.get(session_id) or now_ms() - DEFAULT_LOOKBACK_MS
        yield from self._read_keyed(
            topic,
            AnswerEvent,
            {session_id},
            timeout,
            lambda e: e.kind == "FINAL",
            stop,
            since_ms=since - CLOCK_SLACK_MS,
        )

    def _read_keyed(
        self,
        topic: str,
        cls: type,
        keys: set[str],
        timeout: float,
        last: Callable[[Any], bool],
        stop: threading.Event | None = None,
        *,
        since_ms: int,
    ) -> Iterator:
        """Events of ``cls`` under ``keys`` from ``since_ms`` on, read from the keys'
        partitions only, until each key's ``last`` event."""
        consumer = make_consumer(self.settings, f"follow-{uuid.uuid4()}")
        codec = codec_for(self.settings)
        pending = set(keys)
        deadline = time.monotonic() + timeout

        def retried(call):
            return retry_while_down(
                call,
                what=f"following {topic}",
                transient=kafka_transient,
                stop=stop,
                deadline_s=max(0.0, deadline - time.monotonic()),
                backoff=Backoff(first=0.1, cap=2.0),
            )

        try:
            count = len(retried(lambda: topic_partitions(consumer, topic)))
            wanted = sorted({partition_for(key, count) for key in keys})
            consumer.assign(retried(lambda: start_offsets(consumer, topic, wanted, since_ms)))
            reads = FOLLOW_READS.labels(topic)
            while pending and time.monotonic() < deadline:
                if stop is not None and stop.is_set():
                    return
                msg = consumer.poll(0.2)
                if msg is None:
                    continue
                if msg.error():
                    if not not_ready(msg.error()) and msg.error().code() != -191:
                        raise KafkaException(msg.error())
                    continue  # EOF, or a leader moving: the consumer carries on by itself
                reads.inc()
                key = (msg.key() or b"").decode()
                if key not in pending or msg.value() is None:
                    continue
                event = codec.decode(cls, msg.value(), msg.topic(), msg.partition(), msg.offset())
                yield event
                if last(event):
                    pending.discard(key)
            if pending:
                raise TimeoutError(f"no outcome within {timeout}s for {sorted(pending)[:3]}")
        finally:
            consumer.close()
