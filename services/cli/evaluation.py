"""``eduanima eval fetch|retrieval|answers``: quality measured on QA datasets.

A dataset is a folder with ``queries.jsonl`` and either ``corpus.jsonl`` (one
paragraph per record, the layout of the public QA sets that ``eval fetch``
builds) or ``materials/`` (course files that go through the real ingest path).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from services.cli.common import (
    console,
    dataset_or_default,
    eval_home,
    fail,
    friendly_errors,
    print_json,
    progress_bars,
)
from services.common.db import connect
from services.common.errors import EduanimaError
from services.common.settings import DatabaseSettings, HomeSettings
from services.reasoning.embedders import CachedEmbedder, UseM3Embedder
from services.searcher.engine import MODES

app = typer.Typer(
    help="Retrieval and answer quality on QA datasets (eval fetch downloads the public ones).",
    no_args_is_help=True,
)

PUBLIC_SETS = ("jsquad_ja", "xquad_en")


@app.command()
def fetch(
    name: Annotated[
        list[str] | None, typer.Argument(help=f"Any of {', '.join(PUBLIC_SETS)}; default both.")
    ] = None,
    root: Annotated[
        Path | None, typer.Option(help="Target folder; default EDUANIMA_HOME/eval.")
    ] = None,
) -> None:
    """Download JSQuAD and XQuAD and build the eval layout, with licence and provenance."""
    from tools.evaluation.datasets import fetch as fetch_dataset

    chosen = name or list(PUBLIC_SETS)
    unknown = sorted(set(chosen) - set(PUBLIC_SETS))
    if unknown:
        raise fail(
            ValueError(f"unknown dataset(s) {', '.join(unknown)}: use {', '.join(PUBLIC_SETS)}")
        )
    with friendly_errors():
        for dataset in chosen:
            path = fetch_dataset(dataset, root or eval_home())
            console.print(f"{dataset}: written to {path}")


@app.command()
def retrieval(
    dataset: Annotated[
        Path | None,
        typer.Option(help="Dataset folder; default EDUANIMA_HOME/eval/jsquad_ja (eval fetch)."),
    ] = None,
    mode: Annotated[str, typer.Option(help="bm25, vector, hybrid or all.")] = "all",
    sweep: Annotated[bool, typer.Option(help="Also fuse with other fusion settings.")] = False,
    conditions: Annotated[
        str,
        typer.Option(
            help="ideal (one chunk per paragraph, k=20), service (real parser and chunker, "
            "k from dynamic k) or both. A course folder (materials/) has service only."
        ),
    ] = "both",
    queries: Annotated[
        str,
        typer.Option(help="Queries file of a course folder (materials/), e.g. identifiers.jsonl."),
    ] = "queries.jsonl",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Recall@1/5/10/20, MRR@10 and nDCG@10 of the search engine (and bm25s) on DATASET,
    and hit@k / MRR@k under service conditions."""
    from tools.evaluation import retrieval as ev

    dataset = dataset_or_default(dataset, "jsquad_ja")
    if mode not in (*MODES, "all"):
        raise fail(ValueError("--mode must be bm25, vector, hybrid or all"))
    if conditions not in ("ideal", "service", "both"):
        raise fail(ValueError("--conditions must be ideal, service or both"))
    systems = list(ev.SYSTEMS) if mode == "all" else [mode]
    course = (dataset / "materials").is_dir()
    try:
        report = {}
        if conditions != "service" and not course:
            report = _run_eval(ev, dataset, systems, sweep)
        if conditions != "ideal":
            report["service_conditions"] = _run_service(dataset, queries if course else None)
    except (EduanimaError, ValueError) as exc:
        raise fail(exc) from exc
    if as_json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return
    # (title, what a row is, rows): each row a name and its figures
    tables = [
        ("systems", "system", report.get("systems", {})),
        ("fusion sweep", "system", report.get("sweep", {})),
    ]
    service = report.get("service_conditions")
    if service:
        tables.append(
            (f"service conditions ({service['chunks']} chunks)", "system", service["systems"])
        )
        by_type = service.get("by_type", {}).get("hybrid", {})
        tables.append(("service conditions, hybrid, by question type", "type", by_type))
    for title, row_name, rows in tables:
        if not rows:
            continue
        name = report.get("dataset") or service["dataset"]
        count = report.get("questions") or service["questions"]
        table = Table(title=f"{name} ({count} questions): {title}")
        table.add_column(row_name)
        metric_names = list(next(iter(rows.values())))
        for name in metric_names:
            table.add_column(name, justify="right")
        for row, metrics in rows.items():
            table.add_row(row, *(_figure(metrics[m]) for m in metric_names))
        Console().print(table)


def _figure(value: float | int) -> str:
    return str(value) if isinstance(value, int) else f"{value:.4f}"


