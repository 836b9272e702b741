"""Request and response bodies of the HTTP API (the OpenAPI schemas come from these)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, field_validator

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
    events_url: str = Field(description="SSE stream of the session's answer events.")
    session_url: str = Field(description="The session's recorded state.")


class UploadAccepted(BaseModel):
    job_id: str
    idempotency_key: str = Field(description="Hash of subject and bytes: same file, same key.")
    subject_id: str
    filename: str
    size_bytes: int
    sha256: str
    status_url: str


class IngestStatus(BaseModel):
    idempotency_key: str
    job_id: str
    subject_id: str
    status: Literal["PENDING", "STORED", "DUPLICATE", "FAILED"]
    material_id: str | None = None
    error: str | None = None
    attempts: int
    updated_at: datetime


class CitationOut(BaseModel):
    n: int
    material_id: str
    title: str
    page: int | None = None
    chunk_id: str
    snippet: str


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
