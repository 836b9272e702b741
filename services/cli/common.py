"""Helpers every CLI module shares: a console, error handling, JSON output."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console

from services.common.errors import EduanimaError

console = Console(stderr=True)


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Project errors become one red line and exit code 1, not a traceback."""
    try:
        yield
    except EduanimaError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from exc


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")
