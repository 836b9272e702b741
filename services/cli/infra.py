"""``eduanima up|down|status``, ``topics apply``, ``db migrate``."""

from __future__ import annotations

from typing import Annotated

import typer

from services.cli.common import console, friendly_errors


def services_table():
    """The service processes' health reports (EDUANIMA_HOME/health), or None if there are none."""
    import time

    from rich.table import Table

    from services.common import health
    from services.common.settings import RuntimeSettings

    reports = health.read_reports(RuntimeSettings().health_dir)
    if not reports:
        return None
    table = Table(title="services (health reports)")
    for column in ("service", "state", "status", "restarts", "rss MiB", "stages", "updated"):
        table.add_column(column)
    for r in reports:
        alive = health.rss_bytes(r.get("pid", 0)) is not None
        state = r.get("state", "?") if alive or r.get("state") != "running" else "gone"
        status = r.get("status", "?")
        if r.get("unavailable"):
            status = f"[red]{status}: {', '.join(r['unavailable'])} unavailable[/red]"
        stages = "; ".join(
            f"{name}: {len(st.get('partitions', []))} partitions, {st.get('batches', 0)} "
            f"batches, {st.get('aborted', 0)} aborted"
            for name, st in sorted((r.get("stages") or {}).items())
        )
        table.add_row(
            f"{r.get('service')}-{r.get('instance')}",
            state,
            status,
            str(r.get("restarts", 0)),
            f"{(r.get('rss_bytes') or 0) / 2**20:.0f}",
            stages,
            f"{time.time() - r.get('updated_at', 0):.0f} s ago",
        )
    return table


def register(app: typer.Typer) -> None:
    topics_app = typer.Typer(
        help="Kafka topics as code (topics/registry.py).", no_args_is_help=True
    )
    db_app = typer.Typer(help="PostgreSQL schema.", no_args_is_help=True)
    app.add_typer(topics_app, name="topics")
    app.add_typer(db_app, name="db")

    @app.command()
    def up(
        upgrade_postgres: Annotated[
            bool,
            typer.Option(
                help="First upgrade PostgreSQL data of an older local server in place "
                "(pg_upgrade; the old directory is kept)."
            ),
        ] = False,
    ) -> None:
        """Start local Kafka, PostgreSQL+pgvector, GCS emulator; apply topics and migrations."""
        from deploy.local import LocalDeployError, LocalDeploySettings
        from deploy.local import up as start

        try:
            start(LocalDeploySettings(), console, upgrade_postgres=upgrade_postgres)
        except LocalDeployError as exc:
            console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(1) from exc
        apply()
        migrate()

    @app.command()
    def down() -> None:
        """Stop the local infrastructure; its data stays under EDUANIMA_HOME."""
        from deploy.local import LocalDeploySettings
        from deploy.local import down as stop

        stop(LocalDeploySettings(), console)

    @app.command()
    def status() -> None:
        """Health, address and version of each local component (exit 1 if any is unhealthy),
        then the services' own health reports."""
        from rich.console import Console

        from deploy.local import LocalDeploySettings
        from deploy.local.__main__ import status_table

        table, healthy = status_table(LocalDeploySettings())
        Console().print(table)
        services = services_table()
        if services is not None:
            Console().print(services)
        if not healthy:
            raise typer.Exit(1)

    @topics_app.command("apply")
    def apply() -> None:
        """Create missing topics, fix drifted configs, refuse to shrink partitions."""
        from services.common.settings import KafkaSettings
        from topics.apply import apply_topics

        with friendly_errors():
            changes = apply_topics(KafkaSettings())
        if not changes:
            console.print("topics: no changes")
        for change in changes:
            console.print(f"topics: {change.action} {change.topic} ({change.detail})")

    @topics_app.command("describe")
    def describe_topic(name: str) -> None:
        """Print a topic's configuration, e.g. `eduanima topics describe search.sessions`."""
        from services.common.settings import KafkaSettings
        from topics.apply import describe

        for key, value in sorted(describe(KafkaSettings(), name).items()):
            print(f"{key}={value}")

    @db_app.command("migrate")
    def migrate() -> None:
        """Apply pending SQL migrations (services/common/migrations)."""
        from services.common.db import migrate as run_migrations
        from services.common.settings import DatabaseSettings

        with friendly_errors():
            applied = run_migrations(DatabaseSettings())
        console.print(f"db: {', '.join(applied) if applied else 'up to date'}")

    @db_app.command("reread")
    def reread(
        subject: Annotated[
            str | None, typer.Option("--subject", "-s", help="Only this subject's materials.")
        ] = None,
        wait: Annotated[bool, typer.Option("--wait", help="Wait for the outcomes.")] = False,
        timeout: Annotated[float, typer.Option(help="Seconds to wait with --wait.")] = 1800.0,
    ) -> None:
        """Read every active material again (or one subject's) with today's parser and chunker,
        after an upgrade that changed them: a new version where the chunks come out different,
        DUPLICATE where they do not. Each is read as its owner, whose role the ingestor checks."""
        from services.cli.materials import reread_stored

        reread_stored(subject, wait, timeout)

    @db_app.command("words")
    def words() -> None:
        """Embed the vocabulary words of stored materials that have no vector yet, so that
        questions in the other language find them (materials stored before migration 0006).
        Uses the ingestor's embedder settings; safe to run again."""
        from services.cli.common import progress_bars
        from services.common.db import connect
        from services.common.materials import backfill_term_vectors
        from services.ingestor.settings import IngestionSettings
        from services.reasoning import make_embedder

        settings = IngestionSettings()
        with friendly_errors(), connect(settings) as conn, progress_bars() as progress:
            embedder = make_embedder(settings)
            task = progress.add_task("reading chunks", total=None)
            new = backfill_term_vectors(
                conn,
                embedder.name,
                embedder.dimension,
                embedder.embed,
                lambda done, total: progress.update(task, completed=done, total=total),
            )
            conn.commit()
        console.print(f"db: {new} word vectors stored")
