"""The extractive judge: which passages are evidence for which task, and which tasks are done.

Every unit of every passage is scored per task (``scoring.py``). A passage's best unit
is its finding for the task. Whether the task is satisfied is a second, calibrated
decision on the best unit: how likely it answers, how much of the question it covers,
how close it reads, the most specific keyword it misses and whether it has the shape
asked for (``sufficient``). A task whose question names something no passage holds
(``names.py``: sched_latency, Nagle), or states a setting none states (lists = 1000 where
the notes give lists = 100), is not satisfied, however close the passages read; nor is one
whose best passage never names an identifier of the question that another passage names
(delivery_log, __consumer_offsets); nor one whose best unit speaks of another person than
the one asked about, or only names them (``persons.py``); nor one that asks for a date
(何月何日), an e-mail address, where to find a thing (過去問はどこで手に入る？), a measure of
one kind (how long, how many times, いくら, 何人), a language (何の言語で書かれている), a
version (Redis のバージョン), an upper or a lower bound (上限はいくつ: what a setting is set
to is none), a test's questions (何問, 大問ごとの配点) or a make-up exam when the best unit
and the units next to it give none, or asks of last year where they and their section
say nothing of it; nor one that states a case (a 64 KiB cache, 3相コミット, 8 threads) they
give only for other values (``cases.py``); nor one that asks how many of a thing
(パーティション数, 何語, "how many parameters") where they name the thing with no number of
it (``counts.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from services.reasoning.extractive.cases import other_case
from services.reasoning.extractive.counts import counted, counts, would_name
from services.reasoning.extractive.names import PassageNames
from services.reasoning.extractive.persons import (
    asked_of,
    asked_persons,
    holds_any,
    speaks_of_another,
)
from services.reasoning.extractive.planner import rule_plan
from services.reasoning.extractive.question import gives, holds_measure, wants_of
from services.reasoning.extractive.scoring import (
    FEATURES,
    SOFT_FLOOR,
    SOFT_FULL,
    SOFT_FULL_ACROSS_SCRIPTS,
    Scored,
    UnitScorer,
)
from services.reasoning.extractive.units import FAQ_QUESTION, Unit
from services.reasoning.llm import Finding, Judgement, Passage, PlannedTask

# Logistic weights of the sufficiency decision (``sufficiency_features``), and the bias.
# Fitted by `eduanima eval calibrate` on eval/course, eval/course_ml, jsquad_ja and
# xquad_en (dev); negatives are the unanswerable questions and every answerable one without
# its gold passages. Leave-one-set-out figures in docs/quality.md.
SUFFICIENCY_WEIGHTS = {
    "unit_logit": 1.35,
    "cover": -1.75,
    "cover_unit": -0.19,
    "similarity": -0.61,
    "gap": 0.25,
    "shape": -0.53,
    "prior": 1.14,
    "top_rank_cover": 3.80,
    "max_cover": -0.27,
    "max_similarity": 0.98,
    "min_gap": -1.42,
}
SUFFICIENCY_BIAS = -2.80
# A word stands for a keyword at the similarity where the scorer's soft credit reaches one
# half (``scoring._cover`` counts a keyword matched from there): same script, across scripts.
_MATCHED_SIMILARITY = ((SOFT_FLOOR + SOFT_FULL) / 2, (SOFT_FLOOR + SOFT_FULL_ACROSS_SCRIPTS) / 2)


def sufficiency_features(logits: np.ndarray, signals: np.ndarray) -> dict[str, float]:
    """What the decision reads, from every unit's log-odds and signal vector (rows in
    ``scoring.FEATURES`` order): the best unit, and what the candidates hold at most."""
    column = {name: i for i, name in enumerate(FEATURES)}
    best = signals[int(np.argmax(logits))]
    first = signals[signals[:, column["prior"]] >= 0.99]  # the search's first passage(s)
    return {
        "unit_logit": float(logits.max()),
        "cover": float(best[column["cover"]]),
        "cover_unit": float(best[column["cover_unit"]]),
        "similarity": float(best[column["similarity"]]),
        "gap": float(best[column["gap"]]),
        "shape": float(best[column["shape"]]),
        "prior": float(best[column["prior"]]),
        "top_rank_cover": float(first[:, column["cover"]].max()) if len(first) else 0.0,
        "max_cover": float(signals[:, column["cover"]].max()),
        "max_similarity": float(signals[:, column["similarity"]].max()),
        "min_gap": float(signals[:, column["gap"]].min()),
    }


def sufficient(ranked: Sequence[Scored]) -> bool:
    """Do these candidates answer the task? (every unit of them, scored for it)"""
    if not ranked:
        return False
    values = sufficiency_features(
        np.array([s.logit for s in ranked]), np.array([s.signals.vector() for s in ranked])
    )
    z = SUFFICIENCY_BIAS + sum(w * values[name] for name, w in SUFFICIENCY_WEIGHTS.items())
    return z >= 0.0


class Judge:
    def __init__(
        self,
        scorer: UnitScorer,
        *,
        min_finding_score: float = 0.2,
        max_findings_per_task: int = 4,
        keep_search_top: int = 1,
    ):
        self.scorer = scorer
        self.min_finding_score = min_finding_score
        self.max_findings_per_task = max_findings_per_task
        self.keep_search_top = keep_search_top

    def evaluate(
        self, question: str, tasks: Sequence[PlannedTask], passages: Sequence[Passage]
    ) -> Judgement:
        if not tasks:
            tasks = rule_plan(question).tasks
        ranked = self.scorer.score(tasks, passages)
        findings: list[Finding] = []
        satisfied: list[str] = []
        notes: list[str] = []
        # the search's first passage stays evidence when any unit of it speaks to the task
        heads = set(sorted(p.index for p in passages)[: self.keep_search_top])
        names = PassageNames(passages, self.scorer.embed)
        headings = {p.index: p.heading for p in passages}
        texts = {p.index: p.text for p in passages}
        for task in tasks:
            best = _best_per_passage(ranked.get(task.task_id, []))
            kept = [s for s in best if s.score >= self.min_finding_score]
            kept = kept[: self.max_findings_per_task]
            kept += [s for s in best if s.index in heads and s.matched and s not in kept]
            findings.extend(_finding(s) for s in kept)
            top = best[0] if best else None
            unnamed = names.absent(task.description) if top else []
            if unnamed:
                notes.append(f"{task.task_id} not satisfied: no passage names {', '.join(unnamed)}")
            elif top and (elsewhere := names.only_elsewhere(task.description, top.index)):
                notes.append(
                    f"{task.task_id} not satisfied: best [{top.index}] never names {elsewhere}"
                )
            elif top and (other := self._not_of_person(task.description, top, headings)):
                notes.append(f"{task.task_id} not satisfied: best [{top.index}] {other}")
            elif top and (lacking := _lacking(task.description, top, headings, texts)):
                notes.append(f"{task.task_id} not satisfied: best [{top.index}] gives no {lacking}")
            elif top and sufficient(ranked.get(task.task_id, [])):
                satisfied.append(task.task_id)
                notes.append(f"{task.task_id} satisfied by [{top.index}] (score {top.score:.2f})")
            elif top:
                missing = ", ".join(top.missing) or "-"
                notes.append(
                    f"{task.task_id} not satisfied: best [{top.index}] score {top.score:.2f},"
                    f" missing {missing}"
                )
            else:
                notes.append(f"{task.task_id} not satisfied: no passage")
        reason = f"{len(satisfied)}/{len(tasks)} tasks satisfied. " + "; ".join(notes)
        return Judgement(findings=findings, satisfied_task_ids=satisfied, reason=reason)

    def _not_of_person(self, question: str, top: Scored, headings: dict[int, str]) -> str:
        """Why the best unit does not answer what the question asks of a person it names
        (``persons.py``): it speaks of another person (the lecturer's office hours where a
        TA's are asked), or it names the person and nothing asked of them ("TA の樋口さんが
        演習時間中に答えます" for 樋口's office hours)."""
        persons = asked_persons(question)
        if len(persons) != 1:  # two people asked of ("国枝先生と樋口さんの部屋") are compared
            return ""
        if other := speaks_of_another(persons, _with_reply(top), top.unit.context):
            return f"speaks of {other}"
        asked = asked_of(persons, question)
        # a table's heading may say what its rows give ("オフィスアワー" over the staff)
        text = f"{headings.get(top.index, '')}\n{top.unit.context}\n{top.unit.text}"
        if asked and not holds_any(asked, text, self.scorer.embed, _MATCHED_SIMILARITY):
            return f"gives no {asked[0]} of {persons[0]}"
        return ""


def _with_reply(scored: Scored) -> str:
    """The unit's text, and when it is a FAQ's question, the answer under it: "Q: Who
    answers questions outside office hours?" answers with its "A: … Dr. Okonkwo."."""
    at = scored.units.index(scored.unit)
    if FAQ_QUESTION.match(scored.unit.text) and at + 1 < len(scored.units):
        return f"{scored.unit.text}\n{scored.units[at + 1].text}"
    return scored.unit.text


# What a question asks for by its form (a field of ``Wants``), in the order checked, what
# the judge says is missing when the best unit and the units next to it do not give it, and
# how far ``_near`` reaches for it.
_FORMS: tuple[tuple[str, str, dict[str, bool]], ...] = (
    ("last_year", "word of last year", {}),
    ("date", "date", {}),
    ("makeup", "word of the make-up exam", {"whole_group": True}),
    ("version", "version", {"groups_near": True}),
    ("upper_bound", "upper limit", {}),
    ("lower_bound", "lower limit", {}),
    ("questions", "count or number of its questions", {}),
    ("email", "e-mail address", {}),
    ("source", "place to find it", {}),
)
# The forms a passage's heading may give for all its units: a section on last year, a
# table of limits under "上限".
_GIVEN_BY_HEADING = frozenset({"last_year", "upper_bound", "lower_bound"})


def _lacking(question: str, top: Scored, headings: dict[int, str], texts: dict[int, str]) -> str:
    """What the question asks for by its form that the best unit, and the units next to it,
    do not give: a date (何月何日), an e-mail address, where to find a thing (どこで手に入る),
    a measure of the kind asked (a length of time, a count of times or people, money), a
    language, a version (Redis 7, 3.12; a component table naming Redis gives none), an
    upper or a lower bound (最大8レプリカまで gives no minimum, ef_search = 64 no limit), a
    test's questions counted or numbered (the exam's share of the grade is no answer), a
    make-up exam (nor is the regular exam's date); or what it asks of last year,
    where neither they nor their section say it is of last year (this year's grading table
    for last year's highest mark); or the case it states, where they and their section
    give its unit only with other numbers, and the passage nowhere with its own; or a
    count of the thing the question counts, where the passage names it (or would, in the
    notes' word for it) and they give no number of it."""
    wants = wants_of(question)
    heading = headings.get(top.index, "")
    for form, missing, reach in _FORMS:
        if not getattr(wants, form) or (form in _GIVEN_BY_HEADING and gives(form, heading)):
            continue
        if not _near(top, partial(gives, form), **reach):
            return missing
    if wants.measure and not _near(top, partial(holds_measure, wants.measure)):
        return wants.measure
    near = "\n".join([heading, *map(_shown, _next_to(top))])
    passage = "\n".join([heading, *map(_shown, top.units)])
    things = () if wants.measure else counted(question)
    if things and not counts(things, near):
        others = [text for index, text in texts.items() if index != top.index]
        if would_name(things, passage, others):
            return f"count of {things[0]}"
    if case := other_case(question, near, passage):
        return f"{case} (given only for other values)"
    return ""


def _next_to(scored: Scored) -> list[Unit]:
    """The unit and the units either side of it."""
    at = scored.units.index(scored.unit)
    return list(scored.units[max(0, at - 1) : at + 2])


def _shown(unit: Unit) -> str:
    return f"{unit.text}\n{unit.context}"


def _near(
    scored: Scored,
    holds: Callable[[str], bool],
    *,
    whole_group: bool = False,
    groups_near: bool = False,
) -> bool:
    """Does the unit, or a unit next to it, hold it? Next to it, since a date often stands
    in the sentence after the one that names the event ("Lecturer: D. Hartmann (Lectures 6-7
    in English)." then "Lecture 6: Tuesday 17 November."); the whole passage was too far:
    the make-up exam's rules sat in the same FAQ chunk as other dates."""
    near = _next_to(scored)
    if whole_group and scored.unit.group >= 0:  # the list or table the answer quotes whole
        near += [u for u in scored.units if u.group == scored.unit.group]
    if groups_near:  # a code cell next to it, with what it printed ("print(sys.version)")
        groups = {u.group for u in near if u.group >= 0}
        near += [u for u in scored.units if u.group in groups]
    return any(holds(_shown(u)) for u in near)


def _best_per_passage(ranked: Sequence[Scored]) -> list[Scored]:
    seen: set[int] = set()
    best = []
    for scored in ranked:
        if scored.index not in seen:
            seen.add(scored.index)
            best.append(scored)
    return best


def _finding(scored: Scored) -> Finding:
    s = scored.signals
    reason = (
        f"{scored.unit.kind}: cover {s.cover:.2f} (own {s.cover_unit:.2f}),"
        f" similarity {s.similarity:.2f}, shape {s.shape:.0f}"
    )
    if scored.matched:
        reason += f"; matched {', '.join(scored.matched)}"
    if scored.missing:
        reason += f"; missing {', '.join(scored.missing)}"
    return Finding(
        index=scored.index,
        task_id=scored.task_id,
        snippet=scored.raw,
        score=max(0.0, min(1.0, scored.score)),
        reason=reason,
    )
