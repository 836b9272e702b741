"""The gateway: producers' HTTP API (uploads, questions, answer streams) and the web console.

Routes authenticate with bearer tokens (``auth.py``), check enrollment in
PostgreSQL, publish ``IngestJob`` / ``QuestionAsked`` through the producer
SDK and stream ``answers`` back as Server-Sent Events. ``run`` serves it with
uvicorn until the service's stop event is set.
"""

from __future__ import annotations

import logging
import threading
import uuid
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Literal

import anyio
import uvicorn
from confluent_kafka import KafkaException
from fastapi import FastAPI, File, Form, HTTPException, Path, Request, UploadFile, status
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sse_starlette import EventSourceResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from services.common import db
from services.common.blobstore import BlobStore
from services.common.errors import (
    BlobStoreError,
    EduanimaError,
    Forbidden,
    InvalidInput,
    NotEnrolled,
    StoreError,
)
from services.gateway import queries, routes, teaching
from services.gateway.auth import Authenticator, CurrentUser
from services.gateway.backends import Backends
from services.gateway.catalog import UnknownMaterial
from services.gateway.insights import InsightsFailed, InsightsUnavailable
from services.gateway.metrics import QUESTIONS_ACCEPTED, UPLOADED_BYTES, UPLOADS_ACCEPTED
from services.gateway.models import (
    Health,
    IngestStatus,
    QuestionAccepted,
    QuestionIn,
    SessionView,
    UploadAccepted,
    problems,
)
from services.gateway.settings import GatewaySettings
from services.gateway.streaming import answer_stream

logger = logging.getLogger(__name__)

API_VERSION = "0.1.0"
# multipart framing around the file: boundaries, part headers, the small form fields
MULTIPART_SLACK_BYTES = 64 * 1024


class GatewayError(EduanimaError):
    """The gateway could not serve (for example: its HTTP server stopped)."""


class BodyLimit:
    """Refuses a declared body larger than ``limit`` before any of it is read."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            declared = dict(scope["headers"]).get(b"content-length", b"")
            if declared.isdigit() and int(declared) > self.limit:
                response = JSONResponse(
                    {"detail": f"the request body has {int(declared)} bytes; at most {self.limit}"},
                    status_code=status.HTTP_413_CONTENT_TOO_LARGE,
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def invalid_input(_request: Request, exc: Exception) -> JSONResponse:
    """422 in the same shape as FastAPI's own validation errors, so clients parse one format."""
    detail = [{"type": "value_error", "loc": ["body"], "msg": str(exc)}]
    return JSONResponse({"detail": detail}, status_code=status.HTTP_422_UNPROCESSABLE_CONTENT)


def _error_handlers(app: FastAPI) -> None:
    def problem(code: int):
        async def handle(_request: Request, exc: Exception) -> JSONResponse:
            if code >= 500:
                logger.warning("answering %s: %s", code, exc)
            return JSONResponse({"detail": str(exc)}, status_code=code)

        return handle

    app.add_exception_handler(queries.UnknownSubject, problem(404))
    app.add_exception_handler(UnknownMaterial, problem(404))
    app.add_exception_handler(teaching.UnknownEntry, problem(404))
    app.add_exception_handler(NotEnrolled, problem(403))
    app.add_exception_handler(Forbidden, problem(403))
    app.add_exception_handler(InvalidInput, invalid_input)
    app.add_exception_handler(BlobStoreError, problem(502))
    app.add_exception_handler(StoreError, problem(503))
    app.add_exception_handler(KafkaException, problem(503))
    app.add_exception_handler(InsightsFailed, problem(502))
    app.add_exception_handler(InsightsUnavailable, problem(503))


