"""The fault scenarios: each runs sessions through real service processes, lands one fault
while they are in flight, and reports what became of them.

Every scenario gets a fresh topic prefix, so its consumer groups, transactional IDs and
topics are its own. Each returns a ``ScenarioResult``: the sessions started, finished,
failed, lost and duplicated (from the committed topics), the seconds the stages took to
flow again after the restart, and the evidence that the fault landed where it says.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from services.common import db
from services.common.events import ChunksStored
from services.common.kafka_io import now_ms
from services.common.materials import enroll, ensure_subject
from services.common.settings import DatabaseSettings, KafkaSettings, StorageSettings
from services.reasoning.embedders import Embedder
from services.sdk import Client
from tools.bench.machine import percentile
from tools.chaos.fake_gemini import FakeGemini
from tools.chaos.fleet import STAGES, Fleet, Member, Sampler, wait_until
from tools.chaos.infra import Private
from tools.chaos.sessions import FinalWatcher, aborted_records, audit, committed
from tools.evaluation.ingest_path import ingest_files, read_files
from topics.apply import apply_topics
from topics.registry import (
    ANSWERS,
    CHUNKS_STORED,
    EVALUATIONS,
    SEARCH_REQUESTS,
    SEARCH_RESULTS,
    SEARCH_SESSIONS,
    TopicSpec,
)

DEMO = Path(__file__).resolve().parents[2] / "demo" / "stats101"
LOOP = ("searcher", "librarian", "professor")
# What each stage writes: where an interrupted transaction leaves aborted records.
OUTPUTS: dict[str, tuple[TopicSpec, ...]] = {
    "searcher": (SEARCH_RESULTS, SEARCH_SESSIONS),
    "librarian": (EVALUATIONS,),
    "professor.plan": (ANSWERS, SEARCH_REQUESTS),
    "professor.conduct": (ANSWERS, SEARCH_REQUESTS),
}
SERVICE_OF = {"searcher": "searcher", "librarian": "librarian"} | {
    s: "professor" for s in ("professor.plan", "professor.conduct")
}
SESSION_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class Stack:
    """Where a scenario runs: the broker, the database holding the course, the storage, and
    the course's subject and student."""

    kafka: KafkaSettings
    database_url: str
    storage_host: str
    bucket: str
    subject: str
    student: str
    workdir: Path

    def fresh(self, name: str) -> tuple[KafkaSettings, Path]:
        """A topic prefix (topics created) and a work directory of the scenario's own."""
        tag = f"{name}-{uuid.uuid4().hex[:6]}"
        kafka = KafkaSettings(
            kafka_bootstrap_servers=self.kafka.kafka_bootstrap_servers,
            eduanima_topic_prefix=f"{self.kafka.eduanima_topic_prefix}{tag}.",
        )
        apply_topics(kafka)
        workdir = self.workdir / tag
        workdir.mkdir(parents=True)
        return kafka, workdir

    def env(self, kafka: KafkaSettings) -> dict[str, str]:
        return {
            "KAFKA_BOOTSTRAP_SERVERS": kafka.kafka_bootstrap_servers,
            "EDUANIMA_TOPIC_PREFIX": kafka.eduanima_topic_prefix,
            "DATABASE_URL": self.database_url,
            "STORAGE_EMULATOR_HOST": self.storage_host,
            "GCS_BUCKET": self.bucket,
        }

    def with_(self, **changes: Any) -> Stack:
        return dataclasses.replace(self, **changes)

    def on_kafka(self, broker: Private) -> Stack:
        """The same stack on a (private) broker."""
        return self.with_(
            kafka=KafkaSettings(
                kafka_bootstrap_servers=broker.address,
                eduanima_topic_prefix=self.kafka.eduanima_topic_prefix,
            )
        )

    def on_postgres(self, database: Private, embedder: Embedder) -> Stack:
        """The same stack on a (private) PostgreSQL: migrated, the course stored in it."""
        url = database.database_url()
        db.migrate(DatabaseSettings(database_url=url))
        prepare_course(url, self.subject, self.student, embedder)
        return self.with_(database_url=url)

    def on_storage(self, storage: Private) -> Stack:
        return self.with_(storage_host=storage.address, bucket=storage.settings.gcs_bucket)


