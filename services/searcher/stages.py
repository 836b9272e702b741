"""Searcher stage logic: one SearchRequest + the session's state → SearchResult + new state.

The state (seen chunk IDs, retry count, last iteration handled) lives in the
compacted ``search.sessions`` topic. A request for an iteration the session
has already handled is a re-delivery: it is not searched again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from services.common.events import Candidate, SearchRequest, SearchResult, SessionState
from services.common.stage_runner import Emit
from topics.registry import SEARCH_RESULTS, SEARCH_SESSIONS

logger = logging.getLogger(__name__)

# A session's state is kept as long as its topic keeps it: a question lives for minutes, so
# an older state belongs to a question long answered, and only costs memory and restore time.
STATE_TTL_MS = SEARCH_SESSIONS.retention_ms


@dataclass(frozen=True)
class Hits:
    """What the physical search returned, already mapped to event candidates."""

    candidates: list[Candidate]
    k: int
    n_scope: int
    n_excluded: int
    nearest: float = -1.0  # the vector list's first cosine; -1 when no vector search ran


@dataclass(frozen=True)
class Order:
    """What the physical search is asked: the request plus the session's state."""

    request: SearchRequest
    retry: int
    seen_ids: frozenset[str] = field(default_factory=frozenset)


Search = Callable[[Order], Hits]


def live_sessions(sessions: dict[str, SessionState], now_ms: int) -> dict[str, SessionState]:
    """The states written within STATE_TTL_MS."""
    return {k: s for k, s in sessions.items() if s.updated_at_ms >= now_ms - STATE_TTL_MS}


def search_step(
    req: SearchRequest, state: SessionState | None, search: Search, now_ms: int
) -> tuple[SessionState | None, list[Emit]]:
    """Returns the new state (None when nothing changed) and the events to publish."""
    if state is not None and req.iteration <= state.last_iteration:
        logger.info(
            "session %s iteration %s already handled (last %s): not searched again",
            req.session_id,
            req.iteration,
            state.last_iteration,
        )
        return None, []
    seen = frozenset(state.seen_chunk_ids) if state else frozenset()
    retry = state.retry + 1 if state else 0
    hits = search(Order(req, retry, seen))
    result = SearchResult(
        session_id=req.session_id,
        iteration=req.iteration,
        strategy=req.strategy,
        candidates=hits.candidates,
        k=hits.k,
        n_scope=hits.n_scope,
        n_excluded=hits.n_excluded,
        retry=retry,
        state=req.state,
        focus_task_ids=req.focus_task_ids,
        nearest=hits.nearest,
    )
    new_state = SessionState(
        session_id=req.session_id,
        seen_chunk_ids=sorted(seen | {c.chunk_id for c in hits.candidates}),
        retry=retry,
        last_iteration=req.iteration,
        updated_at_ms=now_ms,
    )
    return new_state, [
        Emit(SEARCH_SESSIONS, req.session_id, new_state),
        Emit(SEARCH_RESULTS, req.session_id, result),
    ]


def search_failed(req: SearchRequest, error: str) -> list[Emit]:
    """The searcher failed on this request every time it tried (a bug; the request waits in
    the dead-letter topic): a result with no candidates that says so, for the professor to
    end the session FAILED. The state is left as it was, so a replay once the bug is fixed
    searches the iteration as if for the first time."""
    result = SearchResult(
        session_id=req.session_id,
        iteration=req.iteration,
        strategy=req.strategy,
        candidates=[],
        k=0,
        n_scope=0,
        n_excluded=0,
        retry=0,
        state=req.state,
        focus_task_ids=req.focus_task_ids,
        failure=error,
    )
    return [Emit(SEARCH_RESULTS, req.session_id, result)]
