"""Consumer lag of every stage: how many committed messages its group has not yet consumed.

Measured from the broker (the group's committed offsets against each partition's last
stable offset, as a read_committed consumer sees the end), so it covers every instance of
a stage, whichever process asks. Blocking admin calls: the app runs this in a thread.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from confluent_kafka import Consumer, ConsumerGroupTopicPartitions, IsolationLevel, TopicPartition
from confluent_kafka.admin import AdminClient, OffsetSpec

from topics.registry import (
    ANSWERS,
    CHUNKS_STORED,
    EVALUATIONS,
    INGEST_JOBS,
    MATERIALS_CHANGES,
    QUESTIONS,
    SEARCH_REQUESTS,
    SEARCH_RESULTS,
    TopicSpec,
    full_name,
)

logger = logging.getLogger(__name__)

LOOP_SOURCES = (QUESTIONS, SEARCH_REQUESTS, SEARCH_RESULTS, EVALUATIONS, ANSWERS)
INGEST_SOURCES = (INGEST_JOBS, CHUNKS_STORED, MATERIALS_CHANGES)
# A gap this small is read to count its messages (it may be just a commit marker).
MARKER_GAP = 2


@dataclass(frozen=True)
class StageGroup:
    """A stage's consumer group (as its StageRunner names it) and the topics it reads."""

    stage: str
    group: str
    topics: tuple[TopicSpec, ...]


GROUPS = (
    StageGroup("ingestor", "ingestor", (INGEST_JOBS,)),
    StageGroup("professor.plan", "professor-plan", (QUESTIONS,)),
    StageGroup("searcher", "searcher", (SEARCH_REQUESTS,)),
    StageGroup("librarian", "librarian", (SEARCH_RESULTS,)),
    StageGroup("professor.conduct", "professor-conduct", (EVALUATIONS,)),
    StageGroup("insights", "insights", LOOP_SOURCES + INGEST_SOURCES),
)


def measure(
    admin: AdminClient,
    reader: Consumer,
    prefix: str,
    groups: tuple[StageGroup, ...] = GROUPS,
) -> list[dict[str, Any]]:
    """One row per stage: its group, lag (messages) and whether it has committed at all.

    A small gap between a committed offset and the end may be only a transaction's commit
    marker, which no consumer ever receives (a faust consumer commits the offset after its
    last message, before the marker): such gaps are read with ``reader`` (read_committed,
    no group) to count the messages really there.
    """
    partitions = [
        TopicPartition(full_name(spec, prefix), p)
        for spec in {t for g in groups for t in g.topics}
        for p in range(spec.partitions)
    ]
    ends = _offsets(admin, partitions, OffsetSpec.latest())
    starts = _offsets(admin, partitions, OffsetSpec.earliest())
    rows = []
    for stage_group in groups:
        group = prefix + stage_group.group
        names = {full_name(t, prefix) for t in stage_group.topics}
        mine = [tp for tp in partitions if tp.topic in names]
        committed = _committed(admin, group, mine)
        gaps: dict[tuple[str, int], tuple[int, int]] = {}
        for tp in mine:
            key = (tp.topic, tp.partition)
            position = committed.get(key)
            if position is None or position < 0:
                position = starts.get(key, 0)
            end = ends.get(key, 0)
            if end > position:
                gaps[key] = (position, end)
        small = {k: v for k, v in gaps.items() if v[1] - v[0] <= MARKER_GAP}
        counted = _messages_in(reader, small) if small else {}
        lag = sum(counted.get(k, end - start) for k, (start, end) in gaps.items())
        rows.append(
            {
                "stage": stage_group.stage,
                "group": group,
                "topics": [full_name(t, prefix) for t in stage_group.topics],
                "lag": lag,
                "committed": any(v >= 0 for v in committed.values()),
            }
        )
    return rows


def _messages_in(
    reader: Consumer, ranges: dict[tuple[str, int], tuple[int, int]], wait_s: float = 2.0
) -> dict[tuple[str, int], int]:
    """How many committed messages each partition holds in [start, end); a range not read
    to its end in ``wait_s`` (a transaction still open) is left out."""
    reader.assign([TopicPartition(t, p, start) for (t, p), (start, _) in ranges.items()])
    found = {key: 0 for key in ranges}
    open_ = dict(ranges)
    deadline = time.monotonic() + wait_s
    try:
        while open_ and time.monotonic() < deadline:
            msg = reader.poll(0.1)
            if msg is not None and msg.error() is None:
                key = (msg.topic(), msg.partition())
                if key in open_ and msg.offset() < open_[key][1]:
                    found[key] += 1
            for key in list(open_):
                position = reader.position([TopicPartition(*key)])[0].offset
                if position >= open_[key][1]:
                    del open_[key]
    finally:
        reader.unassign()
    return {key: n for key, n in found.items() if key not in open_}


def _offsets(
    admin: AdminClient, partitions: list[TopicPartition], spec: OffsetSpec
) -> dict[tuple[str, int], int]:
    futures = admin.list_offsets(
        {tp: spec for tp in partitions},
        isolation_level=IsolationLevel.READ_COMMITTED,
        request_timeout=10,
    )
    out = {}
    for tp, future in futures.items():
        try:
            out[(tp.topic, tp.partition)] = future.result().offset
        except Exception as exc:  # noqa: BLE001 - a missing topic shows as no offsets
            logger.debug("no offsets for %s[%s]: %s", tp.topic, tp.partition, exc)
    return out


def _committed(
    admin: AdminClient, group: str, partitions: list[TopicPartition]
) -> dict[tuple[str, int], int]:
    request = [ConsumerGroupTopicPartitions(group, partitions)]
    result = admin.list_consumer_group_offsets(request, request_timeout=10)[group].result()
    return {(tp.topic, tp.partition): tp.offset for tp in result.topic_partitions}
