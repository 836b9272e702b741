"""Ingestor shell: ``ingest.jobs`` → parse, embed, store → ``chunks.stored``.

Idempotent by job key and content hash (ARCHITECTURE invariant 6): the
``ingest_jobs`` row and the material are written in one database transaction,
so a job re-delivered after a crash finds its row and re-announces the stored
result instead of storing again; the same bytes under a new job are a
DUPLICATE and are neither parsed nor embedded.
"""

from __future__ import annotations

import logging
import threading
import time

import numpy as np
import psycopg

from services.common import db
from services.common.blobstore import BlobStore
from services.common.errors import (
    BlobStoreError,
    DependencyUnavailable,
    EngineError,
    InvalidInput,
    StorageUnavailable,
    describe,
)
from services.common.events import ChunksStored, IngestJob, MaterialChanged
from services.common.kafka_io import now_ms
from services.common.materials import (
    NewMaterial,
    check_material_write,
    material_key,
    store_material,
)
from services.common.service import run_runners
from services.common.stage_runner import Emit, StageRunner
from services.ingestor.settings import IngestionSettings
from services.ingestor.stages import VisionReader, parse_job
from services.reasoning import make_embedder
from services.reasoning.embedders import Embedder, warm_up
from topics.registry import CHUNKS_STORED, INGEST_JOBS, MATERIALS_CHANGES

logger = logging.getLogger(__name__)


class Ingestor:
    def __init__(
        self,
        settings: IngestionSettings,
        *,
        embedder: Embedder | None = None,
        pool=None,
        blobs: BlobStore | None = None,
    ):
        self.settings = settings
        self.pool = pool or db.pool(settings)
        # each read gives up after a few seconds; the stage's backoff does the long waiting
        self.blobs = blobs or BlobStore(settings, retry_s=5.0)
        self._storage_down_since: float | None = None  # the outage in progress, if any
        self.embedder = embedder or make_embedder(settings)
        self.vision = self._vision()

    def _vision(self) -> VisionReader | None:
        if not self.settings.gemini_api_key:
            return None  # parse_job then fails such files with "needs Gemini"
        from services.reasoning.gemini.vision import GeminiVisionReader

        return GeminiVisionReader(self.settings)

    def on_job(self, job: IngestJob) -> list[Emit]:
        started = time.monotonic()
        with self.pool.connection() as conn:
            outcome = self.ingest(conn, job)
        outcome = ChunksStored(
            **{**outcome.__dict__, "duration_ms": int((time.monotonic() - started) * 1000)}
        )
        emits = [Emit(CHUNKS_STORED, job.idempotency_key, outcome)]
        if outcome.status == "STORED" and outcome.material_id:
            change = stored_change(job, outcome)
            emits.append(Emit(MATERIALS_CHANGES, change.material_key, change))
        return emits

    def ingest(self, conn: psycopg.Connection, job: IngestJob) -> ChunksStored:
        previous = conn.execute(
            "SELECT j.job_id, j.status, j.material_id, m.version,"
            " (SELECT count(*) FROM chunks c WHERE c.material_id = j.material_id)"
            " FROM ingest_jobs j LEFT JOIN materials m USING (material_id)"
            " WHERE j.idempotency_key = %s",
            (job.idempotency_key,),
        ).fetchone()
        if previous and previous[1] in ("STORED", "DUPLICATE"):
            # the same job again (a re-delivery) repeats its outcome; another job is a duplicate
            status = previous[1] if previous[0] == job.job_id else "DUPLICATE"
            return outcome_of(job, status, previous[2], previous[3] or 0, previous[4])
        try:
            material = NewMaterial(
                subject_id=job.subject_id,
                owner_id=job.user_id,
                title=job.title or job.filename,
                filename=job.filename,
                mime_type=job.mime_type,
                sha256=job.sha256,
                blob_uri=job.blob_uri,
                visibility=job.visibility,
                material_key=job.material_key,
            )
            # Again here, whoever produced the job: a student's upload never replaces or
            # hides a teacher's material or another user's note (FAILED, nothing stored).
            check_material_write(conn, job.subject_id, job.user_id, job.visibility, material.key)
            active = conn.execute(
                "SELECT material_id, version,"
                " (SELECT count(*) FROM chunks c WHERE c.material_id = m.material_id)"
                " FROM materials m WHERE material_key = %s AND is_active AND sha256 = %s",
                (material.key, job.sha256),
            ).fetchone()
            if active and not job.reread:
                self._record(conn, job, "DUPLICATE", active[0], None)
                conn.commit()
                return outcome_of(job, "DUPLICATE", active[0], active[1], active[2])
            if job.reread and not active:  # it must not bring back what was taken away
                raise InvalidInput(
                    f"nothing to read again: the version of {job.filename!r} with these bytes"
                    " is no longer the active one (deactivated, replaced or deleted meanwhile)"
                )
            data = self.fetch(conn, job)
            parsed = parse_job(
                job,
                data,
                vision=self.vision,
                limits=self.settings.chunk_limits,
                max_file_bytes=self.settings.max_file_bytes,
            )
            if not job.title:
                material = NewMaterial(
                    **{**material.__dict__, "title": parsed.title, "mime_type": parsed.mime_type}
                )
            vectors = self.embed(conn, material.key, [c.text for c in parsed.chunks])
            stored = store_material(
                conn,
                material,
                parsed.chunks,
                vectors,
                embedder=self.embedder.name,
                embed_terms=self.embedder.embed,
                reread=job.reread,
            )
            status = "DUPLICATE" if stored.duplicate else "STORED"
            self._record(conn, job, status, stored.material_id, None)
            conn.commit()
            return outcome_of(job, status, stored.material_id, stored.version, len(parsed.chunks))
        except (InvalidInput, BlobStoreError, EngineError) as exc:
            conn.rollback()
            logger.warning("ingest job %s failed: %s", job.job_id, exc)
            self._record(conn, job, "FAILED", None, str(exc))
            conn.commit()
            return outcome_of(job, "FAILED", error=str(exc))

    def fetch(self, conn: psycopg.Connection, job: IngestJob) -> bytes:
        """The original's bytes. While storage does not answer, the job stays PENDING with the
        error and the batch is redone after a backoff. Once an outage has lasted
        ``ingest_storage_wait_s``, a job that meets it ends FAILED instead (the jobs behind it
        after one attempt each, until storage answers again)."""
        try:
            data = self.blobs.get(job.blob_uri)
        except StorageUnavailable as exc:
            now = time.monotonic()
            if self._storage_down_since is None:
                self._storage_down_since = now
            waited = now - self._storage_down_since
            if waited >= self.settings.ingest_storage_wait_s:
                raise StorageUnavailable(
                    f"object storage did not answer for {waited:.0f} s; giving up: {exc}"
                ) from exc
            conn.rollback()
            self._record(conn, job, "PENDING", None, f"waiting for object storage: {exc}")
            conn.commit()
            raise DependencyUnavailable("storage", str(exc)) from exc
        self._storage_down_since = None
        return data

    def embed(self, conn: psycopg.Connection, material_key: str, texts: list[str]) -> np.ndarray:
        """Embed only texts the material's active version does not already hold."""
        known = {
            text: embedding.to_numpy()  # a pgvector Vector
            for text, embedding in conn.execute(
                "SELECT c.text, c.embedding FROM chunks c JOIN materials m USING (material_id)"
                " WHERE m.material_key = %s AND m.is_active AND c.text = ANY(%s)",
                (material_key, texts),
            )
        }
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            known.update(zip(missing, self.embedder.embed(missing), strict=True))
        return np.vstack([np.asarray(known[t], dtype=np.float32) for t in texts])

    def on_poison(self, job: IngestJob, exc: Exception) -> list[Emit]:
        """The ingestor failed on this job every time it tried (a bug; the job waits in the
        dead-letter topic): the upload ends FAILED, saying so."""
        error = (
            f"the ingestor failed on this file ({describe(exc)});"
            " the operators can replay it once it is fixed"
        )[:2000]
        with self.pool.connection() as conn:
            self._record(conn, job, "FAILED", None, error)
        return [Emit(CHUNKS_STORED, job.idempotency_key, outcome_of(job, "FAILED", error=error))]

    @staticmethod
    def _record(
        conn: psycopg.Connection, job: IngestJob, status: str, material_id, error: str | None
    ) -> None:
        conn.execute(
            "INSERT INTO ingest_jobs (idempotency_key, job_id, subject_id, status, material_id,"
            " error, attempts, user_id, filename) VALUES (%s, %s, %s, %s, %s, %s, 1, %s, %s)"
            " ON CONFLICT (idempotency_key) DO UPDATE SET status = EXCLUDED.status,"
            " job_id = EXCLUDED.job_id, material_id = EXCLUDED.material_id, error = EXCLUDED.error,"
            " attempts = ingest_jobs.attempts + 1, updated_at = now(),"
            " user_id = EXCLUDED.user_id, filename = EXCLUDED.filename",
            (
                job.idempotency_key,
                job.job_id,
                job.subject_id,
                status,
                material_id,
                error,
                job.user_id,
                job.filename,
            ),
        )

    def runner(self) -> StageRunner:
        return StageRunner(
            self.settings,
            stage="ingestor",
            group_id="ingestor",
            source=INGEST_JOBS,
            event_type=IngestJob,
            handle=self.on_job,
            batch_size=4,
            transient=db.transient,
            on_poison=self.on_poison,
        )


