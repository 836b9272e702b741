"""Private infrastructure for fault scenarios: a Kafka broker, a PostgreSQL or a GCS emulator
of a scenario's own, on free loopback ports, under a directory of its own. A scenario kills
and restarts it without touching the deployment (or the test run) everyone else uses, and
it is started by the same ``deploy.local`` code as ``eduanima up``.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import time
import uuid
from pathlib import Path
from typing import Literal

import psycopg
from rich.console import Console

from deploy.local import component, gcs, kafka, postgres
from deploy.local.process import pid_alive, port_open
from deploy.local.settings import LocalDeploySettings
from services.common.settings import HomeSettings

Kind = Literal["kafka", "postgres", "gcs"]
BUCKET = "eduanima-chaos"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Private:
    """One component of a scenario's own: ``start``, ``kill`` (SIGKILL), ``stop``, ``close``."""

    def __init__(self, kind: Kind, base: Path | None = None, console: Console | None = None):
        self.kind = kind
        root = base or HomeSettings().eduanima_home.resolve() / "private"
        self.home = root / f"{kind}-{uuid.uuid4().hex[:8]}"
        # PostgreSQL runs as an unprivileged user when we are root: it must reach its directory
        root.mkdir(parents=True, exist_ok=True, mode=0o755)
        os.chmod(root, 0o755)
        self.home.mkdir(mode=0o755)
        self.settings = LocalDeploySettings(
            eduanima_home=self.home,
            eduanima_kafka_port=free_port(),
            eduanima_kafka_controller_port=free_port(),
            eduanima_pg_port=free_port(),
            eduanima_gcs_port=free_port(),
            eduanima_kafka_heap="512m",
            gcs_bucket=BUCKET,
        )
        self.console = console or Console(stderr=True, quiet=True)
        if kind == "kafka":
            self._share_kafka_jars()
        self.part = {"kafka": kafka, "postgres": postgres, "gcs": gcs}[kind].component(
            self.settings
        )

    def _share_kafka_jars(self) -> None:
        """Link the broker jars another home installed, rather than fetching them again."""
        shared = kafka.paths(LocalDeploySettings()).libs
        if (shared / ".installed").is_file():
            target = kafka.paths(self.settings).libs
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(shared.resolve(), target_is_directory=True)

    @property
    def address(self) -> str:
        if self.kind == "kafka":
            return self.settings.kafka_bootstrap
        if self.kind == "gcs":
            return self.settings.emulator_host
        return self.settings.database_url()

    def start(self) -> float:
        """Start (or restart) it and wait until it answers; the seconds that took."""
        started = time.monotonic()
        component.start(self.part, self.console)
        return time.monotonic() - started

    def pid(self) -> int | None:
        if self.kind == "kafka":
            return kafka.running_pid(self.settings)
        if self.kind == "gcs":
            return gcs.running_pid(self.settings)
        pid_file = postgres.paths(self.settings).data / "postmaster.pid"
        try:
            return int(pid_file.read_text().splitlines()[0])
        except (OSError, ValueError, IndexError):
            return None

    def kill(self, timeout: float = 30.0) -> None:
        """SIGKILL: no shutdown, no flush; what the page cache holds survives, as in a crash."""
        pid = self.pid()
        if pid is None:
            raise RuntimeError(f"private {self.kind} is not running")
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + timeout
        while pid_alive(pid) or port_open(self.part.port):  # its sockets close last
            if time.monotonic() > deadline:
                raise TimeoutError(f"private {self.kind} (pid {pid}) outlived SIGKILL")
            time.sleep(0.05)

    def stop(self) -> None:
        """Graceful stop (PostgreSQL: fast shutdown, clients disconnected)."""
        component.stop(self.part, self.console)

    def close(self) -> None:
        try:
            if self.kind == "postgres" and postgres.running(self.settings):
                self.stop()
            elif self.pid() is not None:
                self.stop()
        finally:
            shutil.rmtree(self.home, ignore_errors=True)

    def database_url(self) -> str:
        return self.settings.database_url()

    def answers(self) -> bool:
        return self.part.answers()


def create_database(server_url: str, name: str) -> str:
    """A fresh database on a server (the URL names an existing one); its URL."""
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return server_url.rsplit("/", 1)[0] + f"/{name}"
