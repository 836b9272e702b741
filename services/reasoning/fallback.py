"""An LLM engine that hands a step to another engine when its primary fails it.

When Gemini fails a step after its own retries (HTTP 5xx, timeouts, output that is
not the JSON asked for), the offline extractive engine takes that step, so the
session goes on instead of the stage crashing and redoing the batch while the asker
waits. Which steps fell back is recorded: stage code wraps its engine calls in
``recording()``, the steps land in the session's ``LoopState.fallbacks`` and the
final answer event, and the answer says so. If the fallback fails too, the error
propagates and the stage ends the session FAILED.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from prometheus_client import Counter

from services.common.errors import EngineError
from services.reasoning.llm import (
    Judgement,
    LLMEngine,
    Passage,
    PlanDraft,
    PlannedTask,
    QueryDraft,
    Review,
    Turn,
)

logger = logging.getLogger(__name__)
T = TypeVar("T")

FELL_BACK = Counter(
    "eduanima_llm_fallbacks_total", "Steps the fallback engine took for a failed primary", ["step"]
)
# the reasons are kept short: they travel in every later message of the session
REASON_CHARS = 240

_recorder: ContextVar[list[str] | None] = ContextVar("fallback_recorder", default=None)


@contextmanager
def recording() -> Iterator[list[str]]:
    """Collect, in the list yielded, the steps that fell back inside the block
    (``'<step>: <why>'``), in this thread only."""
    steps: list[str] = []
    token = _recorder.set(steps)
    try:
        yield steps
    finally:
        _recorder.reset(token)


class FallbackLLM:
    """``primary`` for every step; ``fallback`` for a step the primary failed."""

    def __init__(self, primary: LLMEngine, fallback: LLMEngine):
        self.primary, self.fallback = primary, fallback
        self.name = primary.name  # the engine answering, as far as anyone asks

    def _step(self, step: str, first: Callable[[], T], second: Callable[[], T]) -> T:
        try:
            return first()
        except Exception as exc:
            self._fell_back(step, exc)
            return second()

    def _fell_back(self, step: str, exc: Exception) -> None:
        logger.warning(
            "%s failed the %s step; %s takes it: %s",
            self.primary.name,
            step,
            self.fallback.name,
            exc,
            exc_info=not isinstance(exc, EngineError),  # not an engine error: show where
        )
        FELL_BACK.labels(step).inc()
        steps = _recorder.get()
        if steps is not None:
            steps.append(f"{step}: {exc}"[:REASON_CHARS])

    def plan(self, question: str, history: Sequence[Turn] = ()) -> PlanDraft:
        def plan(engine: LLMEngine) -> PlanDraft:  # as the professor calls it
            return engine.plan(question, history) if history else engine.plan(question)

        return self._step("plan", lambda: plan(self.primary), lambda: plan(self.fallback))

    def evaluate(
        self,
        question: str,
        tasks: Sequence[PlannedTask],
        passages: Sequence[Passage],
        stop_conditions: Sequence[tuple[str, str]] = (),
    ) -> Judgement:
        return self._step(
            "evaluate",
            lambda: self.primary.evaluate(question, tasks, passages, stop_conditions),
            lambda: self.fallback.evaluate(question, tasks, passages, stop_conditions),
        )

    def refine(
        self,
        question: str,
        tasks: Sequence[PlannedTask],
        missing_task_ids: Sequence[str],
        strategy: str,
        found: Sequence[str],
    ) -> QueryDraft:
        return self._step(
            "refine",
            lambda: self.primary.refine(question, tasks, missing_task_ids, strategy, found),
            lambda: self.fallback.refine(question, tasks, missing_task_ids, strategy, found),
        )

    def answer(
        self,
        question: str,
        language: str,
        evidence: Sequence[Passage],
        complete: bool = True,
        missing: Sequence[str] = (),
    ) -> Iterator[str]:
        # The primary's stream is taken whole before any of it is passed on: a stream that
        # breaks half-way must not leave half an answer in front of the fallback's.
        pieces = self._step(
            "answer",
            lambda: list(self.primary.answer(question, language, evidence, complete, missing)),
            lambda: list(self.fallback.answer(question, language, evidence, complete, missing)),
        )
        yield from pieces

    def review(
        self, question: str, language: str, draft: str, evidence: Sequence[Passage]
    ) -> Review:
        return self._step(
            "review",
            lambda: self.primary.review(question, language, draft, evidence),
            lambda: self.fallback.review(question, language, draft, evidence),
        )


def fallback_note(language: str, steps: Sequence[str]) -> str:
    """What the answer says when the fallback engine took some of its steps."""
    names = ", ".join(dict.fromkeys(s.split(":", 1)[0] for s in steps))
    if language == "ja":
        return (
            f"\n（注: 言語モデルが応答しなかったため、一部の手順（{names}）は"
            "オフラインの抽出エンジンが行いました。）"
        )
    return (
        f"\n(Note: the language model did not respond, so the offline extractive engine "
        f"did some steps: {names}.)"
    )