def outcome_of(
    job: IngestJob, status: str, material_id=None, version=0, chunks=0, error=None
) -> ChunksStored:
    """The job's outcome on ``chunks.stored``: STORED, DUPLICATE or FAILED with the reason."""
    return ChunksStored(
        job_id=job.job_id,
        idempotency_key=job.idempotency_key,
        subject_id=job.subject_id,
        user_id=job.user_id,
        filename=job.filename,
        status=status,
        material_id=str(material_id) if material_id else None,
        version=version,
        chunk_count=chunks,
        error=error,
    )


def stored_change(job: IngestJob, outcome: ChunksStored) -> MaterialChanged:
    """The audit record of a new version (``materials.changes``)."""
    return MaterialChanged(
        change_id=f"{outcome.material_id}:stored",
        subject_id=job.subject_id,
        material_id=str(outcome.material_id),
        material_key=job.material_key
        or material_key(job.subject_id, job.filename, job.visibility, job.user_id),
        version=outcome.version,
        action="STORED",
        user_id=job.user_id,
        changed_at_ms=now_ms(),
        title=job.title,
        filename=job.filename,
        visibility=job.visibility,
    )


def run(stop: threading.Event, settings: IngestionSettings | None = None) -> None:
    settings = settings or IngestionSettings()
    embedder = make_embedder(settings)
    warm_up(embedder)
    if not db.migrate_when_reachable(settings, stop):
        return
    run_runners([Ingestor(settings, embedder=embedder).runner()], stop)
