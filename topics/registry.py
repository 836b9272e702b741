"""Every Kafka topic, as code.

Naming grammar: ``<prefix><stream>[.dlq]``.
- ``stream`` is a dotted noun phrase for what flows (``ingest.jobs``, ``search.results``).
- ``.dlq`` is the dead-letter twin of an *input* topic: messages a consumer of
  that topic could not decode or process, with the original bytes and the
  error in headers.
- ``.changelog`` ends the changelog of a service's faust table
  (``insights.<table>.changelog``): compacted, with the partition count of the topics the
  table is computed from, so each partition's state sits beside the partition it came from.
  faust creates no topic itself (``topic_allow_declare`` is off); they are declared here.
- ``prefix`` (``EDUANIMA_TOPIC_PREFIX``, empty in production) isolates test runs.

Loop topics are keyed by ``session_id`` so every iteration of one question lands
on one partition, and the searcher's state for it stays local.
"""

from __future__ import annotations

from dataclasses import dataclass

DAY_MS = 24 * 60 * 60 * 1000
# The loop's messages may be larger than Kafka's default 1 MB: a retry in a large subject
# asks for up to K_CAP (200) candidates, each with its text and both neighbours (3 x 700-1,000
# characters, up to 3 bytes each), 1.3-1.8 MB, and the loop state they carry grows with the
# evidence. 8 MiB leaves room for both (tests/unit/test_message_sizes.py).
LOOP_MESSAGE_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class TopicSpec:
    name: str
    partitions: int
    value_schema: str | None
    key: str
    retention_ms: int = 7 * DAY_MS
    compacted: bool = False
    has_dlq: bool = False
    max_message_bytes: int | None = None  # None: the broker's default (1 MB)
    # compacted state that Kafka also deletes once nothing wrote it for retention_ms
    expires: bool = False

    @property
    def configs(self) -> dict[str, str]:
        size = {"max.message.bytes": str(self.max_message_bytes)} if self.max_message_bytes else {}
        if self.compacted:
            expiry = {"retention.ms": str(self.retention_ms)} if self.expires else {}
            return {
                "cleanup.policy": "compact,delete" if self.expires else "compact",
                # small segments so compaction keeps the state topic short
                "segment.ms": str(60 * 60 * 1000),
                "min.cleanable.dirty.ratio": "0.1",
                **expiry,
                **size,
            }
        return {"cleanup.policy": "delete", "retention.ms": str(self.retention_ms), **size}


def dlq_spec(spec: TopicSpec) -> TopicSpec:
    # dead letters are kept four weeks: long enough for ops to look and replay
    return TopicSpec(
        f"{spec.name}.dlq",
        spec.partitions,
        None,
        spec.key,
        retention_ms=28 * DAY_MS,
        max_message_bytes=spec.max_message_bytes,  # whatever the topic takes may fail
    )


INGEST_JOBS = TopicSpec("ingest.jobs", 3, "IngestJob", "idempotency_key", has_dlq=True)
CHUNKS_STORED = TopicSpec("chunks.stored", 3, "ChunksStored", "idempotency_key")
QUESTIONS = TopicSpec("questions", 6, "QuestionAsked", "session_id", has_dlq=True)
SEARCH_REQUESTS = TopicSpec(
    "search.requests", 6, "SearchRequest", "session_id", has_dlq=True,
    max_message_bytes=LOOP_MESSAGE_BYTES,
)  # fmt: skip
SEARCH_RESULTS = TopicSpec(
    "search.results", 6, "SearchResult", "session_id", has_dlq=True,
    max_message_bytes=LOOP_MESSAGE_BYTES,
)  # fmt: skip
EVALUATIONS = TopicSpec(
    "evaluations", 6, "Evaluation", "session_id", has_dlq=True,
    max_message_bytes=LOOP_MESSAGE_BYTES,
)  # fmt: skip
ANSWERS = TopicSpec("answers", 6, "AnswerEvent", "session_id", retention_ms=3 * DAY_MS)
# A session's search state matters for minutes (a question's time limit is at most 10):
# kept a day, so neither the topic nor a searcher's restore grows with every question asked.
SEARCH_SESSIONS = TopicSpec(
    "search.sessions", 6, "SessionState", "session_id", retention_ms=DAY_MS, compacted=True,
    expires=True,
)  # fmt: skip
# Who changed which material (stored, deactivated, reactivated, deleted): kept a year for audit.
MATERIALS_CHANGES = TopicSpec(
    "materials.changes", 3, "MaterialChanged", "material_key", retention_ms=365 * DAY_MS
)

# The insights service (faust): the changelogs of its tables. The loop
# side is partitioned like the loop topics, the ingest side like ingest.jobs. Values are
# faust's JSON table values, the service's private state: no Avro schema.
INSIGHTS_SESSIONS = TopicSpec("insights.sessions.changelog", 6, None, "session_id", compacted=True)
INSIGHTS_LOOP = TopicSpec("insights.loop.changelog", 6, None, "aggregate", compacted=True)
INSIGHTS_JOBS = TopicSpec("insights.jobs.changelog", 3, None, "idempotency_key", compacted=True)
INSIGHTS_INGEST = TopicSpec("insights.ingest.changelog", 3, None, "aggregate", compacted=True)
INSIGHTS_TOPICS = (INSIGHTS_SESSIONS, INSIGHTS_LOOP, INSIGHTS_JOBS, INSIGHTS_INGEST)

STREAMS = (
    INGEST_JOBS,
    CHUNKS_STORED,
    QUESTIONS,
    SEARCH_REQUESTS,
    SEARCH_RESULTS,
    EVALUATIONS,
    ANSWERS,
    SEARCH_SESSIONS,
    MATERIALS_CHANGES,
    *INSIGHTS_TOPICS,
)
ALL_TOPICS: tuple[TopicSpec, ...] = STREAMS + tuple(dlq_spec(s) for s in STREAMS if s.has_dlq)


def full_name(spec: TopicSpec, prefix: str = "") -> str:
    return f"{prefix}{spec.name}"


def dlq_name(spec: TopicSpec, prefix: str = "") -> str:
    return f"{prefix}{spec.name}.dlq"
