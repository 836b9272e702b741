"""``eduanima run``, ``ask``, ``replay``, ``fence``, ``dlq``."""

from __future__ import annotations

import signal
import socket
import sys
from typing import Annotated

import typer

from services.cli.common import console, fail, friendly_errors, print_json

SERVICES = ("ingestor", "searcher", "librarian", "professor", "gateway", "insights")


def final_as_json(event) -> dict:
    import dataclasses

    return {
        "session_id": event.session_id,
        "status": event.status,
        "answer": event.answer,
        "citations": [dataclasses.asdict(c) for c in event.citations],
        "iterations": event.iterations,
        "stop_reason": event.stop_reason,
    }


def render(event, as_json: bool) -> None:
    """Progress lines on stderr, the answer streamed on stdout; --json prints only the final."""
    if as_json:
        if event.kind == "FINAL":
            print_json(final_as_json(event))
        return
    if event.kind == "PROGRESS":
        console.print(f"[dim]· {event.stage}: {event.message}[/dim]")
    elif event.kind == "DELTA":
        sys.stdout.write(event.delta)
        sys.stdout.flush()
    else:
        sys.stdout.write("\n")
        if event.status != "ANSWERED" and not event.citations:
            console.print(
                f"[yellow]{event.status}[/yellow]: {event.answer}"
                if event.status == "FAILED"
                else ""
            )
        for c in event.citations:
            page = f" p.{c.page}" if c.page is not None else ""
            sys.stdout.write(f"[{c.n}] {c.title}{page} — “{c.snippet[:120]}”\n")
        console.print(
            f"[bold]{event.status}[/bold] after {event.iterations} iteration(s)"
            f" ({event.stop_reason})"
        )


def _print_dead_letter(row: dict) -> None:
    """One dead letter on a line: where it sits, its key, and the error that sent it there."""
    console.print(
        f"{row['dlq']}[{row['partition']}]@{row['offset']} key={row['key']} "
        f"{row['headers'].get('error.class')}: {row['headers'].get('error.message')}",
        markup=False,
        highlight=False,
    )


