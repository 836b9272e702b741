"""Routes for roles and teaching: my subjects, enrollment, materials, cited passages, the
unanswered log, insights, the search test and conversations.

Every write checks the caller's role in PostgreSQL; the user is always the token's.
Routes only teachers (or, for a private note, its owner) may call carry
``x-eduanima-role`` in the OpenAPI document, and a test sends a student's token to
each of them.
"""

from __future__ import annotations

import logging
from typing import Annotated

from fastapi import APIRouter, Body, Path, Query
from fastapi.concurrency import run_in_threadpool

from services.common.errors import BlobStoreError
from services.common.events import MaterialChanged
from services.gateway import catalog, insights, search_test, teaching
from services.gateway.auth import CurrentUser
from services.gateway.backends import Backends
from services.gateway.models import (
    DeletedOut,
    EnrollmentIn,
    EnrollmentOut,
    InsightsOut,
    MaterialOut,
    MaterialsOut,
    Me,
    PassageOut,
    ResolveIn,
    SearchTestIn,
    SearchTestOut,
    SubjectOut,
    TurnOut,
    UnansweredEntry,
    UnansweredOut,
    UploadAccepted,
    problems,
)
from services.gateway.queries import record_pending, require_member
from topics.registry import MATERIALS_CHANGES

logger = logging.getLogger(__name__)

SubjectPath = Annotated[str, Path(min_length=1, max_length=200)]
TEACHER = {"x-eduanima-role": "teacher"}
TEACHER_OR_OWNER = {"x-eduanima-role": "teacher of the subject, or the owner of a private note"}


