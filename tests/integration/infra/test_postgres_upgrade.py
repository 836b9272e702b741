"""Old local data meets the new server: refused by ``up``, then upgraded in place.

The old data is made the way earlier versions of deploy/local made it: ``pgserver`` 0.1.4's
own initdb (PostgreSQL 16.2, pgvector 0.6.2), the schema that release shipped (migrations
0001-0002), a material stored through ``store_material``, the server left running.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector
from rich.console import Console

from deploy.local import component, pg_upgrade, postgres
from deploy.local.settings import LocalDeploySettings
from services.common import db
from services.common.materials import Chunk, NewMaterial, enroll, ensure_subject, store_material
from services.common.settings import DatabaseSettings
from services.searcher.engine import SearchQuery, search

pytestmark = pytest.mark.integration

OLD_RELEASE_SCHEMA = 2  # migrations the pgserver-based release shipped
TEXTS = ["中央値は真ん中の値である。", "The p-value measures evidence.", "分散は散らばりの尺度。"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _vectors() -> np.ndarray:
    rng = np.random.default_rng(15)
    v = rng.normal(size=(len(TEXTS), 512)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


@pytest.fixture
def old_home() -> Iterator[LocalDeploySettings]:
    """A state directory holding running PostgreSQL 16 data with one stored material."""
    home = Path(tempfile.mkdtemp(prefix="eduanima-pg16-"))
    home.chmod(0o755)  # the server runs as an unprivileged user and must traverse it
    settings = LocalDeploySettings(eduanima_home=home, eduanima_pg_port=_free_port())
    old_bin = postgres.package_bin_dir("pgserver")
    assert old_bin is not None and postgres.binaries_major(old_bin) == 16
    data = postgres.paths(settings).data
    data.parent.mkdir(parents=True)
    postgres._chown_to_user(data.parent)
    postgres._run([
        str(old_bin / "initdb"), "-D", str(data), "-U", postgres.ROLE, "--auth=trust",
        "--encoding=UTF8", "--locale=C", "--no-instructions",
    ])  # fmt: skip
    with (data / "postgresql.conf").open("a") as f:
        f.write(f"\ninclude_if_exists = '{postgres.CONF_FILE}'\n")
    postgres.write_config(settings, data)
    log = postgres.paths(settings).log
    postgres._run([str(old_bin / "pg_ctl"), "start", "-D", str(data), "-l", str(log), "-w"])
    try:
        with psycopg.connect(settings.database_url("postgres"), autocommit=True) as conn:
            conn.execute("CREATE DATABASE eduanima")
        db.migrate(DatabaseSettings(database_url=settings.database_url()), upto=2)
        with psycopg.connect(settings.database_url()) as conn:
            register_vector(conn)
            ensure_subject(conn, "stats101")
            enroll(conn, "stats101", "gakusei")
            material = NewMaterial(
                subject_id="stats101", owner_id="sensei", title="Notes", filename="notes.md",
                mime_type="text/markdown", sha256="0" * 64, blob_uri="gs://b/notes.md",
            )  # fmt: skip
            chunks = [Chunk(ordinal=i, text=t) for i, t in enumerate(TEXTS)]
            # a database of migration 2 has no term_vectors: stored as a release of then did
            store_material(conn, material, chunks, _vectors(), embedder="test", embed_terms=None)
            conn.commit()
            assert conn.execute("SHOW server_version").fetchone()[0].startswith("16.")
        yield settings
    finally:
        for bindir in (postgres.bin_dir(), old_bin):  # whichever server runs now
            stop = [str(bindir / "pg_ctl"), "stop", "-D", str(data), "-m", "fast"]
            postgres._run(stop, check=False)
        shutil.rmtree(home, ignore_errors=True)


def _rows(url: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT chunk_id, text, embedding::text, is_active FROM chunks ORDER BY ordinal"
        ).fetchall()


def test_up_refuses_old_data_then_the_upgrade_keeps_every_row(
    old_home: LocalDeploySettings,
) -> None:
    data = postgres.paths(old_home).data
    before = _rows(old_home.database_url())

    # `up` (here its Postgres part, and the CLI entry point) refuses; nothing changes.
    with pytest.raises(postgres.OldDataError, match="eduanima up --upgrade-postgres"):
        component.start(postgres.component(old_home), Console(quiet=True))
    cli = subprocess.run(
        [sys.executable, "-m", "deploy.local", "up"],
        env={
            "PATH": "/usr/bin:/bin",
            "EDUANIMA_HOME": str(old_home.eduanima_home),
            "EDUANIMA_PG_PORT": str(old_home.eduanima_pg_port),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert cli.returncode == 2, cli.stdout + cli.stderr
    assert "--upgrade-postgres" in cli.stderr
    assert postgres.data_major(data) == 16

    assert pg_upgrade.upgrade(old_home, Console(quiet=True))

    assert postgres.data_major(data) == 18
    assert postgres.data_major(data.parent / "data-pg16") == 16  # kept, not deleted
    version, vector = postgres.describe(old_home.database_url())
    assert version.startswith("18.") and vector is not None
    with psycopg.connect(old_home.database_url()) as conn:
        installed = conn.execute(
            "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
        ).fetchone()[0]
    assert installed == vector  # updated from 0.6.2 to the server's default
    assert _rows(old_home.database_url()) == before
    assert not pg_upgrade.upgrade(old_home, Console(quiet=True))  # nothing left to do

    # The schema moves on from the old release's, and the engine searches the old rows.
    settings = DatabaseSettings(database_url=old_home.database_url())
    db.migrate(settings)
    with db.connect(settings) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations ORDER BY 1")]
        assert versions == [version for version, _, _ in db.migration_files()]
        query = SearchQuery("stats101", "gakusei", ["中央値"], "中央値とは")
        outcome = search(conn, query, None, k_override=3, query_vector=_vectors()[0])
    assert [c.text for c in outcome.candidates][0] == TEXTS[0]
    assert {c.chunk_id for c in outcome.candidates} == {row[0] for row in before}