@dataclass
class ScenarioResult:
    name: str
    counts: dict[str, int]
    recovery_s: float | None
    evidence: dict[str, Any] = field(default_factory=dict)
    latency_s: dict[str, float] = field(default_factory=dict)
    elapsed_s: float = 0.0

    def summary(self) -> str:
        return f"{self.name} {json.dumps(self.as_json(), ensure_ascii=False, default=str)}"

    def as_json(self) -> dict[str, Any]:
        return {
            **self.counts,
            "recovery_s": None if self.recovery_s is None else round(self.recovery_s, 2),
            "latency_s": {k: round(v, 2) for k, v in self.latency_s.items()},
            "elapsed_s": round(self.elapsed_s, 1),
            "evidence": self.evidence,
        }


def prepare_course(database_url: str, subject: str, student: str, embedder: Embedder) -> None:
    """The demo course stored through the real parser and chunker, the student enrolled."""
    with psycopg.connect(database_url) as conn:
        from pgvector.psycopg import register_vector

        register_vector(conn)
        ingest_files(conn, subject, "teacher", read_files(DEMO), embedder)
        enroll(conn, subject, student, "student")
        conn.commit()


def _latency(watcher: FinalWatcher) -> dict[str, float]:
    values = watcher.latencies()
    if not values:
        return {}
    return {"p50": percentile(values, 50), "p95": percentile(values, 95), "max": max(values)}


def _loop_fleet(stack: Stack, kafka: KafkaSettings, workdir: Path, **hooks: str) -> Fleet:
    fleet = Fleet(stack.env(kafka), workdir)
    members = [
        fleet.start(s, "a", **({"EDUANIMA_TEST_HOLD_TRANSACTION": hooks[s]} if s in hooks else {}))
        for s in LOOP
    ]
    fleet.wait_ready(members)
    return fleet


def _member(fleet: Fleet, service: str) -> Member:
    return fleet.running(service)[-1]


def restart_timeline(member: Member, stage: str) -> dict[str, float]:
    """Seconds from spawning a process to: its health report, its partitions, its first
    committed batch."""
    report = member.report() or {}
    marks = {
        "process_up": report.get("started_at"),
        "partitions_assigned": member.stage(stage).get("assigned_at"),
        "first_commit": member.stage(stage).get("first_commit_at"),
    }
    return {k: round(v - member.spawned_at, 2) for k, v in marks.items() if v}


def _holding(fleet: Fleet, stages: set[str]) -> str | None:
    """A stage (of those) whose process holds a transaction open now."""
    for stage in sorted(stages):
        if _member(fleet, SERVICE_OF[stage]).stage(stage).get("holding"):
            return stage
    return None


def _first_commit(member: Member, stage: str, timeout: float = 60) -> float:
    return wait_until(
        lambda: member.stage(stage).get("first_commit_at"),
        timeout,
        f"{member.label} to commit its first {stage} batch",
    )


# --- SIGKILL of a stage inside its open transaction ---------------------------------------------


