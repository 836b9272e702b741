"""Librarian shell: ``search.results`` → evaluate/route/refine → ``evaluations``.

Stateless and without database or storage settings (ARCHITECTURE invariant 1):
this module must never import ``services.common.db``; a test checks it.
"""

from __future__ import annotations

import threading

from services.common.errors import describe
from services.common.events import SearchResult
from services.common.service import run_runners
from services.common.stage_runner import StageRunner
from services.librarian import stages
from services.librarian.settings import LibrarianSettings
from services.reasoning import make_embedder, make_llm
from services.reasoning.embedders import warm_up
from services.reasoning.llm import LLMEngine
from topics.registry import SEARCH_RESULTS


def librarian_engine(settings: LibrarianSettings) -> LLMEngine:
    """The engine as the live librarian builds it; ``replay --check`` builds the same one,
    so a re-run decision cannot differ for want of the embedder."""
    return make_llm(settings, embedder=make_embedder(settings))


def runner(settings: LibrarianSettings, engine: LLMEngine | None = None) -> StageRunner:
    engine = engine or librarian_engine(settings)
    return StageRunner(
        settings,
        stage="librarian",
        group_id="librarian",
        source=SEARCH_RESULTS,
        event_type=SearchResult,
        handle=lambda result: stages.handle(result, engine),
        on_poison=lambda result, exc: stages.evaluation_failed(result, describe(exc)),
    )


def run(stop: threading.Event, settings: LibrarianSettings | None = None) -> None:
    settings = settings or LibrarianSettings()
    embedder = make_embedder(settings)
    warm_up(embedder)
    run_runners([runner(settings, engine=make_llm(settings, embedder=embedder))], stop)
