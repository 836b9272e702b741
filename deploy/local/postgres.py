"""PostgreSQL 16 + pgvector from the PyPI package ``pgserver``, on 127.0.0.1 over TCP.

pgserver's own wrapper listens on a Unix socket only, so we run its bundled ``initdb`` and
``pg_ctl``. PostgreSQL refuses to run as root; as root we run it as an unprivileged system
user that owns ``$EDUANIMA_HOME/postgres``.
"""

from __future__ import annotations

import logging
import os
import pwd
import shutil
import subprocess
import warnings
from dataclasses import dataclass
from pathlib import Path

import psycopg
from rich.console import Console

from deploy.local import process
from deploy.local.component import Component
from deploy.local.process import LocalDeployError
from deploy.local.settings import LocalDeploySettings

logger = logging.getLogger(__name__)

NAME = "postgres"
OS_USER = "eduanima"
ROLE = "eduanima"
DATABASE = "eduanima"
START_TIMEOUT_S = 60
CONF_FILE = "eduanima.conf"


@dataclass(frozen=True)
class PostgresPaths:
    root: Path

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def log(self) -> Path:
        return self.root / "postgres.log"


def paths(settings: LocalDeploySettings) -> PostgresPaths:
    return PostgresPaths(settings.eduanima_home.resolve() / NAME)


def bin_dir() -> Path:
    try:
        with warnings.catch_warnings():
            # pgserver asks platformdirs for a runtime dir at import and warns when unset.
            warnings.simplefilter("ignore")
            import pgserver
    except ImportError as exc:
        raise LocalDeployError(
            "the PyPI package pgserver is missing; install eduanima[local]"
        ) from exc
    return Path(pgserver.__file__).parent / "pginstall" / "bin"


def render_conf(port: int) -> str:
    """Settings included from postgresql.conf; rewritten on every start."""
    return (
        "# Rendered by deploy/local on every start; edits here are overwritten.\n"
        "listen_addresses = '127.0.0.1'\n"
        f"port = {port}\n"
        # No Unix socket: the state dir path can exceed the 107-byte socket path limit,
        # and every client here speaks TCP.
        "unix_socket_directories = ''\n"
        "max_connections = 200\n"
        # The search reads chunk rows, their TOASTed embeddings and the HNSW graph (0.8 GB
        # at 100,000 chunks): the default 128 MB made it copy them from the OS cache page
        # by page. Pages are taken as they are first used, not at start.
        "shared_buffers = 1GB\n"
    )


def render_hba() -> str:
    """Trust on loopback TCP only; nothing else can connect."""
    return (
        "# Rendered by deploy/local: trust on 127.0.0.1 only.\n"
        "# TYPE  DATABASE  USER  ADDRESS        METHOD\n"
        "host    all       all   127.0.0.1/32   trust\n"
    )


def _as_root() -> bool:
    return os.geteuid() == 0


def _ensure_os_user() -> None:
    try:
        pwd.getpwnam(OS_USER)
        return
    except KeyError:
        pass
    cmd = ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", OS_USER]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise LocalDeployError(f"cannot create system user {OS_USER}: {result.stderr.strip()}")


def _check_traversable(path: Path) -> None:
    """The unprivileged user must be able to reach the data directory through every parent."""
    for parent in path.parents:
        if not os.stat(parent).st_mode & 0o001:
            raise LocalDeployError(
                f"{parent} is not searchable by others (mode {oct(os.stat(parent).st_mode)[-3:]}); "
                f"PostgreSQL runs as user {OS_USER!r} and cannot reach {path}. "
                "Use an EDUANIMA_HOME under a world-searchable directory or `chmod o+x` it."
            )


