"""The floor under ``bench loop``: three exactly-once hops that do no work.

One loop iteration crosses three stages (searcher → librarian → professor.conduct),
and each is one transaction: consume, produce, send the offsets, commit. Here
three ``StageRunner``s, the services' own shell, with a handler that only passes
the event on, relay a question from ``relay.0`` to ``relay.3``. Latency =
publish → read from ``relay.3``, as ``bench loop`` times a question. What it
costs is what the hops cost on this machine before any stage does anything.
"""

from __future__ import annotations

import statistics
import threading
import time
import uuid

from confluent_kafka import Consumer, TopicPartition

from services.common.events import QuestionAsked
from services.common.kafka_io import Emit, Publisher, StageRunner, make_consumer, now_ms
from services.common.settings import KafkaSettings
from tools.bench.machine import percentile
from topics.apply import apply_topics
from topics.registry import TopicSpec, full_name

HOPS = 3


def relay_floor(kafka: KafkaSettings, samples: int) -> dict:
    """Relay ``samples`` questions one at a time through ``HOPS`` transactional hops."""
    topics = [TopicSpec(f"relay.{i}", 6, "QuestionAsked", "session_id") for i in range(HOPS + 1)]
    apply_topics(kafka, topics)
    runners = [
        StageRunner(
            kafka,
            stage=f"relay-{i}",
            group_id=f"relay-{i}",
            source=topics[i],
            event_type=QuestionAsked,
            handle=_passing_on_to(topics[i + 1]),
        )
        for i in range(HOPS)
    ]
    stop = threading.Event()
    threads = [threading.Thread(target=r.run, args=(stop,), daemon=True) for r in runners]
    for t in threads:
        t.start()
    publisher = Publisher(kafka)
    last = full_name(topics[-1], kafka.eduanima_topic_prefix)
    reader = make_consumer(kafka, f"bench-relay-{uuid.uuid4()}")
    reader.assign([TopicPartition(last, p, 0) for p in range(topics[-1].partitions)])
    try:
        for _ in range(5):  # untimed: the groups join and the transactions start
            _relay_one(publisher, reader, topics[0], timeout=120)
        latencies = [_relay_one(publisher, reader, topics[0], timeout=30) for _ in range(samples)]
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=30)
        reader.close()
    return {
        "hops": HOPS,
        "samples": samples,
        "mean_ms": round(statistics.mean(latencies), 1),
        "p50_ms": round(percentile(latencies, 50), 1),
        "p90_ms": round(percentile(latencies, 90), 1),
        "note": "publish -> three StageRunners whose handler only passes the event on "
        "(consume, produce, offsets, commit each) -> read; threads of the bench process",
    }


def _passing_on_to(topic: TopicSpec):
    def handle(event: QuestionAsked) -> list[Emit]:
        return [Emit(topic, event.session_id, event)]

    return handle


def _relay_one(publisher: Publisher, reader: Consumer, first: TopicSpec, timeout: float) -> float:
    session = str(uuid.uuid4())
    event = QuestionAsked(
        session_id=session, subject_id="relay", user_id="bench", question="?", asked_at_ms=now_ms()
    )
    sent = time.perf_counter()
    publisher.publish(first, session, event)
    publisher.flush()
    deadline = sent + timeout
    while time.perf_counter() < deadline:
        msg = reader.poll(0.1)
        if msg is not None and not msg.error() and msg.key().decode() == session:
            return (time.perf_counter() - sent) * 1000
    raise TimeoutError(f"a relayed question did not come through {HOPS} hops in {timeout} s")
