"""Searcher shell: ``search.requests`` → hybrid search → ``search.results``, state in
``search.sessions``.

Why not a faust Table: the state update, the result and the consumed offset
must commit together, or a crash between them would either search an
iteration twice or lose the seen IDs. So the state record is produced to the
compacted topic inside the same Kafka transaction as the result (see
``StageRunner``), and on each partition assignment the state of that
partition is restored from the topic, read_committed, up to its end —
the same changelog-per-partition model as a faust Table, made transactional.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from confluent_kafka import Consumer, TopicPartition
from psycopg_pool import ConnectionPool, PoolTimeout

from services.common import db
from services.common.avro_codec import AvroCodec
from services.common.errors import describe
from services.common.events import Candidate, SearchRequest, SessionState
from services.common.kafka_io import codec_for, make_consumer, now_ms, read_to_end
from services.common.service import run_runners
from services.common.settings import KafkaSettings
from services.common.stage_runner import Emit, StageRunner
from services.reasoning import make_embedder
from services.reasoning.embedders import Embedder, warm_up
from services.searcher import engine as physical
from services.searcher.scope import SearchFilters
from services.searcher.settings import SearcherSettings
from services.searcher.stages import Hits, Order, live_sessions, search_failed, search_step
from topics.registry import SEARCH_REQUESTS, SEARCH_SESSIONS, full_name

logger = logging.getLogger(__name__)

PRUNE_EVERY_MS = 10 * 60 * 1000  # how often the states of long-answered questions are dropped


def restore_sessions(
    settings: KafkaSettings, partitions: list[int], codec: AvroCodec | None = None
) -> dict[str, SessionState]:
    """Read the compacted state topic's partitions from the start to their end."""
    topic = full_name(SEARCH_SESSIONS, settings.eduanima_topic_prefix)
    codec = codec or codec_for(settings)
    consumer: Consumer = make_consumer(settings, f"restore-{uuid.uuid4()}")
    state: dict[str, SessionState] = {}
    try:
        for msg in read_to_end(consumer, topic, partitions):
            if msg.value() is not None:
                item = codec.decode(
                    SessionState, msg.value(), msg.topic(), msg.partition(), msg.offset()
                )
                state[item.session_id] = item
    finally:
        consumer.close()
    return live_sessions(state, now_ms())  # Kafka deletes the older ones in its own time


def to_hits(outcome: physical.SearchOutcome) -> Hits:
    candidates = [
        Candidate(
            temp_index=i,
            chunk_id=str(c.chunk_id),
            material_id=str(c.material_id),
            material_title=c.material_title,
            page=c.page,
            heading_path=list(c.heading_path),
            ordinal=c.ordinal,
            text=c.text,
            prev_text=c.prev.text if c.prev else None,
            next_text=c.next.text if c.next else None,
            score=float(c.score),
            ranks=dict(c.ranks),
            scores={k: float(v) for k, v in c.scores.items()},
        )
        for i, c in enumerate(outcome.candidates)
    ]
    nearest = -1.0 if outcome.nearest is None else float(outcome.nearest)
    return Hits(candidates, outcome.k, outcome.n_scope, outcome.n_excluded, nearest)


@contextmanager
def _spare_connection(pool: ConnectionPool) -> Iterator[psycopg.Connection | None]:
    """A second connection if one is free now, else None (the search then runs its two
    retrievals one after the other). Never waiting for it: threads that each hold one
    connection and wait for another could starve the pool."""
    try:
        conn = pool.getconn(timeout=0.01)
    except PoolTimeout:
        yield None
        return
    try:
        yield conn
    finally:
        try:
            conn.rollback()  # it only read; the pool would log an open transaction
        finally:
            pool.putconn(conn)


def physical_search(conn_source: ConnectionPool, embedder: Embedder):
    """The Order → Hits function the stage calls, over a connection pool."""

    def search(order: Order) -> Hits:
        req = order.request
        plan = req.state.plan
        query = physical.SearchQuery(
            subject_id=req.state.subject_id,
            user_id=req.state.user_id,
            text_queries=list(req.text_queries),
            vector_query=req.vector_query,
            complexity=plan.complexity,
            retry=order.retry,
            seen_ids=frozenset(uuid.UUID(i) for i in order.seen_ids),
            filters=SearchFilters(
                material_ids=frozenset(uuid.UUID(m) for m in plan.filters.material_ids),
                page_from=plan.filters.page_from,
                page_to=plan.filters.page_to,
            ),
        )
        with conn_source.connection() as conn, _spare_connection(conn_source) as vector_conn:
            return to_hits(physical.search(conn, query, embedder, vector_conn=vector_conn))

    return search


class Searcher:
    def __init__(self, settings: SearcherSettings, embedder: Embedder | None = None):
        self.settings = settings
        self.pool = db.pool(settings)
        self.search = physical_search(self.pool, embedder or make_embedder(settings))
        self.sessions: dict[str, SessionState] = {}
        self._pruned_at = now_ms()

    def on_assign(self, _consumer: Consumer, partitions: list[TopicPartition]) -> None:
        numbers = [p.partition for p in partitions]
        restored = restore_sessions(self.settings, numbers)
        self.sessions.update(restored)
        logger.info("restored %d session state(s) for partitions %s", len(restored), numbers)

    def on_abort(self, assignment: list[TopicPartition]) -> None:
        """An aborted batch's state updates were never committed: forget them all, and take
        the state of the partitions still owned from the changelog again."""
        numbers = [p.partition for p in assignment]
        self.sessions = restore_sessions(self.settings, numbers)
        logger.info("state rebuilt after an aborted batch: %d session(s)", len(self.sessions))

    def on_request(self, req: SearchRequest) -> list[Emit]:
        now = now_ms()
        if now - self._pruned_at > PRUNE_EVERY_MS:
            self.sessions, self._pruned_at = live_sessions(self.sessions, now), now
        new_state, emits = search_step(req, self.sessions.get(req.session_id), self.search, now)
        if new_state is not None:
            self.sessions[req.session_id] = new_state
        return emits

    def on_poisoned_request(self, req: SearchRequest, exc: Exception) -> list[Emit]:
        return search_failed(req, describe(exc))

    def runner(self) -> StageRunner:
        return StageRunner(
            self.settings,
            stage="searcher",
            group_id="searcher",
            source=SEARCH_REQUESTS,
            event_type=SearchRequest,
            handle=self.on_request,
            on_assign=self.on_assign,
            on_abort=self.on_abort,
            transient=db.transient,
            on_poison=self.on_poisoned_request,
        )


def run(stop: threading.Event, settings: SearcherSettings | None = None) -> None:
    settings = settings or SearcherSettings()
    embedder = make_embedder(settings)
    warm_up(embedder)
    if not db.migrate_when_reachable(settings, stop):
        return
    run_runners([Searcher(settings, embedder=embedder).runner()], stop)
