"""The LLM port: what the professor and the librarian ask of a language engine.

Two adapters implement it: ``extractive`` (deterministic, offline, no model)
and ``gemini`` (google-genai, structured JSON output). Prompts never see chunk
or material IDs: candidates and evidence are shown by temp index only, and the
stage code maps indexes back (ARCHITECTURE invariant 3).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class PlannedTask:
    task_id: str
    description: str
    keywords: list[str] = field(default_factory=list)
    required: bool = True


@dataclass(frozen=True)
class PlanDraft:
    """Phase 2 output. The agent never picks the search algorithm: it gives
    keyword queries and one sentence, the searcher decides how to use them."""

    tasks: list[PlannedTask]
    stop_conditions: list[tuple[str, str]]  # (SUFFICIENCY|UNAMBIGUITY|VISUAL_CHECK, description)
    complexity: float  # 1.0 definition ... 2.0 comparison across materials
    language: str  # ja | en
    text_queries: list[str]
    vector_query: str
    # The question as planned: a follow-up restated with its thread's topic
    # ("それはなぜ？" -> "中央値はなぜ？"); empty when it is the question as asked.
    question: str = ""


@dataclass(frozen=True)
class Turn:
    """An earlier turn of the question's conversation, oldest first, for follow-ups."""

    question: str
    answer: str = ""
    cited_titles: list[str] = field(default_factory=list)  # materials its answer cited


@dataclass(frozen=True)
class Passage:
    """What the model may see of a candidate or a piece of evidence: an index and text."""

    index: int
    text: str
    context: str = ""  # the whole chunk the text comes from, for the answer step
    neighbours: str = ""  # the chunks before and after it, for engines that read widely
    heading: str = ""  # the section it sits under, for judging what it is about; never quoted
    # 1-based rank per retriever (bm25, vector), for engines that weigh the search's own
    # judgement; never shown to a model
    ranks: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Finding:
    index: int  # temp index of the passage
    task_id: str
    snippet: str  # must occur verbatim in the passage text
    score: float  # 0..1, how well it serves the task
    reason: str


@dataclass(frozen=True)
class Judgement:
    findings: list[Finding]
    satisfied_task_ids: list[str]
    reason: str
    # stop conditions of the plan (kinds) the evidence does not meet yet, e.g. UNAMBIGUITY
    unmet_conditions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class QueryDraft:
    text_queries: list[str]
    vector_query: str


@dataclass(frozen=True)
class Review:
    """Reflection: the critique of a draft and the revised answer."""

    answer: str
    critique: str
    dropped: list[str] = field(default_factory=list)  # claims removed for lack of evidence


class LLMEngine(Protocol):
    name: str

    def plan(self, question: str, history: Sequence[Turn] = ()) -> PlanDraft:
        """Phase 2. ``history``: the conversation's previous turns, to resolve follow-ups."""
        ...

    def evaluate(
        self,
        question: str,
        tasks: Sequence[PlannedTask],
        passages: Sequence[Passage],
        stop_conditions: Sequence[tuple[str, str]] = (),
    ) -> Judgement:
        """Evidence per task, the tasks satisfied, and the plan's stop conditions (kind,
        description) that the evidence does not meet yet."""
        ...

    def refine(
        self,
        question: str,
        tasks: Sequence[PlannedTask],
        missing_task_ids: Sequence[str],
        strategy: str,  # missing | broader | neighbours
        found: Sequence[str],  # snippets already held, to steer away from them
    ) -> QueryDraft: ...

    def answer(
        self,
        question: str,
        language: str,
        evidence: Sequence[Passage],
        complete: bool = True,
        missing: Sequence[str] = (),
    ) -> Iterator[str]:
        """Stream the answer; cite evidence as [n] with n = passage index + 1.

        ``complete`` is False when the loop ended without enough evidence: the caller says
        what is missing, and the engine shows only passages that come close, if any.
        ``missing`` names the tasks (by description) that the evidence does not answer when
        the rest of the question is answered: the engine says so under each of them and
        shows only what comes close there.
        """
        ...

    def review(
        self, question: str, language: str, draft: str, evidence: Sequence[Passage]
    ) -> Review: ...
