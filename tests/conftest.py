"""Shared fixtures: real infrastructure, resolved once per session and isolated per run.

Each service is resolved in this order, lazily (only when a test asks for it, so
``pytest -m "not integration"`` starts nothing):

1. the endpoint named by ``KAFKA_BOOTSTRAP_SERVERS`` / ``DATABASE_URL`` / ``STORAGE_EMULATOR_HOST``;
2. testcontainers (``cp-kafka`` in KRaft mode, ``pgvector/pgvector:0.8.2-pg18``) when a Docker
   engine answers; storage then uses an in-process GCS emulator;
3. the ``deploy.local`` processes (``up()`` with ``EDUANIMA_HOME`` or ``.eduanima/``), left
   running afterwards for the next run.

Per run: topics are prefixed ``t<8 hex>.`` (and deleted at the end), the database is a fresh
``eduanima_test_<hex>`` with every migration applied (dropped at the end), and the bucket is
``eduanima-test-<hex>`` (deleted at the end).
"""

from __future__ import annotations

import logging
import secrets
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

from services.common import db
from services.common.settings import DatabaseSettings, KafkaSettings, StorageSettings

logger = logging.getLogger(__name__)

RUN_ID = secrets.token_hex(4)
INFRA_FIXTURES = frozenset(
    {"kafka_settings", "db_settings", "storage_settings", "db_conn", "local_deploy"}
)


@dataclass(frozen=True)
class Resolved:
    """Where one service came from, for the end-of-run summary."""

    service: str
    source: str  # env | testcontainers | in-process | deploy.local
    address: str


_resolved: list[Resolved] = []


def _note(service: str, source: str, address: str) -> None:
    _resolved.append(Resolved(service, source, address))
    logger.info("%s from %s at %s", service, source, address)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Infrastructure fixtures belong to integration tests only; say so at collection."""
    unmarked = [
        item.nodeid
        for item in items
        if INFRA_FIXTURES & set(getattr(item, "fixturenames", ()))
        and item.get_closest_marker("integration") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "these tests use real infrastructure but are not marked @pytest.mark.integration:\n  "
            + "\n  ".join(unmarked)
        )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _resolved:
        terminalreporter.section("eduanima test infrastructure")
        for item in _resolved:
            terminalreporter.write_line(f"{item.service:9} {item.source:15} {item.address}")
        terminalreporter.write_line(f"run id    {RUN_ID}")


def _docker_answers() -> bool:
    """True when a Docker engine answers a ping within 2 s (never true on our machines)."""
    try:
        import docker
    except ImportError:
        return False
    try:
        client = docker.from_env(timeout=2)
    except Exception:  # noqa: BLE001 - any failure means "no usable engine"
        return False
    try:
        return bool(client.ping())
    except Exception:  # noqa: BLE001
        return False
    finally:
        client.close()


@pytest.fixture(scope="session")
def docker_available() -> bool:
    return _docker_answers()


@pytest.fixture(scope="session")
def local_deploy():  # -> LocalDeploySettings; imported lazily to keep unit runs light
    """The deploy.local processes, started if needed and left running for the next run."""
    from deploy.local import LocalDeploySettings, up

    settings = LocalDeploySettings()
    up(settings)
    return settings


# --- Kafka --------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def kafka_bootstrap(request: pytest.FixtureRequest, docker_available: bool) -> Iterator[str]:
    env = KafkaSettings()
    if "kafka_bootstrap_servers" in env.model_fields_set:
        _note("kafka", "env", env.kafka_bootstrap_servers)
        yield env.kafka_bootstrap_servers
        return
    if docker_available:
        from testcontainers.community.kafka import KafkaContainer

        container = (
            KafkaContainer("confluentinc/cp-kafka:7.9.0")
            .with_kraft()
            .with_env("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
        )
        with container:
            bootstrap = container.get_bootstrap_server()
            _note("kafka", "testcontainers", bootstrap)
            yield bootstrap
        return
    settings = request.getfixturevalue("local_deploy")
    _note("kafka", "deploy.local", settings.kafka_bootstrap)
    yield settings.kafka_bootstrap


def _delete_run_topics(bootstrap: str, prefix: str) -> None:
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap})
    names = [name for name in admin.list_topics(timeout=15).topics if name.startswith(prefix)]
    if not names:
        return
    for name, future in admin.delete_topics(names, operation_timeout=30).items():
        try:
            future.result(timeout=60)
        except Exception as exc:  # noqa: BLE001 - cleanup must not mask test results
            logger.warning("could not delete test topic %s: %s", name, exc)


def _apply_topics(settings: KafkaSettings) -> None:
    """Create every registry topic under the run prefix, once ``topics.apply`` exists."""
    try:
        from topics.apply import apply_topics
    except ModuleNotFoundError as exc:
        if exc.name not in ("topics", "topics.apply"):
            raise
        logger.warning("topics.apply not importable yet; no topics applied")
        return
    apply_topics(settings)


@pytest.fixture(scope="session")
def kafka_settings(kafka_bootstrap: str) -> Iterator[KafkaSettings]:
    """KafkaSettings with this run's topic prefix; every registry topic exists."""
    prefix = f"t{RUN_ID}."
    settings = KafkaSettings(kafka_bootstrap_servers=kafka_bootstrap, eduanima_topic_prefix=prefix)
    _apply_topics(settings)
    yield settings
    _delete_run_topics(kafka_bootstrap, prefix)


