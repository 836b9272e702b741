"""Sentence scoring, shared by the judge and the answerer of the extractive engine.

Every sentence of every passage is scored against every task by IDF-weighted
coverage of the task's terms (plus Japanese character bigrams, plus embedding
similarity when an embedder is given). Per task and passage the best sentence,
widened to a snippet when it is short, is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from services.common.errors import EngineError
from services.reasoning.embedders import Embedder
from services.reasoning.extractive.planner import asks_for_definition
from services.reasoning.extractive.text import (
    Span,
    TermWeights,
    asks_for_number,
    char_bigrams,
    content_terms,
    detect_language,
    has_number,
    key_terms,
    split_sentences,
    terms,
)
from services.reasoning.llm import Passage, PlannedTask

# A neighbour sentence joins a short best sentence in a snippet (answers often sit next door).
_SHORT_SENTENCE = {"ja": 40, "en": 80}
NUMBER_BONUS = 0.08
# A best sentence scoring this high restates the question; the new fact is often next to it.
ECHO_SCORE = 0.75


@dataclass(frozen=True)
class TaskTerms:
    """A task as the scorer sees it."""

    task_id: str
    description: str
    key: list[str]  # terms the evidence must cover
    rank: list[str]  # all content terms, for ordering sentences
    bigrams: frozenset[str]
    wants_number: bool
    named: bool  # one named concept (量子もつれ, learning rate schedule): all its terms must occur


@dataclass(frozen=True)
class Scored:
    """The best snippet of one passage for one task."""

    index: int
    task_id: str
    span: Span  # the snippet span in the passage
    score: float
    key_coverage: float  # of the sentence and its neighbours
    matched: list[str]
    missing: list[str]
    similarity: float | None


def prepare(task: PlannedTask) -> TaskTerms:
    key = key_terms(task.keywords) or content_terms(task.description)
    rank = [t for t in content_terms(task.description) if t not in key]
    bigrams = frozenset(char_bigrams(" ".join(task.keywords)))
    named = len(task.keywords) == 1 and asks_for_definition(task.description)
    wants_number = asks_for_number(task.description)
    return TaskTerms(task.task_id, task.description, key, rank, bigrams, wants_number, named)


class SentenceScorer:
    """Scores passages' sentences against tasks; keeps a bounded cache of sentence vectors."""

    def __init__(self, embedder: Embedder | None = None, embed_top: int = 8):
        self.embedder = embedder
        self.embed_top = embed_top
        self._vectors: dict[str, np.ndarray] = {}

    def score(
        self, tasks: Sequence[PlannedTask], passages: Sequence[Passage]
    ) -> dict[str, list[Scored]]:
        """Per task: the best snippet of each passage, best first."""
        sentences = [split_sentences(p.text) for p in passages]
        term_sets = [[set(terms(s.text)) for s in spans] for spans in sentences]
        # a paragraph under the heading "天治" is about 天治 even if it never says so
        headings = [set(terms(p.heading)) for p in passages]
        weights = TermWeights([t for per_passage in term_sets for t in per_passage])
        prepared = [prepare(t) for t in tasks]
        lexical = {
            task.task_id: [
                [
                    _lexical_score(task, weights, term_sets[p], i, spans[i].text, headings[p])
                    for i in range(len(spans))
                ]
                for p, spans in enumerate(sentences)
            ]
            for task in prepared
        }
        similarity = self._similarities(prepared, sentences, lexical)
        result: dict[str, list[Scored]] = {}
        for task in prepared:
            per_task: list[Scored] = []
            for p, spans in enumerate(sentences):
                if not spans:
                    continue
                scores = lexical[task.task_id][p]
                sims = [similarity.get((task.task_id, p, i)) for i in range(len(spans))]
                final = [
                    _blend(scores[i][0], sims[i], self.embedder is not None)
                    for i in range(len(spans))
                ]
                i = max(range(len(spans)), key=lambda j: (final[j], -j))
                span = _snippet(
                    passages[p].text, spans, i, scores, detect_language(passages[p].text)
                )
                window = _window(term_sets[p], i) | headings[p]
                per_task.append(
                    Scored(
                        index=passages[p].index,
                        task_id=task.task_id,
                        span=span,
                        score=round(final[i], 4),
                        key_coverage=scores[i][1],
                        matched=[t for t in task.key + task.rank if t in term_sets[p][i]],
                        missing=[t for t in task.key if t not in window],
                        similarity=sims[i],
                    )
                )
            per_task.sort(key=lambda s: (-s.score, s.index))
            result[task.task_id] = per_task
        return result

    def _similarities(
        self,
        tasks: Sequence[TaskTerms],
        sentences: Sequence[Sequence[Span]],
        lexical: dict[str, list[list[tuple[float, float]]]],
    ) -> dict[tuple[str, int, int], float]:
        """Cosine similarity of task and sentence, only for each task's top lexical sentences."""
        if self.embedder is None:
            return {}
        wanted: dict[tuple[str, int, int], str] = {}
        for task in tasks:
            flat = [
                (score[0], p, i)
                for p, per_passage in enumerate(lexical[task.task_id])
                for i, score in enumerate(per_passage)
            ]
            flat.sort(key=lambda x: (-x[0], x[1], x[2]))
            for _, p, i in flat[: self.embed_top]:
                wanted[(task.task_id, p, i)] = sentences[p][i].text
        texts = [t.description for t in tasks] + list(wanted.values())
        vectors = self.embed(texts)
        task_vec = {t.task_id: vectors[t.description] for t in tasks}
        return {key: float(np.dot(task_vec[key[0]], vectors[text])) for key, text in wanted.items()}

    def embed(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        fresh = sorted({t for t in texts if t not in self._vectors})
        if fresh and self.embedder is not None:
            if len(self._vectors) > 20_000:  # bound the cache of a long-running librarian
                self._vectors.clear()
            try:
                vectors = self.embedder.embed(fresh)
            except Exception as exc:
                raise EngineError(
                    f"embedding {len(fresh)} sentences with {self.embedder.name} failed: {exc}"
                ) from exc
            for text, vector in zip(fresh, vectors, strict=True):
                self._vectors[text] = vector
        return {t: self._vectors[t] for t in texts}


def _window(terms: Sequence[set[str]], i: int) -> set[str]:
    return set().union(*terms[max(0, i - 1) : i + 2])


def _lexical_score(
    task: TaskTerms,
    weights: TermWeights,
    terms: Sequence[set[str]],
    i: int,
    text: str,
    heading: set[str] = frozenset(),
) -> tuple[float, float]:
    """(score, key coverage of the sentence with its neighbours), both 0..1. The heading
    counts as said in every sentence under it."""
    sentence = terms[i] | heading
    window = _window(terms, i) | heading
    key_sentence = weights.coverage(task.key, sentence)
    key_window = weights.coverage(task.key, window)
    everything = weights.coverage(task.key + task.rank, sentence)
    if task.bigrams:
        shared = len(task.bigrams & char_bigrams(text)) / len(task.bigrams)
        score = 0.4 * key_sentence + 0.2 * key_window + 0.3 * everything + 0.1 * shared
    else:
        score = 0.4 * key_sentence + 0.2 * key_window + 0.4 * everything
    if task.wants_number and score > 0 and has_number(text):
        score = min(1.0, score + NUMBER_BONUS)  # "when"/"how many": prefer sentences with one
    return score, key_window


def _blend(lexical: float, similarity: float | None, has_embedder: bool) -> float:
    if not has_embedder:
        return lexical
    return 0.8 * lexical + 0.2 * max(0.0, similarity or 0.0)


def _snippet(
    text: str,
    spans: Sequence[Span],
    i: int,
    scores: Sequence[tuple[float, float]],
    language: str,
) -> Span:
    """The best sentence, with its next (or previous) sentence when the best one is short,
    restates the question, or the neighbour is relevant too."""
    best = spans[i]
    widen = len(best.text) < _SHORT_SENTENCE[language] or scores[i][0] >= ECHO_SCORE
    for j in (i + 1, i - 1):
        if 0 <= j < len(spans) and (widen or scores[j][0] >= 0.5 * scores[i][0] > 0):
            first, last = (best, spans[j]) if j > i else (spans[j], best)
            return Span(first.start, last.end, text[first.start : last.end])
    return best
