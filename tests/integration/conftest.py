"""Integration fixtures: the whole system on the real broker and database.

``pipeline`` runs the ingestor and the four loop services as threads of this
process (one shared embedder, so USE-m3 loads once) under the run's topic
prefix and database. ``service_processes`` runs services as real OS processes,
on a topic prefix of their own, so that tests can SIGKILL them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from insights_instances import InsightsInstances
from pydantic import SecretStr

from services.common.materials import enroll, ensure_subject
from services.common.settings import DatabaseSettings, KafkaSettings, StorageSettings
from services.common.stage_runner import StageRunner
from services.gateway.app import create_app
from services.gateway.backends import Backends
from services.gateway.settings import GatewaySettings
from services.gateway_client import GatewayClient
from services.ingestor.app import Ingestor
from services.ingestor.settings import IngestionSettings
from services.librarian import app as librarian_app
from services.librarian.settings import LibrarianSettings
from services.professor.app import Professor
from services.professor.settings import ProfessorSettings
from services.reasoning import make_llm
from services.reasoning.embedders import UseM3Embedder
from services.sdk import Client
from services.searcher.app import Searcher
from services.searcher.settings import SearcherSettings
from topics.apply import apply_topics


@dataclass
class ServiceProcesses:
    """Services as ``python -m services.<name>`` children, configured through their env vars."""

    env: dict[str, str]
    procs: dict[str, list[subprocess.Popen]] = field(default_factory=dict)

    def start(self, name: str) -> subprocess.Popen:
        proc = subprocess.Popen(
            [sys.executable, "-m", f"services.{name}"],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.procs.setdefault(name, []).append(proc)
        return proc

    def kill(self, name: str) -> None:
        """SIGKILL every running process of the service: no shutdown, no commit."""
        for proc in self.procs.get(name, []):
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=30)

    def stop_all(self) -> None:
        for procs in self.procs.values():
            for proc in procs:
                if proc.poll() is None:
                    proc.terminate()
        for procs in self.procs.values():
            for proc in procs:
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()


@pytest.fixture(scope="session")
def insights_port() -> int:
    """Where the run's insights service listens (the live gateway proxies to it), reserved
    up front so the gateway knows it even when no test starts the service."""
    return _free_port()


@pytest.fixture(scope="session")
def live_insights(pipeline: Pipeline, insights_port: int) -> Iterator[InsightsInstances]:
    """One insights instance over the run's topics, started when a test first needs it."""
    instances = InsightsInstances(pipeline.kafka, insights_port)
    instances.start()
    instances.wait_for("/insights/stages", lambda view: True)
    yield instances
    instances.stop_all()


@pytest.fixture
def isolated_kafka(kafka_settings) -> KafkaSettings:
    """A topic prefix of this test's own, so its services share no group with others."""
    settings = KafkaSettings(
        kafka_bootstrap_servers=kafka_settings.kafka_bootstrap_servers,
        eduanima_topic_prefix=f"{kafka_settings.eduanima_topic_prefix}{uuid.uuid4().hex[:6]}.",
    )
    apply_topics(settings)
    return settings


@pytest.fixture
def service_processes(isolated_kafka, db_settings, storage_settings) -> Iterator[ServiceProcesses]:
    env = {
        **os.environ,
        "KAFKA_BOOTSTRAP_SERVERS": isolated_kafka.kafka_bootstrap_servers,
        "EDUANIMA_TOPIC_PREFIX": isolated_kafka.eduanima_topic_prefix,
        "DATABASE_URL": db_settings.database_url.get_secret_value(),
        "STORAGE_EMULATOR_HOST": storage_settings.storage_emulator_host or "",
        "GCS_BUCKET": storage_settings.gcs_bucket,
        "LOG_LEVEL": "WARNING",
    }
    procs = ServiceProcesses(env)
    yield procs
    procs.stop_all()


DEMO = Path(__file__).resolve().parents[2] / "demo" / "stats101"


@dataclass
class Pipeline:
    kafka: KafkaSettings
    db: DatabaseSettings
    storage: StorageSettings
    client: Client
    searcher: Searcher

    def settings(self, cls):
        # never the name of a service process of the same topics
        return settings_for(cls, self.kafka, self.db, self.storage, "in-process")


def settings_for(cls, kafka, db, storage, instance_id: str, **overrides):
    """A service's settings on these topics, database and storage."""
    return cls(
        kafka_bootstrap_servers=kafka.kafka_bootstrap_servers,
        eduanima_topic_prefix=kafka.eduanima_topic_prefix,
        database_url=db.database_url,
        storage_emulator_host=storage.storage_emulator_host,
        gcs_bucket=storage.gcs_bucket,
        instance_id=instance_id,
        **overrides,
    )


@pytest.fixture
def service_settings(isolated_kafka, db_settings, storage_settings):
    """``service_settings(cls, **overrides)``: any service's settings on this test's own
    topics, the test database and storage."""
    return lambda cls, **overrides: settings_for(
        cls, isolated_kafka, db_settings, storage_settings, "test", **overrides
    )


