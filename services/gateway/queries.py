"""The gateway's reads and writes in PostgreSQL: membership, ingest status, sessions."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import dict_row

from services.common.errors import NotEnrolled, StoreError
from services.common.events import IngestJob
from services.common.materials import require_enrolled


class UnknownSubject(NotEnrolled):
    """No subject has this id (404, where not being enrolled is 403)."""


def require_member(conn: psycopg.Connection, subject_id: str, user_id: str) -> str:
    """The user's role in the subject; UnknownSubject or NotEnrolled otherwise."""
    found = conn.execute("SELECT 1 FROM subjects WHERE subject_id = %s", (subject_id,)).fetchone()
    if found is None:
        raise UnknownSubject(f"unknown subject {subject_id!r}")
    return require_enrolled(conn, subject_id, user_id)


def record_pending(conn: psycopg.Connection, job: IngestJob) -> None:
    """Make the job visible as PENDING before it is published.

    A key the ingestor already settled keeps its row (a re-upload of a stored
    file is answered DUPLICATE by the ingestor); only a FAILED key is retried.
    """
    try:
        conn.execute(
            "INSERT INTO ingest_jobs (idempotency_key, job_id, subject_id, status, user_id,"
            " filename) VALUES (%s, %s, %s, 'PENDING', %s, %s)"
            " ON CONFLICT (idempotency_key) DO UPDATE SET status = 'PENDING',"
            " job_id = EXCLUDED.job_id, error = NULL, updated_at = now()"
            " WHERE ingest_jobs.status = 'FAILED'",
            (job.idempotency_key, job.job_id, job.subject_id, job.user_id, job.filename),
        )
    except psycopg.Error as exc:
        raise StoreError(f"cannot record ingest job {job.job_id}: {exc}") from exc


def ingest_status(conn: psycopg.Connection, idempotency_key: str) -> dict[str, Any] | None:
    return (
        conn.cursor(row_factory=dict_row)
        .execute(
            "SELECT idempotency_key, job_id, subject_id, status, material_id::text AS material_id,"
            " error, attempts, updated_at FROM ingest_jobs WHERE idempotency_key = %s",
            (idempotency_key,),
        )
        .fetchone()
    )


def session_owner(conn: psycopg.Connection, session_id: str) -> str | None:
    row = conn.execute(
        "SELECT user_id FROM sessions WHERE session_id = %s", (session_id,)
    ).fetchone()
    return row[0] if row else None


def session_row(conn: psycopg.Connection, session_id: str) -> dict[str, Any] | None:
    return (
        conn.cursor(row_factory=dict_row)
        .execute(
            "SELECT session_id, subject_id, user_id, question, status, stop_reason, answer,"
            " citations, iterations, created_at, finished_at FROM sessions WHERE session_id = %s",
            (session_id,),
        )
        .fetchone()
    )


def session_started_ms(conn: psycopg.Connection, session_id: str) -> int | None:
    """When the professor recorded the session (epoch ms): its answers come after it."""
    row = conn.execute(
        "SELECT (extract(epoch FROM created_at) * 1000)::bigint FROM sessions"
        " WHERE session_id = %s",
        (session_id,),
    ).fetchone()
    return int(row[0]) if row else None
