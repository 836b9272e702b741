"""The project's import graph, read from the source with ``ast``.

Lazy imports inside functions count as much as module-level ones: a cycle or a
forbidden dependency that only bites at run time is still one.
"""

from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT_PACKAGES = ("services", "tools", "topics", "deploy")
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
    """Every module ``path`` imports, absolute; ``from pkg import submodule`` names the
    submodule (the package's own ``__init__`` runs too: ``with_parents`` adds it)."""
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
            submodules = {
                f"{target}.{a.name}" for a in node.names if source_of(f"{target}.{a.name}")
            }
            names.update(submodules)
            if len(submodules) < len(node.names):  # some names are the package's own
                names.add(target)
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


def modules_of(package: str, recursive: bool = False) -> list[str]:
    folder = ROOT.joinpath(*package.split("."))
    files = folder.rglob("*.py") if recursive else folder.glob("*.py")
    modules = []
    for path in sorted(files):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules
