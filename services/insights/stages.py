"""Insights stage logic, pure: join each session's events, then fold it into aggregates.

Every value here is a plain JSON object, as the faust tables hold them (``app.py`` is the
shell: it reads a table value, calls one function, writes the result back).

**The session join.** The loop topics (``questions``, ``search.requests``,
``search.results``, ``evaluations``, ``answers``) are all keyed by session id with the
same partition count, so one session's events land on one partition of each, and a
pending session lives in the ``sessions`` table on that partition. Events of different
topics may arrive in any order; a session is complete when its question, its FINAL
answer and as many requests, results and evaluations as the answer's iterations are in.
Then it becomes one ``SessionOutcome`` and its pending entry is deleted.

**Partial aggregates.** An aggregate (a subject's counts, the stage timings) gathers
sessions from every partition. A faust table key lives on one partition, so each
partition keeps its own partial aggregate under a key that names it
(``<subject>/<partition>``); the views add the partials up (``views.py``). Counts add,
sketches merge by adding buckets (``sketch.py``), so the sum does not depend on which
instance held which partition when.

**Timings** come from the records' own timestamps (when each stage produced its output),
so "searcher" is search.requests → search.results of one iteration, "librarian" is
search.results → evaluations, and so on (``LOOP_STAGES``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from services.common.events import (
    AnswerEvent,
    ChunksStored,
    Evaluation,
    IngestJob,
    MaterialChanged,
    QuestionAsked,
    SearchRequest,
    SearchResult,
)
from services.insights import sketch, windows

STATUSES = ("ANSWERED", "INSUFFICIENT", "FAILED")
# What each timing measures: from the record of the first topic to the record of the second.
LOOP_STAGES = {
    "professor.plan": "questions → search.requests (iteration 0), or → answers for a rejected"
    " question",
    "searcher": "search.requests → search.results, per iteration",
    "librarian": "search.results → evaluations, per iteration",
    "professor.conduct": "evaluations → search.requests of the next iteration",
    "professor.answer": "the last evaluations → answers (FINAL): Phase 4, answer and review",
    "question": "questions → answers (FINAL): what the asker waits",
}
INGEST_STAGES = {"ingestor": "ingest.jobs → chunks.stored"}
QUESTION_CHARS = 300  # an example question is kept this long
MAX_GAPS = 300  # unanswered topics kept per partial (the rarest, oldest go first)
MAX_PENDING_JOBS = 50
MAX_SEEN = 200  # offsets a job key's entry remembers per topic (re-submissions of one key)


# --- the session join ---------------------------------------------------------------------


@dataclass(frozen=True)
class Gap:
    """A topic an INSUFFICIENT answer left uncovered: a keyword of a required task."""

    keyword: str
    task: str


@dataclass(frozen=True)
class SessionOutcome:
    session_id: str
    subject_id: str
    question: str
    asked_ms: int
    status: str
    iterations: int
    stop_reason: str
    latency_ms: int
    gaps: list[Gap] = field(default_factory=list)
    cited: list[tuple[str, str]] = field(default_factory=list)  # (material_id, title)
    timings: list[tuple[str, int, int]] = field(default_factory=list)  # (stage, ms, at_ms)


@dataclass(frozen=True)
class Absorbed:
    """The session's entry after one event, whether it changed, the question to count when
    this event was the session's question, and the outcome when it completed the session."""

    entry: dict[str, Any] | None
    changed: bool
    question: tuple[str, int] | None = None  # (subject, asked_ms)
    outcome: SessionOutcome | None = None


# The loop topics by the short name an entry remembers offsets under.
LOOP_EVENTS = {
    QuestionAsked: "q",
    SearchRequest: "req",
    SearchResult: "res",
    Evaluation: "ev",
    AnswerEvent: "final",
}


def new_pending(partition: int) -> dict[str, Any]:
    return {"p": partition, "req": [], "res": [], "ev": [], "seen": {}, "last_ms": 0}


