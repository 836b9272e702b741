"""Writing materials and their chunks: one transaction, idempotent, versioned.

Used by the ingestor and by the eval/bench loaders, so both store exactly the
same rows (terms from ``services.common.text``, vectors in the recorded space).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import psycopg
from pgvector import HalfVector

from services.common.errors import BlobStoreError, Forbidden, InvalidInput, NotEnrolled, StoreError
from services.common.events import IngestJob
from services.common.ids import sha256_hex, uuid7
from services.common.text import chunk_terms, script_of, vocabulary_terms


@dataclass(frozen=True)
class Chunk:
    """One meaning unit of a material, as Markdown."""

    ordinal: int
    text: str
    page: int | None = None
    heading_path: tuple[str, ...] = ()


@dataclass(frozen=True)
class NewMaterial:
    subject_id: str
    owner_id: str
    title: str
    filename: str
    mime_type: str
    sha256: str
    blob_uri: str
    visibility: str = "subject"
    material_key: str = ""  # default: material_key(subject, filename, visibility, owner)

    @property
    def key(self) -> str:
        return self.material_key or material_key(
            self.subject_id, self.filename, self.visibility, self.owner_id
        )


def key_namespace(subject_id: str, visibility: str, owner_id: str) -> str:
    """The prefix every material key of this kind starts with.

    Shared materials live under ``<subject>/``; a private note under
    ``<subject>/private:<owner>/``, so a note can never take the key of a shared
    material or of another user's note, whatever its filename.
    """
    if visibility == "private":
        return f"{subject_id}/private:{owner_id}/"
    if visibility == "subject":
        return f"{subject_id}/"
    raise InvalidInput(f"visibility must be subject or private, not {visibility!r}")


def material_key(subject_id: str, filename: str, visibility: str, owner_id: str) -> str:
    """The default key naming a document across its versions."""
    return key_namespace(subject_id, visibility, owner_id) + filename


def check_key_namespace(key: str, subject_id: str, visibility: str, owner_id: str) -> None:
    """Forbidden unless ``key`` lies in the namespace this user may write (pure)."""
    namespace = key_namespace(subject_id, visibility, owner_id)
    inside = key.startswith(namespace) and len(key) > len(namespace)
    if visibility == "subject" and key.startswith(f"{subject_id}/private:"):
        inside = False
    if not inside:
        raise Forbidden(f"material key {key!r} is outside {namespace!r}, where this upload belongs")


def check_material_write(
    conn: psycopg.Connection, subject_id: str, user_id: str, visibility: str, key: str
) -> str:
    """The writer's role, or NotEnrolled / Forbidden: may ``user_id`` store a version of ``key``?

    Only a subject's teachers publish shared materials; anyone enrolled may keep private
    notes, under their own key namespace. The rows already stored under the key must be
    of the same subject and visibility (and, for a note, owner): a key never changes hands.
    """
    role = require_enrolled(conn, subject_id, user_id)
    if visibility == "subject" and role != "teacher":
        raise Forbidden(
            f"only a teacher of {subject_id!r} publishes shared materials;"
            f" {user_id!r} is a {role} (upload it as a private note instead)"
        )
    check_key_namespace(key, subject_id, visibility, user_id)
    stored = conn.execute(
        "SELECT subject_id, visibility, owner_id FROM materials WHERE material_key = %s"
        " AND (subject_id <> %s OR visibility <> %s OR (visibility = 'private' AND owner_id <> %s))"
        " LIMIT 1",
        (key, subject_id, visibility, user_id),
    ).fetchone()
    if stored is not None:
        raise Forbidden(f"material key {key!r} belongs to another owner or visibility")
    return role


@dataclass(frozen=True)
class StoredMaterial:
    material_id: uuid.UUID
    version: int
    duplicate: bool
    chunk_ids: list[uuid.UUID] = field(default_factory=list)


def check_embedding_space(conn: psycopg.Connection, embedder: str, dimension: int) -> None:
    """Record the embedding space on first use; refuse a different one afterwards."""
    conn.execute(
        "INSERT INTO embedding_space (embedder, dimension) VALUES (%s, %s)"
        " ON CONFLICT (singleton) DO NOTHING",
        (embedder, dimension),
    )
    row = conn.execute("SELECT embedder, dimension FROM embedding_space").fetchone()
    if row != (embedder, dimension):
        raise InvalidInput(
            f"database holds {row[0]} vectors of dimension {row[1]};"
            f" refusing {embedder} of dimension {dimension}"
        )


def require_enrolled(conn: psycopg.Connection, subject_id: str, user_id: str) -> str:
    """The user's role in the subject, or NotEnrolled."""
    if (
        conn.execute("SELECT 1 FROM subjects WHERE subject_id = %s", (subject_id,)).fetchone()
        is None
    ):
        raise NotEnrolled(f"unknown subject {subject_id!r}")
    row = conn.execute(
        "SELECT role FROM enrollments WHERE subject_id = %s AND user_id = %s", (subject_id, user_id)
    ).fetchone()
    if row is None:
        raise NotEnrolled(f"user {user_id!r} is not enrolled in subject {subject_id!r}")
    return row[0]


