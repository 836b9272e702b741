"""Fault tests: the scenarios of ``tools.chaos`` (the same ones ``eduanima bench chaos`` runs)
against this run's broker, database and storage, or a private Kafka, PostgreSQL or GCS
emulator (``tools.chaos.infra``) where the fault is to kill or stop it, so that no other
test loses its infrastructure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tools.chaos.infra import Private
from tools.chaos.scenarios import Stack, prepare_course

SUBJECT, STUDENT = "chaos-course", "student-1"


@pytest.fixture(scope="session")
def chaos_stack(kafka_settings, db_settings, storage_settings, embedder, tmp_path_factory) -> Stack:
    """The demo course in this run's database (stored in-process, as the ingestor stores it);
    each scenario then runs on a topic prefix of its own under this run's."""
    url = db_settings.database_url.get_secret_value()
    prepare_course(url, SUBJECT, STUDENT, embedder)
    return Stack(
        kafka=kafka_settings,
        database_url=url,
        storage_host=storage_settings.storage_emulator_host or "",
        bucket=storage_settings.gcs_bucket,
        subject=SUBJECT,
        student=STUDENT,
        workdir=tmp_path_factory.mktemp("chaos"),
    )


def private(kind: str) -> Iterator[Private]:
    component = Private(kind)  # type: ignore[arg-type]
    try:
        component.start()
        yield component
    finally:
        component.close()


@pytest.fixture
def private_kafka() -> Iterator[Private]:
    yield from private("kafka")


@pytest.fixture
def private_postgres() -> Iterator[Private]:
    yield from private("postgres")


@pytest.fixture
def private_gcs() -> Iterator[Private]:
    yield from private("gcs")
