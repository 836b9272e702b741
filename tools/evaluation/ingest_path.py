"""Files stored through the real ingest path, for evaluations under service conditions.

What the ingestor does with one uploaded file — detect the format, parse, chunk with
the service's limits, embed, store a material version — minus Kafka and object
storage. An evaluation that stores its documents here measures exactly the chunks a
service would search.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import psycopg

from services.common.ids import sha256_hex
from services.common.materials import NewMaterial, enroll, ensure_subject, store_material
from services.ingestor.chunking import DEFAULT_LIMITS, ChunkLimits
from services.ingestor.stages import parse_material
from services.reasoning.embedders import Embedder


@lru_cache(maxsize=1)
def stored_form_version() -> str:
    """A digest of the code that decides what a stored chunk holds: the ingestor's parsing
    and chunking, the lexical terms stored beside the text (``services.common.text``,
    ``services.common.materials``) and the ids whose order breaks ties in the search
    (``services.common.ids``). Evaluations name their stored subjects with it, so a change
    to any of them is measured on chunks stored afresh, never on its predecessor's."""
    from services import ingestor
    from services.common import ids, materials, text

    sources = sorted(Path(ingestor.__file__).parent.glob("*.py"))
    sources += [Path(text.__file__), Path(materials.__file__), Path(ids.__file__)]
    return sha256_hex(b"".join(p.read_bytes() for p in sources))[:12]


@dataclass(frozen=True)
class StoredChunk:
    chunk_id: uuid.UUID
    filename: str
    ordinal: int
    text: str


def ingest_files(
    conn: psycopg.Connection,
    subject_id: str,
    user_id: str,
    files: Sequence[tuple[str, bytes]],
    embedder: Embedder,
    *,
    limits: ChunkLimits = DEFAULT_LIMITS,
    progress: Callable[[int], None] = lambda n: None,
) -> list[StoredChunk]:
    """Store ``(filename, bytes)`` pairs as materials of ``subject_id`` (idempotent: a file
    already stored with the same bytes is not parsed or embedded again); return the
    subject's active chunks."""
    ensure_subject(conn, subject_id, f"eval {subject_id}")
    enroll(conn, subject_id, user_id, role="teacher")
    conn.commit()
    for filename, data in files:
        digest = sha256_hex(data)
        stored = conn.execute(
            "SELECT 1 FROM materials WHERE subject_id = %s AND filename = %s"
            " AND sha256 = %s AND is_active",
            (subject_id, filename, digest),
        ).fetchone()
        if stored is None:
            parsed = parse_material(data, filename, limits=limits)
            material = NewMaterial(
                subject_id=subject_id,
                owner_id=user_id,
                title=parsed.title,
                filename=filename,
                mime_type=parsed.mime_type,
                sha256=digest,
                blob_uri=f"eval://{subject_id}/{filename}",
            )
            vectors = embedder.embed([c.text for c in parsed.chunks])
            store_material(
                conn,
                material,
                parsed.chunks,
                vectors,
                embedder=embedder.name,
                embed_terms=embedder.embed,
            )
            conn.commit()
        progress(1)
    rows = conn.execute(
        "SELECT c.chunk_id, m.filename, c.ordinal, c.text"
        " FROM chunks c JOIN materials m USING (material_id)"
        " WHERE c.subject_id = %s AND c.is_active AND m.is_active ORDER BY m.filename, c.ordinal",
        (subject_id,),
    ).fetchall()
    return [StoredChunk(*row) for row in rows]


def read_files(folder: Path) -> list[tuple[str, bytes]]:
    """Every file of a materials folder, by name."""
    return [(p.name, p.read_bytes()) for p in sorted(folder.iterdir()) if p.is_file()]