def store_material(
    conn: psycopg.Connection,
    material: NewMaterial,
    chunks: Sequence[Chunk],
    embeddings: np.ndarray,
    *,
    embedder: str,
    embed_terms: Callable[[list[str]], np.ndarray] | None,
    reread: bool = False,
) -> StoredMaterial:
    """Store a new version of a material with its chunks, in the caller's transaction.

    ``embed_terms`` is the same embedder's (batch) function: the material's vocabulary
    words that have no vector yet get one (``store_term_vectors``). None only for a
    database from before migration 0006, which has no table for them.

    The same bytes as the active version are a duplicate and store nothing, unless
    ``reread`` (the original read again by a changed parser) and the chunks differ from
    the active version's. A changed file becomes version n+1; the previous version and
    its chunks are deactivated, never deleted. Concurrent writers of one material key
    are serialised by a transaction-scoped advisory lock.
    """
    if len(chunks) != len(embeddings):
        raise ValueError("one embedding per chunk")
    if not chunks:
        raise InvalidInput("the material has no text to store")
    try:
        check_embedding_space(conn, embedder, int(embeddings.shape[1]))
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (material.key,))
        active = conn.execute(
            "SELECT material_id, version, sha256 FROM materials"
            " WHERE material_key = %s AND is_active",
            (material.key,),
        ).fetchone()
        if active and active[2] == material.sha256:
            if not reread or _same_chunks(conn, active[0], chunks):
                return StoredMaterial(material_id=active[0], version=active[1], duplicate=True)
        # after the latest version, active or not: a document whose versions were all
        # deactivated gets its next one, not a second version 1
        (version,) = conn.execute(
            "SELECT coalesce(max(version), 0) + 1 FROM materials WHERE material_key = %s",
            (material.key,),
        ).fetchone()
        if active:
            conn.execute(
                "UPDATE materials SET is_active = false, updated_at = now() WHERE material_id = %s",
                (active[0],),
            )
            conn.execute("UPDATE chunks SET is_active = false WHERE material_id = %s", (active[0],))
        material_id = uuid7()
        conn.execute(
            "INSERT INTO materials (material_id, material_key, subject_id, owner_id, visibility,"
            " title, filename, mime_type, sha256, blob_uri, version)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                material_id,
                material.key,
                material.subject_id,
                material.owner_id,
                material.visibility,
                material.title,
                material.filename,
                material.mime_type,
                material.sha256,
                material.blob_uri,
                version,
            ),
        )
        chunk_ids = [uuid7() for _ in chunks]
        with conn.cursor().copy(
            "COPY chunks (chunk_id, material_id, subject_id, ordinal, page, heading_path,"
            " text, terms, term_count, embedding) FROM STDIN"
        ) as copy:
            for chunk_id, chunk, vector in zip(chunk_ids, chunks, embeddings, strict=True):
                terms = chunk_terms(chunk.heading_path, chunk.text)
                copy.write_row(
                    (
                        chunk_id,
                        material_id,
                        material.subject_id,
                        chunk.ordinal,
                        chunk.page,
                        list(chunk.heading_path),
                        chunk.text,
                        terms,
                        len(terms),
                        vector,
                    )
                )
        if embed_terms is not None:
            words = {w: None for chunk in chunks for w in vocabulary_terms(chunk.text)}
            store_term_vectors(conn, list(words), embed_terms)
        return StoredMaterial(material_id, version, duplicate=False, chunk_ids=chunk_ids)
    except psycopg.Error as exc:
        raise StoreError(f"storing material {material.key!r} failed: {exc}") from exc


def _same_chunks(conn: psycopg.Connection, material_id: uuid.UUID, chunks: Sequence[Chunk]) -> bool:
    stored = conn.execute(
        "SELECT ordinal, page, heading_path, text FROM chunks WHERE material_id = %s"
        " ORDER BY ordinal",
        (material_id,),
    ).fetchall()
    return stored == [(c.ordinal, c.page, list(c.heading_path), c.text) for c in chunks]


