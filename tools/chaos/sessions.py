"""Sessions in flight during a fault: asked, watched to their FINAL event, and audited.

The audit reads every loop topic twice: read_committed (what consumers act on) and
read_uncommitted (everything written, aborted transactions included). A record present
only in the second was written inside a transaction that never committed: the
evidence that a kill interrupted open work, and that the restart aborted it.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from confluent_kafka import TopicPartition

from services.common.events import AnswerEvent, Evaluation, SearchResult
from services.common.kafka_io import codec_for, make_consumer, read_to_end
from services.common.settings import KafkaSettings
from services.sdk import Client
from topics.registry import ANSWERS, EVALUATIONS, SEARCH_RESULTS, TopicSpec, full_name
from topics.registry import STREAMS as ALL_STREAMS

QUESTIONS = [
    "中央値とは何ですか？",
    "What is the p-value?",
    "標準誤差とは何ですか？",
    "What is Pearson's correlation coefficient?",
    "中央値と標準誤差の違いは何ですか？",
    "分散と標準偏差の違いを教えてください。",
    "What is the difference between covariance and correlation?",
    "無作為抽出とは何ですか？",
    "What is the gauge symmetry of quantum chromodynamics?",
]


class FinalWatcher:
    """One read_committed consumer of ``answers`` for a scenario (a fresh topic prefix):
    the FINAL events of the sessions asked, with their arrival times. It rides out a
    broker restart as any consumer does (librdkafka reconnects)."""

    def __init__(self, kafka: KafkaSettings):
        self.kafka = kafka
        self.topic = full_name(ANSWERS, kafka.eduanima_topic_prefix)
        self.asked: dict[str, float] = {}
        self.finals: dict[str, tuple[float, AnswerEvent]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="finals", daemon=True)

    def __enter__(self) -> FinalWatcher:
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._stop.set()
        self._thread.join(timeout=15)

    def _loop(self) -> None:
        codec = codec_for(self.kafka)
        # quiet: a broker restart is the point of some scenarios, not news
        consumer = make_consumer(self.kafka, f"chaos-finals-{uuid.uuid4()}", log_level=0)
        partitions = ANSWERS.partitions
        consumer.assign([TopicPartition(self.topic, p, 0) for p in range(partitions)])
        try:
            while not self._stop.is_set():
                msg = consumer.poll(0.1)
                if msg is None or msg.error() or msg.value() is None:
                    continue
                event = codec.decode(AnswerEvent, msg.value())
                if event.kind == "FINAL":
                    with self._lock:
                        self.finals.setdefault(event.session_id, (time.monotonic(), event))
        finally:
            consumer.close()

    def ask(self, client: Client, subject: str, user: str, n: int, offset: int = 0) -> list[str]:
        sessions = []
        for i in range(n):
            question = QUESTIONS[(offset + i) % len(QUESTIONS)]
            asked = time.monotonic()
            session = client.ask(subject, user, question, timeout_ms=300_000)
            self.asked[session] = asked
            sessions.append(session)
        return sessions

    def done(self) -> int:
        with self._lock:
            return sum(1 for s in self.asked if s in self.finals)

    def wait_all(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.done() == len(self.asked):
                return True
            time.sleep(0.1)
        return False

    def latencies(self) -> list[float]:
        with self._lock:
            return [self.finals[s][0] - t for s, t in self.asked.items() if s in self.finals]


@dataclass
class Audit:
    """What the committed topics say about a set of sessions."""

    started: int
    finished: int  # a FINAL that answered (ANSWERED or INSUFFICIENT)
    failed: int  # a FINAL with FAILED
    lost: int  # no FINAL at all
    duplicated: int  # extra committed finals, search results or evaluations of one iteration
    details: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        return {
            "started": self.started,
            "finished": self.finished,
            "failed": self.failed,
            "lost": self.lost,
            "duplicated": self.duplicated,
        }


def committed(kafka: KafkaSettings, spec: TopicSpec, cls: type) -> list[Any]:
    consumer = make_consumer(kafka, f"chaos-audit-{uuid.uuid4()}")
    codec = codec_for(kafka)
    try:
        topic = full_name(spec, kafka.eduanima_topic_prefix)
        return [
            codec.decode(cls, m.value())
            for m in read_to_end(consumer, topic, give_up_after_s=15)
            if m.value() is not None
        ]
    finally:
        consumer.close()


def record_keys(kafka: KafkaSettings, spec: TopicSpec, *, isolation: str) -> set[tuple]:
    """(partition, offset, key) of every record of a topic, as a consumer of ``isolation``
    reads it."""
    consumer = make_consumer(kafka, f"chaos-audit-{uuid.uuid4()}", **{"isolation.level": isolation})
    try:
        topic = full_name(spec, kafka.eduanima_topic_prefix)
        return {
            (m.partition(), m.offset(), (m.key() or b"").decode())
            for m in read_to_end(consumer, topic, give_up_after_s=15)
        }
    finally:
        consumer.close()


def aborted_records(
    kafka: KafkaSettings, specs: Iterable[TopicSpec] = ALL_STREAMS
) -> dict[str, set[tuple]]:
    """Per topic, the records written inside transactions that never committed. Read after
    every transaction has ended (a still open one would count as aborted here)."""
    found = {}
    for spec in specs:
        everything = record_keys(kafka, spec, isolation="read_uncommitted")
        visible = record_keys(kafka, spec, isolation="read_committed")
        found[spec.name] = everything - visible
    return found


def audit(kafka: KafkaSettings, sessions: Iterable[str]) -> Audit:
    sessions = list(sessions)
    wanted = set(sessions)
    answers = [a for a in committed(kafka, ANSWERS, AnswerEvent) if a.session_id in wanted]
    finals: dict[str, list[AnswerEvent]] = {}
    for a in answers:
        if a.kind == "FINAL":
            finals.setdefault(a.session_id, []).append(a)
    results = Counter(
        (r.session_id, r.iteration)
        for r in committed(kafka, SEARCH_RESULTS, SearchResult)
        if r.session_id in wanted
    )
    evaluations = Counter(
        (e.session_id, e.iteration)
        for e in committed(kafka, EVALUATIONS, Evaluation)
        if e.session_id in wanted
    )
    extra_finals = sum(len(f) - 1 for f in finals.values())
    extra_results = sum(n - 1 for n in results.values())
    extra_evaluations = sum(n - 1 for n in evaluations.values())
    last = {s: f[-1] for s, f in finals.items()}
    statuses = Counter(f.status for f in last.values())
    return Audit(
        started=len(sessions),
        finished=statuses["ANSWERED"] + statuses["INSUFFICIENT"],
        failed=statuses["FAILED"],
        lost=sum(1 for s in sessions if s not in finals),
        duplicated=extra_finals + extra_results + extra_evaluations,
        details={
            "statuses": dict(statuses),
            "duplicate_finals": extra_finals,
            "iterations_searched_twice": extra_results,
            "iterations_evaluated_twice": extra_evaluations,
            "iterations_searched": len(results),
            "fallback_finals": sum(1 for f in last.values() if f.fallbacks),
            "finals": last,
        },
    )