def router(backends: Backends) -> APIRouter:
    api = APIRouter()

    def publish(changes: list[MaterialChanged]) -> None:
        """The audit trail, after the change has committed."""
        for item in changes:
            backends.client.publisher.publish(MATERIALS_CHANGES, item.material_key, item)
        if changes:
            backends.client.publisher.flush()

    @api.get("/v1/me", tags=["subjects"], responses=problems(401))
    def me(user: CurrentUser) -> Me:
        """Who the bearer token stands for."""
        return Me(user_id=user)

    @api.get("/v1/subjects", tags=["subjects"], responses=problems(401, 503))
    def subjects(user: CurrentUser) -> list[SubjectOut]:
        """The subjects I am enrolled in, with my role in each."""
        with backends.pool.connection() as conn:
            return [SubjectOut(**row) for row in teaching.my_subjects(conn, user)]

    @api.post(
        "/v1/subjects/{subject_id}/enrollments",
        tags=["subjects"],
        openapi_extra=TEACHER,
        responses=problems(401, 403, 404, 503),
    )
    def enroll(subject_id: SubjectPath, body: EnrollmentIn, user: CurrentUser) -> EnrollmentOut:
        """Enroll a user (or change their role). Teachers only."""
        with backends.pool.connection() as conn:
            require_member(conn, subject_id, user)
            teaching.enroll_user(conn, subject_id, user, body.user_id, body.role)
        logger.info("%s enrolled %s in %s as %s", user, body.user_id, subject_id, body.role)
        return EnrollmentOut(subject_id=subject_id, user_id=body.user_id, role=body.role)

    # --- materials ------------------------------------------------------------------------

    @api.get(
        "/v1/subjects/{subject_id}/materials",
        tags=["materials"],
        responses=problems(401, 403, 404, 503),
    )
    def list_materials(subject_id: SubjectPath, user: CurrentUser) -> MaterialsOut:
        """Each document once (its active version, else its latest) and uploads in flight.
        Teachers see every shared material, active or not; students the active ones; each
        user also their own private notes."""
        with backends.pool.connection() as conn:
            role = require_member(conn, subject_id, user)
            materials = catalog.list_materials(conn, subject_id, user, role)
            uploads = catalog.recent_uploads(conn, subject_id, user, role)
        return MaterialsOut(
            role=role,
            materials=[MaterialOut(**m) for m in materials],
            uploads=uploads,  # type: ignore[arg-type]
        )

    @api.get(
        "/v1/materials/{material_id}/history",
        tags=["materials"],
        responses=problems(401, 403, 404, 503),
    )
    def material_history(material_id: str, user: CurrentUser) -> list[MaterialOut]:
        """Every version of the material's document, newest first."""
        with backends.pool.connection() as conn:
            return [MaterialOut(**row) for row in catalog.history(conn, material_id, user)]

    def set_active(material_id: str, user: str, active: bool) -> MaterialOut:
        with backends.pool.connection() as conn:
            row, changes = catalog.set_active(conn, material_id, user, active)
            conn.commit()
        publish(changes)
        return MaterialOut(**row)

    @api.post(
        "/v1/materials/{material_id}/deactivate",
        tags=["materials"],
        openapi_extra=TEACHER_OR_OWNER,
        responses=problems(401, 403, 404, 503),
    )
    def deactivate(material_id: str, user: CurrentUser) -> MaterialOut:
        """Take this version out of search at once (its rows and blob stay)."""
        return set_active(material_id, user, False)

    @api.post(
        "/v1/materials/{material_id}/reactivate",
        tags=["materials"],
        openapi_extra=TEACHER_OR_OWNER,
        responses=problems(401, 403, 404, 503),
    )
    def reactivate(material_id: str, user: CurrentUser) -> MaterialOut:
        """Make this version the document's active one again (another active version of
        the document is deactivated)."""
        return set_active(material_id, user, True)

    @api.post(
        "/v1/materials/{material_id}/reread",
        tags=["materials"],
        status_code=202,
        openapi_extra=TEACHER_OR_OWNER,
        responses=problems(401, 403, 404, 502, 503),
    )
    def reread(material_id: str, user: CurrentUser) -> UploadAccepted:
        """Read the active version's original again with today's parser and chunker (after
        a parser change). A new version when its chunks come out different; DUPLICATE, and
        nothing stored, when they do not."""
        with backends.pool.connection() as conn:
            job = catalog.reread_job(conn, material_id, user, backends.blobs.get)
            record_pending(conn, job)
        backends.client.publish_ingest_job(job)
        logger.info("re-read %s of %s by %s", job.job_id, job.material_key, user)
        return UploadAccepted.of(job)

    @api.delete(
        "/v1/materials/{material_id}",
        tags=["materials"],
        openapi_extra=TEACHER_OR_OWNER,
        responses=problems(401, 403, 404, 502, 503),
    )
    def delete(material_id: str, user: CurrentUser) -> DeletedOut:
        """Delete the document: every version's rows and chunks (gone from search at once),
        then its original files in storage."""
        with backends.pool.connection() as conn:
            deleted, changes = catalog.delete_material(conn, material_id, user)
            conn.commit()
        publish(changes)
        removed = 0
        for uri in deleted.orphaned_blobs:
            try:
                removed += backends.blobs.delete(uri)
            except BlobStoreError as exc:  # the rows are gone: say so, and which file stays
                logger.warning("material %s deleted, but its blob stays: %s", material_id, exc)
                raise BlobStoreError(
                    f"the material was deleted, but its original file stays in storage: {exc}"
                ) from exc
        return DeletedOut(
            material_key=deleted.material_key,
            deleted_versions=[MaterialOut(**v) for v in deleted.versions],
            deleted_blobs=removed,
        )

    @api.get("/v1/chunks/{chunk_id}", tags=["materials"], responses=problems(401, 403, 404, 503))
    def cited_passage(chunk_id: str, user: CurrentUser) -> PassageOut:
        """A cited passage with its material, page and heading path."""
        with backends.pool.connection() as conn:
            return PassageOut(**catalog.passage(conn, chunk_id, user))

    # --- the unanswered log -----------------------------------------------------------------

    @api.get(
        "/v1/subjects/{subject_id}/unanswered",
        tags=["teaching"],
        openapi_extra=TEACHER,
        responses=problems(401, 403, 404, 503),
    )
    def unanswered(
        subject_id: SubjectPath,
        user: CurrentUser,
        include_resolved: Annotated[bool, Query(description="Resolved entries too.")] = False,
    ) -> UnansweredOut:
        """Questions the materials could not answer, grouped by the task left missing."""
        with backends.pool.connection() as conn:
            require_member(conn, subject_id, user)
            entries = teaching.unanswered(conn, subject_id, user, include_resolved)
        return UnansweredOut(
            subject_id=subject_id,
            total=len(entries),
            groups=teaching.group_by_missing_task(entries),  # type: ignore[arg-type]
        )

    @api.post(
        "/v1/unanswered/{session_id}/resolve",
        tags=["teaching"],
        openapi_extra=TEACHER,
        responses=problems(401, 403, 404, 503),
    )
    def resolve(
        session_id: str, user: CurrentUser, body: Annotated[ResolveIn | None, Body()] = None
    ) -> UnansweredEntry:
        """Mark an unanswered question resolved (for example: the material now covers it)."""
        with backends.pool.connection() as conn:
            row = teaching.resolve(conn, session_id, user, body.note.strip() if body else "")
            conn.commit()
        return UnansweredEntry(**row)

    # --- insights ---------------------------------------------------------------------------

    @api.get(
        "/v1/subjects/{subject_id}/insights",
        tags=["teaching"],
        openapi_extra=TEACHER,
        responses=problems(401, 403, 404, 502, 503),
    )
    async def subject_insights(subject_id: SubjectPath, user: CurrentUser) -> InsightsOut:
        """Live insights from the insights service: questions asked and answered per hour and
        day, the share not answered, mean iterations and latency, the topics the materials
        do not cover, and how often answers cite each material. Teachers only."""

        def check() -> None:
            with backends.pool.connection() as conn:
                require_member(conn, subject_id, user)
                teaching.require_teacher(conn, subject_id, user)

        await run_in_threadpool(check)
        view = await insights.subject_view(backends.settings.insights_url, subject_id)
        return InsightsOut(**view)

    # --- the search test ----------------------------------------------------------------------

    @api.post(
        "/v1/subjects/{subject_id}/search-test",
        tags=["teaching"],
        openapi_extra=TEACHER,
        responses=problems(401, 403, 404, 503),
    )
    async def run_search_test(
        subject_id: SubjectPath, body: SearchTestIn, user: CurrentUser
    ) -> SearchTestOut:
        """The physical search with a chosen mode and k, each candidate with its per-retriever
        ranks and scores; with ``loop``, also the whole loop in direct mode (plan, each
        iteration's decision, the answer). Runs as the teacher; records nothing."""

        def work() -> SearchTestOut:
            with backends.pool.connection() as conn:
                require_member(conn, subject_id, user)
                teaching.require_teacher(conn, subject_id, user)
            search = search_test.run_search(
                backends.pool, backends.embedder, subject_id, user, body.query, body.mode, body.k
            )
            loop = None
            if body.loop:
                loop = search_test.run_loop(
                    backends.pool, backends.embedder, backends.engine, subject_id, user, body.query
                )
            return SearchTestOut(search=search, loop=loop)  # type: ignore[arg-type]

        return await run_in_threadpool(work)

    # --- conversations ----------------------------------------------------------------------------

    @api.get(
        "/v1/conversations/{conversation_id}",
        tags=["questions"],
        responses=problems(401, 403, 404, 503),
    )
    def conversation(conversation_id: str, user: CurrentUser) -> list[TurnOut]:
        """The turns of my conversation, oldest first."""
        with backends.pool.connection() as conn:
            return [TurnOut(**row) for row in teaching.conversation(conn, conversation_id, user)]

    return api
