"""How well each unit of each passage answers each task: shared by the judge and the answerer.

A passage is read into units (``units.py``: sentences, list items, table rows, code
statements, formulas). Each (task, unit) pair gets a few signals, each 0..1:

- ``cover``: how much of the task's keyword weight (IDF over the pool of units) the unit,
  its lead-in and its heading hold. A keyword counts when its terms occur, or, across
  paraphrase and language, in part when a word of the unit is its near neighbour in the
  multilingual embedding space (``words.py``).
- ``cover_unit``: the same, the unit's own text only (the lead-in speaks for every item).
- ``similarity``: sentence similarity of task and unit (USE-m3), for the best candidates.
- ``shape``: the unit is what the question asks for: a value with a number, a formula,
  code or a setting, a list item, a reason.
- ``prior``: the search's own rank of the passage.

``score`` combines them (weights in ``WEIGHTS``); it orders units and decides sufficiency.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from services.common.errors import EngineError
from services.reasoning.embedders import Embedder
from services.reasoning.extractive.question import Wants, gives, holds_measure, wants_of
from services.reasoning.extractive.text import (
    TermWeights,
    char_bigrams,
    content_terms,
    detect_language,
    has_number,
    key_terms,
    terms,
)
from services.reasoning.extractive.units import (
    CODE,
    FORMULA,
    HEADING,
    ITEM,
    ROW,
    SENTENCE,
    Unit,
    units_of,
)
from services.reasoning.extractive.words import content_words
from services.reasoning.llm import Passage, PlannedTask

# A unit word this close to a keyword in USE-m3 space stands for it (a translation, a
# near synonym); the credit grows from nothing at SOFT_FLOOR to full at SOFT_FULL.
# Calibrated on word pairs of the course sets (translations 0.48-0.87, unrelated words
# of the same sentences 0.11-0.45).
SOFT_FLOOR, SOFT_FULL = 0.45, 0.75
# Across scripts (an English keyword, a Japanese word, or the reverse) no term can match
# exactly, and a translation sits lower than a same-language synonym (tombstone ↔
# トゥームストーン 0.59, compacted ↔ コンパクション 0.56), so full credit comes sooner. On
# eval answers (full credit at 0.55 / 0.60 / 0.65 against 0.75): course 0.745 / 0.745 /
# 0.736 against 0.691, cross-lingual questions 0.75 / 0.70 / 0.75 against 0.55; course_ml
# 0.694 / 0.682 / 0.682 against 0.682, cross-lingual 0.625 against 0.5625; jsquad_ja and
# xquad_en unchanged at 0.60 (0.950, 0.923).
SOFT_FULL_ACROSS_SCRIPTS = 0.60
# Units whose sentence similarity is computed, per task (the first by cover): embedding
# every unit of every candidate would cost more than the rest of the loop. 12 left out
# answers whose words cover little (a table row under an English question, a formula):
# with 20, course 0.855 -> 0.864 and course_ml 0.812 -> 0.824, course_os and xquad_en
# unchanged, jsquad_ja one up and one down; 30 and 50 scored the same as 20; p50 latency
# unchanged (eval answers, all five sets).
SIMILARITY_TOP = 20
_REASON = re.compile(
    r"ため|から|ので|により|によって|because|since|so that|due to|thus|therefore", re.I
)
_LATEX = re.compile(r"\\[a-zA-Z]+|[∑√≤≥≈]|\^\{|_\{")


@dataclass(frozen=True)
class TaskTerms:
    """A task as the scorer sees it."""

    task_id: str
    description: str
    keywords: tuple[str, ...]  # phrases, as the planner found them
    key: tuple[str, ...]  # lexical terms the keywords hold
    wants: Wants
    language: str


@dataclass(frozen=True)
class Signals:
    cover: float  # keyword weight held by the unit, its lead-in and heading (soft)
    cover_unit: float  # the same, the unit's own text (soft)
    exact_unit: float  # the same, the unit's own text, exact terms only
    cover_all: float  # every content term of the task (verbs too), exact, with context
    bigrams: float  # share of the task's Japanese character bigrams in the unit and context
    similarity: float  # sentence similarity of task and unit (with its lead-in)
    shape: float  # the unit is the kind of thing asked for
    prior: float  # the search's rank of the passage
    number_missing: float  # a value is asked and the unit holds no number
    gap: float  # how specific the most specific keyword the unit misses is (0: none missing)
    novelty: float  # share of the unit's terms the question does not already say
    length: float  # log length of the unit, scaled
    kind: str

    def vector(self) -> list[float]:
        return [
            self.cover, self.cover_unit, self.exact_unit, self.cover_all, self.bigrams,
            self.similarity, self.shape,
            self.prior, self.number_missing, self.gap, self.novelty, self.length,
        ]  # fmt: skip


FEATURES = (
    "cover", "cover_unit", "exact_unit", "cover_all", "bigrams", "similarity", "shape", "prior",
    "number_missing", "gap",
    "novelty", "length",
)  # fmt: skip
# Logistic weights of FEATURES and the bias: the odds that a unit holds the answer. Fitted by
# `eduanima eval calibrate` on eval/course, eval/course_ml, jsquad_ja and xquad_en (dev),
# each set weighing the same; leave-one-set-out figures in docs/quality.md.
WEIGHTS = (2.05, -0.38, 0.65, 1.36, 0.85, 1.64, 0.42, 2.66, -0.67, 0.84, -0.64, -0.50)
BIAS = -3.37


def unit_logit(s: Signals) -> float:
    return BIAS + sum(w * f for w, f in zip(WEIGHTS, s.vector(), strict=True))


def probability(z: float) -> float:
    return round(1.0 / (1.0 + math.exp(-z)), 4)


@dataclass(frozen=True)
class Scored:
    """One unit of one passage, judged for one task."""

    index: int  # the passage's temp index
    task_id: str
    unit: Unit
    units: tuple[Unit, ...]  # every unit of the passage (to quote a whole list or table)
    raw: str  # the unit's Markdown as it stands in the passage
    logit: float  # log-odds that the unit holds the answer
    score: float  # the same as a probability
    signals: Signals
    matched: tuple[str, ...]
    missing: tuple[str, ...]


def prepare(task: PlannedTask) -> TaskTerms:
    keywords = tuple(task.keywords) or (task.description,)
    key = tuple(key_terms(keywords) or content_terms(task.description))
    return TaskTerms(
        task.task_id, task.description, keywords, key, wants_of(task.description),
        detect_language(task.description),
    )  # fmt: skip


class UnitScorer:
    """Scores units against tasks; keeps a bounded cache of word and unit vectors."""

    def __init__(self, embedder: Embedder | None = None):
        self.embedder = embedder
        self._vectors: dict[str, np.ndarray] = {}

    def score(
        self, tasks: Sequence[PlannedTask], passages: Sequence[Passage]
    ) -> dict[str, list[Scored]]:
        """Per task: every unit of every passage, best first (for a question that asks the
        weekday a class meets, the best unit that names one)."""
        parsed = [(p, tuple(u for u in units_of(p.text) if u.kind != HEADING)) for p in passages]
        unit_terms = {id(u): set(terms(u.text)) for _, units in parsed for u in units}
        weights = TermWeights(list(unit_terms.values()) or [set()])
        prepared = [prepare(t) for t in tasks]
        headings = {p.index: set(terms(p.heading)) for p in passages}
        result: dict[str, list[Scored]] = {}
        for task in prepared:
            rows: list[tuple[Passage, Unit, tuple[Unit, ...], float, float, list[str]]] = []
            soft = self._soft_matches(task, [u for _, units in parsed for u in units])
            for passage, units in parsed:
                heading = set(terms(passage.heading))
                for unit in units:
                    around = set(terms(unit.context)) | heading
                    own = unit_terms[id(unit)]
                    cover, matched, gap = _cover(
                        task, weights, own | around, soft.get(id(unit), {})
                    )
                    cover_unit, _, _ = _cover(task, weights, own, soft.get(id(unit), {}))
                    rows.append((passage, unit, units, cover, cover_unit, matched, gap))
            similarity = self._similarities(task, rows)
            introduces = {
                id(u): bool(i + 1 < len(units) and units[i + 1].kind in (ITEM, ROW)
                            and units[i + 1].context.startswith(u.text))
                for _, units in parsed
                for i, u in enumerate(units)
                if u.kind == SENTENCE
            }  # fmt: skip
            asked = set(content_terms(task.description))
            asked_weight = sum(weights.weight(t) for t in asked) or 1.0
            asked_bigrams = char_bigrams(task.description)
            scored = []
            for (passage, unit, units, cover, cover_unit, matched, gap), sim in zip(
                rows, similarity, strict=True
            ):
                own = set(content_terms(unit.text))
                around = unit_terms[id(unit)] | set(terms(unit.context)) | headings[passage.index]
                shown = f"{unit.context} {unit.text}"
                if detect_language(unit.text) == task.language:
                    exact = _cover(task, weights, unit_terms[id(unit)], {})[0]
                    held = sum(weights.weight(t) for t in asked & around) / asked_weight
                    shared = (
                        len(asked_bigrams & char_bigrams(shown)) / len(asked_bigrams)
                        if asked_bigrams
                        else 0.0
                    )
                else:
                    # Across languages no term is shared exactly: the soft, translation-aware
                    # coverage stands in for the exact-term signals, which would read 0.
                    exact, held, shared = cover_unit, cover, cover_unit
                signals = Signals(
                    cover=cover,
                    cover_unit=cover_unit,
                    exact_unit=exact,
                    cover_all=held,
                    bigrams=shared,
                    similarity=max(0.0, sim),
                    shape=_shape(task.wants, unit, introduces.get(id(unit), False)),
                    prior=_prior(passage),
                    number_missing=float(task.wants.number and not has_number(unit.text)),
                    gap=gap,
                    novelty=len(own - asked) / len(own) if own else 0.0,
                    length=min(1.0, math.log1p(len(unit.text)) / 6),
                    kind=unit.kind,
                )
                scored.append(
                    Scored(
                        index=passage.index,
                        task_id=task.task_id,
                        unit=unit,
                        units=units,
                        raw=passage.text[unit.start : unit.end],
                        logit=unit_logit(signals),
                        score=probability(unit_logit(signals)),
                        signals=signals,
                        matched=tuple(matched),
                        missing=tuple(k for k in task.keywords if k not in matched),
                    )
                )
            scored.sort(key=lambda s: (-s.score, s.index, s.unit.start))
            result[task.task_id] = measure_first(task.wants, _slot_first(task.wants, scored))
        return result

    # -- embeddings -----------------------------------------------------------------------

    def _soft_matches(self, task: TaskTerms, units: Sequence[Unit]) -> dict[int, dict[str, float]]:
        """Per unit: keyword -> the credit its nearest word gives it (0..1), for keywords
        whose terms the unit does not hold."""
        if self.embedder is None or not units:
            return {}
        words = {id(u): [w for w in content_words(u.text) if not _numeric(w)] for u in units}
        parts = {k: [p for p in content_words(k) if p != k and " " not in p] for k in task.keywords}
        vocabulary = sorted({w for ws in words.values() for w in ws})
        if not vocabulary:
            return {}
        queries = sorted({*task.keywords, *(p for ps in parts.values() for p in ps)})
        vectors = self.embed([*queries, *vocabulary])
        query_index = {q: i for i, q in enumerate(queries)}
        word_index = {w: i for i, w in enumerate(vocabulary)}
        similarities = (
            np.stack([vectors[q] for q in queries]) @ np.stack([vectors[w] for w in vocabulary]).T
        )
        script = np.array([detect_language(q) for q in queries])
        across = script[:, None] != np.array([detect_language(w) for w in vocabulary])[None, :]
        full = np.where(across, SOFT_FULL_ACROSS_SCRIPTS, SOFT_FULL)
        credit = np.clip((similarities - SOFT_FLOOR) / (full - SOFT_FLOOR), 0.0, 1.0)
        if task.wants.definition:
            # What a thing is asked of is answered where the thing is named: a word nearer
            # one of its name's parts than the name stands for that part ("theory" for
            # 相対性理論, 理論 for "gauge theory"), and gives the name no credit whole
            for keyword, own in parts.items():
                if own:
                    nearest_part = similarities[[query_index[p] for p in own]].max(axis=0)
                    whole = similarities[query_index[keyword]]
                    credit[query_index[keyword]] *= whole >= nearest_part
        out: dict[int, dict[str, float]] = {}
        for unit in units:
            columns = [word_index[w] for w in words[id(unit)]]
            if not columns:
                continue
            best = credit[:, columns].max(axis=1)
            # a phrase counts whole, or word by word (each word its own nearest neighbour):
            # "graduate students borrow" has no one translation, its words do
            out[id(unit)] = {
                k: max(
                    float(best[query_index[k]]),
                    float(np.mean([best[query_index[p]] for p in parts[k]])) if parts[k] else 0.0,
                )
                for k in task.keywords
            }
        return out

    def _similarities(self, task: TaskTerms, rows: list) -> list[float]:
        """Sentence similarity for the SIMILARITY_TOP units by cover; 0 for the rest."""
        if self.embedder is None or not rows:
            return [0.0] * len(rows)
        order = sorted(range(len(rows)), key=lambda i: (-rows[i][3], -rows[i][4], i))
        chosen = order[:SIMILARITY_TOP]
        texts = [_with_lead_in(rows[i][1]) for i in chosen]
        vectors = self.embed([task.description, *texts])
        question = vectors[task.description]
        out = [0.0] * len(rows)
        for i, text in zip(chosen, texts, strict=True):
            out[i] = float(np.dot(question, vectors[text]))
        return out

    def embed(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        fresh = sorted({t for t in texts if t not in self._vectors})
        if fresh and self.embedder is not None:
            if len(self._vectors) > 50_000:  # bound the cache of a long-running librarian
                self._vectors.clear()
            try:
                vectors = self.embedder.embed(fresh)
            except Exception as exc:
                raise EngineError(
                    f"embedding {len(fresh)} texts with {self.embedder.name} failed: {exc}"
                ) from exc
            for text, vector in zip(fresh, vectors, strict=True):
                self._vectors[text] = vector
        return {t: self._vectors[t] for t in texts}


def _cover(
    task: TaskTerms, weights: TermWeights, present: set[str], soft: dict[str, float]
) -> tuple[float, list[str], float]:
    """IDF-weighted share of the task's keywords the unit holds, the keywords matched, and
    the gap: the most specific missing keyword's weight relative to the most specific
    keyword's (1 when the rarest keyword of the question is nowhere in the unit)."""
    total = got = heaviest = gap = 0.0
    matched = []
    for keyword in task.keywords:
        parts = [t for t in terms(keyword) if t in task.key] or terms(keyword)
        if not parts:
            continue
        weight = sum(weights.weight(t) for t in parts) / len(parts)
        held = sum(weights.weight(t) for t in parts if t in present) / (weight * len(parts))
        credit = max(held, soft.get(keyword, 0.0))
        total += weight
        got += weight * credit
        heaviest = max(heaviest, weight)
        gap = max(gap, weight * (1.0 - credit))
        if credit >= 0.5:
            matched.append(keyword)
    return (got / total if total else 0.0), matched, (gap / heaviest if heaviest else 0.0)