@pytest.fixture(scope="session")
def embedder() -> UseM3Embedder:
    return UseM3Embedder()


def start(runners: list[StageRunner], stop: threading.Event) -> list[threading.Thread]:
    threads = [
        threading.Thread(target=r.run, args=(stop,), daemon=True, name=r.stage) for r in runners
    ]
    for t in threads:
        t.start()
    return threads


def run_until(runners: list[StageRunner], done, timeout: float = 60.0) -> bool:
    """Run the stages until ``done()``, one of them dies, or ``timeout``; then stop them.
    True when every stage was still running at the end."""
    stop = threading.Event()
    threads = start(runners, stop)
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline and all(t.is_alive() for t in threads):
        time.sleep(0.1)
    alive = all(t.is_alive() for t in threads)
    stop.set()
    for thread in threads:
        thread.join(30)
        assert not thread.is_alive()
    return alive


@pytest.fixture
def run_stages():
    """``run_stages(runners, done, timeout=60)``: see ``run_until``."""
    return run_until


@pytest.fixture(scope="session")
def pipeline(kafka_settings, db_settings, storage_settings, embedder) -> Iterator[Pipeline]:
    base = Pipeline(kafka_settings, db_settings, storage_settings, Client(kafka_settings), None)  # type: ignore[arg-type]
    professor_settings = base.settings(ProfessorSettings)
    engine = make_llm(professor_settings, embedder=embedder)
    base.searcher = Searcher(base.settings(SearcherSettings), embedder=embedder)
    runners = [
        Ingestor(base.settings(IngestionSettings), embedder=embedder).runner(),
        base.searcher.runner(),
        librarian_app.runner(base.settings(LibrarianSettings), engine=engine),
        *Professor(professor_settings, engine=engine).runners(),
    ]
    stop = threading.Event()
    threads = start(runners, stop)
    yield base
    stop.set()
    for t in threads:
        t.join(timeout=30)


TOKENS = {
    "teacher-1": "tok-teacher-1",
    "student-1": "tok-student-1",
    "student-2": "tok-student-2",
}


@dataclass
class LiveGateway:
    """The gateway served over real HTTP (uvicorn) on the pipeline's topics and database."""

    url: str
    settings: GatewaySettings

    @staticmethod
    def token(user: str) -> str:
        return TOKENS[user]

    def client(self, user: str) -> GatewayClient:
        return GatewayClient(self.url, TOKENS[user])


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def live_gateway(pipeline: Pipeline, embedder, insights_port: int) -> Iterator[LiveGateway]:
    """One gateway for the CLI and browser tests (it shares the pipeline's embedder)."""
    import httpx
    import uvicorn
    from tenacity import Retrying, retry_if_exception_type, stop_after_delay, wait_fixed

    port = _free_port()
    settings = pipeline.settings(GatewaySettings).model_copy(
        update={
            "gateway_port": port,
            "gateway_tokens": SecretStr(",".join(f"{t}={u}" for u, t in TOKENS.items())),
            "gateway_session_wait_s": 60.0,
            "gateway_follow_timeout_s": 180.0,
            "insights_url": f"http://127.0.0.1:{insights_port}",
        }
    )
    app = create_app(settings, Backends(settings, embedder=embedder))
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, lifespan="on")
    )
    thread = threading.Thread(target=server.run, name="live-gateway", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    for attempt in Retrying(
        stop=stop_after_delay(30),
        wait=wait_fixed(0.2),
        reraise=True,
        retry=retry_if_exception_type(httpx.TransportError),
    ):
        with attempt:
            assert thread.is_alive(), "the gateway's server stopped"
            httpx.get(f"{url}/healthz", timeout=2).raise_for_status()
    yield LiveGateway(url, settings)
    server.should_exit = True
    thread.join(timeout=30)


@pytest.fixture(scope="session")
def demo_subject(pipeline: Pipeline) -> str:
    """The demo course, ingested through Kafka once for the session."""
    from services.common import db

    subject = "stats101-demo"
    with db.connect(pipeline.db) as conn:
        ensure_subject(conn, subject, "Introduction to Statistics")
        enroll(conn, subject, "teacher-1", "teacher")
        enroll(conn, subject, "student-1", "student")
        enroll(conn, subject, "student-2", "student")
        conn.commit()
    jobs = [
        pipeline.client.upload_and_ingest(
            path, subject, "teacher-1", storage=pipeline.storage, flush=False
        )
        for path in sorted(DEMO.iterdir())
        if path.suffix != ".py"
    ]
    pipeline.client.publisher.flush()
    outcomes = list(pipeline.client.wait_for_ingest({j.idempotency_key for j in jobs}, timeout=300))
    assert {o.status for o in outcomes} <= {"STORED", "DUPLICATE"}, [o.error for o in outcomes]
    return subject
