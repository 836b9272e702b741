"""Pure parts of deploy/local: rendered configs, ids, settings, process helpers."""

from __future__ import annotations

import base64
import dataclasses
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from deploy.local import component, kafka, postgres, process
from deploy.local.process import LocalDeployError
from deploy.local.settings import LocalDeploySettings


def _props(text: str) -> dict[str, str]:
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    return dict(line.split("=", 1) for line in lines)


def test_server_properties_bind_loopback_and_forbid_auto_create(tmp_path: Path) -> None:
    props = _props(
        kafka.render_server_properties(kafka_port=1234, controller_port=1235, data_dir=tmp_path)
    )
    assert props["listeners"] == "PLAINTEXT://127.0.0.1:1234,CONTROLLER://127.0.0.1:1235"
    assert props["advertised.listeners"] == "PLAINTEXT://127.0.0.1:1234"
    assert props["controller.quorum.voters"] == "1@127.0.0.1:1235"
    assert props["process.roles"] == "broker,controller"
    assert props["auto.create.topics.enable"] == "false"
    assert props["group.coordinator.rebalance.protocols"] == "classic"
    assert props["group.initial.rebalance.delay.ms"] == "0"
    assert props["offsets.topic.replication.factor"] == "1"
    assert props["transaction.state.log.replication.factor"] == "1"
    assert props["log.dirs"] == str(tmp_path)


def test_cluster_ids_are_16_bytes_url_safe_and_never_start_with_dash() -> None:
    ids = {kafka.new_cluster_id() for _ in range(500)}
    assert len(ids) == 500
    for cluster_id in ids:
        assert len(cluster_id) == 22 and not cluster_id.startswith("-")
        assert len(base64.urlsafe_b64decode(cluster_id + "==")) == 16


def test_postgres_listens_on_loopback_only_with_trust_from_loopback_only() -> None:
    conf = postgres.render_conf(4321)
    assert "listen_addresses = '127.0.0.1'" in conf
    assert "port = 4321" in conf
    rules = [
        line.split() for line in postgres.render_hba().splitlines() if not line.startswith("#")
    ]
    assert rules == [["host", "all", "all", "127.0.0.1/32", "trust"]]


def test_settings_ports_come_from_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("EDUANIMA_HOME", str(tmp_path))
    monkeypatch.setenv("EDUANIMA_KAFKA_PORT", "39092")
    monkeypatch.setenv("EDUANIMA_PG_PORT", "35432")
    monkeypatch.setenv("EDUANIMA_GCS_PORT", "39023")
    settings = LocalDeploySettings()
    assert settings.eduanima_home == tmp_path
    assert settings.kafka_bootstrap == "127.0.0.1:39092"
    assert settings.database_url("x") == "postgresql://eduanima@127.0.0.1:35432/x"
    assert settings.emulator_host == "http://127.0.0.1:39023"


def test_defaults_match_the_service_settings_defaults() -> None:
    from services.common.settings import DatabaseSettings, KafkaSettings, StorageSettings

    local = LocalDeploySettings.model_construct()  # field defaults, no environment
    db_default = DatabaseSettings.model_fields["database_url"].default.get_secret_value()
    assert local.kafka_bootstrap == KafkaSettings.model_fields["kafka_bootstrap_servers"].default
    assert local.database_url() == db_default
    assert local.emulator_host == StorageSettings.model_fields["storage_emulator_host"].default