def _shape(wants: Wants, unit: Unit, introduces_a_list: bool = False) -> float:
    """1 when the unit is the kind of thing the question asks for, else 0. A sentence that
    introduces a list or table stands for it (the answer quotes them together)."""
    text = unit.text
    if wants.listing and introduces_a_list:
        return 1.0
    if wants.formula and (unit.kind == FORMULA or _LATEX.search(text)):
        return 1.0
    if wants.code and unit.kind in (CODE, ROW):
        return 1.0
    if wants.listing and unit.kind in (ITEM, ROW):
        return 1.0
    if wants.number and has_number(text) and unit.kind != FORMULA:
        return 1.0
    if wants.reason and unit.kind == SENTENCE and _REASON.search(text):
        return 1.0
    return 0.0


def _slot_first(wants: Wants, scored: list[Scored]) -> list[Scored]:
    """A question that asks which weekday or period a class meets is answered by a unit
    that names a weekday (開講 | 火曜3限), so the best such unit that holds a word of the
    question leads. Its words are a syllabus row's (開講, 講義), not the question's (授業),
    so it ranked below the notes' headers that name the course. On the eight course sets:
    course_sec and course_ds +1 each, course_algo's lead right but from the notes' header;
    none lost on the ten sets. The word of the question keeps a class's slot from leading
    an answer about an exam's day."""
    if not wants.slot:
        return scored
    return _first_to_lead(
        scored, lambda s: s.matched and gives("slot", f"{s.unit.context} {s.unit.text}")
    )


