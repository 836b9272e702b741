"""Professor shell: two consumers around the pure stages in ``stages.py``, and the sweep of
stalled sessions (``sweep.py``).

``questions`` → plan → ``search.requests``; ``evaluations`` → conduct →
``search.requests`` or ``answers``. The sessions table is written before the
Kafka transaction commits, as an upsert, so a redone message rewrites the same row.
"""

from __future__ import annotations

import logging
import threading

from services.common import db
from services.common.errors import NotEnrolled, describe
from services.common.events import Evaluation, QuestionAsked
from services.common.kafka_io import now_ms
from services.common.materials import require_enrolled
from services.common.stage_runner import Emit, Rejected, StageRunner
from services.professor import stages
from services.professor.settings import ProfessorSettings
from services.professor.store import conversation_turns, save_session
from services.professor.sweep import StalledSessionSweep
from services.reasoning import make_embedder, make_llm
from services.reasoning.embedders import warm_up
from services.reasoning.llm import LLMEngine
from topics.registry import EVALUATIONS, QUESTIONS

logger = logging.getLogger(__name__)


class Professor:
    def __init__(self, settings: ProfessorSettings, engine: LLMEngine | None = None):
        self.settings = settings
        self.engine = engine or make_llm(settings, embedder=make_embedder(settings))
        self.pool = db.pool(settings)

    def on_question(self, q: QuestionAsked) -> list[Emit]:
        with self.pool.connection() as conn:
            try:
                stages.validate_question(q)
                require_enrolled(conn, q.subject_id, q.user_id)
            except Exception as exc:
                if not isinstance(exc, (NotEnrolled, stages.InvalidInput)):
                    raise
                emits, record = stages.reject_question(q, str(exc), now_ms())
                save_session(conn, record)
                conn.commit()
                raise Rejected(str(exc), emits) from exc
            history = conversation_turns(conn, q)
            emits, record = stages.plan_question(q, self.engine, now_ms(), history)
            save_session(conn, record)
        return emits

    def on_poisoned_question(self, q: QuestionAsked, exc: Exception) -> list[Emit]:
        record = stages.SessionRecord(
            q.session_id,
            q.subject_id,
            q.user_id,
            q.question[: stages.MAX_QUESTION_CHARS],
            "FAILED",
            conversation_id=q.conversation_id,
        )
        return self._failed(record, "plan", describe(exc), 0)

    def on_poisoned_evaluation(self, ev: Evaluation, exc: Exception) -> list[Emit]:
        state = ev.state
        record = stages.SessionRecord(
            ev.session_id, state.subject_id, state.user_id, state.question, "FAILED"
        )
        return self._failed(record, "conduct", describe(exc), ev.iteration + 1)

    def _failed(
        self, record: stages.SessionRecord, step: str, error: str, iterations: int
    ) -> list[Emit]:
        emits, record = stages.stage_failed(record, step, error, iterations, now_ms())
        with self.pool.connection() as conn:
            save_session(conn, record)
        return emits

    def on_evaluation(self, ev: Evaluation) -> list[Emit]:
        emits, record = stages.conduct(ev, self.engine, now_ms())
        if record is not None:
            with self.pool.connection() as conn:
                save_session(conn, record)
        return emits

    def runners(self) -> list[StageRunner]:
        return [
            StageRunner(
                self.settings,
                stage="professor.plan",
                group_id="professor-plan",
                source=QUESTIONS,
                event_type=QuestionAsked,
                handle=self.on_question,
                transient=db.transient,
                on_poison=self.on_poisoned_question,
            ),
            StageRunner(
                self.settings,
                stage="professor.conduct",
                group_id="professor-conduct",
                source=EVALUATIONS,
                event_type=Evaluation,
                handle=self.on_evaluation,
                transient=db.transient,
                on_poison=self.on_poisoned_evaluation,
            ),
        ]


def run(stop: threading.Event, settings: ProfessorSettings | None = None) -> None:
    settings = settings or ProfessorSettings()
    embedder = make_embedder(settings)
    warm_up(embedder)
    if not db.migrate_when_reachable(settings, stop):
        return
    from services.common.service import run_runners

    professor = Professor(settings, engine=make_llm(settings, embedder=embedder))
    sweep = StalledSessionSweep(settings, professor.pool)
    run_runners([*professor.runners(), sweep], stop)
