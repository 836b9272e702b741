"""Professor stage logic, pure: plan a question, conduct the loop, answer with citations.

Phase 2 (plan) turns a QuestionAsked into SearchRequest iteration 0. Conduct
reads each Evaluation and either orders the next iteration or, when the
librarian says COMPLETE or the budget (iterations, deadline) is spent, runs
Phase 4: answer from the selected evidence, review it (reflection), and
publish the final AnswerEvent. Side effects (the sessions table) are returned
as a ``SessionRecord`` for the shell to store.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from services.common.errors import InvalidInput
from services.common.events import (
    AnswerEvent,
    Citation,
    Evaluation,
    Evidence,
    LoopState,
    Plan,
    QuestionAsked,
    SearchFilters,
    SearchRequest,
    StopCondition,
    Task,
    TaskStatus,
)
from services.common.stage_runner import Emit
from services.reasoning.fallback import REASON_CHARS, fallback_note, recording
from services.reasoning.llm import LLMEngine, Passage, PlanDraft, PlannedTask, Turn
from topics.registry import ANSWERS, SEARCH_REQUESTS

MAX_ITERATIONS = 5  # seed 001: 3 searches + 2 recovery; more only invites invented evidence
DEFAULT_TIMEOUT_MS = 120_000
# A question's time limit is held to 1 s - 10 min, whatever its producer asked: the searcher's
# state of a session (search.sessions) and the sweep of stalled sessions count on that bound.
MIN_TIMEOUT_MS, MAX_TIMEOUT_MS = 1_000, 600_000
MAX_QUESTION_CHARS = 2000
MAX_ANSWER_PASSAGES = 8
# the unanswered log keeps the passages that came closest, for the teacher to judge
UNANSWERED_PASSAGES = 3
# sequence numbers of AnswerEvents: deterministic per stage, so a replay numbers alike
SEQ_PER_ITERATION = 10
SEQ_ANSWER = 1000


@dataclass(frozen=True)
class SessionRecord:
    """A row of the sessions table (and of the unanswered log when INSUFFICIENT or answered
    only in part)."""

    session_id: str
    subject_id: str
    user_id: str
    question: str
    status: str  # RUNNING | ANSWERED | INSUFFICIENT | FAILED
    iterations: int = 0
    stop_reason: str = ""
    answer: str = ""
    citations: list[Citation] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    conversation_id: str | None = None
    deadline_ms: int | None = None  # when RUNNING: the answer is due by then (plan.deadline_ms)
    # INSUFFICIENT, or ANSWERED in part: the required tasks left unsatisfied, and the best
    # evidence found
    missing_tasks: list[str] = field(default_factory=list)
    best_passages: list[Evidence] = field(default_factory=list)


def progress(session_id: str, seq: int, stage: str, message: str, now_ms: int) -> Emit:
    event = AnswerEvent(session_id, seq, "PROGRESS", now_ms, stage=stage, message=message)
    return Emit(ANSWERS, session_id, event)


def validate_question(q: QuestionAsked) -> None:
    if not q.question.strip():
        raise InvalidInput("the question is empty")
    if len(q.question) > MAX_QUESTION_CHARS:
        raise InvalidInput(
            f"the question has {len(q.question)} characters; at most {MAX_QUESTION_CHARS}"
        )
    if not q.subject_id or not q.user_id:
        raise InvalidInput("subject_id and user_id are required")


def plan_question(
    q: QuestionAsked, engine: LLMEngine, now_ms: int, history: list[Turn] | None = None
) -> tuple[list[Emit], SessionRecord]:
    """Phase 2: the plan is the definition of done for the search loop.

    ``history`` holds the previous turns of the question's conversation (the shell reads
    them): a follow-up is planned, and answered, as the engine restates it.
    """
    validate_question(q)
    try:
        with recording() as fell_back:
            draft = engine.plan(q.question, history) if history else engine.plan(q.question)
    except Exception as exc:  # the engine and any fallback failed: the asker still gets a FINAL
        record = SessionRecord(q.session_id, q.subject_id, q.user_id, q.question, "FAILED")
        return engine_failed(record, "plan", exc, 0, [], now_ms)
    if not any(t.keywords for t in draft.tasks):
        return no_topic(q, draft.language, now_ms)
    tasks = [Task(t.task_id, t.description, list(t.keywords), t.required) for t in draft.tasks]
    max_iterations = max(1, min(q.max_iterations or MAX_ITERATIONS, MAX_ITERATIONS))
    timeout_ms = max(MIN_TIMEOUT_MS, min(q.timeout_ms or DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS))
    plan = Plan(
        tasks=tasks,
        stop_conditions=[StopCondition(kind, text) for kind, text in draft.stop_conditions],
        complexity=draft.complexity,
        max_iterations=max_iterations,
        deadline_ms=q.asked_at_ms + timeout_ms,
        language=draft.language,
        text_queries=draft.text_queries,
        vector_query=draft.vector_query,
        filters=SearchFilters(),
    )
    state = LoopState(
        question=draft.question or q.question,
        subject_id=q.subject_id,
        user_id=q.user_id,
        plan=plan,
        evidence=[],
        task_status=[TaskStatus(t.task_id, False) for t in tasks],
        started_at_ms=q.asked_at_ms,
        fallbacks=list(fell_back),
    )
    text_queries, vector_query, focus = direct_search(draft, max_iterations)
    request = SearchRequest(
        session_id=q.session_id,
        iteration=0,
        strategy="direct",
        text_queries=text_queries,
        vector_query=vector_query,
        state=state,
        focus_task_ids=focus,
    )
    summary = "; ".join(t.description for t in tasks)
    restated = f" (read as: {draft.question})" if draft.question else ""
    emits = [
        progress(q.session_id, 0, "plan", f"{len(tasks)} task(s): {summary}{restated}", now_ms),
        Emit(SEARCH_REQUESTS, q.session_id, request),
    ]
    record = SessionRecord(
        q.session_id,
        q.subject_id,
        q.user_id,
        q.question,
        "RUNNING",
        conversation_id=q.conversation_id,
        deadline_ms=plan.deadline_ms,
    )
    return emits, record


NO_TOPIC = {
    "ja": "質問に、資料から探す対象が見当たりません"
    "（疑問の言葉だけか、日本語・英語以外の言葉です）。"
    "「中央値とは何ですか？」のように、知りたい事柄を日本語か英語で入れて質問してください。",
    "en": "The question names nothing to look for in the materials: it has only question words,"
    " or words of a language other than Japanese and English. Ask about a topic, in Japanese"
    " or English, for example: What is a p-value?",
}


def no_topic(q: QuestionAsked, language: str, now_ms: int) -> tuple[list[Emit], SessionRecord]:
    """A question of question words only ("What is it?", "それは何ですか？" with no earlier turn
    to refer to), or of words the planner cannot read (Korean, Russian …), names nothing to
    search for: any passage found would be a guess, quoted with citations as if it answered.
    It ends INSUFFICIENT at once, saying what to ask."""
    text = NO_TOPIC.get(language, NO_TOPIC["en"])
    return ended_at_plan(q, "INSUFFICIENT", "no_topic", text, now_ms, missing=[q.question])


def direct_search(draft: PlanDraft, max_iterations: int) -> tuple[list[str], str, list[str]]:
    """Seed 001, iteration 1: the plan's most confident query, which is its first task's.

    A plan of several tasks searches them one focus at a time: the librarian
    then names what is still missing and the next iteration targets it, so a
    question whose tasks live in different materials is answered from both
    rather than from whatever one broad search happened to rank first.
    """
    if len(draft.tasks) <= 1 or max_iterations == 1:
        return draft.text_queries, draft.vector_query, [t.task_id for t in draft.tasks]
    first = draft.tasks[0]
    queries = [" ".join(first.keywords), first.description]
    return list(dict.fromkeys(q for q in queries if q)), first.description, [first.task_id]


def reject_question(q: QuestionAsked, reason: str, now_ms: int) -> tuple[list[Emit], SessionRecord]:
    """A question that cannot be run still gets a FINAL answer, so no asker waits forever."""
    return ended_at_plan(q, "FAILED", "rejected", reason, now_ms)


def ended_at_plan(
    q: QuestionAsked,
    status: str,
    stop_reason: str,
    text: str,
    now_ms: int,
    missing: list[str] | None = None,
) -> tuple[list[Emit], SessionRecord]:
    """A session that ends before any search: one FINAL answer saying why, and its row."""
    final = AnswerEvent(
        q.session_id,
        SEQ_ANSWER,
        "FINAL",
        now_ms,
        stage="plan",
        status=status,
        answer=text,
        stop_reason=stop_reason,
    )
    record = SessionRecord(
        q.session_id,
        q.subject_id,
        q.user_id,
        q.question[:MAX_QUESTION_CHARS],
        status,
        stop_reason=stop_reason,
        answer=text,
        conversation_id=q.conversation_id,
        missing_tasks=missing or [],
    )
    return [Emit(ANSWERS, q.session_id, final)], record


def engine_failed(
    record: SessionRecord,
    step: str,
    error: Exception | str,
    iterations: int,
    fallbacks: list[str],
    now_ms: int,
) -> tuple[list[Emit], SessionRecord]:
    """The engine (and its fallback, if any) failed a step: the session ends FAILED, with a
    FINAL event saying why, rather than the asker waiting for one that never comes."""
    reason = f"the reasoning engine failed while it was doing the {step} step: {error}"
    return session_failed(record, step, reason, "engine_failed", iterations, fallbacks, now_ms)


def stage_failed(
    record: SessionRecord, step: str, error: str, iterations: int, now_ms: int
) -> tuple[list[Emit], SessionRecord]:
    """A stage failed on this session's message every time it tried (a bug; the message
    waits in the dead-letter topic): the session ends FAILED, saying so."""
    reason = (
        f"eduanima failed while it was doing the {step} step ({error});"
        " the operators can replay the question once it is fixed"
    )
    return session_failed(record, step, reason, "stage_failed", iterations, [], now_ms)


def session_stalled(
    record: SessionRecord, overdue_s: float, now_ms: int
) -> tuple[list[Emit], SessionRecord]:
    """No answer came back within the question's time limit and ``overdue_s`` more: a stage
    dead-lettered the session's message without an outcome, or has been down all along. The
    session ends FAILED; an answer the loop still gives later replaces it."""
    reason = (
        f"no answer came back within the question's time limit and {overdue_s:g} s more:"
        " a stage is down or could not handle the question; ask again later"
    )
    return session_failed(record, "deadline", reason, "stalled", record.iterations, [], now_ms)


def session_failed(
    record: SessionRecord,
    step: str,
    reason: str,
    stop_reason: str,
    iterations: int,
    fallbacks: list[str],
    now_ms: int,
) -> tuple[list[Emit], SessionRecord]:
    reason = reason[: REASON_CHARS + 80]
    final = AnswerEvent(
        record.session_id,
        SEQ_ANSWER,
        "FINAL",
        now_ms,
        stage=step,
        status="FAILED",
        answer=reason,
        iterations=iterations,
        stop_reason=stop_reason,
        fallbacks=fallbacks,
    )
    failed = dataclasses.replace(
        record, status="FAILED", iterations=iterations, stop_reason=stop_reason, answer=reason
    )
    return [Emit(ANSWERS, record.session_id, final)], failed


def conduct(
    ev: Evaluation, engine: LLMEngine, now_ms: int
) -> tuple[list[Emit], SessionRecord | None]:
    """Loop control: next iteration, or the answer. Returns a record when the session ends."""
    state, plan = ev.state, ev.state.plan
    done = ev.iteration + 1
    seq = SEQ_PER_ITERATION * (ev.iteration + 1)
    if ev.failure:  # the iteration could not be searched or evaluated at all
        record = SessionRecord(
            ev.session_id, state.subject_id, state.user_id, state.question, "FAILED"
        )
        if ev.failed_stage:
            return stage_failed(record, ev.failed_stage, ev.failure, done, now_ms)
        return engine_failed(record, "evaluate", ev.failure, done, state.fallbacks, now_ms)
    note = progress(
        ev.session_id,
        seq,
        "evaluate",
        f"iteration {done}: {ev.new_evidence} new piece(s) of evidence;"
        f" {ev.route} ({ev.route_reason})",
        now_ms,
    )
    if ev.stop_reason:
        stop_reason = ev.stop_reason  # the librarian ended the loop (off_topic)
    elif ev.route == "CONTINUE":
        if done < plan.max_iterations and now_ms < plan.deadline_ms:
            request = SearchRequest(
                session_id=ev.session_id,
                iteration=ev.iteration + 1,
                strategy=ev.next_strategy or "missing",
                text_queries=ev.next_text_queries or plan.text_queries,
                vector_query=ev.next_vector_query or plan.vector_query,
                state=state,
                focus_task_ids=ev.next_focus,
            )
            return [note, Emit(SEARCH_REQUESTS, ev.session_id, request)], None
        stop_reason = "max_iterations" if done >= plan.max_iterations else "deadline"
    else:
        stop_reason = "complete"
    emits, record = answer(ev.session_id, state, done, stop_reason, engine, now_ms)
    return [note, *emits], record


def select_evidence(state: LoopState, limit: int = MAX_ANSWER_PASSAGES) -> list[Evidence]:
    """The best pieces per task first (round robin over tasks), one per chunk, then by score."""
    by_task: dict[str, list[Evidence]] = {}
    for item in sorted(state.evidence, key=lambda e: -e.score):
        by_task.setdefault(item.task_id, []).append(item)
    chosen: list[Evidence] = []
    seen_chunks: set[str] = set()
    while len(chosen) < limit and any(by_task.values()):
        for task in [t.task_id for t in state.plan.tasks] + sorted(by_task):
            queue = by_task.get(task, [])
            while queue:
                item = queue.pop(0)
                if item.chunk_id not in seen_chunks:
                    chosen.append(item)
                    seen_chunks.add(item.chunk_id)
                    break
            if len(chosen) >= limit:
                break
    return chosen


_CITATION = re.compile(r"\[(\d+)\]")


def answer(
    session_id: str,
    state: LoopState,
    iterations: int,
    stop_reason: str,
    engine: LLMEngine,
    now_ms: int,
) -> tuple[list[Emit], SessionRecord]:
    """Phase 4: draft from the selected evidence, review it against the evidence, publish."""
    plan = state.plan
    satisfied = {s.task_id for s in state.task_status if s.satisfied}
    required = [t for t in plan.tasks if t.required]
    missing = [t.description for t in required if t.task_id not in satisfied]
    # Part of the question answered is answered, saying what is missing (seed 001: go on to
    # the answer with the evidence found); nothing of it answered is INSUFFICIENT.
    answered_some = not required or len(missing) < len(required)
    status = "ANSWERED" if answered_some and state.evidence else "INSUFFICIENT"
    evidence = select_evidence(state)
    passages = [
        Passage(
            i,
            e.snippet,
            context=e.chunk_text or e.snippet,
            neighbours=e.neighbour_text,
            heading=e.heading,
        )
        for i, e in enumerate(evidence)
    ]
    complete = status == "ANSWERED"
    try:
        with recording() as fell_back:
            draft = "".join(
                engine.answer(
                    state.question, plan.language, passages, complete, missing if complete else ()
                )
            )
            review = engine.review(state.question, plan.language, draft, passages)
    except Exception as exc:  # the engine and any fallback failed: end the session, say why
        record = SessionRecord(
            session_id, state.subject_id, state.user_id, state.question, "FAILED"
        )
        return engine_failed(record, "answer", exc, iterations, state.fallbacks, now_ms)
    fallbacks = [*state.fallbacks, *fell_back]
    text = review.answer
    cited = sorted({int(n) for n in _CITATION.findall(text) if 0 < int(n) <= len(evidence)})
    if not cited:  # nothing survived the review: no passage answers, nothing comes close
        status, text = "INSUFFICIENT", ""
    if status == "INSUFFICIENT":
        text = insufficient_preface(plan.language, plan.tasks, satisfied) + text
    elif missing:
        text = partial_preface(plan.language, missing) + text
    if fallbacks:
        text += fallback_note(plan.language, fallbacks)
    citations = [
        Citation(
            n,
            evidence[n - 1].material_id,
            evidence[n - 1].material_title,
            evidence[n - 1].page,
            evidence[n - 1].chunk_id,
            evidence[n - 1].snippet,
        )
        for n in cited
    ]
    seq = SEQ_ANSWER
    emits = [progress(session_id, seq, "answer", f"reviewed: {review.critique}", now_ms)]
    for piece in split_for_streaming(text):
        seq += 1
        emits.append(
            Emit(
                ANSWERS,
                session_id,
                AnswerEvent(session_id, seq, "DELTA", now_ms, stage="answer", delta=piece),
            )
        )
    final = AnswerEvent(
        session_id,
        seq + 1,
        "FINAL",
        now_ms,
        stage="answer",
        status=status,
        answer=text,
        citations=citations,
        iterations=iterations,
        stop_reason=stop_reason,
        fallbacks=fallbacks,
    )
    emits.append(Emit(ANSWERS, session_id, final))
    record = SessionRecord(
        session_id,
        state.subject_id,
        state.user_id,
        state.question,
        status,
        iterations,
        stop_reason,
        text,
        citations,
        list(state.evidence),
    )
    if status == "INSUFFICIENT" or missing:  # the unanswered log holds both
        best = sorted(state.evidence, key=lambda e: -e.score)[:UNANSWERED_PASSAGES]
        record = dataclasses.replace(record, missing_tasks=missing, best_passages=best)
    return emits, record


def insufficient_preface(language: str, tasks: list[Task], satisfied: set[str]) -> str:
    missing = [t.description for t in tasks if t.required and t.task_id not in satisfied]
    missing = missing or [t.description for t in tasks]  # judged covered, yet nothing held up
    if language == "ja":
        return "資料から十分な根拠が見つかりませんでした（不足: " + "、".join(missing) + "）。\n"
    return (
        "The course materials do not give enough evidence (missing: " + "; ".join(missing) + ").\n"
    )


def partial_preface(language: str, missing: list[str]) -> str:
    if language == "ja":
        return (
            "質問の一部は資料に根拠が見つかりませんでした（不足: " + "、".join(missing) + "）。\n"
        )
    return (
        f"The course materials answer only part of the question (missing: {'; '.join(missing)}).\n"
    )


def split_for_streaming(text: str, size: int = 80) -> list[str]:
    """Deltas at sentence or line ends, at most ``size`` characters, so clients can render
    as they go."""
    pieces, current = [], ""
    for part in re.split(r"(?<=[。！？.!?\n])", text):
        if current and len(current) + len(part) > size:
            pieces.append(current)
            current = ""
        current += part
    if current:
        pieces.append(current)
    return pieces


def planned_tasks(plan: Plan) -> list[PlannedTask]:
    return [PlannedTask(t.task_id, t.description, list(t.keywords), t.required) for t in plan.tasks]