def _run(cmd: list[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run a PostgreSQL tool, as the unprivileged user when we are root."""
    argv = ["runuser", "-u", OS_USER, "--", *cmd] if _as_root() else cmd
    result = subprocess.run(argv, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise LocalDeployError(
            f"{Path(cmd[0]).name} failed (exit {result.returncode}):\n"
            f"{(result.stdout + result.stderr)[-4000:]}"
        )
    return result


def _chown_to_user(path: Path) -> None:
    if _as_root():
        user = pwd.getpwnam(OS_USER)
        shutil.chown(path, user.pw_uid, user.pw_gid)


def running(settings: LocalDeploySettings) -> bool:
    p = paths(settings)
    if not (p.data / "PG_VERSION").is_file():
        return False
    result = _run([str(bin_dir() / "pg_ctl"), "status", "-D", str(p.data)], check=False)
    return result.returncode == 0


def _initdb(settings: LocalDeploySettings, console: Console) -> None:
    p = paths(settings)
    if (p.data / "PG_VERSION").is_file():
        return
    p.root.mkdir(parents=True, exist_ok=True)
    if _as_root():
        _ensure_os_user()
        _check_traversable(p.root)
    _chown_to_user(p.root)
    cmd = [
        str(bin_dir() / "initdb"), "-D", str(p.data), "-U", ROLE, "--auth=trust",
        "--encoding=UTF8", "--locale=C", "--no-instructions",
    ]  # fmt: skip
    with console.status("Postgres: initdb (first run only)…"):
        _run(cmd)
    conf = p.data / "postgresql.conf"
    with conf.open("a", encoding="utf-8") as f:
        f.write(f"\ninclude_if_exists = '{CONF_FILE}'\n")


def _write_config(settings: LocalDeploySettings) -> None:
    p = paths(settings)
    files = {CONF_FILE: render_conf(settings.eduanima_pg_port), "pg_hba.conf": render_hba()}
    for name, text in files.items():
        target = p.data / name
        target.write_text(text, encoding="utf-8")
        _chown_to_user(target)


def _ensure_database(settings: LocalDeploySettings) -> None:
    try:
        with psycopg.connect(settings.database_url("postgres"), autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,))
            if exists.fetchone() is None:
                conn.execute(f'CREATE DATABASE "{DATABASE}"')
    except psycopg.Error as exc:
        raise LocalDeployError(f"cannot create database {DATABASE}: {exc}") from exc


def describe(database_url: str) -> tuple[str, str | None]:
    """(server_version, available pgvector version or None)."""
    try:
        with psycopg.connect(database_url, connect_timeout=3) as conn:
            version = conn.execute("SHOW server_version").fetchone()
            vector = conn.execute(
                "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"
            ).fetchone()
    except psycopg.Error as exc:
        raise LocalDeployError(f"PostgreSQL at {database_url} did not answer: {exc}") from exc
    return str(version[0]) if version else "?", str(vector[0]) if vector else None


def _launch(settings: LocalDeploySettings, console: Console) -> None:
    """initdb once, render the config, ``pg_ctl start`` (it waits and fails fast itself)."""
    p = paths(settings)
    _initdb(settings, console)
    _write_config(settings)
    cmd = [
        str(bin_dir() / "pg_ctl"), "start", "-D", str(p.data), "-l", str(p.log),
        "-w", "-t", str(START_TIMEOUT_S),
    ]  # fmt: skip
    result = _run(cmd, check=False)
    if result.returncode != 0:
        raise LocalDeployError(
            f"PostgreSQL did not start (pg_ctl exit {result.returncode}): "
            f"{result.stderr.strip()}\n--- {p.log}\n{process.log_tail(p.log, 30)}"
        )


def _answers(settings: LocalDeploySettings) -> bool:
    try:
        describe(settings.database_url("postgres"))
    except LocalDeployError:
        return False
    return True


def _after_start(settings: LocalDeploySettings) -> None:
    _ensure_database(settings)
    _version, vector = describe(settings.database_url())
    if vector is None:
        raise LocalDeployError("PostgreSQL runs but the pgvector extension is not available")


def _halt(settings: LocalDeploySettings) -> None:
    cmd = [str(bin_dir() / "pg_ctl"), "stop", "-D", str(paths(settings).data), "-m", "fast", "-w"]
    _run(cmd)


def component(settings: LocalDeploySettings) -> Component:
    return Component(
        name="Postgres",
        address=f"127.0.0.1:{settings.eduanima_pg_port}",
        port=settings.eduanima_pg_port,
        logs=(paths(settings).log,),
        timeout_s=START_TIMEOUT_S,
        ours=lambda: running(settings),
        answers=lambda: _answers(settings),
        launch=lambda console: _launch(settings, console),
        halt=lambda: _halt(settings),
        after_start=lambda: _after_start(settings),
    )
