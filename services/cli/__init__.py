"""The ``eduanima`` command line. Each area's commands live in a module of this package."""

from __future__ import annotations

import typer

from services.cli import infra, loop, materials

app = typer.Typer(
    name="eduanima",
    help="Event-driven agentic RAG over course materials (Kafka + PostgreSQL).",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)
bench_app = typer.Typer(help="Benchmarks: each writes JSON (with the machine noted) under bench-results/.",
                        no_args_is_help=True)
eval_app = typer.Typer(help="Retrieval and answer evaluations on datasets like ../shared/eval/*.",
                       no_args_is_help=True)
app.add_typer(bench_app, name="bench")
app.add_typer(eval_app, name="eval")

infra.register(app, bench_app)
materials.register(app, bench_app)
loop.register(app, bench_app, eval_app)

try:  # the search engine's commands (search, eval retrieval, bench search)
    from services.cli import search as _search

    _search.register(app, bench_app, eval_app)
except ImportError:  # pragma: no cover - while the module is being written
    pass
