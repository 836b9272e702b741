"""Typed events, one dataclass per Avro record in ``schemas/``.

Services work with these; the codec converts at the boundary with
``to_record`` / ``from_record``. A unit test holds every dataclass against
its schema, field by field, so the two cannot drift apart. Avro enums are
plain strings here (their symbols).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from dataclasses import dataclass, field
from typing import Any, TypeVar

# --- shared records -------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    task_id: str
    description: str
    keywords: list[str] = field(default_factory=list)
    required: bool = True


@dataclass(frozen=True)
class StopCondition:
    kind: str  # SUFFICIENCY | UNAMBIGUITY | VISUAL_CHECK
    description: str


@dataclass(frozen=True)
class SearchFilters:
    material_ids: list[str] = field(default_factory=list)
    page_from: int | None = None
    page_to: int | None = None


@dataclass(frozen=True)
class Plan:
    tasks: list[Task]
    stop_conditions: list[StopCondition]
    complexity: float
    max_iterations: int
    deadline_ms: int
    language: str
    text_queries: list[str]
    vector_query: str
    filters: SearchFilters = field(default_factory=SearchFilters)


@dataclass(frozen=True)
class TaskStatus:
    task_id: str
    satisfied: bool
    best_score: float = 0.0


@dataclass(frozen=True)
class Evidence:
    chunk_id: str
    material_id: str
    material_title: str
    page: int | None
    task_id: str
    snippet: str
    score: float
    reason: str
    iteration: int
    chunk_text: str = ""
    neighbour_text: str = ""
    rank: int = 0  # the search's best rank of the chunk when it was found (0: unknown)
    heading: str = ""  # the chunk's innermost section heading: judged with it, never quoted


@dataclass(frozen=True)
class Candidate:
    temp_index: int
    chunk_id: str
    material_id: str
    material_title: str
    page: int | None
    heading_path: list[str]
    ordinal: int
    text: str
    prev_text: str | None
    next_text: str | None
    score: float
    ranks: dict[str, int] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Citation:
    n: int
    material_id: str
    title: str
    page: int | None
    chunk_id: str
    snippet: str


@dataclass(frozen=True)
class LoopState:
    question: str
    subject_id: str
    user_id: str
    plan: Plan
    evidence: list[Evidence]
    task_status: list[TaskStatus]
    started_at_ms: int
    fallbacks: list[str] = field(default_factory=list)


# --- events ---------------------------------------------------------------------------


@dataclass(frozen=True)
class IngestJob:
    job_id: str
    idempotency_key: str
    subject_id: str
    user_id: str
    blob_uri: str
    filename: str
    mime_type: str
    sha256: str
    size_bytes: int
    submitted_at_ms: int
    title: str = ""
    visibility: str = "subject"
    material_key: str = ""
    reread: bool = False  # parse the active version's original again (after a parser change)


@dataclass(frozen=True)
class ChunksStored:
    job_id: str
    idempotency_key: str
    subject_id: str
    user_id: str
    filename: str
    status: str  # STORED | DUPLICATE | FAILED
    material_id: str | None = None
    version: int = 0
    chunk_count: int = 0
    duration_ms: int = 0
    error: str | None = None


@dataclass(frozen=True)
class QuestionAsked:
    session_id: str
    subject_id: str
    user_id: str
    question: str
    asked_at_ms: int
    max_iterations: int | None = None
    timeout_ms: int | None = None
    conversation_id: str | None = None


@dataclass(frozen=True)
class SearchRequest:
    session_id: str
    iteration: int
    strategy: str
    text_queries: list[str]
    vector_query: str
    state: LoopState
    focus_task_ids: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SearchResult:
    session_id: str
    iteration: int
    strategy: str
    candidates: list[Candidate]
    k: int
    n_scope: int
    n_excluded: int
    retry: int
    state: LoopState
    focus_task_ids: list[str] = field(default_factory=list)
    failure: str = ""  # the searcher failed on the request every time: no candidates
    nearest: float = -1.0  # cosine of the vector query to the nearest unseen chunk; -1: none


@dataclass(frozen=True)
class Evaluation:
    session_id: str
    iteration: int
    new_evidence: int
    route: str  # COMPLETE | CONTINUE
    route_reason: str
    state: LoopState
    next_focus: list[str] = field(default_factory=list)
    next_strategy: str = ""
    next_text_queries: list[str] = field(default_factory=list)
    next_vector_query: str = ""
    failure: str = ""  # the iteration could not be evaluated: the session ends FAILED
    failed_stage: str = ""  # with failure: the step whose stage failed (else the engine did)
    stop_reason: str = ""  # the librarian ends the loop now (off_topic): answer, search no more


@dataclass(frozen=True)
class AnswerEvent:
    session_id: str
    seq: int
    kind: str  # PROGRESS | DELTA | FINAL
    emitted_at_ms: int
    stage: str = ""
    message: str = ""
    delta: str = ""
    status: str | None = None  # ANSWERED | INSUFFICIENT | FAILED
    answer: str = ""
    citations: list[Citation] = field(default_factory=list)
    iterations: int = 0
    stop_reason: str = ""
    fallbacks: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class MaterialChanged:
    change_id: str
    subject_id: str
    material_id: str
    material_key: str
    version: int
    action: str  # STORED | DEACTIVATED | REACTIVATED | DELETED
    user_id: str
    changed_at_ms: int
    title: str = ""
    filename: str = ""
    visibility: str = "subject"


@dataclass(frozen=True)
class SessionState:
    session_id: str
    seen_chunk_ids: list[str]
    retry: int
    last_iteration: int
    updated_at_ms: int


EVENT_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        IngestJob,
        ChunksStored,
        QuestionAsked,
        SearchRequest,
        SearchResult,
        Evaluation,
        AnswerEvent,
        SessionState,
        MaterialChanged,
    )
}

# --- converters -----------------------------------------------------------------------

E = TypeVar("E")


def to_record(event: Any) -> dict[str, Any]:
    """Dataclass → Avro-ready dict (nested dataclasses become dicts)."""
    return dataclasses.asdict(event)


@functools.cache
def _field_hints(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))


def from_record(cls: type[E], record: dict[str, Any]) -> E:
    """Avro dict → dataclass, recursively, using the dataclass's type hints."""
    kwargs = {
        name: _convert(hint, record[name]) for name, hint in _field_hints(cls) if name in record
    }
    return cls(**kwargs)


def _convert(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        return _convert(inner[0], value)
    if origin is list:
        (item,) = typing.get_args(hint)
        return [_convert(item, v) for v in value]
    if origin is dict:
        _, item = typing.get_args(hint)
        return {k: _convert(item, v) for k, v in value.items()}
    if dataclasses.is_dataclass(hint):
        return from_record(hint, value)  # type: ignore[arg-type]
    return value
