"""Composition root of the question loop in one process (``--direct``, eval, bench)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from services.common import db
from services.common.blas import limit_blas_threads
from services.common.errors import NotEnrolled
from services.common.events import QuestionAsked
from services.common.kafka_io import now_ms
from services.common.materials import require_enrolled
from services.common.settings import RuntimeSettings
from services.direct import DirectLoop
from services.professor.settings import ProfessorSettings
from services.professor.store import save_session
from services.reasoning import make_embedder, make_llm
from services.reasoning.embedders import Embedder
from services.reasoning.llm import LLMEngine
from services.searcher.app import physical_search


def question_event(
    subject: str,
    user: str,
    question: str,
    max_iterations: int | None = None,
    timeout_s: float | None = None,
) -> QuestionAsked:
    return QuestionAsked(
        session_id=str(uuid.uuid4()),
        subject_id=subject,
        user_id=user,
        question=question,
        asked_at_ms=now_ms(),
        max_iterations=max_iterations,
        timeout_ms=int(timeout_s * 1000) if timeout_s else None,
    )


def direct_loop(
    settings: ProfessorSettings | None = None,
    engine: LLMEngine | None = None,
    embedder: Embedder | None = None,
    record: bool = True,
) -> tuple[DirectLoop, Callable[[], None]]:
    """A DirectLoop over the real database; returns it and a close function.

    The process's BLAS threads are capped as a service's are (``services.common.blas``),
    so that ``bench loop`` gives both of its sides the same threads."""
    limit_blas_threads(RuntimeSettings().blas_threads)
    settings = settings or ProfessorSettings()
    pool = db.pool(settings)
    embedder = embedder or make_embedder(settings)
    # The librarian runs in a process of its own, its engine's caches (the unit vectors it
    # scored) its own: here too, so that the professor's answer step scores them again as
    # it does in the services (``bench loop`` compares the two). An engine given is shared.
    librarian_engine = engine or make_llm(settings, embedder=embedder)
    engine = engine or make_llm(settings, embedder=embedder)

    def save(rec) -> None:
        if record:
            with pool.connection() as conn:
                save_session(conn, rec)

    def check_scope(q: QuestionAsked) -> None:
        with pool.connection() as conn:
            require_enrolled(conn, q.subject_id, q.user_id)

    search = physical_search(pool, embedder)
    loop = DirectLoop(engine, search, save, check_scope, librarian_engine=librarian_engine)
    return loop, pool.close


__all__ = ["NotEnrolled", "direct_loop", "question_event"]
