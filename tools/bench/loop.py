"""``eduanima bench loop``: the same questions through Kafka and ``--direct``, in one run.

Set-up (untimed): the demo course is ingested in-process into a fresh subject,
the searcher, librarian and professor start as OS processes on a fresh topic
prefix, and one warm-up question goes through them; then one whole round each
way, untimed (its p50s are reported apart).

The headline is one question at a time: each question through Kafka (latency =
publish → FINAL received), then the same question through the DirectLoop in this
process (latency = call → FINAL produced), question after question, for several
passes, so a noisy moment of the machine lands on both sides alike. Its ratio of
means and the Kafka overhead per loop iteration are what the hops cost. Beside
them, the floor: one iteration's three hops with stages that do nothing
(``tools.bench.relay``), and what the headline would be if every hop of a question
cost only that (``at_the_floor``): the bound below which no change to the stages'
own code can take the ratio.

The concurrent rounds (N questions at once) are reported as sessions/s only: the
Kafka side runs its stages in three processes while the direct side runs N threads
under one interpreter lock, so their latency ratio compares process layouts, not
the hops.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from confluent_kafka import TopicPartition
from rich.console import Console

from services.common import db
from services.common.events import AnswerEvent
from services.common.kafka_io import codec_for, make_consumer
from services.common.materials import enroll, ensure_subject
from services.common.settings import KafkaSettings
from services.ingestor.app import Ingestor
from services.ingestor.settings import IngestionSettings
from services.loop_runtime import direct_loop, question_event
from services.professor.settings import ProfessorSettings
from services.reasoning.embedders import UseM3Embedder
from services.sdk import Client
from tools.bench.machine import percentile, write_report
from tools.bench.relay import HOPS, relay_floor
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


class Answers:
    """One consumer of ``answers`` for the whole run, so that no round pays for its start-up."""

    def __init__(self, kafka: KafkaSettings):
        topic = full_name(ANSWERS, kafka.eduanima_topic_prefix)
        self.codec = codec_for(kafka)
        self.consumer = make_consumer(kafka, f"bench-{uuid.uuid4()}")
        partitions = self.consumer.list_topics(topic, timeout=10).topics[topic].partitions
        self.consumer.assign([TopicPartition(topic, p, 0) for p in partitions])

    def finals(
        self, sessions: Collection[str], timeout: float
    ) -> dict[str, tuple[float, AnswerEvent]]:
        """Arrival time and FINAL event of each session."""
        done: dict[str, tuple[float, AnswerEvent]] = {}
        deadline = time.monotonic() + timeout
        while len(done) < len(sessions) and time.monotonic() < deadline:
            msg = self.consumer.poll(0.1)
            if msg is None or msg.error():
                continue
            key = msg.key().decode()
            if key in sessions and key not in done:
                event = self.codec.decode(AnswerEvent, msg.value())
                if event.kind == "FINAL":
                    done[key] = (time.perf_counter(), event)
        return done

    def close(self) -> None:
        self.consumer.close()


def run_loop_bench(n: int, out: str, rounds: int = 3, passes: int = 3) -> dict:
    run = uuid.uuid4().hex[:8]
    base = ProfessorSettings()
    kafka = KafkaSettings(
        kafka_bootstrap_servers=base.kafka_bootstrap_servers, eduanima_topic_prefix=f"bench-{run}."
    )
    apply_topics(kafka)
    db.migrate(base)
    subject = f"bench-loop-{run}"
    embedder = UseM3Embedder(threads=base.embed_threads)
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

    env = {
        **os.environ,
        "EDUANIMA_TOPIC_PREFIX": kafka.eduanima_topic_prefix,
        "LOG_LEVEL": "WARNING",
    }
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", f"services.{name}"], env=env, stderr=subprocess.DEVNULL
        )
        for name in ("searcher", "librarian", "professor")
    ]
    loop, close = direct_loop(base, embedder=embedder)  # records sessions, as the professor does
    kafka_runs, direct_runs = Runs(), Runs()
    answers = Answers(kafka)
    try:
        console.print("warming up the services…")
        warm = client.ask(subject, "student", QUESTIONS[0])
        if not answers.finals({warm}, timeout=300):
            raise TimeoutError("the services did not answer the warm-up question in 300 s")
        # One untimed round each way: pools, caches and code paths of every question warm up
        # (measured: a cold first round through Kafka took 3x the later ones).
        console.print(f"warm-up round: {n} questions each way…")
        warmup = {
            "kafka_p50_ms": round(
                percentile(_kafka_round(answers, client, subject, questions)[0], 50), 1
            ),
            "direct_p50_ms": round(percentile(_direct_round(loop, subject, questions)[0], 50), 1),
        }
        for r in range(rounds):
            console.print(f"round {r + 1}/{rounds}: {n} questions through Kafka, then --direct…")
            kafka_runs.add(*_kafka_round(answers, client, subject, questions))
            direct_runs.add(*_direct_round(loop, subject, questions))
        console.print(f"{len(QUESTIONS)} questions one at a time, each way, {passes} passes…")
        alone = _one_at_a_time(answers, client, loop, subject, passes)
        console.print("the floor: three transactional hops that do no work…")
        floor = relay_floor(kafka, samples=10 * passes)
    finally:
        close()
        answers.close()
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=30)

    report = {
        "benchmark": "loop",
        "one_at_a_time": alone,
        "ratio_kafka_over_direct_one_at_a_time": round(
            alone["kafka_mean_ms"] / alone["direct_mean_ms"], 3
        ),
        "per_iteration_overhead_ms": round(
            (alone["kafka_mean_ms"] - alone["direct_mean_ms"]) / alone["mean_iterations"], 1
        ),
        "target": "one at a time: kafka/direct <= 1.2 and <= 10 ms of Kafka per iteration",
        "floor_of_one_iteration": floor,
        "at_the_floor": at_the_floor(alone, floor),
        "concurrent": {
            "questions": n,
            "rounds": rounds,
            "kafka_sessions_per_s": kafka_runs.summary()["sessions_per_s"],
            "direct_sessions_per_s": direct_runs.summary()["sessions_per_s"],
            "kafka": kafka_runs.summary(),
            "direct": direct_runs.summary(),
            "note": "throughput only: the Kafka side is three processes, the direct side "
            "N threads of one process under one GIL; their latencies do not compare the hops",
        },
        "untimed_warmup_round": warmup,
        "notes": (
            "services as separate OS processes (searcher, librarian, professor) on one broker; "
            "direct = the same stage functions in this process, recording sessions as the "
            "professor does; same engine, database and questions; one at a time, each question "
            "goes through Kafka then direct, for several passes"
        ),
    }
    write_report(out, report)
    console.print_json(data=report)
    return report


class Runs:
    """Latencies, iterations and wall times of the rounds of one path."""

    def __init__(self):
        self.latencies: list[float] = []
        self.iterations: list[int] = []
        self.p50s: list[float] = []
        self.wall = 0.0

    def add(self, latencies: list[float], iterations: list[int], wall: float) -> None:
        self.latencies += latencies
        self.iterations += iterations
        self.p50s.append(percentile(latencies, 50))
        self.wall += wall

    def summary(self) -> dict:
        return {
            "completed": len(self.latencies),
            "latency_ms": {
                "p50": round(percentile(self.latencies, 50), 1),
                "p95": round(percentile(self.latencies, 95), 1),
            },
            "p50_per_round_ms": [round(p, 1) for p in self.p50s],
            "sessions_per_s": round(len(self.latencies) / self.wall, 2) if self.wall else None,
            "mean_iterations": round(statistics.mean(self.iterations), 2)
            if self.iterations
            else None,
        }


def _kafka_round(answers: Answers, client: Client, subject: str, questions: list[str]):
    """All questions published at once; latency = publish → FINAL read from ``answers``."""
    sent: dict[str, float] = {}
    for q in questions:
        session = str(uuid.uuid4())
        sent[session] = time.perf_counter()
        client.publisher.publish(QUESTIONS_TOPIC, session, _question(subject, q, session))
    client.publisher.flush()
    finals = answers.finals(sent, timeout=600)
    if len(finals) < len(sent):
        raise TimeoutError(
            f"{len(sent) - len(finals)} of {len(sent)} sessions did not finish in 600 s"
        )
    wall = max(t for t, _ in finals.values()) - min(sent.values())
    return (
        [(finals[s][0] - sent[s]) * 1000 for s in finals],
        [e.iterations for _, e in finals.values()],
        wall,
    )


def _direct_round(loop, subject: str, questions: list[str]):
    """All questions in threads of this process; latency = call → FINAL produced."""
    latencies: list[float] = []
    iterations: list[int] = []
    lock = threading.Lock()

    def one(q: str) -> None:
        t0 = time.perf_counter()
        final = loop.run(question_event(subject, "student", q))[-1]
        with lock:
            latencies.append((time.perf_counter() - t0) * 1000)
            iterations.append(final.iterations)

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=len(questions)) as pool:
        list(pool.map(one, questions))
    return latencies, iterations, time.perf_counter() - start


def _one_at_a_time(answers: Answers, client: Client, loop, subject: str, passes: int) -> dict:
    """Each question alone, without queueing: what the Kafka hops themselves cost."""
    kafka_ms, direct_ms, iterations = [], [], []
    for _ in range(passes):
        for q in QUESTIONS:
            latencies, its, _ = _kafka_round(answers, client, subject, [q])
            kafka_ms += latencies
            iterations += its
            direct_ms += _direct_round(loop, subject, [q])[0]
    return {
        "questions": len(QUESTIONS),
        "passes": passes,
        "kafka_mean_ms": round(statistics.mean(kafka_ms), 1),
        "direct_mean_ms": round(statistics.mean(direct_ms), 1),
        "kafka_p50_ms": round(percentile(kafka_ms, 50), 1),
        "direct_p50_ms": round(percentile(direct_ms, 50), 1),
        # the tail that separates the means from the medians
        "kafka_p90_max_ms": [round(percentile(kafka_ms, 90), 1), round(max(kafka_ms), 1)],
        "direct_p90_max_ms": [round(percentile(direct_ms, 90), 1), round(max(direct_ms), 1)],
        "mean_iterations": round(statistics.mean(iterations), 2),
    }


def at_the_floor(alone: dict, floor: dict) -> dict:
    """What one at a time would give if each of a question's hops cost only what a hop of the
    do-nothing relay costs (the lower p50 of its two forms) and its stages did the same work
    as direct: a lower bound that no tuning of the stages' own code can pass."""
    per_hop = min(floor["stage_runner"]["p50_ms"], floor["plain_librdkafka"]["p50_ms"]) / HOPS
    # the plan's hop, then searcher, librarian and professor.conduct for each iteration
    hops = 1 + HOPS * alone["mean_iterations"]
    kafka_mean = alone["direct_mean_ms"] + per_hop * hops
    return {
        "ms_per_hop": round(per_hop, 2),
        "transactional_hops_per_question": round(hops, 2),
        "kafka_mean_ms": round(kafka_mean, 1),
        "ratio_kafka_over_direct": round(kafka_mean / alone["direct_mean_ms"], 3),
        "per_iteration_overhead_ms": round(per_hop * hops / alone["mean_iterations"], 1),
        "note": "a lower bound: every hop at the p50 of a hop that does nothing, measured "
        "in this run",
    }


def _question(subject: str, text: str, session: str):
    import dataclasses

    return dataclasses.replace(question_event(subject, "student", text), session_id=session)
