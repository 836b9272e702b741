"""Helpers for the searcher's integration tests: deterministic vectors and material factories."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import psycopg
import pytest

from services.common.ids import sha256_hex
from services.common.materials import Chunk, NewMaterial, StoredMaterial, store_material
from services.reasoning.embedders import normalise

DIM = 512


class HashEmbedder:
    """Deterministic vectors from a hash of the text: same text, same vector."""

    name = "test-hash"
    dimension = DIM

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
            rows.append(np.random.default_rng(seed).normal(size=DIM))
        return normalise(np.asarray(rows, dtype=np.float32))


def add_material(
    conn: psycopg.Connection,
    subject: str,
    owner: str,
    filename: str,
    texts: Sequence[str],
    *,
    visibility: str = "subject",
    vectors: np.ndarray | None = None,
    pages: Sequence[int] | None = None,
    embed_terms=None,
) -> StoredMaterial:
    chunks = [
        Chunk(
            ordinal=i,
            text=t,
            page=(pages[i] if pages else i + 1),
            heading_path=("h", f"sec{i % 3}"),
        )
        for i, t in enumerate(texts)
    ]
    vectors = HashEmbedder().embed(texts) if vectors is None else vectors
    material = NewMaterial(
        subject_id=subject,
        owner_id=owner,
        title=f"title {filename}",
        filename=filename,
        mime_type="text/markdown",
        sha256=sha256_hex("\n".join(texts).encode()),
        blob_uri=f"test://{filename}",
        visibility=visibility,
    )
    return store_material(
        conn,
        material,
        chunks,
        vectors,
        embedder=HashEmbedder.name,
        embed_terms=embed_terms or HashEmbedder().embed,
    )


@pytest.fixture(scope="session")
def search_db_settings(postgres_url: str):
    """A database of the searcher tests' own: their hash vectors form an embedding space
    of their own, which the run database (use-m3) rightly refuses to mix in."""
    import secrets
    from urllib.parse import urlsplit, urlunsplit

    import psycopg
    from psycopg import sql

    from services.common import db as common_db
    from services.common.settings import DatabaseSettings

    name = f"eduanima_test_search_{secrets.token_hex(4)}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = urlunsplit(urlsplit(postgres_url)._replace(path=f"/{name}"))
    settings = DatabaseSettings(database_url=url)
    common_db.migrate(settings)
    yield settings
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


@pytest.fixture
def db_conn(search_db_settings):
    from services.common import db as common_db

    conn = common_db.connect(search_db_settings)
    try:
        yield conn
    finally:
        conn.close()
