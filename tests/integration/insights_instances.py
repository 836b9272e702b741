"""The insights service as real processes, for the tests that read its views."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any

from services.common.settings import KafkaSettings


@dataclass
class InsightsInstances:
    """The insights service as ``python -m services.insights`` children, one per instance
    index (web port ``base_port + index``), on one topic prefix."""

    kafka: KafkaSettings
    base_port: int
    procs: dict[int, subprocess.Popen] = field(default_factory=dict)
    logs: dict[int, Any] = field(default_factory=dict)
    log_level: str = "WARNING"

    def url(self, index: int = 0) -> str:
        return f"http://127.0.0.1:{self.base_port + index}"

    def start(self, index: int = 0) -> subprocess.Popen:
        env = {
            **os.environ,
            "KAFKA_BOOTSTRAP_SERVERS": self.kafka.kafka_bootstrap_servers,
            "EDUANIMA_TOPIC_PREFIX": self.kafka.eduanima_topic_prefix,
            "INSIGHTS_WEB_PORT": str(self.base_port),
            "INSTANCE_INDEX": str(index),
            "INSIGHTS_LAG_INTERVAL_S": "1",
            "INSIGHTS_SESSION_TIMEOUT_S": "6",
            "LOG_LEVEL": self.log_level,
        }
        # a file, not a pipe: nobody reads it while the process runs, and a full pipe blocks
        log = tempfile.NamedTemporaryFile(prefix=f"insights-{index}-", suffix=".log")
        proc = subprocess.Popen(
            [sys.executable, "-m", "services.insights"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        self.procs[index] = proc
        self.logs[index] = log
        return proc

    def log_tail(self, index: int) -> str:
        log = self.logs[index]
        log.seek(0)
        return log.read().decode(errors="replace")[-3000:]

    def stop(self, index: int = 0, sig: int = signal.SIGTERM) -> int:
        proc = self.procs.pop(index)
        if proc.poll() is None:
            proc.send_signal(sig)
        try:
            return proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise AssertionError(
                f"insights {index} ignored {sig!r}:\n{self.log_tail(index)}"
            ) from None

    def get(self, path: str, index: int = 0) -> dict:
        import httpx

        proc = self.procs.get(index)
        if proc is not None and proc.poll() is not None:
            raise AssertionError(
                f"insights {index} exited with {proc.returncode}:\n{self.log_tail(index)}"
            )
        reply = httpx.get(self.url(index) + path, timeout=10)
        reply.raise_for_status()
        return reply.json()

    def wait_for(self, path: str, check, index: int = 0, timeout: float = 90) -> dict:
        """The view at ``path`` once ``check(view)`` holds (and it covers every partition)."""
        import httpx
        from tenacity import Retrying, retry_if_exception_type, stop_after_delay, wait_fixed

        last: dict = {}
        for attempt in Retrying(
            stop=stop_after_delay(timeout),
            wait=wait_fixed(0.3),
            reraise=True,
            retry=retry_if_exception_type((httpx.TransportError, AssertionError)),
        ):
            with attempt:
                last = self.get(path, index)
                assert last.get("complete"), f"not every partition answered: {last.get('coverage')}"
                assert check(last), f"not yet: {_brief(last)}"
        return last

    def stop_all(self) -> None:
        for index in list(self.procs):
            self.stop(index)
        for log in self.logs.values():
            log.close()


def _brief(view: dict) -> dict:
    keys = ("questions", "finished", "answered", "insufficient", "failed", "coverage")
    return {k: view[k] for k in keys if k in view}
