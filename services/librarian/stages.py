"""Librarian stage logic, pure: evaluate one iteration's candidates, route, refine.

The librarian holds no database or storage settings. Everything it needs
travels in the message: the plan, the evidence so far, the task status. The
LLM sees candidates by temp index and text only; this module maps the indexes
back to chunk, material and page (ARCHITECTURE invariant 3).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence

from services.common.events import Evaluation, Evidence, SearchResult, TaskStatus
from services.common.stage_runner import Emit
from services.common.text import JAPANESE, chunk_terms, lexical_terms
from services.reasoning.fallback import REASON_CHARS, recording
from services.reasoning.llm import LLMEngine, Passage, PlannedTask
from topics.registry import EVALUATIONS

logger = logging.getLogger(__name__)

# The evidence one iteration adds to a task, at most: its best-scored pieces. The answer
# quotes 8 passages at most, and the loop state carrying the evidence must stay far below
# the loop topics' message size, even from an engine that names every candidate.
MAX_FRESH_PER_TASK = 8
# A question is off the materials' topic when its nearest chunk in scope is less similar to
# it than this (USE-m3 cosine of the first search's vector query and the vector list's first
# hit) and a keyword of it is held by no candidate: the loop then ends at once,
# INSUFFICIENT, instead of widening the search until a passage sharing a word is taken for
# the answer. Calibrated on twenty questions on topics no course set covers (the first
# twenty of tools/evaluation/off_topic.txt), asked of the seventeen course and design sets
# and the demo course: 72 of the 360 were answered without it, 32 at 0.17, 20 at 0.20, 14
# at 0.22; the twenty after them, held out until it landed: 12 of 360 at 0.17. eval
# answers on the nineteen sets: unchanged at 0.17; at 0.20 four right answers lost on the
# first nine sets and at 0.22 eight on seven (short questions: "When was the Parental
# Leave directive created?"). Their nearest cosines: off-topic 0.06-0.33 (median 0.16),
# answerable 0.14-0.77 (1st percentile 0.20).
OFF_TOPIC_NEAREST = 0.17


def strategy_for(next_iteration: int) -> str:
    """Seed 001: 1 direct, 2 the missing pieces, 3 synonyms and broader terms, 4–5 neighbours."""
    return {0: "direct", 1: "missing", 2: "broader"}.get(next_iteration, "neighbours")


def _tasks(result: SearchResult) -> list[PlannedTask]:
    return [
        PlannedTask(t.task_id, t.description, list(t.keywords), t.required)
        for t in result.state.plan.tasks
    ]


def evaluate(result: SearchResult, engine: LLMEngine) -> Evaluation:
    """Findings for every task are kept, but a task is judged satisfied only while it is
    in the iteration's focus, over the new candidates and the evidence already held for it."""
    state = result.state
    tasks = _tasks(result)
    known_tasks = {t.task_id for t in tasks}
    focus = set(result.focus_task_ids) & known_tasks or known_tasks
    passages = candidate_passages(result)
    first = max((p.index for p in passages), default=0) + 1
    held_passages = _held_passages(state.evidence, focus, first_index=first)
    passages += held_passages
    conditions = [(c.kind, c.description) for c in state.plan.stop_conditions]
    judgement = engine.evaluate(state.question, tasks, passages, conditions) if passages else None
    by_index = {c.temp_index: c for c in result.candidates}
    held_indexes = {p.index for p in held_passages}
    held = {(e.chunk_id, e.task_id) for e in state.evidence}
    # per task: one sentence may be the evidence of two tasks, and both must hold it
    held_snippets = {(e.task_id, e.snippet) for e in state.evidence}
    fresh: list[Evidence] = []
    for finding in judgement.findings if judgement else []:
        if finding.index in held_indexes:
            continue  # evidence already held: it served only to judge the task
        candidate = by_index.get(finding.index)
        if candidate is None or finding.task_id not in known_tasks:
            logger.info(
                "dropping finding with unknown index %s or task %s", finding.index, finding.task_id
            )
            continue
        if (candidate.chunk_id, finding.task_id) in held or (
            finding.task_id,
            finding.snippet,
        ) in held_snippets:
            continue  # a duplicate of evidence already held
        held.add((candidate.chunk_id, finding.task_id))
        held_snippets.add((finding.task_id, finding.snippet))
        neighbours = "\n".join(t for t in (candidate.prev_text, candidate.next_text) if t)
        fresh.append(
            Evidence(
                chunk_id=candidate.chunk_id,
                material_id=candidate.material_id,
                material_title=candidate.material_title,
                page=candidate.page,
                task_id=finding.task_id,
                snippet=finding.snippet,
                score=finding.score,
                reason=finding.reason,
                iteration=result.iteration,
                chunk_text=candidate.text,
                neighbour_text=neighbours,
                rank=min(candidate.ranks.values(), default=0),
                heading=section_heading(candidate.heading_path),
            )
        )
    fresh = best_per_task(fresh, MAX_FRESH_PER_TASK)
    # far from every chunk, and a keyword no candidate holds (a short question on topic
    # embeds far from its passage too, but its words are there). Of a question of one task,
    # one keyword is enough; the first of several often holds a frame beside its topic
    # (何という名前で, いま), so there it takes every one (measured: with one, two right answers
    # lost on the nineteen sets; with every one, none)
    far = far_from_materials(result)
    searched = [t for t in tasks if t.task_id in focus]
    unheard = unheard_keywords(result, searched, every=focus != known_tasks) if far else []
    off_topic = bool(unheard)
    satisfied_now = set(judgement.satisfied_task_ids) & focus if judgement else set()
    if off_topic:
        satisfied_now = set()
    status = []
    for old in state.task_status:
        best = max([old.best_score] + [e.score for e in fresh if e.task_id == old.task_id])
        status.append(TaskStatus(old.task_id, old.satisfied or old.task_id in satisfied_now, best))
    missing = [s.task_id for s in status if not s.satisfied and _required(tasks, s.task_id)]
    new_state = dataclasses.replace(state, evidence=[*state.evidence, *fresh], task_status=status)
    unmet = judgement.unmet_conditions if judgement else []
    if not missing and unmet:
        # every task has evidence, yet the plan's stop conditions do not hold (near concepts
        # not told apart, a figure not described): look again, for every task
        missing = [t.task_id for t in tasks if t.required]
        judgement = dataclasses.replace(
            judgement, reason=f"stop conditions not met: {', '.join(unmet)}. {judgement.reason}"
        )
    if off_topic:
        return Evaluation(
            session_id=result.session_id,
            iteration=result.iteration,
            new_evidence=len(fresh),
            route="CONTINUE",
            route_reason=(
                f"off topic: no passage holds {', '.join(unheard)}, and the nearest in scope"
                f" has similarity {result.nearest:.2f} to the question (below"
                f" {OFF_TOPIC_NEAREST})"
            ),
            state=new_state,
            next_focus=missing,
            stop_reason="off_topic",
        )
    if not missing:
        return Evaluation(
            session_id=result.session_id,
            iteration=result.iteration,
            new_evidence=len(fresh),
            route="COMPLETE",
            route_reason=judgement.reason if judgement else "all tasks covered",
            state=new_state,
        )
    reason = judgement.reason if judgement else "no candidates in scope"
    if result.iteration + 1 >= state.plan.max_iterations:
        # the budget is spent: no next search to refine for; the professor answers now
        return Evaluation(
            session_id=result.session_id,
            iteration=result.iteration,
            new_evidence=len(fresh),
            route="CONTINUE",
            route_reason=f"missing {', '.join(missing)}: {reason}",
            state=new_state,
            next_focus=missing,
        )
    strategy = strategy_for(result.iteration + 1)
    draft = engine.refine(
        state.question, tasks, missing, strategy, [e.snippet for e in new_state.evidence]
    )
    return Evaluation(
        session_id=result.session_id,
        iteration=result.iteration,
        new_evidence=len(fresh),
        route="CONTINUE",
        route_reason=f"missing {', '.join(missing)}: {reason}",
        state=new_state,
        next_focus=missing,
        next_strategy=strategy,
        next_text_queries=draft.text_queries,
        next_vector_query=draft.vector_query,
    )


