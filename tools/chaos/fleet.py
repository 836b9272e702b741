"""Service processes for fault scenarios, and what their health reports say.

Each member is ``python -m services.<name>`` with its own ``INSTANCE_ID``, its log in a
file, and its health report (``services.common.health``) in the fleet's health directory,
which is how a scenario sees that a stage holds a transaction open, has its partitions,
committed again after a restart, or found a dependency down.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The stages each service runs (a health report lists them once they have partitions).
STAGES = {
    "ingestor": ("ingestor",),
    "searcher": ("searcher",),
    "librarian": ("librarian",),
    "professor": ("professor.plan", "professor.conduct"),
}


def wait_until(condition: Callable[[], Any], timeout: float, what: str, every: float = 0.05):
    """``condition()``'s first truthy value, polled until ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


@dataclass
class Member:
    service: str
    instance: str
    proc: subprocess.Popen
    spawned_at: float  # wall clock, as the health report's times
    log: Path
    health_path: Path

    @property
    def label(self) -> str:
        return f"{self.service}-{self.instance}"

    def report(self) -> dict[str, Any] | None:
        """This process's health report (None until it has written one)."""
        try:
            report = json.loads(self.health_path.read_text())
        except (OSError, ValueError):
            return None
        return report if report.get("pid") == self.proc.pid else None

    def stage(self, name: str) -> dict[str, Any]:
        return ((self.report() or {}).get("stages") or {}).get(name) or {}

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


@dataclass
class Fleet:
    env: dict[str, str]
    workdir: Path
    members: list[Member] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.health_dir = self.workdir / "health"
        self.health_dir.mkdir(parents=True, exist_ok=True)
        (self.workdir / "logs").mkdir(exist_ok=True)

    def start(self, service: str, instance: str = "a", **env: str) -> Member:
        log = self.workdir / "logs" / f"{service}-{instance}-{len(self.members)}.log"
        full_env = {
            **os.environ,
            "LOG_LEVEL": "WARNING",
            **self.env,
            "INSTANCE_ID": instance,
            "EDUANIMA_HEALTH_DIR": str(self.health_dir),
            **env,
        }
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", f"services.{service}"],
                env=full_env,
                stdout=subprocess.DEVNULL,
                stderr=out,
            )
        member = Member(
            service,
            instance,
            proc,
            time.time(),
            log,
            self.health_dir / f"{service}-{instance}.json",
        )
        self.members.append(member)
        return member

    def running(self, service: str | None = None) -> list[Member]:
        return [m for m in self.members if m.alive() and service in (None, m.service)]

    def kill(self, member: Member) -> None:
        """SIGKILL: no shutdown, no commit, no leaving the group."""
        member.proc.send_signal(signal.SIGKILL)
        member.proc.wait(timeout=30)

    def exit_code(self, member: Member, timeout: float = 60) -> int:
        """The exit code of a member already sent SIGTERM. One still running after
        ``timeout`` dumps its threads' stacks into its log (SIGUSR1, see
        ``services.common.service``), and the scenario fails showing them."""
        try:
            return member.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            member.proc.send_signal(signal.SIGUSR1)
            time.sleep(1)
            raise RuntimeError(
                f"{member.service}-{member.instance} still running {timeout:.0f} s after "
                f"SIGTERM; the end of its log:\n{member.log_tail(150)}"
            ) from None

    def stop_all(self) -> None:
        for member in self.running():
            member.proc.terminate()
        for member in self.members:
            try:
                member.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                member.proc.kill()
                member.proc.wait()

    def wait_ready(self, members: list[Member], timeout: float = 90) -> None:
        """Until every stage of each member has been assigned partitions (a stage without any,
        one member of several, still reports that its assignment happened)."""

        def ready() -> bool:
            for m in members:
                if not m.alive():
                    raise RuntimeError(f"{m.label} exited ({m.proc.returncode}):\n{m.log_tail()}")
                if any("assigned_at" not in m.stage(s) for s in STAGES[m.service]):
                    return False
            return True

        wait_until(ready, timeout, "the services to join their groups")


class Sampler:
    """Reads every member's health report every ``every`` seconds, in a thread: when each
    stage committed (the commits seen), and which dependencies a member reported down.

    Reports are written once a second, so a state shorter than that can fall between two
    of them. Commits are read from each stage's recent list; an outage from the count the
    report keeps per dependency. Measured: a searcher held in a wedged
    ``send_offsets_to_transaction`` through a broker restart said "kafka down" only once
    the broker was back, and was up again 120 ms later, between two reports."""

    def __init__(self, fleet: Fleet, every: float = 0.05):
        self.fleet, self.every = fleet, every
        self.commits: dict[str, set[float]] = {}  # stage -> last_commit_at values seen
        self.down: dict[str, set[str]] = {}  # dependency -> members that reported it down
        self._outages: dict[tuple[str, str], int] = {}  # (member, dependency) -> first count
        self.rounds = 0  # sampling rounds done
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="health-sampler", daemon=True)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            for member in list(self.fleet.members):
                report = member.report()
                if not report:
                    continue
                for name, stage in (report.get("stages") or {}).items():
                    self.commits.setdefault(name, set()).update(stage.get("recent_commits", ()))
                for dependency in report.get("unavailable") or []:
                    self.down.setdefault(dependency, set()).add(member.label)
                for dependency, state in (report.get("dependencies") or {}).items():
                    count = state.get("outages", 0)
                    first = self._outages.setdefault((member.label, dependency), count)
                    if count > first:  # down and up again since this sampler first looked
                        self.down.setdefault(dependency, set()).add(member.label)
            self.rounds += 1

    def settle(self, timeout: float = 10) -> None:
        """Until every running member has written its report since now (reports are written
        once a second), and this sampler has read them."""
        now = time.time()

        def fresh() -> bool:
            reports = [m.report() for m in self.fleet.running()]
            return all(r and r.get("updated_at", 0) > now for r in reports)

        wait_until(fresh, timeout, "fresh health reports")
        seen = self.rounds
        wait_until(lambda: self.rounds >= seen + 2, timeout, "a sampling round to read them")

    def first_commit_after(self, stage: str, moment: float) -> float | None:
        later = [t for t in self.commits.get(stage, ()) if t > moment]
        return min(later) if later else None
