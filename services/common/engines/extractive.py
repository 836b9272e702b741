"""The ``extractive`` LLM engine: deterministic, offline, no language model.

- plan / refine: rules (``extractive_plan``).
- evaluate: every sentence of every passage is scored against every task by
  IDF-weighted coverage of the task's terms (plus Japanese character bigrams,
  plus embedding similarity when an embedder is given). A task is satisfied
  only when its best passage covers most of the weight of the task's key
  terms: sharing common words with the materials is not enough. Evidence is
  each task's best-scored passages, plus the search's own first candidates
  (overall and per retriever) when they mention the task.
- answer: quotes the best sentences of the evidence verbatim, cites them [n],
  and says that it is an extractive answer.
- review: keeps only claims whose cited passage contains the quoted text
  (or, for paraphrases, most of the claim's terms); drops the rest.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from services.common.engines.embedders import Embedder
from services.common.engines.extractive_plan import asks_for_definition, rule_plan, rule_refine
from services.common.engines.extractive_text import (
    Span,
    TermWeights,
    asks_for_number,
    char_bigrams,
    content_terms,
    detect_language,
    has_number,
    key_terms,
    split_sentences,
    squash_spaces,
    terms,
)
from services.common.engines.llm import (
    Finding,
    Judgement,
    Passage,
    PlanDraft,
    PlannedTask,
    QueryDraft,
    Review,
)
from services.common.errors import EngineError

logger = logging.getLogger(__name__)

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
_SEE_ABOVE = re.compile(r"^（上に引用した (?:\[\d+\] ?)+を参照）$|^\(See (?:\[\d+\] ?)+above\.\)$")
_FRAMING = {*OPENING.values(), *INSUFFICIENT.values(), *NOT_COVERED.values()}

# A neighbour sentence joins a short best sentence in a snippet (answers often sit next door).
_SHORT_SENTENCE = {"ja": 40, "en": 80}
NUMBER_BONUS = 0.08
# A best sentence scoring this high restates the question; the new fact is often next to it.
ECHO_SCORE = 0.75


@dataclass(frozen=True)
class _Task:
    task_id: str
    description: str
    key: list[str]  # terms the evidence must cover
    rank: list[str]  # all content terms, for ordering sentences
    bigrams: frozenset[str]
    wants_number: bool
    named: bool  # one named concept (量子もつれ, learning rate schedule): all its terms must occur


@dataclass(frozen=True)
class _Scored:
    index: int
    task_id: str
    span: Span  # the snippet span in the passage
    score: float
    key_coverage: float  # of the sentence and its neighbours
    matched: list[str]
    missing: list[str]
    similarity: float | None


class ExtractiveLLM:
    name = "extractive"

    def __init__(
        self,
        embedder: Embedder | None = None,
        *,
        threshold: float = 0.45,
        min_key_coverage: float = 0.5,
        min_finding_score: float = 0.15,
        max_findings_per_task: int = 4,
        max_complete_findings: int = 8,
        keep_search_top: int = 1,
        keep_retriever_top: int = 2,
        max_quotes_per_task: int = 3,
        embed_top: int = 8,
    ):
        self.embedder = embedder
        self.threshold = threshold
        self.min_key_coverage = min_key_coverage
        self.min_finding_score = min_finding_score
        self.max_findings_per_task = max_findings_per_task
        self.max_complete_findings = max_complete_findings
        self.keep_search_top = keep_search_top
        self.keep_retriever_top = keep_retriever_top
        self.max_quotes_per_task = max_quotes_per_task
        self.embed_top = embed_top
        self._vectors: dict[str, np.ndarray] = {}

    # -- plan / refine -------------------------------------------------------------------

    def plan(self, question: str) -> PlanDraft:
        return rule_plan(question)

    def refine(
        self,
        question: str,
        tasks: Sequence[PlannedTask],
        missing_task_ids: Sequence[str],
        strategy: str,
        found: Sequence[str],
    ) -> QueryDraft:
        return rule_refine(question, tasks, missing_task_ids, strategy, found)

    # -- evaluate ------------------------------------------------------------------------

    def evaluate(
        self, question: str, tasks: Sequence[PlannedTask], passages: Sequence[Passage]
    ) -> Judgement:
        if not tasks:
            tasks = rule_plan(question).tasks
        best = self._score(tasks, passages)
        prepared = {t.task_id: _prepare(t) for t in tasks}
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

    def _satisfies(self, top: _Scored, task: _Task) -> bool:
        """Enough score, and the key terms present: all of a named concept's, else most."""
        if top.score < self.threshold:
            return False
        return not top.missing if task.named else top.key_coverage >= self.min_key_coverage

    def _score(
        self, tasks: Sequence[PlannedTask], passages: Sequence[Passage]
    ) -> dict[str, list[_Scored]]:
        """Per task: the best snippet of each passage, best first."""
        sentences = [split_sentences(p.text) for p in passages]
        term_sets = [[set(terms(s.text)) for s in spans] for spans in sentences]
        # a paragraph under the heading "天治" is about 天治 even if it never says so
        headings = [set(terms(p.heading)) for p in passages]
        weights = TermWeights([t for per_passage in term_sets for t in per_passage])
        prepared = [_prepare(t) for t in tasks]
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
        result: dict[str, list[_Scored]] = {}
        for task in prepared:
            per_task: list[_Scored] = []
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
                per_task.append(
                    _Scored(
                        index=passages[p].index,
                        task_id=task.task_id,
                        span=span,
                        score=round(final[i], 4),
                        key_coverage=scores[i][1],
                        matched=[t for t in task.key + task.rank if t in term_sets[p][i]],
                        missing=[t for t in task.key if t not in _window(term_sets[p], i) | headings[p]],
                        similarity=sims[i],
                    )
                )
            per_task.sort(key=lambda s: (-s.score, s.index))
            result[task.task_id] = per_task
        return result

    def _similarities(
        self,
        tasks: Sequence[_Task],
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
        vectors = self._embed(texts)
        task_vec = {t.task_id: vectors[t.description] for t in tasks}
        return {key: float(np.dot(task_vec[key[0]], vectors[text])) for key, text in wanted.items()}

    def _embed(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
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

    # -- answer --------------------------------------------------------------------------

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
    ) -> list[tuple[str, list[_Scored], list[int]]]:
        """Per task: its heading, the new quotes, and passages already quoted above."""
        if not evidence:
            return []
        tasks = rule_plan(question).tasks
        best = self._score(tasks, [_with_context(p) for p in evidence])
        used: set[str] = set()  # quoted text: several evidence items may share a chunk
        sections: list[tuple[str, list[_Scored], list[int]]] = []
        per_task = (
            self.max_quotes_per_task if len(tasks) == 1 else max(1, self.max_quotes_per_task - 1)
        )
        for task in tasks:
            relevant = _relevant(best.get(task.task_id, []))[:per_task]
            quotes: list[_Scored] = []
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

    # -- review --------------------------------------------------------------------------

    def review(
        self, question: str, language: str, draft: str, evidence: Sequence[Passage]
    ) -> Review:
        language = language if language in OPENING else detect_language(question)
        by_number = {p.index + 1: p for p in evidence}
        kept_lines: list[str] = []
        dropped: list[str] = []
        reasons: list[str] = []
        checked = supported = 0
        for line in draft.splitlines():
            if _is_framing(line):
                kept_lines.append(line)
                continue
            kept_units: list[str] = []
            for unit in split_claims(line):
                body = re.sub(r"\s*\[\d+\]", "", unit).strip()
                if not content_terms(body):
                    kept_units.append(unit)  # punctuation or connective, no claim
                    continue
                checked += 1
                problem = _unsupported(unit, body, by_number)
                if problem:
                    dropped.append(unit.strip())
                    reasons.append(problem)
                else:
                    supported += 1
                    kept_units.append(unit)
            if any(content_terms(re.sub(r"\[\d+\]", "", u)) for u in kept_units):
                kept_lines.append("".join(kept_units).rstrip())
        if supported == 0:
            answer = INSUFFICIENT[language]
        else:
            answer = "\n".join(kept_lines).strip()
        critique = f"{checked} claims checked, {supported} supported by their cited passage"
        if dropped:
            critique += f", {len(dropped)} dropped: " + "; ".join(reasons)
        return Review(answer=answer, critique=critique + ".", dropped=dropped)


# -- scoring helpers -------------------------------------------------------------------------


def _prepare(task: PlannedTask) -> _Task:
    key = key_terms(task.keywords) or content_terms(task.description)
    rank = [t for t in content_terms(task.description) if t not in key]
    bigrams = frozenset(char_bigrams(" ".join(task.keywords)))
    named = len(task.keywords) == 1 and asks_for_definition(task.description)
    wants_number = asks_for_number(task.description)
    return _Task(task.task_id, task.description, key, rank, bigrams, wants_number, named)


def _best_rank(passage: Passage) -> int:
    """The best rank any retriever gave the passage; 0 when the caller gave none."""
    return min(passage.ranks.values(), default=0)


def _window(terms: Sequence[set[str]], i: int) -> set[str]:
    return set().union(*terms[max(0, i - 1) : i + 2])


def _lexical_score(
    task: _Task, weights: TermWeights, terms: Sequence[set[str]], i: int, text: str,
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


def _with_context(passage: Passage) -> Passage:
    """Quote from the whole chunk when the caller gives it: the best sentence for the
    question may sit beside the snippet that evaluation picked for a task."""
    if not passage.context or passage.context == passage.text:
        return passage
    if passage.text in passage.context:
        return Passage(passage.index, passage.context)
    return Passage(passage.index, f"{passage.text}\n{passage.context}")


def _relevant(ranked: Sequence[_Scored]) -> list[_Scored]:
    """The best snippet, and others nearly as good that share the task's key terms."""
    if not ranked or ranked[0].score <= 0 or not ranked[0].matched:
        return []
    top = ranked[0]
    return [top] + [
        s for s in ranked[1:] if s.score >= 0.5 * top.score and s.key_coverage >= 0.5 and s.matched
    ]


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


def _finding(scored: _Scored) -> Finding:
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


# -- review helpers --------------------------------------------------------------------------

_OPEN = {"「": "」", "『": "』", "“": "”"}
_TERMINATORS = "。．.!?！？"


def _is_framing(line: str) -> bool:
    stripped = line.strip()
    return (
        not stripped
        or stripped in _FRAMING
        or _SEE_ABOVE.match(stripped) is not None
        or stripped.startswith(("■", "#"))
        or (stripped.endswith((":", "：")) and not re.search(r"\[\d+\]", stripped))
    )


_QUOTE_LINE = re.compile(r"^\s*(?:[-*・]\s*)?[「“](?P<quote>.*)[」”]\s*(?:\[\d+\]\s*)+$", re.S)


def split_claims(line: str) -> list[str]:
    """Split a line into claims: each ends at a sentence end or after its citations.

    Quoted text is never split, so a quoted passage of several sentences stays one claim;
    a whole-line quote is one claim even when the passage's own brackets are unbalanced.
    """
    if _QUOTE_LINE.match(line):
        return [line]
    units: list[str] = []
    start = 0
    closers: list[str] = []
    in_straight = False
    i = 0
    while i < len(line):
        ch = line[i]
        if ch in _OPEN:
            closers.append(_OPEN[ch])
        elif closers and ch == closers[-1]:
            closers.pop()
        elif ch == '"':
            in_straight = not in_straight
        quoted = bool(closers) or in_straight
        ends_sentence = ch in _TERMINATORS and (
            ch != "." or i + 1 == len(line) or line[i + 1] in " ["
        )
        if not quoted and (ends_sentence or line.startswith("[", i)):
            end = _after_citations(line, i + (0 if line.startswith("[", i) else 1))
            if end > i + 1 or ends_sentence:
                units.append(line[start:end])
                start = i = end
                continue
        i += 1
    if line[start:].strip():
        units.append(line[start:])
    return units


def _after_citations(line: str, i: int) -> int:
    """Index after the citations ([1][2]) and terminators that follow position ``i``."""
    match = re.compile(r"(?:\s*\[\d+\])*[。．.!?！？]*").match(line, i)
    return match.end() if match else i


def _quoted(text: str) -> list[str]:
    """Outermost quoted strings of a claim (balanced 「」『』“”, and straight double quotes)."""
    found: list[str] = []
    closers: list[str] = []
    start = 0
    for i, ch in enumerate(text):
        if ch in _OPEN:
            if not closers:
                start = i + 1
            closers.append(_OPEN[ch])
        elif closers and ch == closers[-1]:
            closers.pop()
            if not closers:
                found.append(text[start:i])
    found.extend(re.findall(r'"([^"]+)"', text))
    return [q for q in found if q.strip()]


def _comparable(text: str) -> str:
    return squash_spaces(unicodedata.normalize("NFKC", text))


def _unsupported(unit: str, body: str, by_number: dict[int, Passage]) -> str | None:
    """Why the claim must go, or None when its cited passages support it."""
    cited = [int(n) for n in re.findall(r"\[(\d+)\]", unit)]
    short = squash_spaces(body)[:40]
    if not cited:
        return f"no citation: {short}"
    unknown = [n for n in cited if n not in by_number]
    if unknown:
        return f"cites [{unknown[0]}], which is not in the evidence: {short}"
    sources = [by_number[n] for n in cited]
    material = [_comparable(p.text + " " + p.context) for p in sources]
    whole = _QUOTE_LINE.match(unit)
    quotes = [whole["quote"]] if whole else _quoted(body)
    if quotes:
        for quote in quotes:
            if not any(_comparable(quote) in m for m in material):
                return f"quoted text not in [{cited[0]}]: {squash_spaces(quote)[:40]}"
        return None
    claim_terms = content_terms(body)
    present = set(terms(" ".join(material)))
    share = sum(t in present for t in claim_terms) / len(claim_terms)
    if share < 0.5:
        return f"only {share:.0%} of its terms occur in [{cited[0]}]: {short}"
    return None