def _run_eval(ev, directory: Path, systems: list[str], sweep: bool) -> dict:
    data = ev.load_dataset(directory)
    embedder = CachedEmbedder(UseM3Embedder(), HomeSettings().eduanima_home / "embed-cache")
    results: dict[str, dict] = {}
    with connect(DatabaseSettings()) as conn, progress_bars() as progress:
        task = progress.add_task(f"storing {data.name}", total=len(data.documents))
        doc_of = ev.store_dataset(
            conn, data, embedder, lambda n, task=task: progress.advance(task, n)
        )
        task = progress.add_task("embedding questions", total=1)
        vectors = embedder.embed([q.question for q in data.questions])
        progress.advance(task)
        lists = ev.EngineLists()
        # the engine as the services run it: query words translated with the same embedder
        run = functools.partial(ev.run_engine, conn, data, doc_of, vectors, embedder=embedder)
        for system in systems:
            if system == "bm25s":
                results[system] = ev.score_rankings(
                    ev.bm25s_rankings(data), data.questions
                ).as_dict()
                continue
            task = progress.add_task(f"searching: {system}", total=len(data.questions))
            rankings, _ = run(system, lambda n, task=task: progress.advance(task, n))
            results[system] = ev.score_rankings(rankings, data.questions).as_dict()
        if sweep:
            task = progress.add_task("fusion sweep lists", total=2 * len(data.questions))
            for system in ("bm25", "vector"):
                _, hits = run(
                    system, lambda n, task=task: progress.advance(task, n), k=ev.sweep_depth()
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


def _run_service(directory: Path, queries: str | None) -> dict:
    from tools.evaluation import retrieval as ev
    from tools.evaluation import service

    if queries is None:
        sset = service.from_qa(ev.load_dataset(directory))
    else:
        sset = service.from_materials(directory, directory / queries)
    embedder = CachedEmbedder(UseM3Embedder(), HomeSettings().eduanima_home / "embed-cache")
    with connect(DatabaseSettings()) as conn, progress_bars() as progress:
        tasks: dict[str, int] = {}

        def report(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = progress.add_task(f"service conditions: {stage}", total=total)
            progress.update(tasks[stage], completed=done)

        return service.evaluate(conn, sset, embedder, service.chars_sweep(), report)


@app.command()
def answers(
    dataset: Annotated[
        list[Path] | None,
        typer.Option(
            help="Dataset folder (repeatable); default EDUANIMA_HOME/eval/jsquad_ja (eval fetch)."
        ),
    ] = None,
    limit: Annotated[int, typer.Option(help="Only the first N queries (0 = all).")] = 0,
    question_type: Annotated[
        list[str] | None, typer.Option("--type", help="Only questions of this type (repeatable).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    out: Annotated[str, typer.Option(help="Where to write the JSON report.")] = (
        "bench-results/eval-answers.json"
    ),
    out_dir: Annotated[
        Path | None,
        typer.Option(help="One report per dataset, DIR/<dataset>.json (for eval compare)."),
    ] = None,
) -> None:
    """Run the whole loop per query and score the answers against gold."""
    from tools.evaluation.answers import run_answer_eval

    folders = [dataset_or_default(d, "jsquad_ja") for d in dataset or [None]]
    if len(folders) > 1 and out_dir is None:
        raise fail(ValueError("several datasets write several reports: give --out-dir DIR"))
    for folder in folders:
        target = str(out_dir / f"{folder.name}.json") if out_dir else out
        with friendly_errors():
            report = run_answer_eval(
                str(folder), limit=limit, out=target, only_types=tuple(question_type or ())
            )
        if as_json:
            print_json(report)


@app.command()
def compare(
    before: Annotated[Path, typer.Argument(help="An eval answers report, or a folder of them.")],
    after: Annotated[Path, typer.Argument(help="The same dataset(s) after the change.")],
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """What a change gained and lost: two eval answers runs, question by question."""
    from tools.evaluation.compare import compare_reports

    with friendly_errors():
        comparisons = compare_reports(before, after)
    if as_json:
        print_json([dataclasses.asdict(c) for c in comparisons])
        return
    table = Table("dataset", "strict before", "after", "unanswerable refused", "gained", "lost")
    for c in comparisons:
        table.add_row(
            c.dataset,
            f"{c.right_before / c.questions:.3f}",
            f"{c.right_after / c.questions:.3f}",
            f"{c.refused_before} → {c.refused_after} of {c.unanswerable}" if c.unanswerable else "",
            str(len(c.gained)),
            str(len(c.lost)),
        )
    console.print(table)
    for c in comparisons:
        for mark, changed in (("[green]+[/green]", c.gained), ("[red]−[/red]", c.lost)):
            for q in changed:
                console.print(
                    f"{mark} {c.dataset} {q.qid} ({q.type}) {q.question}", highlight=False
                )


@app.command()
def check(
    dataset: Annotated[Path, typer.Argument(help="A course set: materials/ + queries.jsonl.")],
) -> None:
    """Check a course eval set: fields, ids, and that every gold key can be quoted."""
    from tools.evaluation.check import check_course_set

    with friendly_errors():
        report = check_course_set(dataset)
    for name, size in report.material_bytes.items():
        console.print(f"  {name:<40} {size:>8,d} bytes")
    console.print(f"materials: {sum(report.material_bytes.values()):,d} bytes")
    for kind, count in sorted(report.questions.items()):
        console.print(f"  {kind:<40} {count:>4d}")
    for error in report.errors:
        console.print(f"[red]error:[/red] {error}", markup=True, highlight=False)
    if report.errors:
        raise typer.Exit(1)
    console.print("OK")


@app.command()
def calibrate(
    datasets: Annotated[
        list[Path], typer.Argument(help="Dataset folders (course sets and QA sets) to fit on.")
    ],
    out: Annotated[str, typer.Option(help="Where to write the JSON report.")] = (
        "bench-results/calibration.json"
    ),
) -> None:
    """Fit the extractive engine's unit and sufficiency weights; leave-one-set-out figures."""
    from tools.bench.machine import write_report
    from tools.evaluation.calibrate import calibrate as fit
    from tools.evaluation.calibrate import collect

    samples = []
    with friendly_errors(), progress_bars() as bars:
        for folder in datasets:
            task = bars.add_task(f"collecting {folder.name}", total=None)
            samples += collect(folder, lambda n, task=task: bars.advance(task, n))
    report = write_report(out, {"benchmark": "calibration", **fit(samples)})
    print_json(report)
