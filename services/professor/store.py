"""The professor's audit trail: sessions with their evidence, and the unanswered log."""

from __future__ import annotations

import dataclasses

import psycopg
from psycopg.types.json import Jsonb

from services.common.events import QuestionAsked
from services.professor.stages import SessionRecord
from services.reasoning.llm import Turn

MAX_TURNS = 3  # previous turns a follow-up is planned with


def save_session(conn: psycopg.Connection, record: SessionRecord) -> None:
    """Upsert, so a re-delivered message rewrites the same row."""
    finished = record.status != "RUNNING"
    conn.execute(
        "INSERT INTO sessions (session_id, subject_id, user_id, question, status, stop_reason,"
        " answer, citations, evidence, iterations, finished_at, conversation_id, deadline_at)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, CASE WHEN %s THEN now() END, %s,"
        " to_timestamp(%s / 1000.0))"
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
            record.conversation_id,
            record.deadline_ms,
        ),
    )
    if record.status == "INSUFFICIENT" or record.missing_tasks:  # answered in part too
        passages = [
            {
                "chunk_id": e.chunk_id,
                "material_id": e.material_id,
                "title": e.material_title,
                "page": e.page,
                "snippet": e.snippet,
                "score": e.score,
            }
            for e in record.best_passages
        ]
        conn.execute(
            "INSERT INTO unanswered (session_id, subject_id, user_id, question, reason,"
            " missing_tasks, best_passages) VALUES (%s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (session_id) DO NOTHING",
            (
                record.session_id,
                record.subject_id,
                record.user_id,
                record.question,
                record.stop_reason,
                Jsonb(record.missing_tasks),
                Jsonb(passages),
            ),
        )


def conversation_turns(conn: psycopg.Connection, q: QuestionAsked) -> list[Turn]:
    """The finished turns before ``q`` in its conversation (same asker and subject), oldest
    first: what a follow-up question refers to."""
    if not q.conversation_id:
        return []
    rows = conn.execute(
        "SELECT question, coalesce(answer, ''), citations FROM sessions"
        " WHERE conversation_id = %s AND user_id = %s AND subject_id = %s"
        " AND session_id <> %s AND finished_at IS NOT NULL AND status <> 'FAILED'"
        " AND created_at < coalesce((SELECT created_at FROM sessions WHERE session_id = %s),"
        " now()) ORDER BY created_at DESC LIMIT %s",
        (q.conversation_id, q.user_id, q.subject_id, q.session_id, q.session_id, MAX_TURNS),
    ).fetchall()
    return [
        Turn(
            question,
            answer,
            list(dict.fromkeys(c.get("title", "") for c in citations if c.get("title"))),
        )
        for question, answer, citations in reversed(rows)
    ]
