"""``eduanima bench kafka``: Avro produce→consume throughput and single-event latency on loopback.

The baseline for later overhead ratios. Both parts use a fresh topic prefix,
the real codec and the project's producer/consumer settings (idempotent,
acks=all, read_committed).
"""

from __future__ import annotations

import time
import uuid

from rich.console import Console
from rich.progress import Progress

from services.common.events import QuestionAsked
from services.common.kafka_io import codec_for, make_consumer, make_producer
from services.common.settings import KafkaSettings
from tools.bench.machine import percentile, write_report
from topics.apply import admin_client, apply_topics
from topics.registry import QUESTIONS

console = Console(stderr=True)


def _event(i: int) -> QuestionAsked:
    return QuestionAsked(
        session_id=f"bench-{i}",
        subject_id="bench",
        user_id="u",
        question=f"ベンチマーク質問 {i}: what is the standard error of the mean?",
        asked_at_ms=int(time.time() * 1000),
    )


def run_kafka_bench(events: int, latency_samples: int, out: str) -> dict:
    base = KafkaSettings()
    settings = KafkaSettings(
        kafka_bootstrap_servers=base.kafka_bootstrap_servers,
        eduanima_topic_prefix=f"bench-{uuid.uuid4().hex[:8]}.",
    )
    apply_topics(settings, (QUESTIONS,))
    topic = settings.eduanima_topic_prefix + QUESTIONS.name
    codec = codec_for(settings)
    producer = make_producer(settings, **{"linger.ms": 5, "batch.num.messages": 10000})
    consumer = make_consumer(settings, f"bench-{uuid.uuid4()}")
    try:
        consumer.subscribe([topic])
        consumer.poll(0.5)  # join the group before timing
        with Progress(console=console) as progress:
            task = progress.add_task("throughput", total=events)
            start = time.perf_counter()
            for i in range(events):
                while True:
                    try:
                        producer.produce(
                            topic, key=f"bench-{i}".encode(), value=codec.encode(_event(i))
                        )
                        break
                    except BufferError:
                        producer.poll(0.05)
                if i % 1000 == 0:
                    producer.poll(0)
            producer.flush(60)
            produced_s = time.perf_counter() - start
            received = 0
            while received < events:
                batch = consumer.consume(1000, timeout=1.0)
                for msg in batch:
                    if msg.error():
                        continue
                    codec.decode(
                        QuestionAsked, msg.value(), msg.topic(), msg.partition(), msg.offset()
                    )
                    received += 1
                progress.update(task, completed=received)
                if time.perf_counter() - start > 300:
                    raise TimeoutError(f"consumed {received} of {events} in 300 s")
            total_s = time.perf_counter() - start
        latencies = []
        for i in range(latency_samples):
            sent = time.perf_counter()
            producer.produce(topic, key=b"latency", value=codec.encode(_event(i)))
            producer.flush(10)
            while True:
                msg = consumer.poll(5.0)
                if msg is not None and not msg.error() and msg.key() == b"latency":
                    codec.decode(QuestionAsked, msg.value())
                    break
            latencies.append((time.perf_counter() - sent) * 1000)
    finally:
        consumer.close()
        admin_client(settings).delete_topics([topic])
    report = write_report(
        out,
        {
            "benchmark": "kafka",
            "events": events,
            "produce_events_per_s": round(events / produced_s),
            "produce_consume_events_per_s": round(events / total_s),
            "latency_samples": latency_samples,
            "latency_ms": {
                "p50": round(percentile(latencies, 50), 2),
                "p99": round(percentile(latencies, 99), 2),
            },
            "notes": "single broker on loopback; Avro single-object encoding;"
            " acks=all, idempotent producer; "
            "read_committed consumer; latency = produce+flush → poll → decode of one event",
        },
    )
    console.print_json(data=report)
    return report
