"""``python -m deploy.local up|down|status|logs`` — the same functions ``eduanima up`` calls."""

from __future__ import annotations

import argparse
import logging
import sys

from rich.console import Console
from rich.table import Table

from deploy.local import LocalDeployError, LocalDeploySettings, down, log_tails, status, up


def status_table(settings: LocalDeploySettings) -> tuple[Table, bool]:
    table = Table(title=f"eduanima local infrastructure ({settings.eduanima_home})")
    for column in ("component", "healthy", "address", "version", "detail"):
        table.add_column(column)
    all_healthy = True
    for item in status(settings):
        all_healthy &= item.healthy
        mark = "[green]yes[/green]" if item.healthy else "[red]no[/red]"
        table.add_row(item.name, mark, item.address, item.version, item.detail)
    return table, all_healthy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m deploy.local", description=__doc__)
    parser.add_argument(
        "command",
        choices=["up", "down", "status", "logs"],
        help="up: start (idempotent); down: stop, keep data; status: health table (exit 1 if "
        "any component is unhealthy); logs: tail of every component's log",
    )
    parser.add_argument(
        "--upgrade-postgres",
        action="store_true",
        help="up: first upgrade PostgreSQL data of an older local server in place (pg_upgrade)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    settings = LocalDeploySettings()
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)  # CI logs: do not fold the status table
    try:
        if args.command == "up":
            up(settings, console, upgrade_postgres=args.upgrade_postgres)
        elif args.command == "down":
            down(settings, console)
        elif args.command == "logs":
            console.print(log_tails(settings), markup=False, highlight=False)
            return 0
        table, all_healthy = status_table(settings)
        console.print(table)
        return 0 if all_healthy or args.command == "down" else 1
    except LocalDeployError as exc:
        Console(stderr=True).print(f"[red]error:[/red] {exc}", highlight=False)
        return 2


if __name__ == "__main__":
    sys.exit(main())
