"""``eduanima materials …``, ``unanswered``, ``subject list``: a user's commands, through the
gateway with the user's token (EDUANIMA_TOKEN or --token), so the gateway enforces roles.

Unlike ``subject create|enroll``, ``ingest`` and ``search`` (operator commands that talk to
the database and Kafka directly), these act as the token's user and nothing more.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from services.cli.common import console, print_json
from services.cli.materials import expand

GatewayOption = Annotated[
    str | None,
    typer.Option(
        "--gateway", help="Gateway URL (default EDUANIMA_GATEWAY_URL or the local gateway)."
    ),
]
TokenOption = Annotated[
    str | None, typer.Option("--token", help="Bearer token (default EDUANIMA_TOKEN).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def client(gateway: str | None, token: str | None):
    from services.common.settings import GatewayClientSettings
    from services.gateway_client import GatewayClient

    settings = GatewayClientSettings()
    secret = token or (
        settings.eduanima_token.get_secret_value() if settings.eduanima_token else ""
    )
    if not secret:
        console.print("[red]error:[/red] no token: pass --token or set EDUANIMA_TOKEN")
        raise typer.Exit(2)
    return GatewayClient(gateway or settings.base_url, secret)


def call(fn, *args, **kwargs) -> Any:
    """A gateway call; its refusal (401, 403, 404 …) becomes one red line and exit 1."""
    from services.gateway_client import GatewayRequestError

    try:
        return fn(*args, **kwargs)
    except GatewayRequestError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from exc


def report(gw, accepted: dict[str, Any], wait: bool) -> bool:
    """Print an accepted ingest job, or with ``wait`` its outcome; True when it FAILED."""
    if not wait:
        console.print(f"{accepted['filename']}: accepted ({accepted['job_id']})")
        return False
    outcome = call(gw.wait_for_ingest, accepted["idempotency_key"])
    error = f" — {outcome['error']}" if outcome.get("error") else ""
    console.print(f"{accepted['filename']}: {outcome['status']}{error}")
    return outcome["status"] == "FAILED"


def materials_table(rows: list[dict[str, Any]], title: str = "") -> Table:
    table = Table(title=title or None)
    for column in (
        "material",
        "title",
        "file",
        "v",
        "active",
        "visibility",
        "owner",
        "chunks",
        "ingest",
        "updated",
    ):
        table.add_column(column)
    for m in rows:
        table.add_row(
            m["material_id"],
            m["title"],
            m["filename"],
            str(m["version"]) + (f"/{m['versions']}" if m.get("versions") else ""),
            "yes" if m["is_active"] else "no",
            m["visibility"],
            m["owner_id"],
            str(m["chunk_count"]),
            m["ingest_status"],
            str(m["updated_at"])[:19],
        )
    return table


def register(app: typer.Typer, subject_app: typer.Typer) -> None:
    materials_app = typer.Typer(
        help="Materials of a subject, as the token's user (teachers manage them).",
        no_args_is_help=True,
    )
    app.add_typer(materials_app, name="materials")

    @subject_app.command("list")
    def subject_list(
        gateway: GatewayOption = None, token: TokenOption = None, as_json: JsonOption = False
    ) -> None:
        """The subjects I am enrolled in, with my role."""
        with client(gateway, token) as gw:
            rows = call(gw.subjects)
        if as_json:
            print_json(rows)
            return
        table = Table("subject", "title", "role")
        for row in rows:
            table.add_row(row["subject_id"], row["title"], row["role"])
        console.print(table)

    @materials_app.command("list")
    def materials_list(
        subject: Annotated[str, typer.Option("--subject", "-s", help="Subject id.")],
        gateway: GatewayOption = None,
        token: TokenOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Each document (its active version, else its latest) and uploads in flight."""
        with client(gateway, token) as gw:
            listing = call(gw.materials, subject)
        if as_json:
            print_json(listing)
            return
        console.print(materials_table(listing["materials"], f"{subject} (you: {listing['role']})"))
        for upload in listing["uploads"]:
            console.print(
                f"upload {upload['filename']} by {upload['user_id']}: {upload['status']}"
                + (f" — {upload['error']}" if upload["error"] else "")
            )

    @materials_app.command("history")
    def materials_history(
        material: Annotated[str, typer.Argument(help="Any version's material id.")],
        gateway: GatewayOption = None,
        token: TokenOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Every version of the material's document, newest first."""
        with client(gateway, token) as gw:
            rows = call(gw.history, material)
        if as_json:
            print_json(rows)
            return
        console.print(materials_table(rows, rows[0]["material_key"] if rows else ""))

    def change(
        action: str, material: str, gateway: str | None, token: str | None, as_json: bool
    ) -> None:
        with client(gateway, token) as gw:
            row = call(getattr(gw, action), material)
        if as_json:
            print_json(row)
        else:
            state = "active" if row["is_active"] else "inactive"
            console.print(f"{row['title']} v{row['version']} ({row['material_id']}): {state}")

    @materials_app.command("deactivate")
    def materials_deactivate(
        material: Annotated[str, typer.Argument(help="The version's material id.")],
        gateway: GatewayOption = None,
        token: TokenOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Take the version out of search at once (rows and file stay; reactivate undoes it)."""
        change("deactivate", material, gateway, token, as_json)

    @materials_app.command("reactivate")
    def materials_reactivate(
        material: Annotated[str, typer.Argument(help="The version's material id.")],
        gateway: GatewayOption = None,
        token: TokenOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Make the version its document's active one again."""
        change("reactivate", material, gateway, token, as_json)

    @materials_app.command("reread")
    def materials_reread(
        materials: Annotated[
            list[str] | None, typer.Argument(help="Active versions' material ids.")
        ] = None,
        subject: Annotated[
            str | None,
            typer.Option(
                "--subject", "-s", help="Instead of ids: every active material here you may change."
            ),
        ] = None,
        wait: Annotated[bool, typer.Option("--wait", help="Wait for each ingest outcome.")] = False,
        gateway: GatewayOption = None,
        token: TokenOption = None,
    ) -> None:
        """Read materials again with today's parser and chunker (after a parser change): a
        new version where the chunks come out different, DUPLICATE where they do not."""
        if bool(materials) == bool(subject):
            console.print("[red]error:[/red] give material ids or --subject, not both")
            raise typer.Exit(2)
        failed = 0
        with client(gateway, token) as gw:
            if subject:
                listing, me = call(gw.materials, subject), call(gw.me)
                materials = [
                    m["material_id"]
                    for m in listing["materials"]
                    if m["is_active"]
                    and (m["owner_id"] == me if m["visibility"] == "private"
                         else listing["role"] == "teacher")
                ]  # fmt: skip
                console.print(f"{len(materials)} material(s) to read again in {subject}")
            for material in materials or []:
                failed += report(gw, call(gw.reread, material), wait)
        if failed:
            raise typer.Exit(1)

    @materials_app.command("delete")
    def materials_delete(
        material: Annotated[str, typer.Argument(help="Any version's material id.")],
        yes: Annotated[
            bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")
        ] = False,
        gateway: GatewayOption = None,
        token: TokenOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Delete the document: every version, its chunks and its original files."""
        with client(gateway, token) as gw:
            if not yes:
                typer.confirm(f"delete every version of material {material}?", abort=True)
            deleted = call(gw.delete, material)
        if as_json:
            print_json(deleted)
            return
        console.print(
            f"deleted {deleted['material_key']}: {len(deleted['deleted_versions'])} version(s),"
            f" {deleted['deleted_blobs']} file(s)"
        )

    @materials_app.command("upload")
    def materials_upload(
        paths: Annotated[list[Path], typer.Argument(help="Files, or folders of course materials.")],
        subject: Annotated[str, typer.Option("--subject", "-s", help="Subject id.")],
        private: Annotated[
            bool,
            typer.Option("--private", help="A note only you see (a student's upload must be one)."),
        ] = False,
        title: Annotated[str, typer.Option(help="Title (single file only).")] = "",
        wait: Annotated[bool, typer.Option("--wait", help="Wait for each ingest outcome.")] = False,
        gateway: GatewayOption = None,
        token: TokenOption = None,
    ) -> None:
        """Upload files through the gateway (shared materials: teachers only); a folder
        gives the material files inside it."""
        files = expand(paths)
        if title and len(files) > 1:
            console.print("[red]error:[/red] --title needs a single file")
            raise typer.Exit(2)
        if not files:
            console.print("[red]error:[/red] no material files to upload")
            raise typer.Exit(2)
        failed = 0
        with client(gateway, token) as gw:
            for path in files:
                accepted = call(
                    gw.upload,
                    path,
                    subject,
                    title=title,
                    visibility="private" if private else "subject",
                )
                failed += report(gw, accepted, wait)
        if failed:
            raise typer.Exit(1)

    @app.command("unanswered")
    def unanswered(
        subject: Annotated[str, typer.Option("--subject", "-s", help="Subject id.")],
        include_resolved: Annotated[
            bool, typer.Option("--all", help="Resolved entries too.")
        ] = False,
        resolve: Annotated[
            str | None, typer.Option("--resolve", help="Mark this session's entry resolved.")
        ] = None,
        note: Annotated[str, typer.Option(help="With --resolve: what was done.")] = "",
        gateway: GatewayOption = None,
        token: TokenOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Questions the materials could not answer, grouped by missing task (teachers)."""
        with client(gateway, token) as gw:
            if resolve:
                entry = call(gw.resolve, resolve, note)
                console.print(f"resolved: {entry['question']}")
                return
            log = call(gw.unanswered, subject, include_resolved=include_resolved)
        if as_json:
            print_json(log)
            return
        console.print(f"{log['total']} unanswered question(s) in {subject}")
        for group in log["groups"]:
            console.print(f"\n[bold]missing: {group['task']}[/bold] ({group['count']})")
            for entry in group["entries"]:
                done = " [green](resolved)[/green]" if entry["resolved_at"] else ""
                console.print(
                    f"  {str(entry['created_at'])[:16]} {entry['user_id']}: {entry['question']}"
                    f"{done}  [dim]{entry['session_id']}[/dim]"
                )
                for p in entry["best_passages"][:2]:
                    page = f" p.{p['page']}" if p.get("page") is not None else ""
                    console.print(
                        f"    [dim]closest: {p['title']}{page} — {p['snippet'][:80]}[/dim]"
                    )
