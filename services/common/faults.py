"""Waiting out a dependency that is down: backoff, and retrying until it answers.

A service that cannot reach Kafka, PostgreSQL or object storage says so (log and
health) and tries again later; it does not exit. What counts as "down" rather than
a bug is decided by the caller's ``transient`` function, which names the dependency
(``"kafka"``, ``"postgres"``, ``"storage"``) or returns None for anything else.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from services.common import health
from services.common.errors import DependencyUnavailable

logger = logging.getLogger(__name__)
T = TypeVar("T")

Transient = Callable[[BaseException], "str | None"]


class Backoff:
    """Exponential delays with jitter: ``first``, then doubling up to ``cap`` seconds."""

    def __init__(self, first: float = 0.2, cap: float = 5.0, rng: random.Random | None = None):
        self.first, self.cap = first, cap
        self.attempts = 0
        self._rng = rng or random.Random()

    def next(self) -> float:
        delay = min(self.cap, self.first * 2**self.attempts)
        self.attempts += 1
        # ±20 %: instances that failed together do not all retry in the same instant
        return delay * self._rng.uniform(0.8, 1.2)

    def reset(self) -> None:
        self.attempts = 0


def named_dependency(exc: BaseException) -> str | None:
    """The dependency an explicit ``DependencyUnavailable`` in ``exc``'s chain names."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, DependencyUnavailable):
            return current.dependency
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def any_of(*checks: Transient) -> Transient:
    """One ``transient`` function from several: the first that names a dependency wins."""

    def check(exc: BaseException) -> str | None:
        for one in checks:
            found = one(exc)
            if found:
                return found
        return None

    return check


def retry_while_down(
    call: Callable[[], T],
    *,
    what: str,
    transient: Transient,
    stop: threading.Event | None = None,
    deadline_s: float | None = None,
    backoff: Backoff | None = None,
) -> T:
    """``call()`` until it succeeds; transient failures are logged, reported and retried.

    Anything ``transient`` does not recognise propagates at once. ``deadline_s`` bounds
    the waiting (the last failure is re-raised); ``stop`` ends it early the same way.
    """
    backoff = backoff or Backoff()
    started = time.monotonic()
    failed: set[str] = set()
    while True:
        try:
            result = call()
        except Exception as exc:
            dependency = transient(exc)
            if dependency is None:
                raise
            waited = time.monotonic() - started
            if (deadline_s is not None and waited >= deadline_s) or (stop and stop.is_set()):
                raise
            failed.add(dependency)
            delay = backoff.next()
            if deadline_s is not None:
                delay = min(delay, max(0.0, deadline_s - waited))
            health.dependency_down(dependency, exc)
            logger.warning(
                "%s: %s unavailable (attempt %d, %.1f s so far), retrying in %.1f s: %s",
                what,
                dependency,
                backoff.attempts,
                waited,
                delay,
                exc,
            )
            if stop is not None:
                stop.wait(delay)
            else:
                time.sleep(delay)
            continue
        for dependency in failed:
            health.dependency_ok(dependency)
        return result
