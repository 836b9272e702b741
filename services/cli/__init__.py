"""The ``eduanima`` command line. Each area's commands live in a module of this package."""

from __future__ import annotations

import typer

from services.cli import bench, evaluation, infra, insights, loop, materials, search, teaching

app = typer.Typer(
    name="eduanima",
    help="Event-driven agentic RAG over course materials (Kafka + PostgreSQL).",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)
app.add_typer(bench.app, name="bench")
app.add_typer(evaluation.app, name="eval")
infra.register(app)
teaching.register(app, materials.register(app))
loop.register(app)
search.register(app)
insights.register(app)
