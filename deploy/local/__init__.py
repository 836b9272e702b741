"""Local infrastructure without Docker: Kafka (KRaft), PostgreSQL + pgvector, GCS emulator.

``up`` / ``down`` / ``status`` are idempotent, bind to 127.0.0.1 only and keep every byte
of state under ``LocalDeploySettings.eduanima_home``. Data survives ``down`` + ``up``.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
from collections.abc import Iterator
from dataclasses import dataclass

from rich.console import Console

from deploy.local import component, gcs, kafka, pg_upgrade, postgres, process
from deploy.local.process import LocalDeployError
from deploy.local.settings import LocalDeploySettings

logger = logging.getLogger(__name__)

__all__ = ["ComponentStatus", "LocalDeployError", "LocalDeploySettings", "down", "status", "up"]


@dataclass(frozen=True)
class ComponentStatus:
    name: str
    healthy: bool
    address: str
    version: str
    detail: str


def _console(console: Console | None) -> Console:
    return console if console is not None else Console(stderr=True)


@contextlib.contextmanager
def _exclusive(settings: LocalDeploySettings) -> Iterator[None]:
    """One ``up``/``down`` at a time per state directory (parallel test sessions share it)."""
    settings.eduanima_home.mkdir(parents=True, exist_ok=True)
    with open(settings.eduanima_home / ".deploy.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _components(settings: LocalDeploySettings) -> list[component.Component]:
    """In start order: Kafka last, as it takes longest and nothing waits on it here."""
    return [postgres.component(settings), gcs.component(settings), kafka.component(settings)]


def up(
    settings: LocalDeploySettings,
    console: Console | None = None,
    *,
    upgrade_postgres: bool = False,
) -> None:
    """Start whatever is not running yet and wait until each answers its protocol.

    ``upgrade_postgres`` first upgrades a data directory of an older PostgreSQL in place
    (``pg_upgrade``); without it such a directory is refused, never started over.
    """
    out = _console(console)
    with _exclusive(settings):
        if upgrade_postgres:
            pg_upgrade.upgrade(settings, out)
        for part in _components(settings):
            component.start(part, out)


def down(settings: LocalDeploySettings, console: Console | None = None) -> None:
    """Stop gracefully whatever this state directory started; data stays on disk."""
    out = _console(console)
    with _exclusive(settings):
        for part in reversed(_components(settings)):
            component.stop(part, out)


def _kafka_status(settings: LocalDeploySettings) -> ComponentStatus:
    address = settings.kafka_bootstrap
    version = kafka.installed_version(settings) or "not installed"
    pid = kafka.running_pid(settings)
    owner = f"pid {pid}" if pid else "not started by this home"
    if not process.port_open(settings.eduanima_kafka_port):
        return ComponentStatus("kafka", False, address, version, f"{owner}; not listening")
    try:
        cluster_id, brokers = kafka.describe(address)
    except (LocalDeployError, TimeoutError) as exc:
        return ComponentStatus("kafka", False, address, version, f"{owner}; {exc}")
    return ComponentStatus(
        "kafka", True, address, version, f"cluster {cluster_id}, {brokers} broker(s), {owner}"
    )


def _postgres_status(settings: LocalDeploySettings) -> ComponentStatus:
    address = f"127.0.0.1:{settings.eduanima_pg_port}"
    try:
        version, vector = postgres.describe(settings.database_url())
    except LocalDeployError as exc:
        return ComponentStatus("postgres", False, address, "?", str(exc))
    if vector is None:
        return ComponentStatus("postgres", False, address, version, "vector NOT available")
    return ComponentStatus("postgres", True, address, version, f"vector {vector} available")


def _gcs_status(settings: LocalDeploySettings) -> ComponentStatus:
    address = settings.emulator_host
    version = gcs.emulator_version()
    if not gcs.healthy(address):
        return ComponentStatus("gcs-emulator", False, address, version, "no answer")
    try:
        buckets = gcs.list_buckets(address)
    except LocalDeployError as exc:
        return ComponentStatus("gcs-emulator", False, address, version, str(exc))
    has_bucket = settings.gcs_bucket in buckets
    detail = f"buckets: {', '.join(buckets) or '(none)'}"
    if not has_bucket:
        detail += f"; bucket {settings.gcs_bucket} missing"
    return ComponentStatus("gcs-emulator", has_bucket, address, version, detail)


def status(settings: LocalDeploySettings) -> list[ComponentStatus]:
    """What answers on the configured loopback ports, whoever started it."""
    return [_kafka_status(settings), _postgres_status(settings), _gcs_status(settings)]


def log_tails(settings: LocalDeploySettings, lines: int = 40) -> str:
    """Tails of every component's log, for CI failure reports."""
    return "\n".join(component.tail(part, lines) for part in _components(settings))
