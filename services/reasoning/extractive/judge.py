"""The extractive judge: which passages are evidence for which task, and which tasks are done.

A task is satisfied only when its best passage covers most of the weight of the
task's key terms: sharing common words with the materials is not enough.
Evidence is each task's best-scored passages, plus the search's own first
candidates (overall and per retriever) when they mention the task.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.reasoning.extractive.planner import rule_plan
from services.reasoning.extractive.scoring import Scored, SentenceScorer, TaskTerms, prepare
from services.reasoning.llm import Finding, Judgement, Passage, PlannedTask


class Judge:
    def __init__(
        self,
        scorer: SentenceScorer,
        *,
        threshold: float = 0.45,
        min_key_coverage: float = 0.5,
        min_finding_score: float = 0.15,
        max_findings_per_task: int = 4,
        max_complete_findings: int = 8,
        keep_search_top: int = 1,
        keep_retriever_top: int = 2,
    ):
        self.scorer = scorer
        self.threshold = threshold
        self.min_key_coverage = min_key_coverage
        self.min_finding_score = min_finding_score
        self.max_findings_per_task = max_findings_per_task
        self.max_complete_findings = max_complete_findings
        self.keep_search_top = keep_search_top
        self.keep_retriever_top = keep_retriever_top

    def evaluate(
        self, question: str, tasks: Sequence[PlannedTask], passages: Sequence[Passage]
    ) -> Judgement:
        if not tasks:
            tasks = rule_plan(question).tasks
        best = self.scorer.score(tasks, passages)
        prepared = {t.task_id: prepare(t) for t in tasks}
        findings: list[Finding] = []
        satisfied: list[str] = []
        notes: list[str] = []
        # Passages come best first (the hybrid ranking). One sentence's score misjudges
        # paraphrases (ルーツ ↔ 一番古い) more often than the search does, so the search's
        # first passage, and each retriever's first two, stay evidence whenever they speak
        # to the task at all.
        heads = set(sorted(p.index for p in passages)[: self.keep_search_top])
        heads |= {p.index for p in passages if 0 < _best_rank(p) <= self.keep_retriever_top}
        for task in tasks:
            scored = best.get(task.task_id, [])
            ranked = [s for s in scored if s.score >= self.min_finding_score]
            kept = ranked[: self.max_findings_per_task]
            kept += [s for s in scored if s.index in heads and s.matched and s not in kept]
            # Past the cap, a passage that holds every key term of the task is still evidence.
            complete = [s for s in ranked if not s.missing and s not in kept]
            kept += complete[: max(0, self.max_complete_findings - len(kept))]
            findings.extend(_finding(s) for s in kept)
            top = kept[0] if kept else None
            if top and self._satisfies(top, prepared[task.task_id]):
                satisfied.append(task.task_id)
                notes.append(f"{task.task_id} satisfied by [{top.index}] (score {top.score:.2f})")
            elif top:
                missing = ", ".join(top.missing) or "-"
                notes.append(
                    f"{task.task_id} not satisfied: best [{top.index}] score {top.score:.2f}, "
                    f"key-term coverage {top.key_coverage:.2f}, missing {missing}"
                )
            else:
                notes.append(f"{task.task_id} not satisfied: no passage mentions its key terms")
        reason = f"{len(satisfied)}/{len(tasks)} tasks satisfied. " + "; ".join(notes)
        return Judgement(findings=findings, satisfied_task_ids=satisfied, reason=reason)

    def _satisfies(self, top: Scored, task: TaskTerms) -> bool:
        """Enough score, and the key terms present: all of a named concept's, else most."""
        if top.score < self.threshold:
            return False
        return not top.missing if task.named else top.key_coverage >= self.min_key_coverage


def _best_rank(passage: Passage) -> int:
    """The best rank any retriever gave the passage; 0 when the caller gave none."""
    return min(passage.ranks.values(), default=0)


def _finding(scored: Scored) -> Finding:
    matched = ", ".join(scored.matched) or "none"
    reason = f"matched terms: {matched}; key-term coverage {scored.key_coverage:.2f}"
    if scored.missing:
        reason += f"; missing: {', '.join(scored.missing)}"
    if scored.similarity is not None:
        reason += f"; similarity {scored.similarity:.2f}"
    return Finding(
        index=scored.index,
        task_id=scored.task_id,
        snippet=scored.span.text,
        score=max(0.0, min(1.0, scored.score)),
        reason=reason,
    )
