"""``eduanima bench kafka|ingest|search|loop``: speed, as JSON with the machine noted.

Each benchmark measures both sides of a comparison in one run with the same
resources, and writes its report under ``bench-results/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from services.cli.common import (
    console,
    dataset_or_default,
    eval_home,
    fail,
    print_json,
    progress_bars,
)
from services.common.db import connect
from services.common.errors import EduanimaError
from services.common.settings import DatabaseSettings, HomeSettings
from services.reasoning.embedders import CachedEmbedder, UseM3Embedder

app = typer.Typer(
    help="Benchmarks: each writes JSON (with the machine noted) under bench-results/.",
    no_args_is_help=True,
)


@app.command()
def kafka(
    events: Annotated[int, typer.Option(help="Events for the throughput run.")] = 100_000,
    latency_samples: Annotated[
        int, typer.Option(help="Single-event round trips for latency.")
    ] = 500,
    out: Annotated[str, typer.Option(help="Where to write the JSON.")] = "bench-results/kafka.json",
) -> None:
    """Avro produce→consume throughput and single-event latency p50/p99 on loopback."""
    from tools.bench.kafka import run_kafka_bench

    run_kafka_bench(events, latency_samples, out)


@app.command()
def ingest(
    dataset: Annotated[
        Path | None,
        typer.Option(help="Folder with corpus.jsonl; default EDUANIMA_HOME/eval/jsquad_ja."),
    ] = None,
    out: Annotated[str, typer.Option()] = "bench-results/ingest.json",
) -> None:
    """The same corpus through Kafka and in-process (parse+embed+insert): chunks/s, ratio."""
    from tools.bench.ingest import run_ingest_bench

    run_ingest_bench(dataset_or_default(dataset, "jsquad_ja"), out)


@app.command()
def loop(
    questions: Annotated[int, typer.Option(help="Concurrent questions.")] = 50,
    rounds: Annotated[
        int, typer.Option(min=1, help="Alternating Kafka and --direct rounds (noise evens out).")
    ] = 3,
    out: Annotated[str, typer.Option()] = "bench-results/loop.json",
) -> None:
    """The same questions through Kafka and --direct in one run: latency, sessions/s, ratio."""
    from tools.bench.loop import run_loop_bench

    run_loop_bench(questions, out, rounds=rounds)


@app.command()
def search(
    out: Annotated[Path, typer.Option(help="Directory for the JSON report.")] = Path(
        "bench-results"
    ),
    queries: Annotated[int, typer.Option(help="Latency queries per configuration.")] = 200,
    recall_queries: Annotated[int, typer.Option(help="Queries of the recall check.")] = 40,
    eval_root: Annotated[
        Path | None,
        typer.Option(
            help="Folder of the QA sets whose paragraphs are reused; default eval fetch's."
        ),
    ] = None,
) -> None:
    """Hybrid k=20 latency and vector recall at 100,000 chunks in 20 subjects; writes JSON."""
    from tools.bench import search as bench

    root = eval_root or eval_home()
    dirs = [dataset_or_default(root / name, name) for name in ("jsquad_ja", "xquad_en")]
    embedder = CachedEmbedder(UseM3Embedder(), HomeSettings().eduanima_home / "embed-cache")
    try:
        corpus = bench.load_corpus(dirs, embedder)
        with (
            connect(DatabaseSettings()) as conn,
            connect(DatabaseSettings()) as vector_conn,
            progress_bars() as progress,
        ):
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
        raise fail(exc) from exc
    path = bench.write_report(result, out)
    print_json(result)
    console.print(f"written to {path}")
