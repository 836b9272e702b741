"""``eduanima run`` restarts a service that dies, counting it in the service's health, and
keeps the others running; SIGTERM stops them all."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid

import pytest

from services.common.settings import KafkaSettings
from tools.chaos.fleet import wait_until
from topics.apply import apply_topics

pytestmark = pytest.mark.integration


def report(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def test_a_killed_service_is_restarted_and_its_health_counts_it(kafka_settings, tmp_path):
    kafka = KafkaSettings(
        kafka_bootstrap_servers=kafka_settings.kafka_bootstrap_servers,
        eduanima_topic_prefix=f"{kafka_settings.eduanima_topic_prefix}run{uuid.uuid4().hex[:6]}.",
    )
    apply_topics(kafka)
    env = {
        **os.environ,
        "KAFKA_BOOTSTRAP_SERVERS": kafka.kafka_bootstrap_servers,
        "EDUANIMA_TOPIC_PREFIX": kafka.eduanima_topic_prefix,
        "EDUANIMA_HEALTH_DIR": str(tmp_path),
        "INSTANCE_ID": "one",
        "LOG_LEVEL": "WARNING",
    }
    cli = [sys.executable, "-c", "from services.cli import app; app()", "run", "librarian"]
    supervisor = subprocess.Popen(cli, env=env, stderr=subprocess.PIPE, text=True)
    health = tmp_path / "librarian-one.json"
    try:
        first = wait_until(
            lambda: (
                (r := report(health)) and "assigned_at" in r["stages"].get("librarian", {}) and r
            ),
            60,
            "the librarian to start",
        )
        assert first["restarts"] == 0
        os.kill(first["pid"], signal.SIGKILL)
        second = wait_until(
            lambda: (r := report(health)) and r["pid"] != first["pid"] and r,
            60,
            "the librarian to be restarted",
        )
        assert second["restarts"] == 1 and second["state"] == "running"
        assert supervisor.poll() is None  # the supervisor did not stop with it
        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(timeout=60) == 0
        err = supervisor.stderr.read()
        assert "exited with code -9" in err and "restarted (restart 1)" in err
        assert report(health)["state"] == "stopped"  # the child stopped cleanly too
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
