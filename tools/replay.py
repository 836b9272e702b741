"""Ops tools over the topics: trace one session, check its decisions, work the dead letters.

Tracing and listing read with throw-away consumers (no group offsets are
touched), so they are safe against a running system. Replaying dead letters
moves the replay's own consumer group (one per topic), which is how it
remembers what it has already re-published.
"""

from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass
from typing import Any

from confluent_kafka import TopicPartition

from services.common.events import (
    AnswerEvent,
    Evaluation,
    QuestionAsked,
    SearchRequest,
    SearchResult,
    SessionState,
)
from services.common.faults import retry_while_down
from services.common.kafka_io import (
    codec_for,
    kafka_transient,
    make_consumer,
    make_producer,
    read_to_end,
    topic_partitions,
)
from services.common.settings import KafkaSettings
from topics.registry import (
    ANSWERS,
    EVALUATIONS,
    QUESTIONS,
    SEARCH_REQUESTS,
    SEARCH_RESULTS,
    SEARCH_SESSIONS,
    STREAMS,
    TopicSpec,
    dlq_name,
    full_name,
)

LOOP_TOPICS: tuple[tuple[TopicSpec, type], ...] = (
    (QUESTIONS, QuestionAsked),
    (SEARCH_REQUESTS, SearchRequest),
    (SEARCH_RESULTS, SearchResult),
    (EVALUATIONS, Evaluation),
    (ANSWERS, AnswerEvent),
    (SEARCH_SESSIONS, SessionState),
)


@dataclass(frozen=True)
class Recorded:
    topic: str
    partition: int
    offset: int
    timestamp_ms: int
    event: Any

    def as_dict(self) -> dict[str, Any]:
        return {
            "topic": self.topic,
            "partition": self.partition,
            "offset": self.offset,
            "timestamp_ms": self.timestamp_ms,
            "type": type(self.event).__name__,
            "event": dataclasses.asdict(self.event),
        }

    def summary(self) -> str:
        e = self.event
        head = (
            f"{self.timestamp_ms} {self.topic}[{self.partition}]@{self.offset} {type(e).__name__}"
        )
        if isinstance(e, QuestionAsked):
            return f"{head}: {e.question!r} subject={e.subject_id} user={e.user_id}"
        if isinstance(e, SearchRequest):
            return (
                f"{head}: iteration {e.iteration} {e.strategy} text={e.text_queries}"
                f" vector={e.vector_query!r}"
            )
        if isinstance(e, SearchResult):
            return (
                f"{head}: iteration {e.iteration} k={e.k} N={e.n_scope} excluded={e.n_excluded} "
                f"candidates={[c.chunk_id[:8] for c in e.candidates]}"
            )
        if isinstance(e, Evaluation):
            return (
                f"{head}: iteration {e.iteration} {e.route} +{e.new_evidence} evidence; "
                f"{e.route_reason}; next {e.next_strategy} {e.next_text_queries}"
            )
        if isinstance(e, SessionState):
            return (
                f"{head}: retry {e.retry} last iteration {e.last_iteration}"
                f" seen {len(e.seen_chunk_ids)}"
            )
        if isinstance(e, AnswerEvent):
            text = e.message or e.delta or e.answer
            return f"{head}: {e.kind} {e.status or ''} {text[:100]!r}"
        return head


def session_messages(session_id: str, settings: KafkaSettings | None = None) -> list[Recorded]:
    settings = settings or KafkaSettings()
    codec = codec_for(settings)
    consumer = make_consumer(settings, f"replay-{uuid.uuid4()}")
    found: list[Recorded] = []
    try:
        for spec, cls in LOOP_TOPICS:
            topic = full_name(spec, settings.eduanima_topic_prefix)
            for msg in read_to_end(consumer, topic, give_up_after_s=10):
                if msg.key() == session_id.encode() and msg.value() is not None:
                    event = codec.decode(
                        cls, msg.value(), msg.topic(), msg.partition(), msg.offset()
                    )
                    found.append(
                        Recorded(
                            spec.name, msg.partition(), msg.offset(), msg.timestamp()[1], event
                        )
                    )
    finally:
        consumer.close()
    order = {spec.name: i for i, (spec, _) in enumerate(LOOP_TOPICS)}
    return sorted(found, key=lambda r: (r.timestamp_ms, order[r.topic], r.offset))


