"""The extractive answerer: quotes the best sentences of the evidence verbatim, cites them
[n], and says that it is an extractive answer."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from services.reasoning.extractive.planner import rule_plan
from services.reasoning.extractive.scoring import Scored, SentenceScorer
from services.reasoning.extractive.text import detect_language, squash_spaces
from services.reasoning.llm import Passage

OPENING = {
    "ja": "資料から該当箇所を引用します"
    "（抽出型の回答です。資料の文をそのまま引用し、要約や推論は加えていません）。",
    "en": "From the course materials (an extractive answer: sentences are quoted verbatim, "
    "not summarised or inferred):",
}
INSUFFICIENT = {
    "ja": "資料の中に、この質問に答える根拠が見つかりませんでした。",
    "en": "The course materials do not contain enough evidence to answer this question.",
}
NOT_COVERED = {
    "ja": "（この点について資料に根拠が見つかりませんでした）",
    "en": "(No passage in the materials covers this point.)",
}
SEE_ABOVE = {"ja": "（上に引用した {} を参照）", "en": "(See {} above.)"}


class Answerer:
    def __init__(self, scorer: SentenceScorer, *, max_quotes_per_task: int = 3):
        self.scorer = scorer
        self.max_quotes_per_task = max_quotes_per_task

    def answer(self, question: str, language: str, evidence: Sequence[Passage]) -> Iterator[str]:
        language = language if language in OPENING else detect_language(question)
        sections = self._quotes(question, evidence)
        if not any(quotes for _, quotes, _ in sections):
            yield INSUFFICIENT[language]
            return
        yield OPENING[language] + "\n"
        for heading, quotes, seen_above in sections:
            if len(sections) > 1:
                yield f"\n■ {heading}\n"
            if seen_above and not quotes:
                yield SEE_ABOVE[language].format(" ".join(f"[{n + 1}]" for n in seen_above)) + "\n"
            elif not quotes:
                yield NOT_COVERED[language] + "\n"
            for scored in quotes:
                text = squash_spaces(scored.span.text)
                cite = f"[{scored.index + 1}]"
                yield (f"「{text}」{cite}" if language == "ja" else f"“{text}” {cite}") + "\n"

    def _quotes(
        self, question: str, evidence: Sequence[Passage]
    ) -> list[tuple[str, list[Scored], list[int]]]:
        """Per task: its heading, the new quotes, and passages already quoted above."""
        if not evidence:
            return []
        tasks = rule_plan(question).tasks
        best = self.scorer.score(tasks, [_with_context(p) for p in evidence])
        used: set[str] = set()  # quoted text: several evidence items may share a chunk
        sections: list[tuple[str, list[Scored], list[int]]] = []
        per_task = (
            self.max_quotes_per_task if len(tasks) == 1 else max(1, self.max_quotes_per_task - 1)
        )
        for task in tasks:
            relevant = _relevant(best.get(task.task_id, []))[:per_task]
            quotes: list[Scored] = []
            seen_above: list[int] = []
            for scored in relevant:
                text = squash_spaces(scored.span.text)
                if text in used:
                    seen_above.append(scored.index)
                else:
                    quotes.append(scored)
                used.add(text)
            sections.append((task.description, quotes, seen_above))
        return sections


def _with_context(passage: Passage) -> Passage:
    """Quote from the whole chunk when the caller gives it: the best sentence for the
    question may sit beside the snippet that evaluation picked for a task."""
    if not passage.context or passage.context == passage.text:
        return passage
    if passage.text in passage.context:
        return Passage(passage.index, passage.context)
    return Passage(passage.index, f"{passage.text}\n{passage.context}")


def _relevant(ranked: Sequence[Scored]) -> list[Scored]:
    """The best snippet, and others nearly as good that share the task's key terms."""
    if not ranked or ranked[0].score <= 0 or not ranked[0].matched:
        return []
    top = ranked[0]
    return [top] + [
        s for s in ranked[1:] if s.score >= 0.5 * top.score and s.key_coverage >= 0.5 and s.matched
    ]
