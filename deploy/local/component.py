"""One start/wait/stop scaffold for the three local components.

Kafka, PostgreSQL and the GCS emulator differ in how they are installed, launched and
probed, and in nothing else. Each module describes itself as a ``Component``; this
module starts and stops all three the same way: reuse the one this state directory
started, use (with a warning) one that already answers on the port, refuse a port
taken by anything else, launch, wait for readiness with a deadline (failing early,
with the log tail, when the process dies), and stop gracefully.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from deploy.local.process import (
    LocalDeployError,
    describe_foreign,
    log_tail,
    pid_alive,
    port_open,
    refuse_taken_port,
    wait_until,
)


def _nothing() -> None:
    return None


@dataclass(frozen=True)
class Component:
    name: str  # as printed: "Kafka"
    address: str  # as printed: "127.0.0.1:29092"
    port: int
    logs: tuple[Path, ...]  # the first is the one a failed start shows
    timeout_s: float
    ours: Callable[[], bool]  # a process this state directory started is running
    answers: Callable[[], bool]  # something on the port speaks the component's protocol
    launch: Callable[[Console], int | None]  # install, configure, spawn; the pid to watch
    halt: Callable[[], None]  # stop our process gracefully and forget it
    ready: Callable[[], bool] | None = None  # default: ``answers``
    after_start: Callable[[], None] = _nothing  # idempotent set-up (a bucket, a database)
    other_ports: tuple[tuple[int, str], ...] = field(default=())  # (port, what) it also binds
    preflight: Callable[[], None] = _nothing  # refuses to go on (state it cannot use) by raising


def start(component: Component, console: Console) -> None:
    """Start ``component`` unless it runs; no-op for a running one of ours."""
    name = component.name
    component.preflight()
    if component.ours():
        component.after_start()
        return
    if port_open(component.port):
        if not component.answers():
            refuse_taken_port(component.port, name)
        foreign = describe_foreign(component.port)
        console.print(f"[yellow]{name}: {foreign} answers but was not started here; using it")
        component.after_start()
        return
    for port, what in component.other_ports:
        if port_open(port):
            refuse_taken_port(port, what)
    pid = component.launch(console)
    with console.status(f"{name}: waiting on {component.address}…"):
        waited = wait_until(
            component.ready or component.answers,
            timeout_s=component.timeout_s,
            what=name,
            log_file=component.logs[0],
            alive=(lambda: pid_alive(pid)) if pid else (lambda: True),
        )
    component.after_start()
    started = f"pid {pid}, " if pid else ""
    console.print(f"{name}: ready on {component.address} ({started}{waited:.1f} s)")


def stop(component: Component, console: Console) -> None:
    """Stop what this state directory started; data stays on disk."""
    if not component.ours():
        return
    with console.status(f"{component.name}: stopping…"):
        component.halt()
    console.print(f"{component.name}: stopped")


def tail(component: Component, lines: int = 40) -> str:
    return "\n".join(f"--- {path}\n{log_tail(path, lines)}" for path in component.logs)


__all__ = ["Component", "LocalDeployError", "start", "stop", "tail"]
