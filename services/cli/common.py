"""Helpers every CLI module shares: a console, error handling, JSON output."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

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


def progress_bars() -> Progress:
    """The progress bars of long commands (on stderr, so --json output stays clean)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )


def fail(exc: Exception, code: int = 2) -> typer.Exit:
    """Print ``exc`` as one red line; raise the returned Exit."""
    console.print(f"[red]error:[/red] {exc}")
    return typer.Exit(code=code)


def eval_home() -> Path:
    """Where ``eduanima eval fetch`` puts the public QA sets: EDUANIMA_HOME/eval."""
    from services.common.settings import HomeSettings

    return HomeSettings().eduanima_home / "eval"


def dataset_or_default(dataset: Path | None, name: str) -> Path:
    """``--dataset`` when given, else the fetched ``name`` under EDUANIMA_HOME/eval."""
    path = dataset or eval_home() / name
    if not (path / "queries.jsonl").is_file():
        hint = (
            "run `eduanima eval fetch` first, or pass --dataset DIR"
            if dataset is None
            else "a dataset folder holds queries.jsonl (and corpus.jsonl or materials/)"
        )
        raise fail(ValueError(f"no dataset at {path}: {hint}"))
    return path