def crash_in_open_transaction(
    stack: Stack,
    stages: tuple[str, ...] = ("searcher", "librarian", "professor.conduct"),
    sessions: int = 36,
) -> dict[str, ScenarioResult]:
    """Each stage in ``stages`` holds a transaction open (test hook) after one committed
    batch; each holder is SIGKILLed there and restarted (same INSTANCE_ID, no hook), with
    ``sessions`` in flight. One result per stage killed, the sessions' counts shared."""
    started = time.monotonic()
    kafka, workdir = stack.fresh("crash")
    hooks = {SERVICE_OF[s]: f"{s}@1" for s in stages}
    fleet = _loop_fleet(stack, kafka, workdir, **hooks)
    kills: dict[str, dict[str, Any]] = {}
    try:
        with FinalWatcher(kafka) as watcher:
            asked = watcher.ask(Client(kafka), stack.subject, stack.student, sessions)
            pending = set(stages)
            while pending:
                holder = wait_until(
                    lambda: _holding(fleet, pending), 120, f"one of {sorted(pending)} to hold"
                )
                victim = _member(fleet, SERVICE_OF[holder])
                held = victim.stage(holder)["holding"]
                in_flight = len(asked) - watcher.done()
                fleet.kill(victim)
                restarted = fleet.start(victim.service, victim.instance)
                kills[holder] = {
                    "held": held,
                    "in_flight": in_flight,
                    "restarted": restarted,
                }
                pending.discard(holder)
            all_done = watcher.wait_all(SESSION_TIMEOUT_S)
            latency = _latency(watcher)
        for stage, kill in kills.items():
            kill["first_commit_at"] = _first_commit(kill["restarted"], stage)
            kill["timeline"] = restart_timeline(kill["restarted"], stage)
        counts = audit(kafka, asked)
        aborted = aborted_records(kafka, {t for s in stages for t in OUTPUTS[s]})
    finally:
        fleet.stop_all()
    results = {}
    for stage, kill in kills.items():
        held_keys = {i["key"] for i in kill["held"]}
        interrupted = {
            topic.name: sum(1 for (_p, _o, key) in aborted[topic.name] if key in held_keys)
            for topic in OUTPUTS[stage]
        }
        results[stage] = ScenarioResult(
            name=f"kill-{stage}",
            counts=counts.counts(),
            recovery_s=kill["first_commit_at"] - kill["restarted"].spawned_at,
            evidence={
                "restart_timeline_s": kill["timeline"],
                "sessions_in_flight_at_kill": kill["in_flight"],
                "held_batch": len(kill["held"]),
                # records the killed transaction had written, aborted by the restart
                "aborted_outputs_of_held_batch": interrupted,
                "interrupted_transactions": 1 if sum(interrupted.values()) else 0,
                "all_sessions_ended": all_done,
                **{k: v for k, v in counts.details.items() if k != "finals"},
            },
            latency_s=latency,
            elapsed_s=time.monotonic() - started,
        )
    return results


# --- infrastructure restarts --------------------------------------------------------------------


def _stage_names(services: tuple[str, ...]) -> list[str]:
    return [stage for service in services for stage in STAGES[service]]


def _infra_restart(
    name: str,
    stack: Stack,
    private: Private,
    *,
    sessions: int,
    take_down,
    dependency: str,
    users: tuple[str, ...],
    outage_s: float,
) -> ScenarioResult:
    """Sessions in flight; ``take_down()`` the private component; wait until a service
    reports the dependency down (the fault landed); keep it down ``outage_s`` more; start it
    again; wait for every session. Recovery: from the component answering again until each
    stage of ``users`` has committed a batch."""
    started = time.monotonic()
    kafka, workdir = stack.fresh(name)
    fleet = _loop_fleet(stack, kafka, workdir)
    members = list(fleet.members)
    try:
        with FinalWatcher(kafka) as watcher, Sampler(fleet) as sampler:
            client = Client(kafka)
            asked = watcher.ask(client, stack.subject, stack.student, sessions)
            wait_until(lambda: watcher.done() >= 1, 120, "the first session to finish")
            follower = _follow_in_thread(client, next(s for s in asked if s not in watcher.finals))
            in_flight = len(asked) - watcher.done()
            take_down()
            down_at = time.time()
            wait_until(
                lambda: dependency in sampler.down, 60, f"a service to report {dependency} down"
            )
            noticed_s = time.time() - down_at
            time.sleep(outage_s)  # the outage itself: what the services must sit through
            back_s = private.start()
            back_at = time.time()
            all_done = watcher.wait_all(SESSION_TIMEOUT_S)
            sampler.settle()
            recovered = {
                stage: sampler.first_commit_after(stage, back_at) for stage in _stage_names(users)
            }
            latency = _latency(watcher)
            follower.join(timeout=60)
        counts = audit(kafka, asked)
        exits = {m.label: m.proc.poll() for m in members if m.proc.poll() is not None}
    finally:
        fleet.stop_all()
    # a stage with nothing left to do after the restart (professor.plan, when every question
    # was asked before it) has nothing to show; every session ending says it was not stuck
    flowing = [t - back_at for t in recovered.values() if t is not None]
    return ScenarioResult(
        name=name,
        counts=counts.counts(),
        recovery_s=max(flowing) if flowing else None,
        evidence={
            "sessions_in_flight_at_fault": in_flight,
            f"{dependency}_down_reported_by": sorted(sampler.down.get(dependency, ())),
            "seconds_until_reported_down": round(noticed_s, 2),
            "seconds_down": round(back_at - down_at, 2),
            f"{dependency}_start_s": round(back_s, 2),
            "first_commit_after_back_s": {
                k: None if v is None else round(v - back_at, 2) for k, v in recovered.items()
            },
            "service_exits": exits,  # {} : nothing exited, nothing needed a manual step
            "follow_across_the_fault": follower.outcome,
            "all_sessions_ended": all_done,
            **{k: v for k, v in counts.details.items() if k != "finals"},
        },
        latency_s=latency,
        elapsed_s=time.monotonic() - started,
    )


