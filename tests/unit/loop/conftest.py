"""A scripted LLM engine and an in-memory search for unit tests of the loop's stage logic.

Not a stand-in for the real engines (they have their own tests): it makes the
stages' control flow observable with inputs chosen by each test.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.common.events import Candidate
from services.reasoning.llm import Finding, Judgement, PlanDraft, PlannedTask, QueryDraft, Review
from services.searcher.stages import Hits, Order


@dataclass
class ScriptedEngine:
    """Plans the tasks it is given; a passage satisfies a task when it contains the task's word."""

    words: dict[str, str]  # task id -> word that satisfies it
    name: str = "scripted"
    refinements: list[str] = field(default_factory=list)
    conditions: list[tuple[str, str]] = field(
        default_factory=lambda: [("SUFFICIENCY", "all words found")]
    )
    unmet: set[str] = field(default_factory=set)  # stop condition kinds it reports unmet

    def plan(self, question: str) -> PlanDraft:
        tasks = [PlannedTask(t, f"find {w}", [w]) for t, w in self.words.items()]
        return PlanDraft(
            tasks,
            list(self.conditions),
            2.0 if len(tasks) > 1 else 1.0,
            "en",
            list(self.words.values()),
            question,
        )

    def evaluate(self, question, tasks, passages, stop_conditions=()) -> Judgement:
        findings = [
            Finding(p.index, t.task_id, p.text, 0.9, f"contains {self.words[t.task_id]}")
            for p in passages
            for t in tasks
            if self.words[t.task_id] in p.text
        ]
        return Judgement(
            findings,
            sorted({f.task_id for f in findings}),
            f"{len(findings)} finding(s)",
            [kind for kind, _ in stop_conditions if kind in self.unmet],
        )

    def refine(self, question, tasks, missing, strategy, found) -> QueryDraft:
        self.refinements.append(strategy)
        return QueryDraft([self.words[t] for t in missing], f"{strategy}: {question}")

    def answer(self, question, language, evidence, complete=True, missing=()):
        for i, p in enumerate(evidence):
            yield f"{p.text} [{i + 1}]\n"

    def review(self, question, language, draft, evidence) -> Review:
        return Review(draft, "every sentence cites its evidence")


@dataclass
class MemorySearch:
    """Chunks as (chunk_id, material_id, text), each under the section "section of
    <chunk_id>"; returns those containing a query word, minus seen."""

    chunks: list[tuple[str, str, str]]
    orders: list[Order] = field(default_factory=list)
    nearest: float = -1.0  # what it reports of the nearest chunk (-1: no vector search)

    def __call__(self, order: Order) -> Hits:
        self.orders.append(order)
        words = order.request.text_queries
        k = 2 * (order.retry + 1)
        hits = [
            c for c in self.chunks if c[0] not in order.seen_ids and any(w in c[2] for w in words)
        ][:k]
        candidates = [
            Candidate(
                i,
                cid,
                mid,
                f"title {mid}",
                1,
                [f"title {mid}", f"section of {cid}"],
                0,
                text,
                None,
                None,
                1.0 / (i + 1),
                ranks={"memory": i + 1},
            )
            for i, (cid, mid, text) in enumerate(hits)
        ]
        return Hits(candidates, k, len(self.chunks), len(order.seen_ids), self.nearest)


import pytest  # noqa: E402


@pytest.fixture
def engine_for():
    return ScriptedEngine


@pytest.fixture
def memory_search():
    return MemorySearch
