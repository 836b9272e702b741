"""ARCHITECTURE invariant 1: the librarian can neither reach nor be configured for DB or storage.

Imports are read from the source with ``ast`` (lazy imports inside functions
included) and followed through every project module the librarian reaches.
"""

from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

from services.librarian.settings import LibrarianSettings

ROOT = Path(__file__).resolve().parents[2]
PROJECT_PACKAGES = ("services", "topics", "deploy")
FORBIDDEN = (
    "services.common.db",
    "services.common.blobstore",
    "services.common.materials",
    "psycopg",
    "psycopg_pool",
    "pgvector",
    "google.cloud.storage",
)


def source_of(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported_names(module: str, path: Path) -> set[str]:
    """Every module ``path`` imports, absolute, including ``from pkg import submodule``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            names.add(target)
            names.update(
                f"{target}.{alias.name}"
                for alias in node.names
                if source_of(f"{target}.{alias.name}")
            )
    return names


def with_parents(module: str) -> list[str]:
    """Importing a.b.c runs a/__init__, a/b/__init__ and a/b/c."""
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def reachable_imports(roots: list[str]) -> dict[str, str]:
    """Every module reachable from ``roots`` → the project module that imports it first."""
    seen: dict[str, str] = {root: "<root>" for root in roots}
    queue = deque(roots)
    while queue:
        module = queue.popleft()
        path = source_of(module)
        if path is None or not module.startswith(PROJECT_PACKAGES):
            continue
        for name in imported_names(module, path):
            for step in with_parents(name):
                if step not in seen:
                    seen[step] = module
                    queue.append(step)
    return seen


def modules_of(package: str) -> list[str]:
    folder = ROOT.joinpath(*package.split("."))
    return [
        package if p.name == "__init__.py" else f"{package}.{p.stem}"
        for p in sorted(folder.glob("*.py"))
    ]


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
