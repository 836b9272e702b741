"""Subjects and roles, the unanswered log, and conversations, as the gateway reads them."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import psycopg
from psycopg.rows import dict_row

from services.common.errors import Forbidden, InvalidInput
from services.common.materials import enroll, require_enrolled

NO_TASK = "(no task recorded)"


class UnknownEntry(InvalidInput):
    """No unanswered entry or conversation with this id is visible to the user (404)."""


def require_teacher(conn: psycopg.Connection, subject_id: str, user_id: str) -> None:
    """NotEnrolled / Forbidden unless the user teaches the subject."""
    role = require_enrolled(conn, subject_id, user_id)
    if role != "teacher":
        raise Forbidden(f"only a teacher of {subject_id!r} may do this; {user_id!r} is a {role}")


def my_subjects(conn: psycopg.Connection, user_id: str) -> list[dict[str, Any]]:
    return (
        conn.cursor(row_factory=dict_row)
        .execute(
            "SELECT s.subject_id, s.title, e.role FROM enrollments e JOIN subjects s"
            " USING (subject_id) WHERE e.user_id = %s ORDER BY s.subject_id",
            (user_id,),
        )
        .fetchall()
    )


def enroll_user(
    conn: psycopg.Connection, subject_id: str, teacher_id: str, user_id: str, role: str
) -> None:
    """A teacher enrolls (or changes the role of) a user; never their own role."""
    require_teacher(conn, subject_id, teacher_id)
    if user_id == teacher_id and role != "teacher":
        raise InvalidInput("a teacher cannot demote themself; ask another teacher")
    enroll(conn, subject_id, user_id, role)


def unanswered(
    conn: psycopg.Connection, subject_id: str, teacher_id: str, include_resolved: bool = False
) -> list[dict[str, Any]]:
    require_teacher(conn, subject_id, teacher_id)
    return (
        conn.cursor(row_factory=dict_row)
        .execute(
            "SELECT session_id, subject_id, user_id, question, reason AS stop_reason,"
            " missing_tasks, best_passages, created_at, resolved_at, resolved_by, resolution"
            " FROM unanswered WHERE subject_id = %s AND (%s OR resolved_at IS NULL)"
            " ORDER BY created_at DESC LIMIT 500",
            (subject_id, include_resolved),
        )
        .fetchall()
    )


def group_by_missing_task(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Entries under each task they left unsatisfied (an entry missing two tasks is in
    both groups); the groups with the most entries first."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for entry in entries:
        for task in entry["missing_tasks"] or [NO_TASK]:
            groups[task].append(entry)
    return [
        {"task": task, "count": len(items), "entries": items}
        for task, items in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    ]


def resolve(
    conn: psycopg.Connection, session_id: str, teacher_id: str, note: str
) -> dict[str, Any]:
    row = conn.execute(
        "SELECT subject_id FROM unanswered WHERE session_id = %s", (session_id,)
    ).fetchone()
    if row is None:
        raise UnknownEntry(f"no unanswered entry {session_id}")
    require_teacher(conn, row[0], teacher_id)
    return (
        conn.cursor(row_factory=dict_row)
        .execute(
            "UPDATE unanswered SET resolved_at = coalesce(resolved_at, now()),"
            " resolved_by = coalesce(resolved_by, %s), resolution = %s WHERE session_id = %s"
            " RETURNING session_id, subject_id, user_id, question, reason AS stop_reason,"
            " missing_tasks, best_passages, created_at, resolved_at, resolved_by, resolution",
            (teacher_id, note, session_id),
        )
        .fetchone()
    )


def conversation_owner(conn: psycopg.Connection, conversation_id: str) -> tuple[str, str] | None:
    """(user, subject) of a conversation's first turn, or None for a new conversation."""
    row = conn.execute(
        "SELECT user_id, subject_id FROM sessions WHERE conversation_id = %s"
        " ORDER BY created_at LIMIT 1",
        (conversation_id,),
    ).fetchone()
    return (row[0], row[1]) if row else None


def check_conversation(
    conn: psycopg.Connection, conversation_id: str, user_id: str, subject_id: str
) -> None:
    """A follow-up continues the asker's own conversation, in its subject."""
    owner = conversation_owner(conn, conversation_id)
    if owner is None:
        return
    if owner[0] != user_id:
        raise Forbidden("the conversation belongs to another user")
    if owner[1] != subject_id:
        raise InvalidInput(f"the conversation is in subject {owner[1]!r}, not {subject_id!r}")


def conversation(
    conn: psycopg.Connection, conversation_id: str, user_id: str
) -> list[dict[str, Any]]:
    owner = conversation_owner(conn, conversation_id)
    if owner is None:
        raise UnknownEntry(f"unknown conversation {conversation_id}")
    if owner[0] != user_id:
        raise Forbidden("the conversation belongs to another user")
    return (
        conn.cursor(row_factory=dict_row)
        .execute(
            "SELECT session_id, subject_id, question, status, stop_reason, answer, citations,"
            " iterations, created_at, finished_at FROM sessions"
            " WHERE conversation_id = %s AND user_id = %s ORDER BY created_at",
            (conversation_id, user_id),
        )
        .fetchall()
    )