class _Follower(threading.Thread):
    """``Client.follow`` of one session in a thread, across the fault."""

    def __init__(self, client: Client, session: str):
        super().__init__(name="follow", daemon=True)
        self.client, self.session = client, session
        self.outcome = "running"

    def run(self) -> None:
        try:
            events = list(self.client.follow(self.session, timeout=SESSION_TIMEOUT_S))
            self.outcome = f"{events[-1].kind} {events[-1].status} after {len(events)} events"
        except Exception as exc:  # noqa: BLE001 - reported in the evidence
            self.outcome = f"failed: {type(exc).__name__}: {exc}"


def _follow_in_thread(client: Client, session: str) -> _Follower:
    follower = _Follower(client, session)
    follower.start()
    return follower


def broker_restart(stack: Stack, broker: Private, sessions: int = 20) -> ScenarioResult:
    """The (private) broker SIGKILLed with sessions in flight, and started again."""
    return _infra_restart(
        "kafka-restart",
        stack,
        broker,
        sessions=sessions,
        take_down=broker.kill,
        dependency="kafka",
        users=LOOP,
        outage_s=1.0,
    )


def postgres_restart(stack: Stack, database: Private, sessions: int = 20) -> ScenarioResult:
    """The (private) PostgreSQL stopped (fast shutdown) with sessions in flight, and started."""
    return _infra_restart(
        "postgres-restart",
        stack,
        database,
        sessions=sessions,
        take_down=database.stop,
        dependency="postgres",
        users=("searcher", "professor"),
        outage_s=3.0,
    )


# --- object storage down during ingestion -------------------------------------------------------


def storage_outage(
    stack: Stack, storage: Private, jobs: int = 2, wait_s: float = 10.0
) -> ScenarioResult:
    """Uploads stored, then the (private) storage stopped and their jobs published. A short
    outage (back as soon as a job is seen retrying): the jobs stay PENDING, retry, and end
    STORED. A long one (down until the jobs have an outcome, past the ingestor's
    INGEST_STORAGE_WAIT_S): they end FAILED, saying why."""
    started = time.monotonic()
    kafka, workdir = stack.fresh("storage")
    with psycopg.connect(stack.database_url) as conn:
        ensure_subject(conn, stack.subject)
        enroll(conn, stack.subject, "teacher", "teacher")
        conn.commit()
    fleet = Fleet(stack.env(kafka), workdir)
    ingestor = fleet.start("ingestor", "a", INGEST_STORAGE_WAIT_S=str(wait_s))
    client = Client(kafka)
    storage_settings = StorageSettings(
        storage_emulator_host=stack.storage_host, gcs_bucket=stack.bucket
    )
    evidence: dict[str, Any] = {}
    outcomes: dict[str, list[ChunksStored]] = {}
    try:
        fleet.wait_ready([ingestor])
        with Sampler(fleet) as sampler:
            for phase in ("short", "long"):
                uploads = [
                    client.upload_bytes(
                        f"# {phase} {i}\n\nOutage {phase}, file {i}: {uuid.uuid4()}.\n".encode(),
                        f"{phase}-{i}.md",
                        stack.subject,
                        "teacher",
                        storage=storage_settings,
                    )
                    for i in range(jobs)
                ]
                storage.stop()
                down_at = time.time()
                since = now_ms()
                for job in uploads:
                    client.publish_ingest_job(job)
                pending = wait_until(
                    lambda uploads=uploads: _retrying(stack.database_url, uploads),
                    60,
                    "a job to wait for storage",
                )
                wait_until(
                    lambda: "storage" in sampler.down, 30, "the ingestor to report storage down"
                )
                keys = {j.idempotency_key for j in uploads}
                if phase == "long":  # outcomes while still down: past the wait, FAILED
                    found = list(client.wait_for_ingest(keys, 120, since_ms=since))
                storage.start()
                back_at = time.time()
                if phase == "short":  # back within the wait: the jobs go on, STORED
                    found = list(client.wait_for_ingest(keys, 120, since_ms=since))
                sampler.settle()
                evidence[phase] = {
                    "pending_while_down": pending,
                    "attempts": sorted(
                        r["attempts"] for r in _job_rows(stack.database_url, uploads)
                    ),
                    "seconds_down": round(back_at - down_at, 1),
                    "statuses": sorted(o.status for o in found),
                    "errors": sorted({(o.error or "")[:160] for o in found if o.error}),
                    "first_commit_after_back_s": _round(
                        sampler.first_commit_after("ingestor", back_at), back_at
                    ),
                }
                for job in uploads:
                    outcomes[job.job_id] = []
        for outcome in committed(kafka, CHUNKS_STORED, ChunksStored):
            if outcome.job_id in outcomes:
                outcomes[outcome.job_id].append(outcome)
        exits = {m.label: m.proc.poll() for m in fleet.members if m.proc.poll() is not None}
    finally:
        fleet.stop_all()
    last = {job: found[-1] for job, found in outcomes.items() if found}
    evidence["service_exits"] = exits
    return ScenarioResult(
        name="storage-outage",
        counts={
            "started": len(outcomes),
            "finished": sum(1 for o in last.values() if o.status == "STORED"),
            "failed": sum(1 for o in last.values() if o.status == "FAILED"),
            "lost": len(outcomes) - len(last),
            "duplicated": sum(len(found) - 1 for found in outcomes.values() if found),
        },
        recovery_s=evidence["short"]["first_commit_after_back_s"],
        evidence=evidence,
        elapsed_s=time.monotonic() - started,
    )