def register(app: typer.Typer) -> None:
    dlq_app = typer.Typer(
        help="Dead-letter topics: list what failed, replay it after a fix.", no_args_is_help=True
    )
    app.add_typer(dlq_app, name="dlq")

    @app.command()
    def run(
        services: Annotated[
            list[str] | None,
            typer.Argument(help=f"Any of {', '.join(SERVICES)}; default all."),
        ] = None,
        instances: int = typer.Option(
            1, min=1, help="Processes per service (they share its partitions)."
        ),
    ) -> None:
        """Run services until Ctrl-C; one that exits on its own is restarted (with backoff)."""
        import threading

        from services.common.supervisor import Supervisor, children_for

        chosen = services or list(SERVICES)
        unknown = set(chosen) - set(SERVICES)
        if unknown:
            console.print(f"[red]error:[/red] unknown service(s): {', '.join(sorted(unknown))}")
            raise typer.Exit(2)
        # one name per process, the same on every run: see KafkaSettings.instance_id
        children = children_for(chosen, instances, socket.gethostname())
        supervisor = Supervisor(children, say=lambda line: console.print(f"[yellow]{line}"))
        console.print(
            f"running {', '.join(chosen)} ({len(children)} process(es)); Ctrl-C stops;"
            " a service that exits is restarted"
        )
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        try:
            supervisor.run(stop)
        except KeyboardInterrupt:
            supervisor.stop_all()

    @app.command()
    def ask(
        question: str = typer.Argument(..., help="The question, in Japanese or English."),
        subject: str = typer.Option(..., "--subject", help="Subject (course) id."),
        user: str = typer.Option(..., "--user", help="The asking user; must be enrolled."),
        follow: bool = typer.Option(
            True, "--follow/--no-follow", help="Stream progress and the answer."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print only the final event, as JSON."),
        timeout: float = typer.Option(
            120.0, "--timeout", help="Seconds to wait for the final answer."
        ),
        direct: bool = typer.Option(
            False, "--direct", help="Run the loop in this process, without Kafka."
        ),
        max_iterations: int | None = typer.Option(
            None, help="At most this many search iterations (≤ 5)."
        ),
    ) -> None:
        """Ask a question and stream the cited answer."""
        if direct:
            from services.loop_runtime import direct_loop, question_event

            with friendly_errors():
                loop, close = direct_loop()
                try:
                    event = None
                    for event in loop.events(
                        question_event(subject, user, question, max_iterations, timeout)
                    ):
                        render(event, as_json)
                finally:
                    close()
            if event is None or event.status != "ANSWERED":
                raise typer.Exit(3)
            return
        from services.sdk import Client

        client = Client()
        try:
            session_id = client.ask(
                subject,
                user,
                question,
                max_iterations=max_iterations,
                timeout_ms=int(timeout * 1000),
            )
        except ValueError as exc:
            console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2) from exc
        if not follow and not as_json:
            print(session_id)
            return
        console.print(f"[dim]session {session_id}[/dim]")
        final = None
        try:
            for event in client.follow(session_id, timeout=timeout + 10):
                render(event, as_json)
                final = event
        except TimeoutError as exc:
            console.print(f"[red]error:[/red] {exc} — are the services running (`eduanima run`)?")
            raise typer.Exit(4) from exc
        if final is None or final.status != "ANSWERED":
            raise typer.Exit(3)

    @app.command()
    def replay(
        session_id: str = typer.Argument(..., help="The session to trace."),
        as_json: bool = typer.Option(False, "--json", help="One JSON object per message."),
        check: bool = typer.Option(
            False,
            "--check",
            help="Re-run the pure stages on the recorded inputs and compare decisions.",
        ),
    ) -> None:
        """Every message of one session, across all loop topics, in order."""
        from tools.replay import check_decisions, session_messages

        messages = session_messages(session_id)
        if not messages:
            console.print(f"no messages for session {session_id}")
            raise typer.Exit(1)
        for m in messages:
            if as_json:
                print_json(m.as_dict())
            else:
                console.print(m.summary(), markup=False, highlight=False)
        if check:
            mismatches = check_decisions(messages)
            for line in mismatches:
                console.print(f"[red]differs:[/red] {line}")
            console.print(f"replay check: {len(mismatches)} difference(s)")
            if mismatches:
                raise typer.Exit(1)

    @app.command()
    def fence(
        stage: str = typer.Argument(
            ..., help="ingestor, searcher, librarian, professor.plan or professor.conduct."
        ),
        instance: str = typer.Argument(
            ..., help="The INSTANCE_ID of the instance gone for good (`eduanima status`)."
        ),
    ) -> None:
        """Abort the transaction a stage instance killed for good left open.

        Until the broker times it out (15 minutes), no reader gets past it and the
        questions behind it wait; this ends it now, as the instance's restart would. A
        running instance of that ID is fenced too, and restarts."""
        from confluent_kafka import KafkaException

        from services.common.settings import KafkaSettings
        from tools.fence import fence as fence_instance

        try:
            fenced = fence_instance(KafkaSettings(), stage, instance)
        except ValueError as exc:
            raise fail(exc) from exc
        except KafkaException as exc:  # the broker is away: nothing was fenced
            raise fail(f"Kafka: {exc.args[0].str()}", code=1) from exc
        console.print(f"fenced {fenced}: its open transaction, if any, is aborted")

    @dlq_app.command("list")
    def dlq_list(
        topic: str | None = typer.Argument(
            None, help="Source topic, e.g. ingest.jobs; default all."
        ),
        as_json: bool = typer.Option(False, "--json"),
    ) -> None:
        """Dead letters with their error headers."""
        from tools.replay import dead_letters

        rows = dead_letters(topic)
        for row in rows:
            if as_json:
                print_json(row)
            else:
                _print_dead_letter(row)
        console.print(f"{len(rows)} dead letter(s)")

    @dlq_app.command("replay")
    def dlq_replay(
        topic: str = typer.Argument(..., help="Source topic whose dead letters go back to it."),
        dry_run: bool = typer.Option(
            False, "--dry-run", help="List what would be re-published; change nothing."
        ),
        as_json: bool = typer.Option(False, "--json"),
    ) -> None:
        """Re-publish dead letters to their source topic (after a fix), original bytes and key.

        Each dead letter is replayed once: the replay remembers how far it got (a consumer
        group of its own), so running it again re-publishes only newer dead letters."""
        from tools.replay import replay_dead_letters

        try:
            rows = replay_dead_letters(topic, dry_run=dry_run)
        except ValueError as exc:
            raise fail(exc) from exc
        for row in rows:
            if as_json:
                print_json({k: v for k, v in row.items() if k != "value"})
            else:
                _print_dead_letter(row)
        verb = "would re-publish" if dry_run else "re-published"
        console.print(f"{verb} {len(rows)} message(s) to {topic}")
