"""Running a service: its stage runners in threads, until a signal or a crash.

A crash in any runner stops the whole process (non-zero exit): its
uncommitted batch is redone by whichever member of the group takes over,
and ``eduanima run`` (``services.common.supervisor``) starts it again. A
dependency that is down is not a crash: the runners wait it out.
"""

from __future__ import annotations

import faulthandler
import logging
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from services.common import health
from services.common.blas import limit_blas_threads
from services.common.settings import KafkaSettings, RuntimeSettings

logger = logging.getLogger(__name__)


class Runner(Protocol):
    """A StageRunner, or another loop of the service's (the professor's sweep)."""

    stage: str

    def run(self, stop: threading.Event) -> None: ...


def run_runners(runners: Sequence[Runner], stop: threading.Event) -> None:
    failures: list[BaseException] = []

    def guarded(runner: Runner) -> None:
        try:
            runner.run(stop)
        except BaseException as exc:  # noqa: BLE001 - reported below, then the process exits
            failures.append(exc)
            stop.set()

    threads = [
        threading.Thread(target=guarded, args=(r,), name=r.stage, daemon=True) for r in runners
    ]
    for t in threads:
        t.start()
    for t in threads:
        # Never an untimed join: Python runs signal handlers in the main thread only, and a
        # SIGTERM the kernel hands to another thread does not wake a main thread blocked in
        # one, so the stop would wait for the next wake-up (seen: a scaled-in searcher
        # that ignored its SIGTERM for 60 s).
        while t.is_alive():
            t.join(0.5)
    if failures:
        raise failures[0]


def main(name: str, run: Callable[[threading.Event], None]) -> None:
    """Entry point of ``python -m services.<name>``: logs, signals, health, exit code."""
    from services.common.logs import configure_logging

    configure_logging()
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    # `kill -USR1 <pid>`: every thread's stack on stderr, for a service that seems stuck
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    runtime = RuntimeSettings()
    limit_blas_threads(runtime.blas_threads)
    reporter = health.start(
        runtime.health_dir,
        service=name,
        instance=KafkaSettings().instance_id,
        restarts=runtime.eduanima_restarts,
    )
    logger.info("starting %s (restart %d)", name, runtime.eduanima_restarts)
    try:
        run(stop)
    except Exception:
        logger.exception("%s crashed", name)
        reporter.stop("crashed")
        sys.exit(1)
    reporter.stop("stopped")
    logger.info("%s stopped", name)
