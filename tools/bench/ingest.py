"""``eduanima bench ingest``: the same corpus through Kafka and in-process, side by side.

The corpus (``corpus.jsonl``: doc_id, title, text) becomes one Markdown file
per title, a section per paragraph. Both paths upload the files first
(untimed), then time parse + embed + insert with the same ``Ingestor`` code:
once by calling ``Ingestor.ingest`` directly, once by publishing IngestJobs and
waiting for every ChunksStored from the ingestor running as a consumer.
Different subjects keep the two runs from seeing each other's rows.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path

from rich.console import Console
from rich.progress import Progress

from services.common import db
from services.common.blobstore import BlobStore
from services.common.materials import enroll, ensure_subject
from services.common.settings import HomeSettings, KafkaSettings
from services.ingestor.app import Ingestor
from services.ingestor.settings import IngestionSettings
from services.reasoning.embedders import UseM3Embedder
from services.sdk import Client
from tools.bench.machine import write_report
from topics.apply import apply_topics

console = Console(stderr=True)


def corpus_files(dataset: Path, folder: Path) -> list[Path]:
    """One Markdown lecture per title; each paragraph a section of its own."""
    by_title: dict[str, list[str]] = defaultdict(list)
    with (dataset / "corpus.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            doc = json.loads(line)
            by_title[doc["title"]].append(doc["text"])
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for i, (title, paragraphs) in enumerate(sorted(by_title.items())):
        path = folder / f"{i:04d}.md"
        body = "\n\n".join(f"## {title} ({n + 1})\n\n{p}" for n, p in enumerate(paragraphs))
        path.write_text(f"# {title}\n\n{body}\n", encoding="utf-8")
        files.append(path)
    return files


def run_ingest_bench(dataset: Path, out: str) -> dict:
    base = IngestionSettings()
    run = uuid.uuid4().hex[:8]
    kafka = KafkaSettings(
        kafka_bootstrap_servers=base.kafka_bootstrap_servers, eduanima_topic_prefix=f"bench-{run}."
    )
    settings = IngestionSettings(eduanima_topic_prefix=kafka.eduanima_topic_prefix)
    apply_topics(kafka)
    db.migrate(settings)
    embedder = UseM3Embedder()
    embedder.embed(["warm up"])  # load the weights before any clock starts
    ingestor = Ingestor(settings, embedder=embedder)
    blobs = BlobStore(settings)
    blobs.ensure_bucket()
    files = corpus_files(dataset, HomeSettings().eduanima_home / "bench" / f"ingest-{run}")
    client = Client(kafka)
    subjects = {name: f"bench-{name}-{run}" for name in ("warmup", "direct", "kafka")}
    with db.connect(settings) as conn:
        for subject in subjects.values():
            ensure_subject(conn, subject)
            enroll(conn, subject, "bench", "teacher")
        conn.commit()

    def upload(subject: str):
        return [client.upload(f, subject, "bench", blobs=blobs) for f in files]

    results = {}
    # untimed: the first ingest loads the tokenizer dictionary and warms the database
    with ingestor.pool.connection() as conn:
        ingestor.ingest(conn, client.upload(files[0], subjects["warmup"], "bench", blobs=blobs))

    # in-process: the same code the consumer calls, without Kafka
    jobs = upload(subjects["direct"])
    with Progress(console=console) as progress, ingestor.pool.connection() as conn:
        task = progress.add_task("in-process", total=len(jobs))
        start = time.perf_counter()
        outcomes = []
        for job in jobs:
            outcomes.append(ingestor.ingest(conn, job))
            progress.advance(task)
        results["direct"] = (time.perf_counter() - start, outcomes)

    # through Kafka: publish, and the ingestor consumes as a group member
    jobs = upload(subjects["kafka"])
    stop = threading.Event()
    runner = ingestor.runner()
    worker = threading.Thread(target=runner.run, args=(stop,), daemon=True)
    worker.start()
    with Progress(console=console) as progress:
        task = progress.add_task("through Kafka", total=len(jobs))
        start = time.perf_counter()
        for job in jobs:
            client.publish_ingest_job(job, flush=False)
        client.publisher.flush()
        outcomes = []
        for outcome in client.wait_for_ingest({j.idempotency_key for j in jobs}, timeout=3600):
            outcomes.append(outcome)
            progress.advance(task)
        results["kafka"] = (time.perf_counter() - start, outcomes)
    stop.set()
    worker.join(timeout=30)

    report = {"benchmark": "ingest", "dataset": str(dataset), "files": len(files)}
    for name, (seconds, outcomes) in results.items():
        chunks = sum(o.chunk_count for o in outcomes)
        failed = [o.error for o in outcomes if o.status == "FAILED"]
        report[name] = {
            "seconds": round(seconds, 2),
            "chunks": chunks,
            "chunks_per_s": round(chunks / seconds, 2),
            "failed": failed,
        }
    report["ratio_kafka_over_direct"] = round(
        report["kafka"]["chunks_per_s"] / report["direct"]["chunks_per_s"], 3
    )
    report["target"] = "kafka >= 0.8 x direct"
    report["embedder"] = embedder.name
    report["notes"] = (
        "paragraphs grouped into one Markdown file per title;"
        " uploads and one warm-up file untimed; "
        "the Kafka run counts from the first publish to the last ChunksStored"
    )
    write_report(out, report)
    console.print_json(data=report)
    return report