def far_from_materials(result: SearchResult) -> bool:
    """The first search came nowhere near any chunk in scope. For a plan of several tasks it
    searched the first, which names the question's topic: the later ones ask of it ("What
    is game theory, and who founded it?")."""
    return result.iteration == 0 and 0.0 <= result.nearest < OFF_TOPIC_NEAREST


def unheard_keywords(
    result: SearchResult, tasks: Sequence[PlannedTask], every: bool = False
) -> list[str]:
    """The tasks' keywords that no candidate holds whole (every term of it in one chunk);
    with ``every``, none unless all of them are unheard."""
    held = [set(chunk_terms(c.heading_path, c.text)) for c in result.candidates]
    named = dict.fromkeys(k for t in tasks for k in t.keywords)
    keywords = {k: terms for k in named if (terms := set(lexical_terms(k)))}
    unheard = [k for k, terms in keywords.items() if not any(terms <= chunk for chunk in held)]
    return [] if every and len(unheard) < len(keywords) else unheard


# A heading this short is a part's label (理由, 決定, 状況, Summary, Notes): the heading above
# it says what the part is of. At most this many Japanese characters and one Latin word;
# on the eighteen sets 2 and 6 gave the same net gain as 4 (+5 / −2; 2: +5 / −2, 6: +7 / −4).
_LABEL_CHARS = 4


