"""``eduanima eval calibrate``: fit the extractive engine's weights on datasets, and show how
they hold on a dataset left out.

Every question runs the loop's plan and first search exactly as the services do; the
scorer then reads every unit of every candidate (``Signals``). Two logistic models:

- **unit**: which unit answers. Positives: units of a gold passage whose quote (the unit
  with its list, table or formula) holds a gold key. It orders units for the judge's
  findings and the answerer's lead (``scoring.WEIGHTS``).
- **sufficiency**: whether the candidates answer at all, from the best unit's signals.
  Positives: answerable questions whose candidates hold an answering unit. Negatives:
  unanswerable questions, and every answerable question once more with its gold passages
  removed (the same topic, the answer gone: the plausible miss the judge must refuse).
  It reads ``judge.sufficiency_features`` and gives the judge's ``SUFFICIENCY_WEIGHTS``.

Each dataset weighs the same in a fit, whatever its size. Leave-one-set-out figures say
whether a weight holds beyond the sets it was fitted on; the constants in the engine are
the all-sets fit, printed last.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from services.common import db
from services.common.kafka_io import now_ms
from services.librarian.stages import candidate_passages
from services.loop_runtime import question_event
from services.professor import stages as professor
from services.professor.settings import ProfessorSettings
from services.reasoning.embedders import CachedEmbedder, UseM3Embedder
from services.reasoning.extractive.answerer import excerpt
from services.reasoning.extractive.judge import SUFFICIENCY_WEIGHTS, sufficiency_features
from services.reasoning.extractive.planner import rule_plan
from services.reasoning.extractive.question import wants_of
from services.reasoning.extractive.scoring import FEATURES, Scored, UnitScorer
from services.searcher.app import physical_search
from services.searcher.stages import search_step
from tools.evaluation.answers import EvalQuestion, load_questions, normalised, store_set
from tools.evaluation.retrieval import EVAL_USER


@dataclass
class Sample:
    """One question of one dataset: its units' features and labels."""

    dataset: str
    qid: str
    answerable: bool
    units: np.ndarray  # (units, FEATURES)
    labels: np.ndarray  # 1 where the unit's quote holds a gold key in a gold passage
    gold: np.ndarray  # 1 where the unit's passage is a gold one


def collect(folder: Path, progress: Callable[[int], None] = lambda n: None) -> list[Sample]:
    settings = ProfessorSettings()
    db.migrate(settings)
    embedder = CachedEmbedder(UseM3Embedder(), Path(settings.eduanima_home) / "embed-cache")
    with db.connect(settings) as conn:
        stored = store_set(conn, folder, embedder, lambda n: None)
    pool = db.pool(settings)
    search = physical_search(pool, embedder)
    scorer = UnitScorer(embedder)
    samples = []
    try:
        for q in load_questions(folder):
            samples += _samples(folder.name, q, stored, search, scorer)
            progress(1)
    finally:
        pool.close()
    return samples


class _Planner:
    """The plan step with the extractive rules, as the services run it offline."""

    name = "extractive"

    def plan(self, question, history=()):
        return rule_plan(question)


def _samples(dataset, q: EvalQuestion, stored, search, scorer: UnitScorer) -> list[Sample]:
    event = question_event(stored.subject_id, EVAL_USER, q.question)
    emits, _ = professor.plan_question(event, _Planner(), now_ms())
    request = next(e.event for e in emits if type(e.event).__name__ == "SearchRequest")
    _, out = search_step(request, None, search, now_ms())
    result = next(e.event for e in out if type(e.event).__name__ == "SearchResult")
    passages = candidate_passages(result)
    unit_of = {c.temp_index: stored.unit_of.get(c.chunk_id, "") for c in result.candidates}
    gold_materials = {stored.material_of.get(u, u) for u in q.gold}
    keys = [normalised(k) for k in q.answers]
    samples = []
    tasks = rule_plan(q.question).tasks
    listing = {t.task_id: wants_of(t.description).listing for t in tasks}
    for task_id, ranked in scorer.score(tasks, passages).items():
        gold = [
            unit_of[s.index] in q.gold or stored.material_of.get(unit_of[s.index]) in gold_materials
            for s in ranked
        ]
        labels = [
            g and _holds(s, keys, listing[task_id]) for s, g in zip(ranked, gold, strict=True)
        ]
        samples.append(
            Sample(
                dataset, f"{q.qid}/{task_id}", q.answerable,
                np.array([s.signals.vector() for s in ranked]).reshape(len(ranked), -1),
                np.array(labels, dtype=float), np.array(gold, dtype=float),
            )
        )  # fmt: skip
    return samples


def _holds(scored: Scored, keys: Sequence[str], listing: bool) -> bool:
    shown = normalised(" ".join(u.text for u in excerpt(scored, 0, listing)))
    return any(key in shown for key in keys)


