"""deploy/local end to end: status, restart with data kept, GCS through STORAGE_EMULATOR_HOST.

The restart test runs a second, private deployment (own state directory, free ports) so it
never takes down the shared broker other tests — and other people's runs — are using.
"""

from __future__ import annotations

import secrets
import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from confluent_kafka import Consumer, KafkaError, Producer
from confluent_kafka.admin import AdminClient, NewTopic
from google.cloud import storage

from deploy.local import (
    LocalDeployError,
    LocalDeploySettings,
    component,
    down,
    kafka,
    postgres,
    status,
    up,
)
from services.common.settings import StorageSettings

pytestmark = pytest.mark.integration


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in sockets]
    finally:
        for s in sockets:
            s.close()


@pytest.fixture(scope="module")
def private_deploy() -> Iterator[LocalDeploySettings]:
    # mkdtemp is 0700; PostgreSQL runs as an unprivileged user and must traverse it.
    home = Path(tempfile.mkdtemp(prefix="eduanima-deploy-test-"))
    home.chmod(0o755)
    kafka_port, controller_port, pg_port, gcs_port = _free_ports(4)
    settings = LocalDeploySettings(
        eduanima_home=home,
        eduanima_kafka_port=kafka_port,
        eduanima_kafka_controller_port=controller_port,
        eduanima_pg_port=pg_port,
        eduanima_gcs_port=gcs_port,
        eduanima_kafka_heap="512m",
    )
    try:
        up(settings)
        yield settings
    finally:
        down(settings)
        shutil.rmtree(home, ignore_errors=True)


def _gcs_client(monkeypatch: pytest.MonkeyPatch, host: str) -> storage.Client:
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", host)
    return storage.Client(project="eduanima-local")


def _consume_one(bootstrap: str, topic: str, timeout_s: float = 60.0) -> tuple[bytes, bytes]:
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"g-{secrets.token_hex(4)}",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    try:
        consumer.subscribe([topic])
        msg = consumer.poll(timeout_s)
        assert msg is not None, f"nothing consumed from {topic} within {timeout_s} s"
        assert msg.error() is None or msg.error().code() == KafkaError.NO_ERROR, msg.error()
        return msg.key(), msg.value()
    finally:
        consumer.close()


def test_status_reports_three_healthy_components_and_pgvector(
    private_deploy: LocalDeploySettings,
) -> None:
    report = {item.name: item for item in status(private_deploy)}
    assert set(report) == {"kafka", "postgres", "gcs-emulator"}
    assert all(item.healthy for item in report.values()), report
    assert report["kafka"].version == "4.0.1"
    assert report["kafka"].address == private_deploy.kafka_bootstrap
    assert report["postgres"].version.startswith("18.")
    assert report["postgres"].detail.startswith("vector ")
    assert private_deploy.gcs_bucket in report["gcs-emulator"].detail


def test_up_again_is_a_no_op(private_deploy: LocalDeploySettings) -> None:
    pid_before = kafka.running_pid(private_deploy)
    up(private_deploy)
    assert pid_before is not None
    assert kafka.running_pid(private_deploy) == pid_before


def test_data_survives_down_and_up(
    private_deploy: LocalDeploySettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    bootstrap = private_deploy.kafka_bootstrap
    topic = f"deploy-test.{secrets.token_hex(4)}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)])[topic].result(30)
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all"})
    producer.produce(topic, key=b"k1", value=b"kept across restart")
    assert producer.flush(30) == 0

    with psycopg.connect(private_deploy.database_url(), autocommit=True) as conn:
        conn.execute("CREATE TABLE kept (note text)")
        conn.execute("INSERT INTO kept VALUES ('row kept')")

    client = _gcs_client(monkeypatch, private_deploy.emulator_host)
    client.bucket(private_deploy.gcs_bucket).blob("kept.txt").upload_from_string(b"blob kept")

    down(private_deploy)
    assert not any(item.healthy for item in status(private_deploy))
    up(private_deploy)

    assert _consume_one(bootstrap, topic) == (b"k1", b"kept across restart")
    with psycopg.connect(private_deploy.database_url()) as conn:
        assert conn.execute("SELECT note FROM kept").fetchall() == [("row kept",)]
    blob = client.bucket(private_deploy.gcs_bucket).blob("kept.txt")
    assert blob.download_as_bytes() == b"blob kept"


def test_up_refuses_a_port_held_by_something_else(private_deploy: LocalDeploySettings) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        other = private_deploy.model_copy(
            update={
                "eduanima_home": private_deploy.eduanima_home / "other",
                "eduanima_pg_port": port,
            }
        )
        with pytest.raises(LocalDeployError, match="is taken"):
            component.start(postgres.component(other), console=_quiet_console())


def _quiet_console():
    from rich.console import Console

    return Console(quiet=True)


def test_gcs_round_trip_through_storage_emulator_host(
    storage_settings: StorageSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert storage_settings.storage_emulator_host
    client = _gcs_client(monkeypatch, storage_settings.storage_emulator_host)
    payload = "講義ノート 第1回\n".encode() + secrets.token_bytes(64)
    blob = client.bucket(storage_settings.gcs_bucket).blob("materials/lecture-01.md")
    blob.upload_from_string(payload, content_type="text/markdown")
    fetched = client.bucket(storage_settings.gcs_bucket).get_blob("materials/lecture-01.md")
    assert fetched is not None
    assert fetched.size == len(payload)
    assert fetched.download_as_bytes() == payload