def section_heading(path: Sequence[str]) -> str:
    """The section a chunk sits under, as the engine reads it: the innermost heading (a
    lecture's title would speak for every section under it), and the one above it when
    the innermost is only a part's label: an ADR's "理由" is the reasons of "ADR-0003 outbox
    の読み出しはポーリングで行う". Measured on the eighteen sets: +5 / −2 on four (a lab's
    report rules, a cipher mode's formula, a design review's findings, a decision's
    reasons)."""
    if not path:
        return ""
    if len(path) > 1 and _is_label(path[-1]):
        return f"{path[-2]} > {path[-1]}"
    return path[-1]


def _is_label(heading: str) -> bool:
    latin_words = re.findall(r"[A-Za-z]+", heading)
    japanese = JAPANESE.findall(heading)
    return len(latin_words) <= 1 and len(japanese) <= _LABEL_CHARS


def candidate_passages(result: SearchResult) -> list[Passage]:
    """What the engine sees of a search's candidates: temp index, text, section
    (``section_heading``), ranks."""
    return [
        Passage(
            c.temp_index,
            c.text,
            heading=section_heading(c.heading_path),
            ranks=c.ranks,
        )
        for c in result.candidates
    ]


def _held_passages(evidence: list[Evidence], focus: set[str], first_index: int) -> list[Passage]:
    """Chunks already held as evidence for a focus task: seen-ID exclusion keeps them out of
    the search, yet they count when the librarian judges whether the task is covered.
    Each keeps the rank the search gave it when it was found: judged again without it, the
    search's first passage would weigh no more than its last. Findings on them are
    duplicates of held evidence and are dropped below. They are judged without their
    section heading, which the answer step reads: with it, two near misses (course,
    course_os) were taken for answers at the second search, and no answer gained."""
    texts: dict[str, str] = {}
    ranks: dict[str, int] = {}
    for e in evidence:
        if e.task_id in focus:
            texts.setdefault(e.chunk_id, e.chunk_text or e.snippet)
            if e.rank > 0:
                ranks[e.chunk_id] = min(e.rank, ranks.get(e.chunk_id, e.rank))
    return [
        Passage(first_index + i, text, ranks={"held": ranks[c]} if c in ranks else {})
        for i, (c, text) in enumerate(texts.items())
    ]


def best_per_task(evidence: list[Evidence], limit: int) -> list[Evidence]:
    """The ``limit`` best-scored pieces of each task, in the order the engine gave them."""
    by_task: dict[str, list[int]] = {}
    for i, item in enumerate(evidence):
        by_task.setdefault(item.task_id, []).append(i)
    kept = {
        i
        for found in by_task.values()
        for i in sorted(found, key=lambda i: -evidence[i].score)[:limit]
    }
    return [item for i, item in enumerate(evidence) if i in kept]


def _required(tasks: list[PlannedTask], task_id: str) -> bool:
    return next((t.required for t in tasks if t.task_id == task_id), True)


def failed(result: SearchResult, step: str, reason: str, error: str) -> Evaluation:
    """An iteration that cannot be evaluated: the professor ends the session FAILED with
    ``error``. ``step`` names the stage that failed on the session's message (the engine's
    failure names none)."""
    return Evaluation(
        session_id=result.session_id,
        iteration=result.iteration,
        new_evidence=0,
        route="CONTINUE",
        route_reason=reason,
        state=result.state,
        failure=error[:REASON_CHARS] or reason,
        failed_stage=step,
    )


def evaluation_failed(result: SearchResult, error: str) -> list[Emit]:
    """The librarian failed on this result every time it tried (a bug; it waits in the
    dead-letter topic)."""
    evaluation = failed(result, "evaluate", "the librarian failed", error)
    return [Emit(EVALUATIONS, result.session_id, evaluation)]


def handle(result: SearchResult, engine: LLMEngine) -> list[Emit]:
    """The evaluation, with the steps a fallback engine took added to the session's record;
    an evaluation that failed outright carries ``failure`` (the professor ends the session),
    as does a result whose search failed."""
    if result.failure:
        evaluation = failed(result, "search", "the searcher failed", result.failure)
        return [Emit(EVALUATIONS, result.session_id, evaluation)]
    try:
        with recording() as fell_back:
            evaluation = evaluate(result, engine)
    except Exception as exc:  # the engine and any fallback failed: never a silent stall
        logger.exception(
            "evaluating session %s iteration %d failed", result.session_id, result.iteration
        )
        evaluation = failed(result, "", "the engine failed", str(exc) or type(exc).__name__)
    else:
        if fell_back:
            state = evaluation.state
            state = dataclasses.replace(state, fallbacks=[*state.fallbacks, *fell_back])
            evaluation = dataclasses.replace(evaluation, state=state)
    return [Emit(EVALUATIONS, result.session_id, evaluation)]