def fit_logistic(
    x: np.ndarray, y: np.ndarray, sample_weight: np.ndarray, l2: float = 1.0
) -> np.ndarray:
    """Weights and bias (last) of an L2-regularised logistic regression, by Newton steps;
    the classes are balanced so that rare positives count as much as the rest."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    positive = (sample_weight * y).sum() or 1.0
    negative = (sample_weight * (1 - y)).sum() or 1.0
    sw = sample_weight * np.where(y == 1, 0.5 / positive, 0.5 / negative) * len(y)
    w = np.zeros(xb.shape[1])
    ridge = l2 * np.diag(np.r_[np.ones(len(w) - 1), 0.0])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-xb @ w))
        gradient = xb.T @ (sw * (p - y)) + ridge @ w
        hessian = (xb * (sw * p * (1 - p))[:, None]).T @ xb + ridge
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def _set_weights(samples: Sequence[Sample]) -> dict[str, float]:
    counts: dict[str, int] = {}
    for s in samples:
        counts[s.dataset] = counts.get(s.dataset, 0) + 1
    return {name: 1.0 / n for name, n in counts.items()}


def fit_units(samples: Sequence[Sample]) -> np.ndarray:
    weight_of = _set_weights(samples)
    rows = [s for s in samples if len(s.units)]
    x = np.vstack([s.units for s in rows])
    y = np.concatenate([s.labels for s in rows])
    w = np.concatenate([np.full(len(s.units), weight_of[s.dataset] / len(s.units)) for s in rows])
    return fit_logistic(x, y, w)


def logit(units: np.ndarray, weights: np.ndarray) -> np.ndarray:
    return units @ weights[:-1] + weights[-1]


def sufficiency_rows(
    samples: Sequence[Sample], unit_weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Per question (and per answerable question without its gold passages): the best
    unit's features, and whether the candidates answer."""
    x, y, sets = [], [], []
    for s in samples:
        if not len(s.units):
            continue
        variants = [(np.ones(len(s.units), bool), 1.0 if s.labels.any() else None)]
        if not s.answerable:
            variants = [(np.ones(len(s.units), bool), 0.0)]
        elif s.gold.any() and not s.gold.all():
            variants.append((s.gold == 0, 0.0))
        for keep, label in variants:
            if label is None:
                continue  # answerable, but the first search did not reach the answer
            features = sufficiency_features(logit(s.units[keep], unit_weights), s.units[keep])
            x.append([features[name] for name in SUFFICIENCY_WEIGHTS])
            y.append(label)
            sets.append(s.dataset)
    return np.array(x), np.array(y), sets


def fit_sufficiency(samples: Sequence[Sample], unit_weights: np.ndarray) -> np.ndarray:
    x, y, sets = sufficiency_rows(samples, unit_weights)
    counts = {name: sets.count(name) for name in set(sets)}
    return fit_logistic(x, y, np.array([1.0 / counts[name] for name in sets]))


@dataclass(frozen=True)
class HeldOut:
    dataset: str
    unit_top1: float  # the best unit's quote holds a gold key (answerable, reached)
    unit_top3: float
    accepted: float  # answerable and reached: judged sufficient
    refused: float  # unanswerable, or gold removed: judged insufficient


def held_out(samples: Sequence[Sample], unit_w: np.ndarray, suff_w: np.ndarray) -> HeldOut:
    top1 = top3 = reached = 0
    for s in samples:
        if s.answerable and s.labels.any():
            order = np.argsort(-logit(s.units, unit_w), kind="stable")
            reached += 1
            top1 += bool(s.labels[order[0]])
            top3 += bool(s.labels[order[:3]].any())
    x, y, _ = sufficiency_rows(samples, unit_w)
    verdict = (x @ suff_w[:-1] + suff_w[-1]) >= 0 if len(x) else np.array([])
    accepted = float(verdict[y == 1].mean()) if (y == 1).any() else math.nan
    refused = float((~verdict[y == 0]).mean()) if (y == 0).any() else math.nan
    n = max(reached, 1)
    return HeldOut(samples[0].dataset, top1 / n, top3 / n, accepted, refused)


def calibrate(samples: Sequence[Sample]) -> dict:
    datasets = sorted({s.dataset for s in samples})
    report = {"datasets": datasets, "held_out": {}}
    for left_out in datasets:
        train = [s for s in samples if s.dataset != left_out]
        test = [s for s in samples if s.dataset == left_out]
        unit_w = fit_units(train)
        figures = held_out(test, unit_w, fit_sufficiency(train, unit_w))
        report["held_out"][left_out] = {
            k: round(v, 3) for k, v in dataclasses.asdict(figures).items() if k != "dataset"
        }
    unit_w = fit_units(samples)
    suff_w = fit_sufficiency(samples, unit_w)
    report["unit_weights"] = dict(
        zip([*FEATURES, "bias"], np.round(unit_w, 2).tolist(), strict=True)
    )
    report["sufficiency_weights"] = dict(
        zip([*SUFFICIENCY_WEIGHTS, "bias"], np.round(suff_w, 2).tolist(), strict=True)
    )
    report["in_sample"] = {
        name: dataclasses.asdict(
            held_out([s for s in samples if s.dataset == name], unit_w, suff_w)
        )
        for name in datasets
    }
    return report


__all__ = ["calibrate", "collect"]
