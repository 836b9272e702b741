"""ARCHITECTURE invariant 1: the librarian can neither reach nor be configured for DB or storage.

Imports are read from the source with ``ast`` (lazy imports inside functions
included) and followed through every project module the librarian reaches.
"""

from __future__ import annotations

from services.librarian.settings import LibrarianSettings
from tests.unit.import_graph import modules_of, reachable_imports

FORBIDDEN = (
    "services.common.db",
    "services.common.blobstore",
    "services.common.materials",
    "psycopg",
    "psycopg_pool",
    "pgvector",
    "google.cloud.storage",
)


def forbidden_in(reached: dict[str, str]) -> dict[str, str]:
    return {
        name: importer
        for name, importer in reached.items()
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
    }


def test_librarian_never_imports_the_database_or_storage_layers():
    roots = modules_of("services.librarian")
    assert "services.librarian.app" in roots and "services.librarian.stages" in roots
    reached = reachable_imports(roots)
    assert "services.common.kafka_io" in reached  # the walk really follows the librarian's imports
    assert forbidden_in(reached) == {}


def test_the_walk_finds_the_database_where_it_is_used():
    # a control: the ingestor stores chunks, so the same walk must flag it
    found = forbidden_in(reachable_imports(modules_of("services.ingestor")))
    assert "services.common.db" in found and "psycopg" in found


def test_librarian_settings_hold_no_dsn_and_no_storage():
    fields = set(LibrarianSettings.model_fields)
    assert not {f for f in fields if f.startswith(("database", "db_", "storage", "gcs"))}
    assert "kafka_bootstrap_servers" in fields
