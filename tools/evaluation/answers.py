"""``eduanima eval answers``: the whole question loop per query, scored against gold.

The dataset is stored into its own subject (as ``eval retrieval`` does, the
same rows), then every question runs through the loop's stage functions in
this process (``--direct``: the same code the services run, minus Kafka).
Two shares are reported: final evidence holding a gold paragraph, and answers
containing a gold answer string.
"""

from __future__ import annotations

import statistics
import time
import unicodedata
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.progress import Progress

from services.common import db
from services.loop_runtime import direct_loop, question_event
from services.professor.settings import ProfessorSettings
from services.reasoning import make_llm
from services.reasoning.embedders import CachedEmbedder, UseM3Embedder
from tools.bench.machine import write_report
from tools.evaluation.retrieval import EVAL_USER, load_dataset, store_dataset

console = Console(stderr=True)


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def run_answer_eval(
    dataset_dir: str, limit: int = 0, out: str = "bench-results/eval-answers.json"
) -> dict:
    settings = ProfessorSettings()
    db.migrate(settings)
    dataset = load_dataset(Path(dataset_dir))
    embedder = CachedEmbedder(UseM3Embedder(), Path(settings.eduanima_home) / "embed-cache")
    with db.connect(settings) as conn, Progress(console=console) as progress:
        task = progress.add_task("storing corpus", total=len(dataset.documents))
        doc_of = {
            str(k): v
            for k, v in store_dataset(
                conn, dataset, embedder, lambda n: progress.advance(task, n)
            ).items()
        }
    questions = dataset.questions[:limit] if limit else dataset.questions
    loop, close = direct_loop(
        settings, engine=make_llm(settings, embedder=embedder), embedder=embedder, record=False
    )
    gold_answers = {}
    import json

    for line in (Path(dataset_dir) / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            gold_answers[row["qid"]] = row["answers"]
    evidence_hits = answer_hits = 0
    iterations, latencies, statuses = [], [], Counter()
    try:
        with Progress(console=console) as progress:
            task = progress.add_task("asking", total=len(questions))
            for q in questions:
                start = time.perf_counter()
                events = loop.run(question_event(dataset.subject_id, EVAL_USER, q.question))
                latencies.append(time.perf_counter() - start)
                final = events[-1]
                statuses[final.status] += 1
                iterations.append(final.iterations)
                held = {doc_of.get(c) for c in _evidence_chunks(loop, final.session_id)}
                evidence_hits += bool(held & q.gold)
                answer_hits += any(_norm(a) in _norm(final.answer) for a in gold_answers[q.qid])
                progress.advance(task)
    finally:
        close()
    n = len(questions)
    report = write_report(
        out,
        {
            "benchmark": "eval-answers",
            "dataset": dataset.name,
            "queries": n,
            "engine": loop.engine.name,
            "evidence_holds_gold": round(evidence_hits / n, 4),
            "answer_contains_gold_string": round(answer_hits / n, 4),
            "statuses": dict(statuses),
            "mean_iterations": round(statistics.mean(iterations), 2),
            "latency_s": {
                "p50": round(statistics.median(latencies), 3),
                "max": round(max(latencies), 3),
            },
        },
    )
    console.print_json(data=report)
    return report


def _evidence_chunks(loop, session_id: str) -> list[str]:
    """Chunk IDs of the session's final evidence, kept by the direct loop's last evaluation."""
    state = loop.last_states.get(session_id)
    return [e.chunk_id for e in state.evidence] if state else []
