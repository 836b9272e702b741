"""The ``extractive`` LLM engine: deterministic, offline, no language model.

One object per role, all over one ``UnitScorer`` (so one vector cache):

- plan / refine: rules (``planner``); a follow-up is first restated with its thread's
  topic (``followup``).
- evaluate: ``judge``, which passages are evidence and which tasks are satisfied.
- answer: ``answerer``, quotes shaped to the question (a value, a list, a formula, code)
  with [n] citations.
- review: ``review``, reflection that drops claims their cited passage does not support.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

from services.reasoning.embedders import Embedder
from services.reasoning.extractive.answerer import Answerer
from services.reasoning.extractive.followup import standalone
from services.reasoning.extractive.judge import Judge
from services.reasoning.extractive.planner import rule_plan, rule_refine
from services.reasoning.extractive.review import review
from services.reasoning.extractive.scoring import UnitScorer
from services.reasoning.llm import (
    Judgement,
    Passage,
    PlanDraft,
    PlannedTask,
    QueryDraft,
    Review,
    Turn,
)


class ExtractiveLLM:
    name = "extractive"

    def __init__(self, embedder: Embedder | None = None, **judge_options):
        self.embedder = embedder
        self.scorer = UnitScorer(embedder)
        self.judge = Judge(self.scorer, **judge_options)
        self.answerer = Answerer(self.scorer)

    def plan(self, question: str, history: Sequence[Turn] = ()) -> PlanDraft:
        resolved = standalone(question, history)
        draft = rule_plan(resolved)
        return dataclasses.replace(draft, question=resolved) if resolved != question else draft

    def refine(
        self,
        question: str,
        tasks: Sequence[PlannedTask],
        missing_task_ids: Sequence[str],
        strategy: str,
        found: Sequence[str],
    ) -> QueryDraft:
        return rule_refine(question, tasks, missing_task_ids, strategy, found)

    def evaluate(
        self,
        question: str,
        tasks: Sequence[PlannedTask],
        passages: Sequence[Passage],
        stop_conditions: Sequence[tuple[str, str]] = (),
    ) -> Judgement:
        # The rules already turn what the stop conditions ask into tasks (a comparison is
        # one task per item plus their difference), so meeting the tasks meets them.
        return self.judge.evaluate(question, tasks, passages)

    def answer(
        self,
        question: str,
        language: str,
        evidence: Sequence[Passage],
        complete: bool = True,
        missing: Sequence[str] = (),
    ) -> Iterator[str]:
        return self.answerer.answer(question, language, evidence, complete, missing)

    def review(
        self, question: str, language: str, draft: str, evidence: Sequence[Passage]
    ) -> Review:
        return review(question, language, draft, evidence)
