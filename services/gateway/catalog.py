"""Materials as a teacher manages them: list, versions, deactivate/reactivate, re-read,
delete.

Who may change a material: a teacher of its subject for a shared one, its owner for a
private note (nobody else, teachers included: a note is private). Every change runs in
the caller's transaction under the same advisory lock on the material key as
``store_material``, and returns ``MaterialChanged`` records for ``materials.changes``,
which the caller publishes once the transaction has committed.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import dict_row

from services.common.errors import Forbidden, InvalidInput
from services.common.events import IngestJob, MaterialChanged
from services.common.kafka_io import now_ms
from services.common.materials import reading_again, require_enrolled


class UnknownMaterial(InvalidInput):
    """No material (or none this user may see) has this id (404)."""


MATERIAL_COLUMNS = (
    "m.material_id::text AS material_id, m.material_key, m.subject_id, m.title, m.filename,"
    " m.version, m.is_active, m.visibility, m.owner_id, m.created_at, m.updated_at,"
    " (SELECT count(*) FROM chunks c WHERE c.material_id = m.material_id) AS chunk_count,"
    " coalesce((SELECT j.status FROM ingest_jobs j WHERE j.material_id = m.material_id"
    " ORDER BY j.updated_at DESC LIMIT 1), 'STORED') AS ingest_status"
)
# What a user may see of a subject's materials: shared ones and their own notes.
VISIBLE = "(m.visibility = 'subject' OR m.owner_id = %(user)s)"


@dataclass(frozen=True)
class Deleted:
    material_key: str
    versions: list[dict[str, Any]]
    orphaned_blobs: list[str]  # blobs no remaining row points to: delete them after commit


def _uuid(material_id: str) -> uuid.UUID:
    try:
        return uuid.UUID(material_id)
    except ValueError as exc:
        raise UnknownMaterial(f"not a material id: {material_id!r}") from exc


def list_materials(
    conn: psycopg.Connection, subject_id: str, user_id: str, role: str
) -> list[dict[str, Any]]:
    """One row per document: its active version, else its latest. Students see only
    active shared materials (and all of their own notes)."""
    students_see = "" if role == "teacher" else " AND (m.is_active OR m.owner_id = %(user)s)"
    return (
        conn.cursor(row_factory=dict_row)
        .execute(
            f"SELECT * FROM (SELECT DISTINCT ON (m.material_key) {MATERIAL_COLUMNS},"  # noqa: S608 - fixed SQL text
            " (SELECT count(*) FROM materials v WHERE v.material_key = m.material_key)"
            " AS versions FROM materials m"
            f" WHERE m.subject_id = %(subject)s AND {VISIBLE}{students_see}"
            " ORDER BY m.material_key, m.is_active DESC, m.version DESC) AS latest"
            " ORDER BY lower(title), filename",
            {"subject": subject_id, "user": user_id},
        )
        .fetchall()
    )


def recent_uploads(
    conn: psycopg.Connection, subject_id: str, user_id: str, role: str
) -> list[dict[str, Any]]:
    """The user's own uploads still PENDING or FAILED in the last day (a note's filename
    is private: nobody else sees it)."""
    return (
        conn.cursor(row_factory=dict_row)
        .execute(
            "SELECT idempotency_key, job_id, filename, user_id, status, error, updated_at"
            " FROM ingest_jobs WHERE subject_id = %(subject)s"
            " AND status IN ('PENDING', 'FAILED') AND updated_at > now() - interval '1 day'"
            " AND user_id = %(user)s ORDER BY updated_at DESC LIMIT 50",
            {"subject": subject_id, "user": user_id},
        )
        .fetchall()
    )


def material_row(conn: psycopg.Connection, material_id: str, user_id: str) -> dict[str, Any]:
    """The material if ``user_id`` may see it (enrolled in its subject, shared or own note)."""
    row = (
        conn.cursor(row_factory=dict_row)
        .execute(
            f"SELECT {MATERIAL_COLUMNS} FROM materials m"  # noqa: S608 - fixed SQL text
            f" WHERE m.material_id = %(id)s AND {VISIBLE}",
            {"id": _uuid(material_id), "user": user_id},
        )
        .fetchone()
    )
    if row is None:
        raise UnknownMaterial(f"unknown material {material_id}")
    require_enrolled(conn, row["subject_id"], user_id)
    return row


def history(conn: psycopg.Connection, material_id: str, user_id: str) -> list[dict[str, Any]]:
    """Every version of the material's document, newest first."""
    row = material_row(conn, material_id, user_id)
    return (
        conn.cursor(row_factory=dict_row)
        .execute(
            f"SELECT {MATERIAL_COLUMNS} FROM materials m"  # noqa: S608 - fixed SQL text
            f" WHERE m.material_key = %(key)s AND {VISIBLE} ORDER BY m.version DESC",
            {"key": row["material_key"], "user": user_id},
        )
        .fetchall()
    )


def require_changer(conn: psycopg.Connection, row: dict[str, Any], user_id: str) -> None:
    """Forbidden unless the user is a teacher of the subject (shared) or the owner (note)."""
    role = require_enrolled(conn, row["subject_id"], user_id)
    if row["visibility"] == "private":
        if row["owner_id"] != user_id:
            raise Forbidden("only its owner changes a private note")
    elif role != "teacher":
        raise Forbidden(f"only a teacher of {row['subject_id']!r} changes its shared materials")


def _locked_row(conn: psycopg.Connection, material_id: str, user_id: str) -> dict[str, Any]:
    row = material_row(conn, material_id, user_id)
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (row["material_key"],))
    require_changer(conn, row, user_id)
    return material_row(conn, material_id, user_id)  # as it is now, under the lock