def _took_all(member: Member, stage: str, since: float, partitions: int) -> float | None:
    """When ``member`` was assigned every partition of the stage, if that came after ``since``."""
    state = member.stage(stage)
    if len(state.get("partitions") or []) == partitions and state.get("assigned_at", 0) > since:
        return state["assigned_at"]
    return None


def _round(moment: float | None, since: float) -> float | None:
    return None if moment is None else round(moment - since, 2)


def _job_rows(database_url: str, jobs) -> list[dict[str, Any]]:
    keys = [j.idempotency_key for j in jobs]
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT status, attempts, error FROM ingest_jobs WHERE idempotency_key = ANY(%s)",
            (keys,),
        ).fetchall()
    return [{"status": s, "attempts": a, "error": (e or "")[:120]} for s, a, e in rows]


def _retrying(database_url: str, jobs) -> list[dict[str, Any]] | None:
    """The jobs' rows that wait, PENDING with the storage error (the first job of a batch is
    the one that meets the outage; the others wait behind it)."""
    waiting = [
        row
        for row in _job_rows(database_url, jobs)
        if row["status"] == "PENDING" and "waiting for object storage" in row["error"]
    ]
    return waiting or None


# --- scaling out and in with sessions in flight --------------------------------------------------


def scale_out_in(stack: Stack, sessions: int = 30) -> ScenarioResult:
    """A second searcher and librarian join mid-run (rebalance); then, with a second wave of
    sessions in flight, the first of each stops (leaving its group, handing its partitions
    over). Recovery: from the stop until the remaining instance has every partition and has
    committed a batch."""
    started = time.monotonic()
    kafka, workdir = stack.fresh("scale")
    fleet = _loop_fleet(stack, kafka, workdir)
    first = {s: _member(fleet, s) for s in ("searcher", "librarian")}
    partitions = {"searcher": SEARCH_REQUESTS.partitions, "librarian": SEARCH_RESULTS.partitions}
    try:
        with FinalWatcher(kafka) as watcher, Sampler(fleet) as sampler:
            client = Client(kafka)
            asked = watcher.ask(client, stack.subject, stack.student, sessions // 2)
            wait_until(lambda: watcher.done() >= 1, 120, "the first session to finish")
            in_flight_out = len(asked) - watcher.done()
            second = {s: fleet.start(s, "b") for s in first}
            fleet.wait_ready(list(second.values()))
            shares = {s: m.stage(s).get("partitions") for s, m in second.items()}
            joined = {s: restart_timeline(m, s) for s, m in second.items()}
            asked += watcher.ask(client, stack.subject, stack.student, sessions - len(asked), 3)
            in_flight_in = len(asked) - watcher.done()
            stopped_at = time.time()
            for m in first.values():  # both at once, while the second wave is in flight
                m.proc.terminate()
            handover = {}
            for s, m in first.items():
                code = fleet.exit_code(m)
                taken = wait_until(
                    lambda s=s: _took_all(second[s], s, stopped_at, partitions[s]),
                    60,
                    f"the second {s} to take every partition",
                )
                handover[s] = {"exit_code": code, "stopped_at": stopped_at, "taken": taken}
            all_done = watcher.wait_all(SESSION_TIMEOUT_S)
            sampler.settle()
            for s, h in handover.items():
                flowing = sampler.first_commit_after(s, h["taken"])
                h["partitions_taken_s"] = round(h.pop("taken") - h["stopped_at"], 2)
                h["first_commit_after_stop_s"] = _round(flowing, h.pop("stopped_at"))
            latency = _latency(watcher)
        counts = audit(kafka, asked)
    finally:
        fleet.stop_all()
    # a stage left with nothing to do after the handover has nothing to show
    flowing = [h["first_commit_after_stop_s"] for h in handover.values()]
    flowing = [f for f in flowing if f is not None]
    return ScenarioResult(
        name="scale-out-in",
        counts=counts.counts(),
        recovery_s=max(flowing) if flowing else None,
        evidence={
            "sessions_in_flight_at_scale_out": in_flight_out,
            "sessions_in_flight_at_scale_in": in_flight_in,
            "second_instance_start_s": joined,
            "second_instance_partitions": shares,
            "scale_in": handover,
            "all_sessions_ended": all_done,
            **{k: v for k, v in counts.details.items() if k != "finals"},
        },
        latency_s=latency,
        elapsed_s=time.monotonic() - started,
    )


# --- the LLM failing ----------------------------------------------------------------------------


def llm_outage(stack: Stack, sessions: int = 4, fallback: str = "extractive") -> ScenarioResult:
    """The librarian and professor on Gemini, pointed at a local server that fails every
    request (5xx, malformed output, too slow); ``fallback`` as LLM_FALLBACK."""
    started = time.monotonic()
    name = "llm-outage" if fallback == "extractive" else f"llm-outage-fallback-{fallback}"
    kafka, workdir = stack.fresh("llm")
    with FakeGemini(slow_s=1.5) as gemini:
        llm = {
            "LLM_ENGINE": "gemini",
            "GEMINI_API_KEY": "not-a-real-key",
            "GEMINI_BASE_URL": gemini.url,
            "GEMINI_ATTEMPTS": "2",
            "GEMINI_TIMEOUT_MS": "1000",
            "LLM_FALLBACK": fallback,
        }
        fleet = Fleet(stack.env(kafka), workdir)
        members = [
            fleet.start("searcher"),
            fleet.start("librarian", **llm),
            fleet.start("professor", **llm),
        ]
        try:
            fleet.wait_ready(members)
            with FinalWatcher(kafka) as watcher:
                asked = watcher.ask(Client(kafka), stack.subject, stack.student, sessions)
                all_done = watcher.wait_all(SESSION_TIMEOUT_S)
                latency = _latency(watcher)
            counts = audit(kafka, asked)
        finally:
            fleet.stop_all()
    finals = counts.details["finals"]
    return ScenarioResult(
        name=name,
        counts=counts.counts(),
        recovery_s=None,  # nothing restarts: each failed step is taken over at once
        evidence={
            "gemini_failures_served": dict(gemini.served),
            "gemini_endpoints_called": dict(gemini.paths),
            "finals": {
                s: {
                    "status": f.status,
                    "stop_reason": f.stop_reason,
                    "fallback_steps": sorted({x.split(":", 1)[0] for x in f.fallbacks}),
                    "answer_says_so": "extractive" in f.answer or "抽出エンジン" in f.answer,
                    "answer_head": f.answer[:160],
                }
                for s, f in finals.items()
            },
            "all_sessions_ended": all_done,
        },
        latency_s=latency,
        elapsed_s=time.monotonic() - started,
    )
