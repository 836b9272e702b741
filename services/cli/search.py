"""CLI sub-commands of the searcher: ``search``, ``eval retrieval`` and ``bench search``.

The main app wires them in with ``register(app, bench_app, eval_app)``.
"""

from __future__ import annotations

import json
import logging
import uuid
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from services.common.db import connect
from services.common.engines.embedders import CachedEmbedder, UseM3Embedder, make_embedder
from services.common.errors import EduanimaError
from services.common.settings import DatabaseSettings, EmbedderSettings, HomeSettings
from services.searcher.engine import MODES, SearchQuery, search
from services.searcher.scope import SearchFilters

logger = logging.getLogger(__name__)
console = Console()
eval_app = typer.Typer(
    help="Measure retrieval and answers on evaluation datasets.", no_args_is_help=True
)


def register(app: typer.Typer, bench_app: typer.Typer, eval_app_: typer.Typer) -> None:
    """Wire ``search``, ``eval retrieval`` and ``bench search`` into the main app."""
    app.command("search")(search_command)
    eval_app_.command("retrieval")(eval_retrieval_command)
    bench_app.command("search")(bench_search_command)


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
    )


def _fail(exc: Exception) -> typer.Exit:
    Console(stderr=True).print(f"[red]error:[/red] {exc}")
    return typer.Exit(code=2)


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
        raise _fail(ValueError(f"--mode must be one of {', '.join(MODES)}"))
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
        raise _fail(exc) from exc
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


def eval_retrieval_command(
    dataset: Annotated[Path, typer.Option(help="Directory with corpus.jsonl and queries.jsonl.")],
    mode: Annotated[str, typer.Option(help="bm25, vector, hybrid or all.")] = "all",
    sweep: Annotated[bool, typer.Option(help="Also fuse with other fusion settings.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Recall@1/5/10/20, MRR@10 and nDCG@10 of the search engine (and bm25s) on DATASET."""
    from services.searcher import evaluation as ev

    if mode not in (*MODES, "all"):
        raise _fail(ValueError("--mode must be bm25, vector, hybrid or all"))
    systems = list(ev.SYSTEMS) if mode == "all" else [mode]
    try:
        report = _run_eval(ev, dataset, systems, sweep)
    except (EduanimaError, ValueError) as exc:
        raise _fail(exc) from exc
    if as_json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return
    for title, rows in (("systems", report["systems"]), ("fusion sweep", report.get("sweep", {}))):
        if not rows:
            continue
        table = Table(title=f"{report['dataset']} ({report['questions']} questions): {title}")
        table.add_column("system")
        metric_names = list(next(iter(rows.values())))
        for name in metric_names:
            table.add_column(name, justify="right")
        for system, metrics in rows.items():
            table.add_row(system, *(f"{metrics[m]:.4f}" for m in metric_names))
        console.print(table)


def _run_eval(ev, directory: Path, systems: list[str], sweep: bool) -> dict:
    data = ev.load_dataset(directory)
    embedder = CachedEmbedder(UseM3Embedder(), HomeSettings().eduanima_home / "embed-cache")
    results: dict[str, dict] = {}
    with connect(DatabaseSettings()) as conn, _progress() as progress:
        task = progress.add_task(f"storing {data.name}", total=len(data.documents))
        doc_of = ev.store_dataset(
            conn, data, embedder, lambda n, task=task: progress.advance(task, n)
        )
        task = progress.add_task("embedding questions", total=1)
        vectors = embedder.embed([q.question for q in data.questions])
        progress.advance(task)
        lists = ev.EngineLists()
        for system in systems:
            if system == "bm25s":
                results[system] = ev.score_rankings(
                    ev.bm25s_rankings(data), data.questions
                ).as_dict()
                continue
            task = progress.add_task(f"searching: {system}", total=len(data.questions))
            rankings, _ = ev.run_engine(
                conn, data, doc_of, vectors, system, lambda n, task=task: progress.advance(task, n)
            )
            results[system] = ev.score_rankings(rankings, data.questions).as_dict()
        if sweep:
            task = progress.add_task("fusion sweep lists", total=2 * len(data.questions))
            for system in ("bm25", "vector"):
                _, hits = ev.run_engine(
                    conn,
                    data,
                    doc_of,
                    vectors,
                    system,
                    lambda n, task=task: progress.advance(task, n),
                    k=ev.sweep_depth(),
                )
                setattr(lists, system, hits)
        conn.commit()
    report = {
        "dataset": data.name,
        "questions": len(data.questions),
        "documents": len(data.documents),
        "subject_id": data.subject_id,
        "systems": results,
    }
    if sweep:
        report["sweep"] = {
            name: m.as_dict()
            for name, m in ev.fusion_sweep(lists, data.questions, ev.sweep_configs()).items()
        }
    return report


def bench_search_command(
    out: Annotated[Path, typer.Option(help="Directory for the JSON report.")] = Path(
        "bench-results"
    ),
    queries: Annotated[int, typer.Option(help="Latency queries per configuration.")] = 200,
    recall_queries: Annotated[int, typer.Option(help="Queries of the recall check.")] = 40,
    eval_root: Annotated[
        Path, typer.Option(help="Folder holding the eval datasets whose paragraphs are reused.")
    ] = Path("../shared/eval"),
) -> None:
    """Hybrid k=20 latency and vector recall at 100,000 chunks in 20 subjects; writes JSON."""
    from services.searcher import bench

    dirs = [eval_root / "jsquad_ja", eval_root / "xquad_en"]
    embedder = CachedEmbedder(UseM3Embedder(), HomeSettings().eduanima_home / "embed-cache")
    try:
        corpus = bench.load_corpus(dirs, embedder)
        with connect(DatabaseSettings()) as conn, connect(DatabaseSettings()) as vector_conn, \
                _progress() as progress:
            tasks: dict[str, int] = {}

            def report(stage: str, done: int, total: int) -> None:
                if stage not in tasks:
                    tasks[stage] = progress.add_task(stage, total=total)
                progress.update(tasks[stage], completed=done)

            result = bench.run_bench(
                conn,
                vector_conn,
                corpus,
                embedder.name,
                n_queries=queries,
                n_recall_queries=recall_queries,
                progress=report,
            )
    except (EduanimaError, ValueError) as exc:
        raise _fail(exc) from exc
    path = bench.write_report(result, out)
    console.print_json(json.dumps(result, ensure_ascii=False))
    console.print(f"written to {path}")


eval_app.command("retrieval")(eval_retrieval_command)