def reread_job(
    conn: psycopg.Connection, material_id: str, user_id: str, fetch: Callable[[str], bytes]
) -> IngestJob:
    """The IngestJob that reads the active version's original again with today's parser
    and chunker, so that after a parser change stored materials are chunked as new uploads
    are. ``fetch`` reads the original from storage: it must still be there, unchanged."""
    row = material_row(conn, material_id, user_id)
    require_changer(conn, row, user_id)
    if not row["is_active"]:
        raise InvalidInput(
            f"version {row['version']} of {row['filename']!r} is not the active one:"
            " re-read the active version, or reactivate this one first"
        )
    return reading_again(conn, row, user_id, fetch)


def change(row: dict[str, Any], action: str, user_id: str) -> MaterialChanged:
    return MaterialChanged(
        change_id=str(uuid.uuid4()),
        subject_id=row["subject_id"],
        material_id=row["material_id"],
        material_key=row["material_key"],
        version=row["version"],
        action=action,
        user_id=user_id,
        changed_at_ms=now_ms(),
        title=row["title"],
        filename=row["filename"],
        visibility=row["visibility"],
    )


def _set_chunks(conn: psycopg.Connection, ids: list[Any], active: bool) -> None:
    conn.execute(
        "UPDATE materials SET is_active = %s, updated_at = now()"
        " WHERE material_id = ANY(%s::uuid[]) AND is_active <> %s",
        (active, ids, active),
    )
    conn.execute(
        "UPDATE chunks SET is_active = %s WHERE material_id = ANY(%s::uuid[]) AND is_active <> %s",
        (active, ids, active),
    )


def set_active(
    conn: psycopg.Connection, material_id: str, user_id: str, active: bool
) -> tuple[dict[str, Any], list[MaterialChanged]]:
    """Deactivate the version, or make it the document's one active version again.

    Search sees the change as soon as the caller commits (it filters ``is_active``).
    """
    row = _locked_row(conn, material_id, user_id)
    if row["is_active"] == active:
        return row, []
    changes: list[MaterialChanged] = []
    if active:
        others = conn.execute(
            "SELECT material_id::text FROM materials"
            " WHERE material_key = %s AND is_active AND material_id <> %s",
            (row["material_key"], _uuid(material_id)),
        ).fetchall()
        for (other,) in others:
            _set_chunks(conn, [other], False)
            changes.append(change(material_row(conn, other, user_id), "DEACTIVATED", user_id))
    _set_chunks(conn, [_uuid(material_id)], active)
    row = material_row(conn, material_id, user_id)
    changes.append(change(row, "REACTIVATED" if active else "DEACTIVATED", user_id))
    return row, changes


def delete_material(
    conn: psycopg.Connection, material_id: str, user_id: str
) -> tuple[Deleted, list[MaterialChanged]]:
    """Delete every version of the material's document: chunks, ingest records, rows.

    Chunks go first, while their material rows still exist, so the search statistics
    triggers subtract them from the right scope. Blobs are returned for deletion after
    commit, unless another material (the same bytes uploaded elsewhere) still uses them.
    """
    row = _locked_row(conn, material_id, user_id)
    versions = (
        conn.cursor(row_factory=dict_row)
        .execute(
            f"SELECT {MATERIAL_COLUMNS}, m.blob_uri FROM materials m"  # noqa: S608 - fixed SQL text
            " WHERE m.material_key = %(key)s ORDER BY m.version",
            {"key": row["material_key"]},
        )
        .fetchall()
    )
    ids = [uuid.UUID(v["material_id"]) for v in versions]
    conn.execute("DELETE FROM chunks WHERE material_id = ANY(%s::uuid[])", (ids,))
    conn.execute("DELETE FROM ingest_jobs WHERE material_id = ANY(%s::uuid[])", (ids,))
    conn.execute("DELETE FROM materials WHERE material_id = ANY(%s::uuid[])", (ids,))
    uris = sorted({v.pop("blob_uri") for v in versions})
    still_used = {
        uri
        for (uri,) in conn.execute(
            "SELECT DISTINCT blob_uri FROM materials WHERE blob_uri = ANY(%s)", (uris,)
        ).fetchall()
    }
    deleted = Deleted(row["material_key"], versions, [u for u in uris if u not in still_used])
    return deleted, [change(v, "DELETED", user_id) for v in versions]


def passage(conn: psycopg.Connection, chunk_id: str, user_id: str) -> dict[str, Any]:
    """A cited chunk with its material, page and heading, if the user may see it."""
    try:
        chunk_uuid = uuid.UUID(chunk_id)
    except ValueError as exc:
        raise UnknownMaterial(f"not a chunk id: {chunk_id!r}") from exc
    row = (
        conn.cursor(row_factory=dict_row)
        .execute(
            "SELECT c.chunk_id::text AS chunk_id, c.material_id::text AS material_id, c.page,"  # noqa: S608 - fixed SQL text
            " c.heading_path, c.text, c.ordinal, c.is_active, m.title, m.filename, m.version,"
            " m.subject_id FROM chunks c JOIN materials m USING (material_id)"
            f" WHERE c.chunk_id = %(id)s AND {VISIBLE}",
            {"id": chunk_uuid, "user": user_id},
        )
        .fetchone()
    )
    if row is None:
        raise UnknownMaterial(f"no passage {chunk_id} (its material may have been deleted)")
    require_enrolled(conn, row["subject_id"], user_id)
    return row
