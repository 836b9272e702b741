"""PostgreSQL access: connections with pgvector registered, versioned migrations.

Only Professor-side services import this module (ARCHITECTURE invariant 1).
"""

from __future__ import annotations

import logging
import threading
from importlib import resources

import psycopg
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool, PoolTimeout

from services.common.errors import StoreError
from services.common.settings import DatabaseSettings

logger = logging.getLogger(__name__)

MIGRATIONS_PACKAGE = "services.common.migrations"


def _configure(conn: psycopg.Connection) -> None:
    register_vector(conn)


def connect(settings: DatabaseSettings, *, register: bool = True) -> psycopg.Connection:
    """One connection; ``register=False`` before the vector extension exists."""
    try:
        conn = psycopg.connect(settings.database_url.get_secret_value(), autocommit=False)
    except psycopg.OperationalError as exc:
        raise StoreError(f"cannot connect to PostgreSQL: {exc}") from exc
    if register:
        _configure(conn)
    return conn


def pool(settings: DatabaseSettings, *, min_size: int = 1) -> ConnectionPool:
    """A pool that opens without waiting: a service starts while PostgreSQL is down, and
    each use then fails within ``db_wait_s`` (``transient`` says why) until it is back."""
    p = ConnectionPool(
        settings.database_url.get_secret_value(),
        min_size=min_size,
        max_size=settings.db_pool_max,
        configure=_configure,
        # a connection that died while idle (a database restart) is replaced, not handed out
        check=ConnectionPool.check_connection,
        timeout=settings.db_wait_s,
        # While the database is down the pool retries a connection with doubling delays; a
        # short attempt (a new one starts at the next use) keeps the gap after it is back small.
        reconnect_timeout=settings.db_wait_s,
        open=False,
    )
    p.open(wait=False)
    return p


def transient(exc: BaseException) -> str | None:
    """``"postgres"`` when ``exc`` (or what it wraps) says the database cannot be reached or
    dropped the connection, as opposed to a query that is wrong."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout)):
            return "postgres"
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def migration_files() -> list[tuple[int, str, str]]:
    """(version, name, sql) for every ``NNNN_name.sql``, in order."""
    found = []
    for entry in resources.files(MIGRATIONS_PACKAGE).iterdir():
        if entry.name.endswith(".sql"):
            version = int(entry.name.split("_", 1)[0])
            found.append((version, entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def migrate(settings: DatabaseSettings, *, upto: int | None = None) -> list[str]:
    """Apply pending migrations in one transaction each; return the names applied.

    An advisory lock serialises concurrent services starting at once. ``upto`` stops after
    that version (tests that build the schema an earlier release had).
    """
    applied: list[str] = []
    with connect(settings, register=False) as conn:
        conn.execute("SELECT pg_advisory_lock(727001)")
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version int PRIMARY KEY, name text NOT NULL,"
                " applied_at timestamptz NOT NULL DEFAULT now())"
            )
            conn.commit()
            done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
            for version, name, sql in migration_files():
                if version in done or (upto is not None and version > upto):
                    continue
                logger.info("applying migration %s", name)
                conn.execute(sql)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                    (version, name),
                )
                conn.commit()
                applied.append(name)
        finally:
            conn.rollback()
            conn.execute("SELECT pg_advisory_unlock(727001)")
            conn.commit()
    return applied


def migrate_when_reachable(settings: DatabaseSettings, stop: threading.Event) -> bool:
    """``migrate`` once PostgreSQL answers (a service may start before it); False if ``stop``
    was set while waiting."""
    from services.common.faults import retry_while_down

    try:
        retry_while_down(
            lambda: migrate(settings), what="migrating", transient=transient, stop=stop
        )
    except Exception:
        if stop.is_set():
            return False
        raise
    return True
