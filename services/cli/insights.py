"""``eduanima insights``: the insights service's views on the command line (operator).

Like ``search`` and ``replay`` it reads the system directly: the insights web server has no
authentication of its own (it listens on 127.0.0.1 by default). Teachers see the same
subject view through the gateway and the web console.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import quote

import typer
from rich.table import Table

from services.cli.common import console, print_json


def fetch(url: str, path: str) -> dict[str, Any]:
    import httpx

    try:
        reply = httpx.get(url.rstrip("/") + path, timeout=15)
    except httpx.TransportError as exc:
        console.print(
            f"[red]error:[/red] no insights service at {url} ({exc}); is it running"
            " (`eduanima run insights`)?"
        )
        raise typer.Exit(1) from exc
    if reply.status_code != 200:
        console.print(f"[red]error:[/red] {url}{path} answered {reply.status_code}")
        raise typer.Exit(1)
    return reply.json()


def _ms(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value / 1000:.2f} s" if value >= 1000 else f"{value:.0f} ms"


def _share(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _hour(start_ms: int) -> str:
    return datetime.fromtimestamp(start_ms / 1000, UTC).astimezone().strftime("%m-%d %H:00")


def show_subject(view: dict[str, Any]) -> None:
    console.print(
        f"[bold]{view['subject_id']}[/bold]: {view['questions']} question(s) asked,"
        f" {view['finished']} finished — {view['answered']} answered,"
        f" {view['insufficient']} insufficient, {view['failed']} failed"
        f" (not answered: {_share(view['unanswered_share'])});"
        f" mean iterations {view['mean_iterations'] or '–'};"
        f" latency p50 {_ms(view['latency_ms']['p50'])}, p95 {_ms(view['latency_ms']['p95'])}",
        highlight=False,
    )
    hours = Table(title="Last 24 hours (local time)")
    for column in ("hour", "asked", "answered", "insufficient", "failed", "p50", "p95"):
        hours.add_column(column, justify="left" if column == "hour" else "right")
    for h in view["hourly"]:
        if h["questions"] or h["finished"]:
            hours.add_row(
                _hour(h["start_ms"]),
                str(h["questions"]),
                str(h["answered"]),
                str(h["insufficient"]),
                str(h["failed"]),
                _ms(h["latency_ms"]["p50"]),
                _ms(h["latency_ms"]["p95"]),
            )
    console.print(hours)
    gaps = Table(title="What the materials do not cover (INSUFFICIENT answers)")
    for column in ("topic", "sessions", "latest question"):
        gaps.add_column(column)
    for gap in view["unanswered_topics"]:
        gaps.add_row(gap["keyword"], str(gap["sessions"]), gap["example_question"])
    console.print(gaps)
    materials = Table(title="Materials, by how many answers cite them")
    for column in ("title", "file", "version", "active", "cited"):
        materials.add_column(column)
    for m in view["materials"]:
        materials.add_row(
            m["title"],
            m["filename"],
            "" if m["version"] is None else f"v{m['version']}",
            "yes" if m["active"] else "no",
            str(m["cited"]),
        )
    console.print(materials)


def show_stages(view: dict[str, Any]) -> None:
    table = Table(
        title="Stages: from the input record to the output record",
        caption="what each stage measures: --json, `measures`",
    )
    for column in ("stage", "count", "mean", "p50", "p95", "last hour p95"):
        table.add_column(column, no_wrap=column == "stage")
    for s in view["stages"]:
        table.add_row(
            s["stage"],
            str(s["count"]),
            _ms(s["mean_ms"]),
            _ms(s["p50_ms"]),
            _ms(s["p95_ms"]),
            _ms(s["last_hour"]["p95_ms"]),
        )
    console.print(table)
    lag = Table(title="Consumer lag (committed messages not yet consumed)")
    for column in ("stage", "group", "lag"):
        lag.add_column(column)
    for row in view["consumer_lag"]:
        lag.add_row(row["stage"], row["group"], str(row["lag"]) if row["committed"] else "–")
    console.print(lag)


def register(app: typer.Typer) -> None:
    @app.command()
    def insights(
        subject: Annotated[
            str | None, typer.Argument(help="The subject to show (omit with --stages).")
        ] = None,
        stages: bool = typer.Option(
            False, "--stages", help="Per-stage timings and consumer lag instead of a subject."
        ),
        as_json: bool = typer.Option(
            False, "--json", help="Print the view as one JSON object (top-level `questions`)."
        ),
        url: str | None = typer.Option(
            None, "--url", help="An insights instance (default INSIGHTS_URL or the local one)."
        ),
    ) -> None:
        """Live insights from the streams: a subject's questions, answers, latency, what the
        materials do not cover and which materials answers cite; or (--stages) where time
        goes per stage and how far each consumer is behind."""
        from services.common.settings import InsightsClientSettings

        if stages == (subject is not None):
            console.print("[red]error:[/red] give a SUBJECT, or --stages")
            raise typer.Exit(2)
        base = url or InsightsClientSettings().insights_url
        path = (
            "/insights/stages" if stages else f"/insights/subjects/{quote(subject or '', safe='')}"
        )
        view = fetch(base, path)
        if as_json:
            print_json(view)
        elif stages:
            show_stages(view)
        else:
            show_subject(view)
        if not view.get("complete", True):
            missing = {t: c["missing"] for t, c in view["coverage"].items() if c["missing"]}
            console.print(
                f"[yellow]partial:[/yellow] partitions {missing} did not answer (moving between"
                " instances, or an instance is down); the figures leave them out"
            )