def normalise(keyword: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", keyword).casefold().split())


def _gaps(event: Evaluation) -> list[dict[str, Any]]:
    """The required tasks the loop state left unsatisfied, with their keywords."""
    satisfied = {s.task_id for s in event.state.task_status if s.satisfied}
    return [
        {"task": t.description, "keywords": list(t.keywords)}
        for t in event.state.plan.tasks
        if t.required and t.task_id not in satisfied
    ]


def absorb(
    entry: dict[str, Any] | None, event: Any, at_ms: int, partition: int, offset: int
) -> Absorbed:
    """One loop event (its record's timestamp ``at_ms`` and ``offset``) into its session's
    entry.

    Idempotent and order-free, so that an event read twice or late (faust redoes what it
    had not committed when a rebalance or a crash interrupts it, and reads a partition
    again from its committed offset) counts once and in its place: an entry keeps each
    event's offset (the iterations of a topic sort by it), and a finished session leaves a
    ``done`` marker that ignores its events until it expires.
    """
    kind = LOOP_EVENTS.get(type(event))
    if kind is None:
        raise TypeError(f"not a loop event: {type(event).__name__}")
    if kind == "final" and event.kind != "FINAL":
        return Absorbed(entry, changed=False)  # progress and answer deltas time nothing
    if entry is not None and (entry.get("done") or offset in entry["seen"].get(kind, [])):
        return Absorbed(entry, changed=False)
    entry = dict(entry) if entry else new_pending(partition)
    entry["seen"] = {**entry["seen"], kind: [*entry["seen"].get(kind, []), offset]}
    entry["last_ms"] = max(entry["last_ms"], at_ms)
    question = None
    if isinstance(event, QuestionAsked):
        entry["q"] = {
            "subject": event.subject_id,
            "asked_ms": event.asked_at_ms,
            "ts": at_ms,
            "text": event.question[:QUESTION_CHARS],
        }
        question = (event.subject_id, event.asked_at_ms) if event.subject_id else None
    elif isinstance(event, (SearchRequest, SearchResult, Evaluation)):
        entry[kind] = sorted([*entry[kind], [offset, at_ms]])
        last = entry.get("eval")
        if isinstance(event, Evaluation) and (last is None or event.iteration >= last["iteration"]):
            entry["eval"] = {
                "iteration": event.iteration,
                "subject": event.state.subject_id,
                "gaps": _gaps(event),
            }
    else:
        entry["final"] = {
            "status": event.status or "FAILED",
            "iterations": event.iterations,
            "ts": at_ms,
            "emitted_ms": event.emitted_at_ms,
            "stop_reason": event.stop_reason,
            "cited": list({c.material_id: c.title for c in event.citations}.items()),
        }
    outcome = complete(event.session_id, entry)
    if outcome is not None:
        entry = {"p": partition, "done": True, "last_ms": entry["last_ms"]}
    return Absorbed(entry, changed=True, question=question, outcome=outcome)


def complete(session_id: str, entry: dict[str, Any]) -> SessionOutcome | None:
    """The session's outcome once every event it needs has arrived, else None."""
    q, final = entry.get("q"), entry.get("final")
    if q is None or final is None:
        return None
    n = final["iterations"]
    if not len(entry["req"]) == len(entry["res"]) == len(entry["ev"]) == n:
        return None
    status = final["status"] if final["status"] in STATUSES else "FAILED"
    gaps: list[Gap] = []
    # the required tasks left unanswered, by an INSUFFICIENT answer or one answered in part
    if status in ("INSUFFICIENT", "ANSWERED") and entry.get("eval"):
        seen: set[str] = set()
        for task in entry["eval"]["gaps"]:
            for keyword in task["keywords"] or [task["task"]]:
                key = normalise(keyword)
                if key and key not in seen:
                    seen.add(key)
                    gaps.append(Gap(key, task["task"]))
    return SessionOutcome(
        session_id=session_id,
        subject_id=q["subject"] or (entry.get("eval") or {}).get("subject", ""),
        question=q["text"],
        asked_ms=q["asked_ms"],
        status=status,
        iterations=n,
        stop_reason=final["stop_reason"],
        latency_ms=max(0, final["emitted_ms"] - q["asked_ms"]),
        gaps=gaps,
        cited=[(m, t) for m, t in final["cited"]],
        timings=loop_timings(
            q["ts"],
            [ts for _, ts in entry["req"]],
            [ts for _, ts in entry["res"]],
            [ts for _, ts in entry["ev"]],
            final["ts"],
        ),
    )


def loop_timings(
    asked: int, requests: list[int], results: list[int], evaluations: list[int], final: int
) -> list[tuple[str, int, int]]:
    """(stage, duration ms, end ms) for each step of one session (see LOOP_STAGES)."""

    def step(stage: str, start: int, end: int) -> tuple[str, int, int]:
        return (stage, max(0, end - start), end)

    out = [step("professor.plan", asked, requests[0] if requests else final)]
    for i, (req, res, ev) in enumerate(zip(requests, results, evaluations, strict=True)):
        out.append(step("searcher", req, res))
        out.append(step("librarian", res, ev))
        if i + 1 < len(requests):
            out.append(step("professor.conduct", ev, requests[i + 1]))
        else:
            out.append(step("professor.answer", ev, final))
    out.append(step("question", asked, final))
    return out


DONE_TTL_MS = 3_600_000  # far longer than any redo: only what was not committed is redone


def expired(entry: dict[str, Any], now_ms: int, ttl_ms: int) -> bool:
    """An entry to drop: a finished session's marker after an hour of event time, or a
    pending session nothing has touched for ``ttl_ms`` (it will not complete: a message it
    needs went to a dead-letter topic or out of retention)."""
    return entry["last_ms"] < now_ms - (DONE_TTL_MS if entry.get("done") else ttl_ms)


# --- subject aggregates ----------------------------------------------------------------------


def empty_subject() -> dict[str, Any]:
    return {"windows": windows.empty(), "gaps": {}, "cited": {}}


def outcome_agg(agg: dict[str, Any] | None) -> dict[str, Any]:
    if agg is not None:
        return agg
    return {
        "questions": 0,
        "answered": 0,
        "insufficient": 0,
        "failed": 0,
        "iterations": 0,
        "latency_sum_ms": 0,
        "latency": sketch.empty(),
    }


def count_question(partial: dict[str, Any] | None, asked_ms: int) -> dict[str, Any]:
    """A question asked: counted when it is asked, in the windows of its asking time."""
    partial = partial or empty_subject()

    def fold(agg: dict[str, Any] | None) -> dict[str, Any]:
        agg = outcome_agg(agg)
        return {**agg, "questions": agg["questions"] + 1}

    return {**partial, "windows": windows.update(partial["windows"], asked_ms, fold)}


def count_outcome(partial: dict[str, Any] | None, outcome: SessionOutcome) -> dict[str, Any]:
    """A finished session: its status, iterations and latency in the windows of its asking
    time, its gaps (what it left unanswered), and the materials its answer cited."""
    partial = partial or empty_subject()
    status = outcome.status.lower()

    def fold(agg: dict[str, Any] | None) -> dict[str, Any]:
        agg = outcome_agg(agg)
        return {
            **agg,
            status: agg[status] + 1,
            "iterations": agg["iterations"] + outcome.iterations,
            "latency_sum_ms": agg["latency_sum_ms"] + outcome.latency_ms,
            "latency": sketch.add(agg["latency"], outcome.latency_ms),
        }

    gaps = dict(partial["gaps"])
    for gap in outcome.gaps:
        old = gaps.get(gap.keyword, {"n": 0, "last_ms": 0})
        newer = outcome.asked_ms >= old["last_ms"]
        gaps[gap.keyword] = {
            "n": old["n"] + 1,
            "last_ms": max(old["last_ms"], outcome.asked_ms),
            "question": outcome.question if newer else old["question"],
            "task": gap.task if newer else old["task"],
        }
    if len(gaps) > MAX_GAPS:
        kept = sorted(gaps.items(), key=lambda kv: (kv[1]["n"], kv[1]["last_ms"]))[-MAX_GAPS:]
        gaps = dict(kept)
    cited = dict(partial["cited"])
    for material_id, title in outcome.cited:
        old = cited.get(material_id, {"n": 0, "last_ms": 0})
        cited[material_id] = {
            "n": old["n"] + 1,
            "title": title,
            "last_ms": max(old["last_ms"], outcome.asked_ms),
        }
    return {
        "windows": windows.update(partial["windows"], outcome.asked_ms, fold),
        "gaps": gaps,
        "cited": cited,
    }


# --- stage timings -------------------------------------------------------------------------------


def empty_stages() -> dict[str, Any]:
    return {}


def timing_agg(agg: dict[str, Any] | None) -> dict[str, Any]:
    return agg if agg is not None else {"n": 0, "sum_ms": 0, "sketch": sketch.empty()}


def add_timings(
    partial: dict[str, Any] | None, timings: list[tuple[str, int, int]]
) -> dict[str, Any]:
    """Durations into each stage's windowed timing (windows by when the stage finished)."""
    out = dict(partial or empty_stages())
    for stage, ms, at_ms in timings:

        def fold(agg: dict[str, Any] | None, ms: int = ms) -> dict[str, Any]:
            agg = timing_agg(agg)
            return {
                "n": agg["n"] + 1,
                "sum_ms": agg["sum_ms"] + ms,
                "sketch": sketch.add(agg["sketch"], ms),
            }

        out[stage] = windows.update(out.get(stage) or windows.empty(), at_ms, fold)
    return out


# --- the ingest side: jobs → chunks.stored, material changes ----------------------------------


def new_job_entry(partition: int) -> dict[str, Any]:
    return {"p": partition, "jobs": [], "results": [], "seen": {}, "last_ms": 0}


@dataclass(frozen=True)
class Ingested:
    """One stored (or refused) job: which subject, its material, and how long it took."""

    subject_id: str
    status: str
    material_id: str | None
    title: str
    filename: str
    version: int
    chunks: int
    at_ms: int
    duration_ms: int | None  # None when the job's own record is out of reach


@dataclass(frozen=True)
class Paired:
    """A job key's entry after one event, whether it changed, and what got paired."""

    entry: dict[str, Any] | None
    changed: bool
    done: list[Ingested] = field(default_factory=list)


def absorb_ingest(
    entry: dict[str, Any] | None,
    event: IngestJob | ChunksStored,
    at_ms: int,
    partition: int,
    offset: int,
) -> Paired:
    """An IngestJob or its ChunksStored (same key, either order) into the key's entry; each
    job paired with its result, first with first (a re-submitted key has several).

    Idempotent and order-free like ``absorb``: the entry remembers the offsets it took and
    pairs by offset, and stays (emptied) after pairing until it expires.
    """
    kind = "job" if isinstance(event, IngestJob) else "result"
    if entry is not None and offset in entry["seen"].get(kind, []):
        return Paired(entry, changed=False)
    entry = dict(entry) if entry else new_job_entry(partition)
    entry["seen"] = {**entry["seen"], kind: [*entry["seen"].get(kind, []), offset][-MAX_SEEN:]}
    entry["last_ms"] = max(entry["last_ms"], at_ms)
    if isinstance(event, IngestJob):
        job = {"offset": offset, "ts": at_ms, "title": event.title, "filename": event.filename}
        entry["jobs"] = sorted([*entry["jobs"], job], key=lambda j: j["offset"])
        entry["jobs"] = entry["jobs"][-MAX_PENDING_JOBS:]
    else:
        result = {
            "offset": offset,
            "ts": at_ms,
            "subject": event.subject_id,
            "status": event.status,
            "material_id": event.material_id,
            "filename": event.filename,
            "version": event.version,
            "chunks": event.chunk_count,
        }
        entry["results"] = sorted([*entry["results"], result], key=lambda r: r["offset"])
    done: list[Ingested] = []
    while entry["jobs"] and entry["results"]:
        job, result = entry["jobs"][0], entry["results"][0]
        entry["jobs"], entry["results"] = entry["jobs"][1:], entry["results"][1:]
        done.append(ingested(result, job))
    return Paired(entry, changed=True, done=done)


def ingested(result: dict[str, Any], job: dict[str, Any] | None) -> Ingested:
    return Ingested(
        subject_id=result["subject"],
        status=result["status"],
        material_id=result["material_id"],
        title=(job or {}).get("title") or result["filename"],
        filename=result["filename"],
        version=result["version"],
        chunks=result["chunks"],
        at_ms=result["ts"],
        duration_ms=None if job is None else max(0, result["ts"] - job["ts"]),
    )


def expire_jobs(
    entry: dict[str, Any], now_ms: int, ttl_ms: int
) -> tuple[dict[str, Any] | None, list[Ingested]]:
    """Give up pairing an entry untouched for ``ttl_ms``: its results still count (without a
    duration), its unpaired jobs are dropped."""
    if entry["last_ms"] >= now_ms - ttl_ms:
        return entry, []
    return None, [ingested(result, None) for result in entry["results"]]


def empty_materials() -> dict[str, Any]:
    return {"stored": {}, "changes": {}, "ingests": {}}


def count_ingested(partial: dict[str, Any] | None, item: Ingested) -> dict[str, Any]:
    partial = partial or empty_materials()
    ingests = dict(partial["ingests"])
    ingests[item.status] = ingests.get(item.status, 0) + 1
    stored = dict(partial["stored"])
    if item.status == "STORED" and item.material_id:
        stored[item.material_id] = {
            "title": item.title,
            "filename": item.filename,
            "version": item.version,
            "chunks": item.chunks,
            "at_ms": item.at_ms,
        }
    return {**partial, "ingests": ingests, "stored": stored}


def count_change(partial: dict[str, Any] | None, change: MaterialChanged) -> dict[str, Any]:
    """A material's latest change (STORED, DEACTIVATED, REACTIVATED, DELETED) by its time."""
    partial = partial or empty_materials()
    changes = dict(partial["changes"])
    old = changes.get(change.material_id)
    if old is None or change.changed_at_ms >= old["at_ms"]:
        changes[change.material_id] = {
            "action": change.action,
            "at_ms": change.changed_at_ms,
            "title": change.title,
            "filename": change.filename,
            "version": change.version,
        }
    return {**partial, "changes": changes}
