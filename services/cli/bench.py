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
    passes: Annotated[
        int, typer.Option(min=1, help="Passes over the questions one at a time (the headline).")
    ] = 3,
    out: Annotated[str, typer.Option()] = "bench-results/loop.json",
) -> None:
    """Kafka vs --direct in one run: one question at a time (ratio, Kafka ms per iteration),
    then concurrent sessions/s."""
    from tools.bench.loop import run_loop_bench

    run_loop_bench(questions, out, rounds=rounds, passes=passes)


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
                embedder,
                n_queries=queries,
                n_recall_queries=recall_queries,
                progress=report,
            )
    except (EduanimaError, ValueError) as exc:
        raise fail(exc) from exc
    path = bench.write_report(result, out)
    print_json(result)
    console.print(f"written to {path}")


@app.command()
def soak(
    rate: Annotated[float, typer.Option(min=0.01, help="Questions per second, asked open-loop.")],
    minutes: Annotated[float, typer.Option(min=0.1, help="How long to keep asking.")] = 10.0,
    subject: Annotated[
        str | None,
        typer.Option(help="A course to ask about; default: the demo course, stored once."),
    ] = None,
    user: Annotated[str, typer.Option(help="The asking (enrolled) user.")] = "student-1",
    grace: Annotated[float, typer.Option(help="Seconds to wait for the last answers.")] = 120.0,
    out: Annotated[str, typer.Option()] = "bench-results/soak.json",
) -> None:
    """Questions at a fixed rate against the running services (`eduanima run`).

    Reports latency p50/p95, sessions started/finished/failed/lost, the largest consumer lag
    per stage and the RSS of each service process over the run."""
    from tools.bench.soak import run_soak

    try:
        report = run_soak(rate, minutes, out, subject=subject, user=user, grace_s=grace)
    except (RuntimeError, EduanimaError) as exc:
        raise fail(exc) from exc
    print_json(
        {k: v for k, v in report.items() if k != "rss_mib"}
        | {
            "rss_mib": {
                name: {k: v for k, v in r.items() if k != "samples"}
                for name, r in report["rss_mib"].items()
            }
        }
    )
    console.print(f"written to {out}")


@app.command()
def chaos(
    out: Annotated[Path, typer.Option(help="Directory for chaos.json.")] = Path("bench-results"),
    sessions: Annotated[int, typer.Option(min=1, help="Sessions in flight per scenario.")] = 30,
    scenario: Annotated[
        list[str] | None,
        typer.Option(
            help="Only these (repeatable): kill-stages, kafka-restart, "
            "postgres-restart, storage-outage, scale-out-in, llm-outage."
        ),
    ] = None,
) -> None:
    """The fault scenarios with sessions in flight; one JSON report.

    Per scenario: sessions started/finished/failed/lost/duplicated and the recovery time.
    Kafka, PostgreSQL and storage faults use private instances, never the deployment in use."""
    from tools.bench.chaos import SCENARIOS, run_chaos_bench

    try:
        report = run_chaos_bench(out, sessions=sessions, only=tuple(scenario or SCENARIOS))
    except (ValueError, EduanimaError) as exc:
        raise fail(exc) from exc
    print_json(
        {
            "worst_recovery_s": report["worst_recovery_s"],
            "within_bound": report["within_bound"],
            "lost": report["lost"],
            "duplicated": report["duplicated"],
            "scenarios": {
                name: {k: v for k, v in s.items() if k != "evidence"}
                for name, s in report["scenarios"].items()
            },
        }
    )
