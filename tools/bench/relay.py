"""The floor under ``bench loop``: three exactly-once hops that do no work.

One loop iteration crosses three stages (searcher → librarian → professor.conduct),
and each is one transaction: consume, produce, send the offsets, commit. Here
three ``StageRunner``s, the services' own shell, with a handler that only passes
the event on, relay a question from ``relay.0`` to ``relay.3``. Latency =
publish → read from ``relay.3``, as ``bench loop`` times a question. What it
costs is what the hops cost on this machine before any stage does anything. The
same relay written as plain librdkafka calls takes turns with it, so the report
shows what the shell itself adds or saves.
"""

from __future__ import annotations

import statistics
import threading
import time
import uuid

from confluent_kafka import Consumer, TopicPartition

from services.common.events import QuestionAsked
from services.common.kafka_io import Publisher, make_consumer, make_producer, now_ms
from services.common.settings import KafkaSettings
from services.common.stage_runner import Emit, StageRunner
from tools.bench.machine import percentile
from topics.apply import apply_topics
from topics.registry import TopicSpec, full_name

HOPS = 3


def relay_floor(kafka: KafkaSettings, samples: int) -> dict:
    """Relay ``samples`` questions one at a time through ``HOPS`` transactional hops, taking
    turns with the same relay written as plain librdkafka calls (begin, produce, offsets,
    commit, one after the other): what the shell adds or saves against the textbook hop."""
    prefix = kafka.eduanima_topic_prefix
    ours, plain = _relay_topics("relay"), _relay_topics("relay.plain")
    apply_topics(kafka, ours + plain)
    runners = [
        StageRunner(
            kafka,
            stage=f"relay-{i}",
            group_id=f"relay-{i}",
            source=ours[i],
            event_type=QuestionAsked,
            handle=_passing_on_to(ours[i + 1]),
        )
        for i in range(HOPS)
    ]
    stop = threading.Event()
    threads = [threading.Thread(target=r.run, args=(stop,), daemon=True) for r in runners]
    threads += [
        threading.Thread(
            target=_plain_hop,
            args=(kafka, full_name(plain[i], prefix), full_name(plain[i + 1], prefix), stop),
            daemon=True,
        )
        for i in range(HOPS)
    ]
    for t in threads:
        t.start()
    publisher = Publisher(kafka)
    readers = [_reader(kafka, topics[-1]) for topics in (ours, plain)]
    times: tuple[list[float], list[float]] = ([], [])
    try:
        for n in range(5 + samples):  # the first 5 untimed: groups join, transactions start
            for topics, reader, latencies in zip((ours, plain), readers, times, strict=True):
                latency = _relay_one(publisher, reader, topics[0], timeout=120 if n < 5 else 30)
                if n >= 5:
                    latencies.append(latency)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=30)
        for reader in readers:
            reader.close()
    return {
        "hops": HOPS,
        "samples": samples,
        "stage_runner": _summary(times[0]),
        "plain_librdkafka": _summary(times[1]),
        "note": "publish -> three hops that only pass the event on (consume, produce, offsets, "
        "commit each) -> read; the project's StageRunners and plain librdkafka calls take "
        "turns, in threads of the bench process",
    }


def _summary(latencies: list[float]) -> dict:
    return {
        "mean_ms": round(statistics.mean(latencies), 1),
        "p50_ms": round(percentile(latencies, 50), 1),
        "p90_ms": round(percentile(latencies, 90), 1),
    }


def _relay_topics(name: str) -> list[TopicSpec]:
    """``name.0`` … ``name.HOPS``: where a relay's questions enter, pass and leave."""
    return [TopicSpec(f"{name}.{i}", 6, "QuestionAsked", "session_id") for i in range(HOPS + 1)]


def _reader(kafka: KafkaSettings, spec: TopicSpec) -> Consumer:
    """Reads the relay's last topic from its start (its partitions from the spec: the broker's
    metadata of a topic created a moment ago may not be ready yet)."""
    topic = full_name(spec, kafka.eduanima_topic_prefix)
    reader = make_consumer(kafka, f"bench-relay-{uuid.uuid4()}")
    reader.assign([TopicPartition(topic, p, 0) for p in range(spec.partitions)])
    return reader


def _plain_hop(kafka: KafkaSettings, source: str, target: str, stop: threading.Event) -> None:
    """The textbook consume-transform-produce hop, with the project's client settings."""
    consumer = make_consumer(kafka, f"{source}-plain")
    producer = make_producer(kafka, transactional_id=f"{source}-plain")
    producer.init_transactions()
    consumer.subscribe([source])
    try:
        while not stop.is_set():
            msg = consumer.poll(0.2)
            if msg is None or msg.error():
                continue
            producer.begin_transaction()
            producer.produce(target, key=msg.key(), value=msg.value())
            producer.send_offsets_to_transaction(
                consumer.position(consumer.assignment()), consumer.consumer_group_metadata()
            )
            producer.commit_transaction()
    finally:
        consumer.close()


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
