"""Request and response bodies of the HTTP API (the OpenAPI schemas come from these)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from services.common.events import IngestJob
from services.professor.stages import MAX_ITERATIONS
from services.sdk import MAX_QUESTION_CHARS

SubjectId = Field(min_length=1, max_length=200, description="Subject (course) id.")


class QuestionIn(BaseModel):
    subject_id: str = SubjectId
    question: str = Field(
        description=f"The question, 1 to {MAX_QUESTION_CHARS} characters after trimming."
    )
    max_iterations: int | None = Field(
        None,
        ge=1,
        le=MAX_ITERATIONS,
        description=f"Search iterations allowed (default and upper bound {MAX_ITERATIONS}).",
    )
    conversation_id: str | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="Continue this conversation (a follow-up is planned with its earlier"
        " turns); default: a new conversation, named by the returned conversation_id.",
    )

    @field_validator("question")
    @classmethod
    def _question_fits(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("the question is empty")
        if len(value) > MAX_QUESTION_CHARS:
            raise ValueError(
                f"the question has {len(value)} characters; at most {MAX_QUESTION_CHARS}"
            )
        return value


class QuestionAccepted(BaseModel):
    session_id: str
    conversation_id: str = Field(description="Pass it with a follow-up question.")
    events_url: str = Field(description="SSE stream of the session's answer events.")
    session_url: str = Field(description="The session's recorded state.")


class UploadAccepted(BaseModel):
    job_id: str
    idempotency_key: str = Field(
        description="An upload's: hash of subject and bytes (same file, same key); a re-read's:"
        " its own, per job."
    )
    subject_id: str
    filename: str
    size_bytes: int
    sha256: str
    status_url: str

    @classmethod
    def of(cls, job: IngestJob) -> UploadAccepted:
        return cls(
            job_id=job.job_id,
            idempotency_key=job.idempotency_key,
            subject_id=job.subject_id,
            filename=job.filename,
            size_bytes=job.size_bytes,
            sha256=job.sha256,
            status_url=f"/v1/ingest/{job.idempotency_key}",
        )


class IngestStatus(BaseModel):
    idempotency_key: str
    job_id: str
    subject_id: str
    status: Literal["PENDING", "STORED", "DUPLICATE", "FAILED"]
    material_id: str | None = None
    error: str | None = None
    attempts: int
    updated_at: datetime


Role = Literal["teacher", "student"]


class Me(BaseModel):
    user_id: str = Field(description="The user the bearer token stands for.")


class SubjectOut(BaseModel):
    subject_id: str
    title: str
    role: Role


class EnrollmentIn(BaseModel):
    user_id: str = Field(min_length=1, max_length=200)
    role: Role = "student"


class EnrollmentOut(BaseModel):
    subject_id: str
    user_id: str
    role: Role


class MaterialOut(BaseModel):
    material_id: str
    material_key: str = Field(description="Names the document across its versions.")
    subject_id: str
    title: str
    filename: str
    version: int
    is_active: bool
    visibility: Literal["subject", "private"]
    owner_id: str
    chunk_count: int
    ingest_status: str
    versions: int | None = Field(None, description="How many versions the document has.")
    created_at: datetime
    updated_at: datetime


class UploadOut(BaseModel):
    idempotency_key: str
    job_id: str
    filename: str
    user_id: str
    status: Literal["PENDING", "FAILED"]
    error: str | None = None
    updated_at: datetime


class MaterialsOut(BaseModel):
    role: Role = Field(description="The caller's role in the subject.")
    materials: list[MaterialOut]
    uploads: list[UploadOut] = Field(description="Uploads still pending or failed (last day).")


class DeletedOut(BaseModel):
    material_key: str
    deleted_versions: list[MaterialOut]
    deleted_blobs: int


class PassageOut(BaseModel):
    chunk_id: str
    material_id: str
    title: str
    filename: str
    version: int
    page: int | None = None
    heading_path: list[str]
    text: str
    is_active: bool


class BestPassage(BaseModel):
    chunk_id: str
    material_id: str
    title: str
    page: int | None = None
    snippet: str
    score: float


class UnansweredEntry(BaseModel):
    session_id: str
    user_id: str
    question: str
    stop_reason: str
    missing_tasks: list[str]
    best_passages: list[BestPassage]
    created_at: datetime
    resolved_at: datetime | None = None
    resolved_by: str | None = None
    resolution: str = ""


class UnansweredGroup(BaseModel):
    task: str = Field(description="A task the loop could not satisfy.")
    count: int
    entries: list[UnansweredEntry]


class UnansweredOut(BaseModel):
    subject_id: str
    total: int
    groups: list[UnansweredGroup]


class ResolveIn(BaseModel):
    note: str = Field("", max_length=2000, description="What was done (e.g. material added).")


class SearchTestIn(BaseModel):
    query: str = Field(min_length=1, max_length=2000)
    mode: Literal["hybrid", "bm25", "vector"] = "hybrid"
    k: int | None = Field(None, ge=1, le=200, description="Default: the engine's dynamic k.")
    loop: bool = Field(
        False, description="Also run the whole loop (direct mode): plan, iterations, answer."
    )


class SearchCandidate(BaseModel):
    rank: int
    chunk_id: str
    material_id: str
    title: str
    page: int | None = None
    heading_path: list[str]
    text: str
    score: float
    ranks: dict[str, int] = Field(description="1-based rank per retriever (bm25, vector).")
    scores: dict[str, float]


class SearchOut(BaseModel):
    k: int
    n_scope: int
    vector_path: str | None = None
    candidates: list[SearchCandidate]


class LoopOut(BaseModel):
    plan: dict[str, Any]
    iterations: list[dict[str, Any]]
    status: str | None = None
    answer: str
    citations: list[dict[str, Any]]
    stop_reason: str


class SearchTestOut(BaseModel):
    search: SearchOut
    loop: LoopOut | None = None


class CitationOut(BaseModel):
    n: int
    material_id: str
    title: str
    page: int | None = None
    chunk_id: str
    snippet: str


class TurnOut(BaseModel):
    session_id: str
    question: str
    status: str
    answer: str | None = None
    citations: list[CitationOut] = Field(default_factory=list)
    iterations: int
    created_at: datetime


class SessionView(BaseModel):
    session_id: str
    subject_id: str
    question: str
    status: str = Field(description="RUNNING, ANSWERED, INSUFFICIENT or FAILED.")
    stop_reason: str | None = None
    answer: str | None = None
    citations: list[CitationOut] = Field(default_factory=list)
    iterations: int
    created_at: datetime
    finished_at: datetime | None = None


class Health(BaseModel):
    status: Literal["ok"] = "ok"


class Problem(BaseModel):
    detail: str


_REASONS = {
    401: "Missing, unknown, expired or invalid bearer token.",
    403: "The user is not enrolled in the subject, their role does not allow this,"
    " or the resource is someone else's.",
    404: "Unknown subject, session, material, passage or ingest key.",
    413: "The upload is larger than MAX_UPLOAD_BYTES.",
    502: "Object storage refused the operation (or the insights service failed).",
    503: "Kafka or PostgreSQL (or, for insights, the insights service) is not available.",
}


def problems(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for the error codes a route may answer."""
    return {code: {"model": Problem, "description": _REASONS[code]} for code in codes}


