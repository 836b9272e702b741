"""The sweep of stalled sessions: a session still RUNNING well after its deadline ends FAILED.

The professor enforces a question's time limit when an evaluation comes back. If none
ever does (a stage dead-lettered the session's message without passing an outcome on, or
has been down all along), the session would stay RUNNING and its asker would get no
FINAL answer. Every ``professor_sweep_interval_s``, the sweep takes the sessions whose
deadline passed more than ``professor_stall_grace_s`` ago, publishes a FINAL FAILED
answer for each (``stop_reason`` ``stalled``) and marks the rows, in one database
transaction that commits only once Kafka has the answers. ``FOR UPDATE SKIP LOCKED``: two
professors never sweep the same session. A crash between the publish and the commit
publishes the same FINAL again on the next sweep, which a follower reads as the same
answer (same seq). A loop that answers after all replaces the row (``save_session``).
"""

from __future__ import annotations

import logging
import threading

from confluent_kafka import KafkaException
from psycopg_pool import ConnectionPool

from services.common import db
from services.common.kafka_io import Publisher, now_ms
from services.professor import stages
from services.professor.settings import ProfessorSettings
from services.professor.store import save_session

logger = logging.getLogger(__name__)

BATCH = 100  # sessions per transaction; the next sweep takes the rest

OVERDUE = (
    "SELECT session_id, subject_id, user_id, question, iterations, conversation_id"
    " FROM sessions WHERE finished_at IS NULL"
    " AND deadline_at < now() - make_interval(secs => %s)"
    " ORDER BY deadline_at LIMIT %s FOR UPDATE SKIP LOCKED"
)


class StalledSessionSweep:
    stage = "professor.sweep"

    def __init__(self, settings: ProfessorSettings, pool: ConnectionPool):
        self.settings, self.pool = settings, pool
        self.publisher = Publisher(settings)

    def sweep(self) -> list[str]:
        """End the overdue sessions FAILED; return their ids."""
        grace = self.settings.professor_stall_grace_s
        with self.pool.connection() as conn, conn.transaction():
            rows = conn.execute(OVERDUE, (grace, BATCH)).fetchall()
            for session_id, subject_id, user_id, question, iterations, conversation_id in rows:
                running = stages.SessionRecord(
                    session_id,
                    subject_id,
                    user_id,
                    question,
                    "RUNNING",
                    iterations=iterations,
                    conversation_id=conversation_id,
                )
                emits, record = stages.session_stalled(running, grace, now_ms())
                save_session(conn, record)
                for emit in emits:
                    self.publisher.publish(emit.topic, emit.key, emit.event)
            self.publisher.flush(10)  # raises before the commit when Kafka did not take them
        if rows:
            logger.warning(
                "ended %d stalled session(s) FAILED: %s", len(rows), [r[0] for r in rows]
            )
        return [r[0] for r in rows]

    def run(self, stop: threading.Event) -> None:
        """Sweep until ``stop``. A dependency that is down is waited out; any other failure
        is logged and tried again next time: a sweep is housekeeping and must never take the
        professor's stages down with it."""
        while not stop.wait(self.settings.professor_sweep_interval_s):
            try:
                self.sweep()
            except Exception as exc:
                if db.transient(exc) or isinstance(exc, KafkaException):
                    logger.warning("sweep of stalled sessions waits: %s", exc)
                else:
                    logger.exception("sweep of stalled sessions failed")
