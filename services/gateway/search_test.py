"""The teachers' search test (seed 003): the physical search alone, or the whole loop.

Both run as the teacher (their scope: the subject's materials and their own notes) and
record nothing: no session, no unanswered entry. The loop runs in-process (``--direct``
mode, the services' own stage functions), so its plan, each iteration's decision and the
answer come back in one response.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from psycopg_pool import ConnectionPool

from services.common.events import AnswerEvent, Evaluation, SearchRequest, SearchResult
from services.common.stage_runner import Emit
from services.direct import DirectLoop
from services.loop_runtime import question_event
from services.reasoning.embedders import Embedder
from services.reasoning.llm import LLMEngine
from services.searcher import engine as physical
from services.searcher.app import physical_search


def run_search(
    pool: ConnectionPool,
    embedder: Embedder,
    subject_id: str,
    user_id: str,
    query: str,
    mode: str,
    k: int | None,
) -> dict[str, Any]:
    request = physical.SearchQuery(
        subject_id=subject_id,
        user_id=user_id,
        text_queries=[query],
        vector_query=query,
        mode=mode,  # type: ignore[arg-type]
    )
    with pool.connection() as conn:
        outcome = physical.search(conn, request, embedder if mode != "bm25" else None, k_override=k)
    return {
        "k": outcome.k,
        "n_scope": outcome.n_scope,
        "vector_path": outcome.vector_path,
        "candidates": [
            {
                "rank": i,
                "chunk_id": str(c.chunk_id),
                "material_id": str(c.material_id),
                "title": c.material_title,
                "page": c.page,
                "heading_path": list(c.heading_path),
                "text": c.text,
                "score": float(c.score),
                "ranks": dict(c.ranks),
                "scores": {name: float(v) for name, v in c.scores.items()},
            }
            for i, c in enumerate(outcome.candidates, start=1)
        ],
    }


def run_loop(
    pool: ConnectionPool,
    embedder: Embedder,
    engine: LLMEngine,
    subject_id: str,
    user_id: str,
    question: str,
) -> dict[str, Any]:
    """Plan, iterations (queries, k, route and why) and the final answer of one question."""
    plan: dict[str, Any] = {}
    iterations: dict[int, dict[str, Any]] = {}
    final: AnswerEvent | None = None

    def trace(emit: Emit) -> None:
        nonlocal final
        event = emit.event
        if isinstance(event, SearchRequest):
            if event.iteration == 0:
                p = event.state.plan
                plan.update(
                    question=event.state.question,
                    tasks=[dataclasses.asdict(t) for t in p.tasks],
                    complexity=p.complexity,
                    max_iterations=p.max_iterations,
                    language=p.language,
                )
            iterations[event.iteration] = {
                "iteration": event.iteration + 1,
                "strategy": event.strategy,
                "text_queries": list(event.text_queries),
                "vector_query": event.vector_query,
                "focus": list(event.focus_task_ids),
            }
        elif isinstance(event, SearchResult):
            iterations.setdefault(event.iteration, {}).update(
                k=event.k, n_scope=event.n_scope, candidates=len(event.candidates)
            )
        elif isinstance(event, Evaluation):
            iterations.setdefault(event.iteration, {}).update(
                route=event.route,
                reason=event.route_reason,
                new_evidence=event.new_evidence,
                satisfied=[s.task_id for s in event.state.task_status if s.satisfied],
            )
        elif isinstance(event, AnswerEvent) and event.kind == "FINAL":
            final = event

    loop = DirectLoop(engine, physical_search(pool, embedder), trace=trace)
    loop.run(question_event(subject_id, user_id, question))
    return {
        "plan": plan,
        "iterations": [iterations[i] for i in sorted(iterations)],
        "status": final.status if final else None,
        "answer": final.answer if final else "",
        "citations": [dataclasses.asdict(c) for c in final.citations] if final else [],
        "stop_reason": final.stop_reason if final else "",
    }
