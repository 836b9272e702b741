"""``eduanima bench chaos``: the fault scenarios of ``tools.chaos``, outside the test suite.

The stage kills and the scale and LLM scenarios run on the configured broker, database and
storage (each on a topic prefix of its own, the demo course stored under a subject of the
run's own); the broker, database and storage faults run on private instances started for
them, so the deployment in use is never killed. One JSON report: ``scenarios`` maps each
name to its started, finished, failed, lost and duplicated sessions and ``recovery_s`` (the
seconds from the restart until the stage's partitions flow again: its first committed
batch), with the evidence that the fault landed.
"""

from __future__ import annotations

import os
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from services.common.settings import DatabaseSettings, KafkaSettings, StorageSettings
from services.reasoning.embedders import UseM3Embedder
from tools.bench.machine import write_report
from tools.chaos import scenarios as sc
from tools.chaos.infra import Private
from topics.apply import apply_topics

console = Console(stderr=True)
SCENARIOS = (
    "kill-stages",
    "kafka-restart",
    "postgres-restart",
    "storage-outage",
    "scale-out-in",
    "llm-outage",
)
RECOVERY_BOUND_S = 5.0


def _with_private(kind: str, run: Callable[[Private], Any]) -> Any:
    component = Private(kind)  # type: ignore[arg-type]
    try:
        component.start()
        return run(component)
    finally:
        component.close()


def run_chaos_bench(out_dir: Path, sessions: int = 30, only: tuple[str, ...] = SCENARIOS) -> dict:
    unknown = set(only) - set(SCENARIOS)
    if unknown:
        raise ValueError(f"unknown scenario(s) {sorted(unknown)}; choose from {SCENARIOS}")
    run = uuid.uuid4().hex[:6]
    base = KafkaSettings()
    kafka = KafkaSettings(
        kafka_bootstrap_servers=base.kafka_bootstrap_servers,
        eduanima_topic_prefix=f"{base.eduanima_topic_prefix}chaos-{run}.",
    )
    apply_topics(kafka)
    database = DatabaseSettings().database_url.get_secret_value()
    storage = StorageSettings()
    embedder = UseM3Embedder()
    subject = f"chaos-{run}"
    console.print(f"storing the demo course as {subject}…")
    sc.prepare_course(database, subject, "student-1", embedder)
    stack = sc.Stack(
        kafka=kafka,
        database_url=database,
        storage_host=storage.storage_emulator_host or "",
        bucket=storage.gcs_bucket,
        subject=subject,
        student="student-1",
        workdir=Path(tempfile.mkdtemp(prefix="eduanima-chaos-")),
    )
    load_before = os.getloadavg()
    results: dict[str, sc.ScenarioResult] = {}
    steps: dict[str, Callable[[], None]] = {
        "kill-stages": lambda: results.update(
            {r.name: r for r in sc.crash_in_open_transaction(stack, sessions=sessions).values()}
        ),
        "kafka-restart": lambda: results.update(
            {
                "kafka-restart": _with_private(
                    "kafka", lambda b: sc.broker_restart(stack.on_kafka(b), b, sessions=sessions)
                )
            }
        ),
        "postgres-restart": lambda: results.update(
            {
                "postgres-restart": _with_private(
                    "postgres",
                    lambda p: sc.postgres_restart(
                        stack.on_postgres(p, embedder), p, sessions=sessions
                    ),
                )
            }
        ),
        "storage-outage": lambda: results.update(
            {
                "storage-outage": _with_private(
                    "gcs", lambda g: sc.storage_outage(stack.on_storage(g), g)
                )
            }
        ),
        "scale-out-in": lambda: results.update(
            {"scale-out-in": sc.scale_out_in(stack, sessions=sessions)}
        ),
        "llm-outage": lambda: results.update(
            {
                "llm-outage": sc.llm_outage(stack, sessions=4),
                "llm-outage-fallback-none": sc.llm_outage(stack, sessions=2, fallback="none"),
            }
        ),
    }
    for name in only:
        started = time.monotonic()
        console.print(f"scenario {name}…")
        steps[name]()
        console.print(f"scenario {name}: {time.monotonic() - started:.0f} s")
    scenarios = {name: result.as_json() for name, result in results.items()}
    recoveries = [r.recovery_s for r in results.values() if r.recovery_s is not None]
    report = {
        "benchmark": "chaos",
        "sessions_per_scenario": sessions,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "recovery_bound_s": RECOVERY_BOUND_S,
        "worst_recovery_s": round(max(recoveries), 2) if recoveries else None,
        "within_bound": all(r <= RECOVERY_BOUND_S for r in recoveries),
        "lost": sum(s["lost"] for s in scenarios.values()),
        "duplicated": sum(s["duplicated"] for s in scenarios.values()),
        "scenarios": scenarios,
        "notes": (
            "recovery_s: seconds from a stage's restart (process spawned; for kafka/postgres: "
            "the component answering again; for scale-out-in: the old instance stopping) until "
            "the stage's partitions flow again (its first committed batch). kill-* hold a "
            "transaction open through the test hook and SIGKILL the stage inside it; "
            "storage-outage counts ingest jobs, not sessions; llm-outage has no restart"
        ),
    }
    path = out_dir / "chaos.json"
    write_report(str(path), report)
    console.print(f"written to {path}")
    return report
