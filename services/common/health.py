"""What a service process says about itself: its dependencies, its stages, its restarts.

The code that knows reports here (stage runners, retry loops); ``start`` writes the
report as JSON to ``<health dir>/<service>-<instance>.json`` every second, atomically,
so that ``eduanima status``, ``eduanima bench soak`` and the fault tests can read it
without talking to the process. A process that never calls ``start`` (a test, the
CLI) keeps the report in memory only.
"""

from __future__ import annotations

import copy
import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

RECENT = 64
_lock = threading.Lock()
_report: dict[str, Any] = {"dependencies": {}, "stages": {}}


def _now() -> float:
    return round(time.time(), 3)


def dependency_down(name: str, exc: BaseException | str) -> None:
    with _lock:
        entry = _report["dependencies"].setdefault(name, {})
        if entry.get("ok", True):
            entry["down_since"] = _now()
            entry["outages"] = entry.get("outages", 0) + 1
        entry.update(ok=False, error=str(exc)[:500], checked_at=_now())


def dependency_ok(name: str) -> None:
    with _lock:
        entry = _report["dependencies"].setdefault(name, {})
        if not entry.get("ok", True):
            entry["recovered_at"] = _now()
        entry.update(ok=True, error=None, checked_at=_now())


def _stage(name: str) -> dict[str, Any]:
    return _report["stages"].setdefault(
        name,
        {"partitions": [], "batches": 0, "messages": 0, "aborted": 0, "first_commit_at": None},
    )


def stage_assigned(stage: str, partitions: list[int]) -> None:
    with _lock:
        _stage(stage).update(partitions=sorted(partitions), assigned_at=_now())


def stage_committed(stage: str, messages: int) -> None:
    with _lock:
        entry = _stage(stage)
        entry["batches"] += 1
        entry["messages"] += messages
        entry["last_commit_at"] = _now()
        if entry["first_commit_at"] is None:
            entry["first_commit_at"] = entry["last_commit_at"]
        # the last few, so that a reader polling the report misses none between two writes
        entry["recent_commits"] = [*entry.get("recent_commits", [])[-(RECENT - 1) :], _now()]


def stage_aborted(stage: str, reason: str) -> None:
    with _lock:
        entry = _stage(stage)
        entry["aborted"] += 1
        entry.update(last_abort=reason[:500], last_abort_at=_now())


def stage_holding(stage: str, inputs: list[dict[str, Any]]) -> None:
    """The test hook holds this batch's transaction open (see ``StageRunner._hold_open``)."""
    with _lock:
        _stage(stage).update(holding=inputs, holding_since=_now())
    write_now()


def snapshot() -> dict[str, Any]:
    with _lock:
        report = copy.deepcopy(_report)
    down = sorted(name for name, d in report["dependencies"].items() if not d.get("ok", True))
    report["status"] = "degraded" if down else "ok"
    report["unavailable"] = down
    return report


def rss_bytes(pid: int | str = "self") -> int | None:
    """Resident set size of a process, from /proc (None where there is no /proc)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


_reporter: Reporter | None = None


def write_now() -> None:
    """Write the report at once (when this process reports to a file at all)."""
    if _reporter is not None:
        _reporter.write()


class Reporter:
    """Writes the report of this process to ``path`` every ``interval`` seconds."""

    def __init__(self, path: Path, identity: dict[str, Any], interval: float = 1.0):
        self.path, self.identity, self.interval = path, identity, interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="health", daemon=True)

    def start(self) -> Reporter:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.write()
        self._thread.start()
        return self

    def write(self) -> None:
        report = {**self.identity, **snapshot(), "rss_bytes": rss_bytes(), "updated_at": _now()}
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps(report, indent=1))
            os.replace(tmp, self.path)
        except OSError as exc:  # a full disk must not take the service down
            logger.warning("cannot write health report %s: %s", self.path, exc)

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self.write()

    def stop(self, state: str = "stopped") -> None:
        self._stop.set()
        self.identity = {**self.identity, "state": state}
        self.write()


def start(
    health_dir: Path, *, service: str, instance: str, restarts: int = 0, interval: float = 1.0
) -> Reporter:
    identity = {
        "service": service,
        "instance": instance,
        "pid": os.getpid(),
        "started_at": _now(),
        "restarts": restarts,
        "state": "running",
    }
    global _reporter
    _reporter = Reporter(health_dir / f"{service}-{instance}.json", identity, interval)
    return _reporter.start()


def read_reports(health_dir: Path) -> list[dict[str, Any]]:
    """Every report in ``health_dir`` (unreadable ones are skipped: a writer may be mid-way)."""
    reports = []
    for path in sorted(health_dir.glob("*.json")):
        try:
            reports.append(json.loads(path.read_text()))
        except (OSError, ValueError):
            continue
    return reports