# --- insights (the insights service's subject view, proxied for teachers) ---------------------


class LatencyOut(BaseModel):
    count: int
    p50: float | None = Field(None, description="Median, ms (DDSketch, within 1%).")
    p95: float | None = Field(None, description="95th percentile, ms (DDSketch, within 1%).")


class OutcomeCounts(BaseModel):
    questions: int = Field(description="Questions asked.")
    finished: int = Field(description="Questions with a final answer.")
    answered: int
    insufficient: int
    failed: int
    unanswered_share: float | None = Field(None, description="(insufficient + failed) / finished.")
    mean_iterations: float | None = None
    latency_ms: LatencyOut


class InsightsWindow(OutcomeCounts):
    start_ms: int = Field(description="Start of the tumbling window (UTC epoch ms).")


class UnansweredTopic(BaseModel):
    keyword: str = Field(
        description="A keyword of a required task that answers left unanswered (INSUFFICIENT, "
        "or answered in part)."
    )
    sessions: int
    last_asked_ms: int
    example_question: str
    task: str


class MaterialUse(BaseModel):
    material_id: str
    title: str
    filename: str
    version: int | None = None
    chunks: int | None = None
    active: bool
    cited: int = Field(description="Answers that cite this material.")


class InsightsOut(OutcomeCounts):
    subject_id: str
    hourly: list[InsightsWindow] = Field(description="The last 24 hours, oldest first.")
    daily: list[InsightsWindow] = Field(description="The last 14 days (UTC), oldest first.")
    unanswered_topics: list[UnansweredTopic]
    materials: list[MaterialUse]
    complete: bool = Field(description="Every partition of every table answered.")
    coverage: dict[str, Any]
    generated_at_ms: int
