"""``eduanima search``: the physical search alone, as an admin sees it."""

from __future__ import annotations

import json
import logging
import uuid
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from services.cli.common import fail
from services.common.db import connect
from services.common.errors import EduanimaError
from services.common.settings import DatabaseSettings, EmbedderSettings
from services.reasoning import make_embedder
from services.searcher.engine import MODES, SearchQuery, search
from services.searcher.scope import SearchFilters

logger = logging.getLogger(__name__)
console = Console()


def register(app: typer.Typer) -> None:
    app.command("search")(search_command)


def search_command(
    query: Annotated[str, typer.Argument(help="Keywords and/or a sentence to search for.")],
    subject: Annotated[str, typer.Option("--subject", "-s", help="Subject to search in.")],
    user: Annotated[str, typer.Option("--user", "-u", help="User searching (must be enrolled).")],
    mode: Annotated[str, typer.Option(help="hybrid, bm25 or vector.")] = "hybrid",
    keyword: Annotated[
        list[str] | None, typer.Option("--keyword", "-k", help="Extra keyword query (repeatable).")
    ] = None,
    material: Annotated[
        list[str] | None, typer.Option("--material", help="Only this material id (repeatable).")
    ] = None,
    page_from: Annotated[int | None, typer.Option(help="Only chunks from this page on.")] = None,
    page_to: Annotated[int | None, typer.Option(help="Only chunks up to this page.")] = None,
    complexity: Annotated[float, typer.Option(help="1.0 definition ... 2.0 comparison.")] = 1.0,
    retry: Annotated[int, typer.Option(help="Retry number of the session (widens k).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Search a subject's materials as USER would (scope, dynamic k, hybrid fusion)."""
    if mode not in MODES:
        raise fail(ValueError(f"--mode must be one of {', '.join(MODES)}"))
    try:
        filters = SearchFilters(
            material_ids=frozenset(uuid.UUID(m) for m in material or []),
            page_from=page_from,
            page_to=page_to,
        )
        request = SearchQuery(
            subject_id=subject,
            user_id=user,
            text_queries=[query, *(keyword or [])],
            vector_query=query,
            complexity=complexity,
            retry=retry,
            filters=filters,
            mode=mode,
        )
        embedder = make_embedder(EmbedderSettings()) if mode != "bm25" else None
        with connect(DatabaseSettings()) as conn:
            outcome = search(conn, request, embedder)
    except (EduanimaError, ValueError) as exc:
        raise fail(exc) from exc
    if as_json:
        print(json.dumps(outcome_as_dict(outcome), ensure_ascii=False, indent=2))
        return
    table = Table(
        title=f"k={outcome.k}  N={outcome.n_scope}  excluded={outcome.n_excluded}"
        f"  vector={outcome.vector_path or '-'}"
    )
    for column in ("#", "score", "bm25", "vector", "material", "page", "text"):
        table.add_column(column)
    for i, c in enumerate(outcome.candidates, start=1):
        table.add_row(
            str(i),
            f"{c.score:.4f}",
            str(c.ranks.get("bm25", "-")),
            str(c.ranks.get("vector", "-")),
            c.material_title,
            str(c.page or ""),
            c.text[:120].replace("\n", " "),
        )
    console.print(table)


def outcome_as_dict(outcome) -> dict:
    def neighbour(n):
        return None if n is None else {"text": n.text, "ordinal": n.ordinal, "page": n.page}

    return {
        "k": outcome.k,
        "n_scope": outcome.n_scope,
        "n_excluded": outcome.n_excluded,
        "vector_path": outcome.vector_path,
        "ef_search": outcome.ef_search,
        "candidates": [
            {
                "chunk_id": str(c.chunk_id),
                "material_id": str(c.material_id),
                "material_title": c.material_title,
                "page": c.page,
                "heading_path": c.heading_path,
                "ordinal": c.ordinal,
                "text": c.text,
                "score": c.score,
                "ranks": c.ranks,
                "scores": c.scores,
                "prev": neighbour(c.prev),
                "next": neighbour(c.next),
            }
            for c in outcome.candidates
        ],
    }
