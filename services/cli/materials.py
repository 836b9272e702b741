"""``eduanima subject create|enroll``, ``ingest``: operator commands (database and Kafka
directly, any ``--user``). The ingestor still checks each job's user and role."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import Progress
from rich.table import Table

from services.cli.common import console, friendly_errors
from services.ingestor.formats import is_material_file

if TYPE_CHECKING:
    from services.common.events import IngestJob
    from services.sdk import Client


# Folders a course's project folder holds that are no material: a lab's environment and
# dependencies would upload thousands of library files as code.
_NOT_MATERIALS = {"node_modules", "venv", "env", "__pycache__", "site-packages", "build", "dist"}


def expand(paths: list[Path]) -> list[Path]:
    """Files as given, and the supported files inside given folders, sorted: never what
    sits in a hidden folder (.git, .venv) or a dependency or build folder."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.is_file() and is_material_file(p.name) and _in_sight(p.relative_to(path))
                )
            )
        elif path.is_file():
            files.append(path)
        else:
            console.print(f"[red]error:[/red] no such file: {path}")
            raise typer.Exit(2)
    return files


def _in_sight(relative: Path) -> bool:
    return not any(part.startswith(".") or part in _NOT_MATERIALS for part in relative.parts)


def register(app: typer.Typer) -> typer.Typer:
    """Register the commands; return the ``subject`` group for the user commands to join."""
    subject_app = typer.Typer(
        help="Subjects (courses) and who is enrolled in them.", no_args_is_help=True
    )
    app.add_typer(subject_app, name="subject")

    def _connect():
        from services.common import db
        from services.common.settings import DatabaseSettings

        return db.connect(DatabaseSettings())

    @subject_app.command("create")
    def subject_create(
        subject: str = typer.Argument(..., help="Subject id, e.g. stats-101."),
        title: str = typer.Option("", help="Human-readable title."),
    ) -> None:
        """Create a subject (idempotent)."""
        from services.common.materials import ensure_subject

        with friendly_errors(), _connect() as conn:
            ensure_subject(conn, subject, title)
            conn.commit()
        console.print(f"subject {subject} ready")

    @subject_app.command("enroll")
    def subject_enroll(
        subject: str = typer.Argument(...),
        user: str = typer.Argument(...),
        role: str = typer.Option("student", help="teacher or student."),
    ) -> None:
        """Enroll a user in a subject (idempotent; updates the role)."""
        from services.common.materials import enroll

        with friendly_errors(), _connect() as conn:
            enroll(conn, subject, user, role)
            conn.commit()
        console.print(f"{user} enrolled in {subject} as {role}")

    @app.command()
    def ingest(
        paths: Annotated[list[Path], typer.Argument(help="Files or folders of course materials.")],
        subject: str = typer.Option(..., "--subject", help="Subject id; must exist."),
        user: str = typer.Option(..., "--user", help="Uploading user; must be enrolled."),
        title: str = typer.Option(
            "", "--title", help="Title (single file only; default: from the file)."
        ),
        visibility: str = typer.Option("subject", "--visibility", help="subject or private."),
        wait: bool = typer.Option(
            False, "--wait", help="Wait for each job's outcome and print a table."
        ),
        timeout: float = typer.Option(600.0, help="Seconds to wait with --wait."),
    ) -> None:
        """Upload originals to storage and publish one IngestJob each."""
        from services.sdk import Client

        files = expand(paths)
        if title and len(files) > 1:
            console.print("[red]error:[/red] --title needs a single file")
            raise typer.Exit(2)
        client = Client()
        jobs = []
        with friendly_errors(), Progress(console=console) as progress:
            task = progress.add_task("uploading", total=len(files))
            for path in files:
                jobs.append(
                    client.upload_and_ingest(
                        path, subject, user, title=title, visibility=visibility, flush=False
                    )
                )
                progress.advance(task)
            client.publisher.flush()
        console.print(f"published {len(jobs)} ingest job(s)")
        if wait:
            wait_for_outcomes(client, jobs, timeout)

    return subject_app


def wait_for_outcomes(client: Client, jobs: list[IngestJob], timeout: float) -> None:
    """Print each job's outcome in a table; exit 1 if any FAILED, 4 if any never came."""
    table = Table("subject", "file", "status", "chunks", "version", "ms", "error")
    failed = 0
    with Progress(console=console) as progress:
        task = progress.add_task("ingesting", total=len(jobs))
        try:
            for outcome in client.wait_for_ingest({j.idempotency_key for j in jobs}, timeout):
                failed += outcome.status == "FAILED"
                table.add_row(
                    outcome.subject_id,
                    outcome.filename,
                    outcome.status,
                    str(outcome.chunk_count),
                    str(outcome.version),
                    str(outcome.duration_ms),
                    outcome.error or "",
                )
                progress.advance(task)
        except TimeoutError as exc:
            console.print(
                f"[red]error:[/red] {exc} — is the ingestor running (`eduanima run ingestor`)?"
            )
            raise typer.Exit(4) from exc
    console.print(table)
    if failed:
        raise typer.Exit(1)


def reread_stored(subject: str | None, wait: bool, timeout: float) -> None:
    """Publish a re-read of every active material (of ``subject``, or of all subjects), each
    as its owner: after an upgrade whose parser or chunker reads some files differently."""
    from psycopg.rows import dict_row

    from services.common import db
    from services.common.blobstore import BlobStore
    from services.common.errors import BlobStoreError
    from services.common.materials import reading_again
    from services.ingestor.settings import IngestionSettings
    from services.sdk import Client

    settings = IngestionSettings()
    client, blobs = Client(settings), BlobStore(settings)
    with friendly_errors(), db.connect(settings) as conn:
        materials = (
            conn.cursor(row_factory=dict_row)
            .execute(
                "SELECT material_id::text AS material_id, subject_id, title, filename,"
                " visibility, material_key, owner_id FROM materials"
                " WHERE is_active AND (%(subject)s::text IS NULL OR subject_id = %(subject)s)"
                " ORDER BY subject_id, material_key",
                {"subject": subject},
            )
            .fetchall()
        )
        jobs, unreadable = [], []
        with Progress(console=console) as progress:
            task = progress.add_task("reading originals", total=len(materials))
            for material in materials:
                try:
                    job = reading_again(conn, material, material["owner_id"], blobs.get)
                except BlobStoreError as exc:  # the others are still read again
                    unreadable.append(f"{material['subject_id']}/{material['filename']}: {exc}")
                else:
                    jobs.append(job)
                    client.publish_ingest_job(job, flush=False)
                progress.advance(task)
        client.publisher.flush()
    console.print(f"published {len(jobs)} re-read job(s)")
    for line in unreadable:
        console.print(f"[red]not read again:[/red] {line}")
    if wait and jobs:
        wait_for_outcomes(client, jobs, timeout)
    if unreadable:
        raise typer.Exit(1)
