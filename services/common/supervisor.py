"""``eduanima run``'s supervisor: service processes that are restarted when they exit.

A service that exits on its own (a crash, a fenced stage, an OOM kill) is started
again after a backoff (1 s doubling to 30 s; back to 1 s once it has run for a
minute), with a log line and ``EDUANIMA_RESTARTS`` set so that its health report
shows the count. The others keep running: one crash never takes the deployment
down. Only ``stop`` ends them all.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

logger = logging.getLogger(__name__)

FIRST_DELAY_S = 1.0
MAX_DELAY_S = 30.0
STABLE_AFTER_S = 60.0


@dataclass
class Child:
    """One service process, and what the supervisor knows of its past."""

    service: str
    env: dict[str, str]
    proc: subprocess.Popen | None = None
    restarts: int = 0
    started_at: float = 0.0
    restart_at: float | None = None
    delay: float = FIRST_DELAY_S
    exits: list[int] = field(default_factory=list)

    @property
    def label(self) -> str:
        instance = self.env.get("INSTANCE_ID")
        return f"{self.service}[{instance}]" if instance else self.service


Spawn = Callable[[Child], subprocess.Popen]


def spawn_module(child: Child) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", f"services.{child.service}"], env=child.env)


class Supervisor:
    def __init__(
        self,
        children: list[Child],
        *,
        spawn: Spawn = spawn_module,
        first_delay_s: float = FIRST_DELAY_S,
        max_delay_s: float = MAX_DELAY_S,
        stable_after_s: float = STABLE_AFTER_S,
        say: Callable[[str], None] | None = None,
    ):
        self.children = children
        self._spawn = spawn
        self.first_delay_s, self.max_delay_s = first_delay_s, max_delay_s
        self.stable_after_s = stable_after_s
        self._say = say or logger.warning
        for child in children:
            child.delay = first_delay_s

    def _start(self, child: Child, now: float) -> None:
        child.env = {**child.env, "EDUANIMA_RESTARTS": str(child.restarts)}
        child.proc = self._spawn(child)
        child.started_at = now
        child.restart_at = None

    def start_all(self) -> None:
        for child in self.children:
            self._start(child, time.monotonic())

    def tend(self, now: float | None = None) -> None:
        """Notice exits, schedule restarts, start what is due. Call it often."""
        now = time.monotonic() if now is None else now
        for child in self.children:
            if child.restart_at is not None:
                if now >= child.restart_at:
                    child.restarts += 1
                    self._start(child, now)
                    self._say(f"{child.label}: restarted (restart {child.restarts})")
                continue
            code = child.proc.poll() if child.proc is not None else None
            if code is None:
                continue
            ran = now - child.started_at
            child.delay = (
                self.first_delay_s
                if ran >= self.stable_after_s
                else min(self.max_delay_s, child.delay * 2 if child.exits else child.delay)
            )
            child.exits.append(code)
            child.restart_at = now + child.delay
            self._say(
                f"{child.label} exited with code {code} after {ran:.1f} s; "
                f"restarting in {child.delay:.1f} s"
            )

    def run(self, stop: threading.Event, interval: float = 0.2) -> None:
        self.start_all()
        try:
            while not stop.wait(interval):
                self.tend()
        finally:
            self.stop_all()

    def stop_all(self, timeout: float = 30.0) -> list[int]:
        """SIGTERM every running child, wait for them; SIGKILL what outlives ``timeout``."""
        running = [c.proc for c in self.children if c.proc is not None and c.proc.poll() is None]
        for proc in running:
            proc.send_signal(signal.SIGTERM)
        codes = []
        deadline = time.monotonic() + timeout
        for proc in running:
            try:
                codes.append(proc.wait(timeout=max(0.1, deadline - time.monotonic())))
            except subprocess.TimeoutExpired:
                proc.kill()
                codes.append(proc.wait())
        return codes


def children_for(
    services: list[str], instances: int, host: str, env: dict[str, str] | None = None
) -> list[Child]:
    """One child per (service, instance); several instances are named ``<host>-<i>`` and get
    their index (insights offsets its web port by it)."""
    base = dict(os.environ if env is None else env)
    return [
        Child(
            name,
            {**base, "INSTANCE_ID": f"{host}-{i}", "INSTANCE_INDEX": str(i)}
            if instances > 1
            else dict(base),
        )
        for name in services
        for i in range(instances)
    ]