# --- PostgreSQL -----------------------------------------------------------------------------


def with_database(url: str, dbname: str) -> str:
    """The libpq URL ``url`` pointing at database ``dbname`` instead."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{dbname}"))


@pytest.fixture(scope="session")
def postgres_url(request: pytest.FixtureRequest, docker_available: bool) -> Iterator[str]:
    """URL of a server where the tests may create and drop databases."""
    env = DatabaseSettings()
    if "database_url" in env.model_fields_set:
        url = env.database_url.get_secret_value()
        _note("postgres", "env", urlsplit(url).netloc.rsplit("@", 1)[-1])
        yield url
        return
    if docker_available:
        from testcontainers.community.postgres import PostgresContainer

        container = PostgresContainer(
            "pgvector/pgvector:0.8.2-pg18",
            username="eduanima",
            password="eduanima",
            dbname="eduanima",
            driver=None,
        )
        with container:
            url = container.get_connection_url()
            _note("postgres", "testcontainers", urlsplit(url).netloc.rsplit("@", 1)[-1])
            yield url
        return
    settings = request.getfixturevalue("local_deploy")
    url = settings.database_url()
    _note("postgres", "deploy.local", f"127.0.0.1:{settings.eduanima_pg_port}")
    yield url


@pytest.fixture(scope="session")
def db_settings(postgres_url: str) -> Iterator[DatabaseSettings]:
    """DatabaseSettings for a fresh database of this run, every migration applied."""
    name = f"eduanima_test_{RUN_ID}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    settings = DatabaseSettings(database_url=with_database(postgres_url, name))
    try:
        db.migrate(settings)
        yield settings
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


@pytest.fixture
def db_conn(db_settings: DatabaseSettings) -> Iterator[psycopg.Connection]:
    """A connection to the run database with pgvector registered; closed after the test."""
    conn = db.connect(db_settings)
    try:
        yield conn
    finally:
        conn.close()


# --- GCS emulator ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def emulator_host(request: pytest.FixtureRequest, docker_available: bool) -> Iterator[str]:
    env = StorageSettings()
    if "storage_emulator_host" in env.model_fields_set and env.storage_emulator_host:
        _note("storage", "env", env.storage_emulator_host)
        yield env.storage_emulator_host
        return
    if docker_available:
        # No emulator image is pinned for Docker users; the in-process emulator is the same code.
        from gcp_storage_emulator.server import create_server

        port = _free_port()
        server = create_server("127.0.0.1", port, in_memory=True)
        server.start()
        host = f"http://127.0.0.1:{port}"
        _note("storage", "in-process", host)
        try:
            yield host
        finally:
            server.stop()
        return
    settings = request.getfixturevalue("local_deploy")
    _note("storage", "deploy.local", settings.emulator_host)
    yield settings.emulator_host


@pytest.fixture(scope="session")
def storage_settings(emulator_host: str) -> Iterator[StorageSettings]:
    """StorageSettings on the emulator with this run's bucket created."""
    from deploy.local.gcs import delete_bucket, ensure_bucket
    from deploy.local.process import LocalDeployError

    bucket = f"eduanima-test-{RUN_ID}"
    ensure_bucket(emulator_host, bucket)
    yield StorageSettings(storage_emulator_host=emulator_host, gcs_bucket=bucket)
    try:
        delete_bucket(emulator_host, bucket)
    except LocalDeployError as exc:  # cleanup must not mask test results
        logger.warning("%s", exc)


# --- small per-test values -----------------------------------------------------------------------


@pytest.fixture
def subject_id() -> str:
    """A fresh subject id no other test uses."""
    return f"subj-{secrets.token_hex(6)}"