def store_term_vectors(
    conn: psycopg.Connection, words: list[str], embed: Callable[[list[str]], np.ndarray]
) -> int:
    """Embed and store the words that have no vector yet; returns how many were new."""
    if not words:
        return 0
    rows = conn.execute(
        "SELECT w FROM unnest(%s::text[]) AS w"
        " WHERE NOT EXISTS (SELECT 1 FROM term_vectors t WHERE t.term = w)",
        (words,),
    ).fetchall()
    new = sorted(r[0] for r in rows)
    if not new:
        return 0
    vectors = embed(new)
    # Another ingestor may store the same word meanwhile: the later one keeps the first
    # vector (the same embedder's). Sorted, so two writers never wait on each other in a cycle.
    conn.cursor().executemany(
        "INSERT INTO term_vectors (term, script, embedding) VALUES (%s, %s, %s)"
        " ON CONFLICT (term) DO NOTHING",
        [(w, script_of(w), HalfVector(v)) for w, v in zip(new, vectors, strict=True)],
    )
    return len(new)


def backfill_term_vectors(
    conn: psycopg.Connection,
    embedder: str,
    dimension: int,
    embed: Callable[[list[str]], np.ndarray],
    progress: Callable[[int, int], None] = lambda done, total: None,
    batch: int = 2_000,
) -> int:
    """Vectors for the vocabulary words of every active chunk that lack one: materials stored
    before migration 0006, or with ``embed_terms=None``. Returns how many words were new;
    ``progress`` gets (chunks read, chunks in all). Refuses an embedder other than the
    database's (its words would not be comparable with the stored ones)."""
    total = conn.execute("SELECT count(*) FROM chunks WHERE is_active").fetchone()[0]
    if total:
        check_embedding_space(conn, embedder, dimension)
    words: dict[str, None] = {}
    done = 0
    with conn.cursor(name="vocabulary") as cursor:
        cursor.execute("SELECT text FROM chunks WHERE is_active")
        while rows := cursor.fetchmany(batch):
            for (text,) in rows:
                words.update(dict.fromkeys(vocabulary_terms(text)))
            done += len(rows)
            progress(done, total)
    every = list(words)
    return sum(
        store_term_vectors(conn, every[i : i + batch], embed) for i in range(0, len(every), batch)
    )


def ensure_subject(conn: psycopg.Connection, subject_id: str, title: str = "") -> None:
    conn.execute(
        "INSERT INTO subjects (subject_id, title) VALUES (%s, %s)"
        " ON CONFLICT (subject_id) DO UPDATE SET title = CASE WHEN EXCLUDED.title = ''"
        " THEN subjects.title ELSE EXCLUDED.title END",
        (subject_id, title),
    )


def enroll(conn: psycopg.Connection, subject_id: str, user_id: str, role: str = "student") -> None:
    if role not in ("teacher", "student"):
        raise InvalidInput(f"role must be teacher or student, not {role!r}")
    if (
        conn.execute("SELECT 1 FROM subjects WHERE subject_id = %s", (subject_id,)).fetchone()
        is None
    ):
        raise NotEnrolled(f"unknown subject {subject_id!r}")
    conn.execute(
        "INSERT INTO enrollments (subject_id, user_id, role) VALUES (%s, %s, %s)"
        " ON CONFLICT (subject_id, user_id) DO UPDATE SET role = EXCLUDED.role",
        (subject_id, user_id, role),
    )


def reading_again(
    conn: psycopg.Connection,
    material: Mapping[str, Any],
    user_id: str,
    fetch: Callable[[str], bytes],
) -> IngestJob:
    """The IngestJob that reads a stored material's original again with today's parser and
    chunker, as ``user_id`` (the ingestor checks that user's role as for an upload).
    ``fetch`` reads the original from storage: it must still be there, unchanged."""
    blob_uri, sha256, mime_type = conn.execute(
        "SELECT blob_uri, sha256, mime_type FROM materials WHERE material_id = %s::uuid",
        (str(material["material_id"]),),
    ).fetchone()
    data = fetch(blob_uri)
    if sha256_hex(data) != sha256:
        raise BlobStoreError(
            f"the stored original of {material['filename']!r} has changed: {blob_uri}"
        )
    job_id = str(uuid.uuid4())
    return IngestJob(
        job_id=job_id,
        idempotency_key=f"reread:{job_id}",  # every re-read is a new job, unlike an upload
        subject_id=material["subject_id"],
        user_id=user_id,
        blob_uri=blob_uri,
        filename=material["filename"],
        mime_type=mime_type,
        sha256=sha256,
        size_bytes=len(data),
        submitted_at_ms=int(time.time() * 1000),
        title=material["title"],
        visibility=material["visibility"],
        material_key=material["material_key"],
        reread=True,
    )