# How close to the best unit's score a unit that gives the measure asked must come to lead
# instead (how long, how many times, いくら …). Measured on the sixteen course sets: 0.65
# gave 9 right answers more and lost 1, 0.8 gave 12 more and lost 1 (jsquad_ja and
# xquad_en unchanged at both); a unit further down is a different fact.
MEASURE_LEAD_SHARE = 0.8


def measure_first(wants: Wants, scored: list[Scored]) -> list[Scored]:
    """A question that asks for a measure of one kind (how long, how many times, 何人,
    いくら) is answered by a unit that gives one: when the best unit gives none, the next
    unit that does and holds a word of the question leads, if it scores nearly as well (a
    sentence that names the topic often outscores the table row or list item with the
    value). When no unit close to it gives the measure, the judge finds the measure missing
    (``judge._lacking``): the notes then state something else about the topic, such as the
    default where the upper limit is asked, or the total where a unit price is."""
    if not wants.measure or not scored or _gives(wants.measure, scored[0]):
        return scored
    floor = MEASURE_LEAD_SHARE * scored[0].score
    return _first_to_lead(
        scored, lambda s: s.score >= floor and s.matched and _gives(wants.measure, s)
    )


def _gives(measure: str, scored: Scored) -> bool:
    return holds_measure(measure, f"{scored.unit.context} {scored.unit.text}")


def _first_to_lead(scored: list[Scored], fits: Callable[[Scored], bool]) -> list[Scored]:
    """The first unit that ``fits`` moved to the front; the order as it was if none does."""
    chosen = next((s for s in scored if fits(s)), None)
    if chosen is None:
        return scored
    return [chosen, *(s for s in scored if s is not chosen)]


def _prior(passage: Passage) -> float:
    best = min(passage.ranks.values(), default=0)
    return 1.0 / math.sqrt(best) if best > 0 else 0.0


def _with_lead_in(unit: Unit) -> str:
    return f"{unit.context} {unit.text}".strip() if unit.kind in (ITEM, ROW, CODE) else unit.text


def _numeric(word: str) -> bool:
    return re.fullmatch(r"[約\d.,%+-]+", word) is not None