def test_log_tail_keeps_the_last_lines(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text("\n".join(f"line {i}" for i in range(100)))
    assert process.log_tail(log, 2) == "line 98\nline 99"
    assert "no log file" in process.log_tail(tmp_path / "missing.log")


def test_a_reaped_or_exited_child_is_not_alive() -> None:
    child = subprocess.Popen(["true"])
    child.wait()
    assert not process.pid_alive(child.pid)


def test_detached_process_is_tracked_by_pid_file_and_terminated(tmp_path: Path) -> None:
    pid_file, log = tmp_path / "p.pid", tmp_path / "p.log"
    # The state-dir path in the command line is what read_pid checks against pid reuse.
    argv = [sys.executable, "-c", "import time; time.sleep(300)", str(tmp_path)]
    pid = process.spawn_detached(argv, log_file=log, pid_file=pid_file, cwd=tmp_path, env={})
    assert process.read_pid(pid_file, marker=str(tmp_path)) == pid
    assert process.read_pid(pid_file, marker="some-other-home") is None
    process.terminate(pid, what="sleep", timeout_s=10)
    assert not process.pid_alive(pid)
    assert process.read_pid(pid_file, marker=str(tmp_path)) is None


def test_wait_until_reports_the_log_tail_when_the_deadline_passes(tmp_path: Path) -> None:
    log = tmp_path / "c.log"
    log.write_text("boot\nERROR disk full\n")
    with pytest.raises(LocalDeployError, match="(?s)not ready after.*ERROR disk full"):
        process.wait_until(lambda: False, timeout_s=0.3, what="component", log_file=log)


def test_wait_until_fails_at_once_when_the_process_died(tmp_path: Path) -> None:
    log = tmp_path / "c.log"
    log.write_text("fatal: bad config\n")
    with pytest.raises(LocalDeployError, match="(?s)exited during startup.*bad config"):
        process.wait_until(
            lambda: False, timeout_s=60, what="component", log_file=log, alive=lambda: False
        )


def _http_component(tmp_path: Path, port: int, script: str) -> component.Component:
    """A component whose process is a tiny HTTP server, launched by the scaffold."""
    pid_file, log = tmp_path / "c.pid", tmp_path / "c.log"

    def launch(_console) -> int:
        argv = [sys.executable, "-c", script, str(port), str(tmp_path)]
        return process.spawn_detached(argv, log_file=log, pid_file=pid_file, cwd=tmp_path, env={})

    def halt() -> None:
        pid = process.read_pid(pid_file, marker=str(tmp_path))
        if pid:
            process.terminate(pid, what="server", timeout_s=10)
        pid_file.unlink(missing_ok=True)

    return component.Component(
        name="server",
        address=f"127.0.0.1:{port}",
        port=port,
        logs=(log,),
        timeout_s=20,
        ours=lambda: process.read_pid(pid_file, marker=str(tmp_path)) is not None,
        answers=lambda: process.port_open(port),
        launch=launch,
        halt=halt,
    )


SERVE = (
    "import http.server, sys; "
    "http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), "
    "http.server.BaseHTTPRequestHandler).serve_forever()"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_scaffold_starts_waits_reuses_and_stops(tmp_path: Path) -> None:
    quiet = Console(quiet=True)
    server = _http_component(tmp_path, _free_port(), SERVE)
    component.start(server, quiet)
    assert server.ours() and server.answers()
    pid = process.read_pid(tmp_path / "c.pid", marker=str(tmp_path))
    component.start(server, quiet)  # running: a no-op, the same process
    assert process.read_pid(tmp_path / "c.pid", marker=str(tmp_path)) == pid
    component.stop(server, quiet)
    assert not server.ours() and not process.pid_alive(pid)


def test_the_scaffold_fails_fast_with_the_log_when_the_process_dies(tmp_path: Path) -> None:
    crash = "import sys; print('fatal: no config'); sys.exit(3)"
    server = _http_component(tmp_path, _free_port(), crash)
    with pytest.raises(LocalDeployError, match="(?s)exited during startup.*no config"):
        component.start(server, Console(quiet=True))


def test_the_scaffold_refuses_a_port_taken_by_something_else(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        server = _http_component(tmp_path, squatter.getsockname()[1], SERVE)
        server = dataclasses.replace(server, answers=lambda: False)  # it does not speak HTTP
        with pytest.raises(LocalDeployError, match="is taken"):
            component.start(server, Console(quiet=True))
