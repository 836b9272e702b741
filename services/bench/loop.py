"""``eduanima bench loop``: the same questions through Kafka and ``--direct``, in one run.

Set-up (untimed): the demo course is ingested in-process into a fresh subject,
the searcher, librarian and professor start as OS processes on a fresh topic
prefix, and one warm-up question goes through them. Then the same N
questions run at the same concurrency both ways: N at once through Kafka
(latency = publish → FINAL received), and N threads of the DirectLoop in this
process (latency = call → FINAL produced).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from confluent_kafka import TopicPartition
from rich.console import Console

from services.bench.machine import percentile, write_report
from services.common import db
from services.common.engines.embedders import UseM3Embedder
from services.common.events import AnswerEvent
from services.common.kafka_io import codec_for, make_consumer
from services.common.materials import enroll, ensure_subject
from services.common.settings import KafkaSettings
from services.ingestor.app import Ingestor
from services.ingestor.settings import IngestionSettings
from services.loop_runtime import direct_loop, question_event
from services.professor.settings import ProfessorSettings
from services.sdk import Client
from topics.apply import apply_topics
from topics.registry import ANSWERS, full_name
from topics.registry import QUESTIONS as QUESTIONS_TOPIC

console = Console(stderr=True)
DEMO = Path(__file__).resolve().parents[2] / "demo" / "stats101"
QUESTIONS = [
    "中央値とは何ですか？",
    "What is Pearson's correlation coefficient?",
    "標準誤差とは何ですか？",
    "What is the p-value?",
    "When are the office hours?",
    "中央値と標準誤差の違いは何ですか？",
    "分散と標準偏差の違いを教えてください。",
    "What is the difference between covariance and correlation?",
    "無作為抽出とは何ですか？",
    "What is the gauge symmetry of quantum chromodynamics?",
]


def _finals(kafka: KafkaSettings, sessions: dict[str, float], timeout: float) -> dict[str, tuple[float, AnswerEvent]]:
    """Arrival time and FINAL event of each session, read from the answers topic."""
    topic = full_name(ANSWERS, kafka.eduanima_topic_prefix)
    consumer = make_consumer(kafka, f"bench-{uuid.uuid4()}")
    codec = codec_for(kafka)
    partitions = consumer.list_topics(topic, timeout=10).topics[topic].partitions
    consumer.assign([TopicPartition(topic, p, 0) for p in partitions])
    done: dict[str, tuple[float, AnswerEvent]] = {}
    deadline = time.monotonic() + timeout
    try:
        while len(done) < len(sessions) and time.monotonic() < deadline:
            msg = consumer.poll(0.1)
            if msg is None or msg.error():
                continue
            key = msg.key().decode()
            if key in sessions and key not in done:
                event = codec.decode(AnswerEvent, msg.value())
                if event.kind == "FINAL":
                    done[key] = (time.perf_counter(), event)
    finally:
        consumer.close()
    return done


def run_loop_bench(n: int, out: str) -> dict:
    run = uuid.uuid4().hex[:8]
    base = ProfessorSettings()
    kafka = KafkaSettings(kafka_bootstrap_servers=base.kafka_bootstrap_servers,
                          eduanima_topic_prefix=f"bench-{run}.")
    apply_topics(kafka)
    db.migrate(base)
    subject = f"bench-loop-{run}"
    embedder = UseM3Embedder()
    with db.connect(base) as conn:
        ensure_subject(conn, subject)
        enroll(conn, subject, "teacher", "teacher")
        enroll(conn, subject, "student", "student")
        conn.commit()
    ingestor = Ingestor(IngestionSettings(), embedder=embedder)
    ingestor.blobs.ensure_bucket()
    client = Client(kafka)
    with ingestor.pool.connection() as conn:
        for path in sorted(DEMO.iterdir()):
            if path.suffix != ".py":
                ingestor.ingest(conn, client.upload(path, subject, "teacher", blobs=ingestor.blobs))
    questions = [QUESTIONS[i % len(QUESTIONS)] for i in range(n)]

    env = {**os.environ, "EDUANIMA_TOPIC_PREFIX": kafka.eduanima_topic_prefix, "LOG_LEVEL": "WARNING"}
    procs = [subprocess.Popen([sys.executable, "-m", f"services.{name}"], env=env, stderr=subprocess.DEVNULL)
             for name in ("searcher", "librarian", "professor")]
    try:
        console.print("warming up the services…")
        warm = client.ask(subject, "student", QUESTIONS[0])
        if not _finals(kafka, {warm: 0.0}, timeout=300):
            raise TimeoutError("the services did not answer the warm-up question in 300 s")
        console.print(f"{n} questions through Kafka…")
        sent: dict[str, float] = {}
        for q in questions:
            session = str(uuid.uuid4())
            sent[session] = time.perf_counter()
            client.publisher.publish(QUESTIONS_TOPIC, session, _question(subject, q, session))
        client.publisher.flush()
        start = min(sent.values())
        finals = _finals(kafka, sent, timeout=600)
        kafka_wall = max(t for t, _ in finals.values()) - start if finals else float("nan")
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=30)
    kafka_latencies = [(finals[s][0] - sent[s]) * 1000 for s in finals]
    kafka_iterations = [e.iterations for _, e in finals.values()]

    console.print(f"{n} questions --direct…")
    loop, close = direct_loop(base, embedder=embedder, record=False)
    direct_latencies: list[float] = []
    direct_iterations: list[int] = []
    lock = threading.Lock()

    def one(q: str) -> None:
        t0 = time.perf_counter()
        final = loop.run(question_event(subject, "student", q))[-1]
        with lock:
            direct_latencies.append((time.perf_counter() - t0) * 1000)
            direct_iterations.append(final.iterations)

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=n) as pool:
        list(pool.map(one, questions))
    direct_wall = time.perf_counter() - start
    close()

    def summary(latencies, iterations, wall):
        return {
            "completed": len(latencies),
            "latency_ms": {"p50": round(percentile(latencies, 50), 1), "p95": round(percentile(latencies, 95), 1)},
            "sessions_per_s": round(len(latencies) / wall, 2) if wall else None,
            "mean_iterations": round(statistics.mean(iterations), 2) if iterations else None,
        }

    report = {
        "benchmark": "loop", "questions": n, "concurrency": n,
        "kafka": summary(kafka_latencies, kafka_iterations, kafka_wall),
        "direct": summary(direct_latencies, direct_iterations, direct_wall),
    }
    k50, d50 = report["kafka"]["latency_ms"]["p50"], report["direct"]["latency_ms"]["p50"]
    report["ratio_kafka_over_direct_p50"] = round(k50 / d50, 3)
    iterations = statistics.mean(kafka_iterations) if kafka_iterations else 1
    report["per_iteration_overhead_ms"] = round((k50 - d50) / max(iterations, 1), 1)
    report["target"] = "kafka p50 <= 1.5 x direct p50"
    report["notes"] = ("services as separate OS processes (searcher, librarian, professor) on one broker; "
                       "direct = the same stage functions in N threads of one process; same engine, "
                       "same database, same questions, same concurrency")
    write_report(out, report)
    console.print_json(data=report)
    return report


def _question(subject: str, text: str, session: str):
    import dataclasses

    return dataclasses.replace(question_event(subject, "student", text), session_id=session)