def check_decisions(messages: list[Recorded], engine=None) -> list[str]:
    """Re-run the librarian on each recorded SearchResult (pure, no database) and
    compare its decision with the recorded Evaluation (invariant 5)."""
    from services.librarian.app import librarian_engine
    from services.librarian.settings import LibrarianSettings
    from services.librarian.stages import evaluate

    engine = engine or librarian_engine(LibrarianSettings())
    evaluations = {r.event.iteration: r.event for r in messages if isinstance(r.event, Evaluation)}
    differences = []
    for r in messages:
        if not isinstance(r.event, SearchResult):
            continue
        recorded = evaluations.get(r.event.iteration)
        if recorded is None:
            differences.append(f"iteration {r.event.iteration}: no recorded evaluation")
            continue
        again = evaluate(r.event, engine)
        for name in (
            "route",
            "next_strategy",
            "next_text_queries",
            "next_vector_query",
            "new_evidence",
        ):
            if getattr(again, name) != getattr(recorded, name):
                differences.append(
                    f"iteration {r.event.iteration} {name}: recorded {getattr(recorded, name)!r}, "
                    f"replayed {getattr(again, name)!r}"
                )
        if [e.chunk_id for e in again.state.evidence] != [
            e.chunk_id for e in recorded.state.evidence
        ]:
            differences.append(f"iteration {r.event.iteration}: evidence differs")
    return differences


def dead_letters(
    source: str | None = None, settings: KafkaSettings | None = None
) -> list[dict[str, Any]]:
    settings = settings or KafkaSettings()
    consumer = make_consumer(settings, f"dlq-{uuid.uuid4()}")
    rows = []
    try:
        for spec in STREAMS:
            if not spec.has_dlq or (source and spec.name != source):
                continue
            topic = dlq_name(spec, settings.eduanima_topic_prefix)
            rows.extend(dlq_row(msg) for msg in read_to_end(consumer, topic, give_up_after_s=10))
    finally:
        consumer.close()
    return rows


def dlq_row(msg) -> dict[str, Any]:
    return {
        "dlq": msg.topic(),
        "partition": msg.partition(),
        "offset": msg.offset(),
        "key": (msg.key() or b"").decode(errors="replace"),
        "headers": {k: v.decode(errors="replace") for k, v in (msg.headers() or [])},
        "value": msg.value(),
    }


def replay_dead_letters(
    source: str, settings: KafkaSettings | None = None, *, dry_run: bool = False
) -> list[dict[str, Any]]:
    """Re-publish to ``source`` the dead letters no earlier replay took, bytes and key unchanged.

    The replay has a consumer group of its own per topic (``dlq-replay.<source>``): the
    re-published messages and the group's new position commit in one Kafka transaction,
    so a second run replays nothing twice, and a replay that fails half-way replays
    nothing. ``dry_run`` returns what a replay would take, and commits nothing.
    """
    settings = settings or KafkaSettings()
    spec = next((s for s in STREAMS if s.name == source and s.has_dlq), None)
    if spec is None:
        names = ", ".join(s.name for s in STREAMS if s.has_dlq)
        raise ValueError(f"{source!r} has no dead-letter topic; these do: {names}")
    prefix = settings.eduanima_topic_prefix
    dlq, target = dlq_name(spec, prefix), full_name(spec, prefix)
    consumer = make_consumer(settings, f"{prefix}dlq-replay.{source}")
    try:
        partitions = retry_while_down(
            lambda: topic_partitions(consumer, dlq),
            what=f"replaying {dlq}",
            transient=kafka_transient,
            deadline_s=30,
        )
        committed = consumer.committed([TopicPartition(dlq, p) for p in partitions], timeout=10)
        start = {tp.partition: tp.offset for tp in committed if tp.offset >= 0}
        msgs = list(read_to_end(consumer, dlq, partitions, give_up_after_s=10, start=start))
        rows = [dlq_row(m) for m in msgs]
        if dry_run or not msgs:
            return rows
        ends: dict[int, int] = {}
        for m in msgs:
            ends[m.partition()] = max(ends.get(m.partition(), 0), m.offset() + 1)
        producer = make_producer(settings, transactional_id=f"{prefix}dlq-replay-{source}")
        producer.init_transactions(30)
        producer.begin_transaction()
        for m in msgs:
            producer.produce(
                target,
                key=m.key(),
                value=m.value(),
                headers=[("replayed.from", f"{dlq}[{m.partition()}]@{m.offset()}".encode())],
            )
        producer.send_offsets_to_transaction(
            [TopicPartition(dlq, p, offset) for p, offset in ends.items()],
            consumer.consumer_group_metadata(),
            30,
        )
        producer.commit_transaction(60)
        return rows
    finally:
        consumer.close()


__all__ = ["check_decisions", "dead_letters", "replay_dead_letters", "session_messages"]
