"""The professor's audit trail: sessions with their evidence, and the unanswered log."""

from __future__ import annotations

import dataclasses

import psycopg
from psycopg.types.json import Jsonb

from services.professor.stages import SessionRecord


def save_session(conn: psycopg.Connection, record: SessionRecord) -> None:
    """Upsert, so a re-delivered message rewrites the same row."""
    finished = record.status != "RUNNING"
    conn.execute(
        "INSERT INTO sessions (session_id, subject_id, user_id, question, status, stop_reason,"
        " answer, citations, evidence, iterations, finished_at)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, CASE WHEN %s THEN now() END)"
        " ON CONFLICT (session_id) DO UPDATE SET status = EXCLUDED.status,"
        " stop_reason = EXCLUDED.stop_reason, answer = EXCLUDED.answer,"
        " citations = EXCLUDED.citations, evidence = EXCLUDED.evidence,"
        " iterations = EXCLUDED.iterations, finished_at = EXCLUDED.finished_at"
        " WHERE sessions.finished_at IS NULL OR EXCLUDED.finished_at IS NOT NULL",
        (
            record.session_id,
            record.subject_id,
            record.user_id,
            record.question,
            record.status,
            record.stop_reason,
            record.answer,
            Jsonb([dataclasses.asdict(c) for c in record.citations]),
            Jsonb([dataclasses.asdict(e) for e in record.evidence]),
            record.iterations,
            finished,
        ),
    )
    if record.status == "INSUFFICIENT":
        conn.execute(
            "INSERT INTO unanswered (session_id, subject_id, user_id, question, reason)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (session_id) DO NOTHING",
            (
                record.session_id,
                record.subject_id,
                record.user_id,
                record.question,
                record.stop_reason,
            ),
        )