def create_app(
    settings: GatewaySettings | None = None, backends: Backends | None = None
) -> FastAPI:
    settings = settings or GatewaySettings()
    backends = backends or Backends(settings)
    auth = Authenticator.from_settings(settings)
    if not auth:
        logger.warning(
            "neither GATEWAY_TOKENS nor GATEWAY_JWKS is set: every authenticated request"
            " will answer 401"
        )

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        yield
        backends.close()

    app = FastAPI(
        title="eduanima gateway",
        version=API_VERSION,
        description="Upload and manage course materials, ask questions (and follow-ups) and"
        " stream their answers (Server-Sent Events); teachers also read the unanswered log"
        " and run search tests. Authenticate with `Authorization: Bearer <token>`: a static"
        " token (GATEWAY_TOKENS) or a JWT of the configured OIDC provider.",
        lifespan=lifespan,
    )
    app.state.auth = auth
    app.add_middleware(BodyLimit, limit=settings.max_upload_bytes + MULTIPART_SLACK_BYTES)
    _error_handlers(app)

    @app.get("/", include_in_schema=False)
    def console() -> HTMLResponse:
        page = resources.files("services.gateway").joinpath("static/index.html")
        return HTMLResponse(page.read_text(encoding="utf-8"))

    # the console's script and style sheet (plain files: no build step)
    app.mount("/static", StaticFiles(packages=[("services.gateway", "static")]), name="static")

    @app.get("/healthz", tags=["ops"])
    def healthz() -> Health:
        """Liveness: the process serves HTTP."""
        return Health()

    @app.get(
        "/metrics",
        tags=["ops"],
        response_class=Response,
        responses={
            200: {
                "content": {CONTENT_TYPE_LATEST: {"schema": {"type": "string"}}},
                "description": "Prometheus text exposition.",
            }
        },
    )
    def metrics() -> Response:
        return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)

    @app.post(
        "/v1/subjects/{subject_id}/materials",
        tags=["materials"],
        status_code=202,
        responses=problems(401, 403, 404, 413, 502, 503),
    )
    def upload_material(
        subject_id: Annotated[str, Path(min_length=1, max_length=200)],
        user: CurrentUser,
        file: Annotated[
            UploadFile,
            File(description="The original: PDF, Word, PowerPoint, Excel, Markdown, text …"),
        ],
        title: Annotated[str, Form(max_length=500)] = "",
        visibility: Annotated[Literal["subject", "private"], Form()] = "subject",
    ) -> UploadAccepted:
        """Store the file in object storage and publish its IngestJob (ingested asynchronously).

        Shared materials (``subject``) are published by the subject's teachers only; anyone
        enrolled may upload a ``private`` note, kept under their own identity."""
        with backends.pool.connection() as conn:
            role = queries.require_member(conn, subject_id, user)
            if visibility == "subject" and role != "teacher":
                raise Forbidden(
                    f"only a teacher of {subject_id!r} publishes shared materials;"
                    " upload it with visibility=private as your own note"
                )
        data = file.file.read(settings.max_upload_bytes + 1)
        if len(data) > settings.max_upload_bytes:
            raise HTTPException(
                status.HTTP_413_CONTENT_TOO_LARGE,
                f"the file is larger than {settings.max_upload_bytes} bytes",
            )
        if not data:
            raise InvalidInput("the file is empty")
        job = backends.client.upload_bytes(
            data,
            file.filename or "upload",
            subject_id,
            user,
            title=title.strip(),
            visibility=visibility,
            blobs=backends.blobs,
        )
        with backends.pool.connection() as conn:
            queries.record_pending(conn, job)
        backends.client.publish_ingest_job(job)
        UPLOADS_ACCEPTED.inc()
        UPLOADED_BYTES.inc(len(data))
        logger.info("upload %s by %s in %s: %s", job.job_id, user, subject_id, job.filename)
        return UploadAccepted.of(job)

    @app.get("/v1/ingest/{idempotency_key}", tags=["materials"], responses=problems(401, 403, 404))
    def ingest_job_status(idempotency_key: str, user: CurrentUser) -> IngestStatus:
        """Where an upload stands: PENDING until the ingestor settles it."""
        with backends.pool.connection() as conn:
            row = queries.ingest_status(conn, idempotency_key)
            if row is None:
                raise HTTPException(status.HTTP_404_NOT_FOUND, "unknown ingest key")
            queries.require_member(conn, row["subject_id"], user)
        return IngestStatus(**row)

    @app.post(
        "/v1/questions",
        tags=["questions"],
        status_code=202,
        responses=problems(401, 403, 404, 503),
    )
    def ask(body: QuestionIn, user: CurrentUser) -> QuestionAccepted:
        """Publish the question; follow its answer on the events URL. With the
        ``conversation_id`` of an earlier answer it is a follow-up ("why is that?")."""
        session_id = str(uuid.uuid4())
        conversation_id = body.conversation_id or session_id
        with backends.pool.connection() as conn:
            queries.require_member(conn, body.subject_id, user)
            teaching.check_conversation(conn, conversation_id, user, body.subject_id)
        backends.client.ask(
            body.subject_id,
            user,
            body.question,
            session_id=session_id,
            max_iterations=body.max_iterations,
            conversation_id=conversation_id,
        )
        QUESTIONS_ACCEPTED.inc()
        return QuestionAccepted(
            session_id=session_id,
            conversation_id=conversation_id,
            events_url=f"/v1/sessions/{session_id}/events",
            session_url=f"/v1/sessions/{session_id}",
        )

    def owner_of(session_id: str) -> str | None:
        with backends.pool.connection() as conn:
            return queries.session_owner(conn, session_id)

    def started_ms(session_id: str) -> int | None:
        with backends.pool.connection() as conn:
            return queries.session_started_ms(conn, session_id)

    async def require_owner(session_id: str, user: str) -> None:
        """The professor records a session when it plans it: wait a little for a new one."""
        deadline = anyio.current_time() + settings.gateway_session_wait_s
        while (owner := await anyio.to_thread.run_sync(owner_of, session_id)) is None:
            if anyio.current_time() >= deadline:
                raise HTTPException(status.HTTP_404_NOT_FOUND, "unknown session")
            await anyio.sleep(0.25)
        if owner != user:
            raise HTTPException(status.HTTP_403_FORBIDDEN, "the session belongs to another user")

    @app.get(
        "/v1/sessions/{session_id}/events",
        tags=["questions"],
        response_class=EventSourceResponse,
        responses={
            200: {
                "description": "Server-Sent Events: `progress`, `delta`, then one `final`"
                " (data: the AnswerEvent as JSON, id: its seq); `error` if none arrives in time.",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            },
            **problems(401, 403, 404),
        },
    )
    async def session_events(session_id: str, user: CurrentUser) -> EventSourceResponse:
        """Stream the session's answer events, for the user who asked."""
        await require_owner(session_id, user)
        since_ms = await anyio.to_thread.run_sync(started_ms, session_id)
        return EventSourceResponse(
            answer_stream(backends.client, session_id, settings.gateway_follow_timeout_s, since_ms)
        )

    @app.get("/v1/sessions/{session_id}", tags=["questions"], responses=problems(401, 403, 404))
    def session_state(session_id: str, user: CurrentUser) -> SessionView:
        """The session as recorded: status, answer and citations once it has finished."""
        with backends.pool.connection() as conn:
            row = queries.session_row(conn, session_id)
        if row is None:
            raise HTTPException(status.HTTP_404_NOT_FOUND, "unknown session")
        if row["user_id"] != user:
            raise HTTPException(status.HTTP_403_FORBIDDEN, "the session belongs to another user")
        return SessionView(**row)

    app.include_router(routes.router(backends))
    return app


def run(stop: threading.Event, settings: GatewaySettings | None = None) -> None:
    """Serve until ``stop`` is set; a server that dies on its own is an error."""
    settings = settings or GatewaySettings()
    if not db.migrate_when_reachable(settings, stop):
        return
    if settings.storage_emulator_host:
        BlobStore(settings).ensure_bucket()  # emulators start empty; real buckets are provisioned
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(settings),
            host=settings.gateway_host,
            port=settings.gateway_port,
            log_config=None,
            lifespan="on",
        )
    )
    # off the main thread uvicorn leaves signals alone: services.common.service owns them
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    logger.info("gateway on http://%s:%s", settings.gateway_host, settings.gateway_port)
    while thread.is_alive() and not stop.wait(0.5):
        pass
    server.should_exit = True
    thread.join(30)
    if not stop.is_set():
        raise GatewayError(
            f"the HTTP server on {settings.gateway_host}:{settings.gateway_port} stopped"
            " (is the port in use?)"
        )
