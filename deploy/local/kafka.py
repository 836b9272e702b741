"""Single-node Apache Kafka 4.0 in KRaft mode, from the broker's Maven artifacts.

Layout under ``$EDUANIMA_HOME/kafka``: ``libs/`` (jars copied by Maven), ``data/`` (log
dirs and KRaft metadata), ``logs/`` (server.log via log4j2, stdout.log from the JVM),
``server.properties`` (rendered on every start, so port changes apply), ``cluster.id``.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import shutil
import subprocess
import uuid
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient
from rich.console import Console

from deploy.local import process
from deploy.local.component import Component
from deploy.local.process import LocalDeployError
from deploy.local.settings import LocalDeploySettings

logger = logging.getLogger(__name__)

NAME = "kafka"
START_TIMEOUT_S = 120.0
POM = "pom.xml"
LOG4J2 = "kafka-log4j2.xml"


@dataclass(frozen=True)
class KafkaPaths:
    root: Path

    @property
    def libs(self) -> Path:
        return self.root / "libs"

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def properties(self) -> Path:
        return self.root / "server.properties"

    @property
    def cluster_id(self) -> Path:
        return self.root / "cluster.id"

    @property
    def pid_file(self) -> Path:
        return self.root / "kafka.pid"

    @property
    def stdout_log(self) -> Path:
        return self.logs / "stdout.log"

    @property
    def server_log(self) -> Path:
        return self.logs / "server.log"

    @property
    def install_marker(self) -> Path:
        return self.libs / ".installed"


def paths(settings: LocalDeploySettings) -> KafkaPaths:
    return KafkaPaths(settings.eduanima_home.resolve() / NAME)


def new_cluster_id() -> str:
    """A KRaft cluster id: 16 random bytes, URL-safe base64 without padding, not starting '-'."""
    while True:
        text = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not text.startswith("-"):
            return text


def render_server_properties(
    *, kafka_port: int, controller_port: int, data_dir: Path, node_id: int = 1
) -> str:
    """``server.properties`` of a combined broker+controller on loopback."""
    props = {
        "process.roles": "broker,controller",
        "node.id": str(node_id),
        # Static voters: the quorum is read from this file on every start, so a restart
        # (even with a changed controller port) needs no stored voter set.
        "controller.quorum.voters": f"{node_id}@127.0.0.1:{controller_port}",
        "listeners": f"PLAINTEXT://127.0.0.1:{kafka_port},CONTROLLER://127.0.0.1:{controller_port}",
        "advertised.listeners": f"PLAINTEXT://127.0.0.1:{kafka_port}",
        "controller.listener.names": "CONTROLLER",
        "inter.broker.listener.name": "PLAINTEXT",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "log.dirs": str(data_dir),
        "num.partitions": "1",
        "offsets.topic.replication.factor": "1",
        "offsets.topic.num.partitions": "10",
        "transaction.state.log.replication.factor": "1",
        "transaction.state.log.min.isr": "1",
        "share.coordinator.state.topic.replication.factor": "1",
        "share.coordinator.state.topic.min.isr": "1",
        "min.insync.replicas": "1",
        # Tests and local runs join groups constantly; do not wait 3 s for more members.
        "group.initial.rebalance.delay.ms": "0",
        # faust/aiokafka speak the classic protocol only.
        "group.coordinator.rebalance.protocols": "classic",
        # Topics are code (topics/ applied by `eduanima topics apply`), never a typo's side effect.
        "auto.create.topics.enable": "false",
        "delete.topic.enable": "true",
        # After a restart the controller refuses the broker's new registration until the old
        # session expires (default 9 s); a short session makes `down` + `up` quick.
        "broker.heartbeat.interval.ms": "500",
        "broker.session.timeout.ms": "3000",
    }
    lines = ["# Rendered by deploy/local on every start; edits here are overwritten."]
    lines += [f"{key}={value}" for key, value in props.items()]
    return "\n".join(lines) + "\n"


def _java() -> str:
    java = shutil.which("java")
    if not java:
        raise LocalDeployError("java not found on PATH; Kafka needs Java 17 or newer")
    return java


def _resource(name: str) -> Path:
    path = Path(str(resources.files("deploy.local") / name))
    if not path.is_file():
        raise LocalDeployError(f"missing packaged file deploy/local/{name}")
    return path


def _pom_digest() -> str:
    return hashlib.sha256(_resource(POM).read_bytes()).hexdigest()


def install(settings: LocalDeploySettings, console: Console) -> None:
    """Copy the broker jars with Maven, unless the same pom was installed already."""
    p = paths(settings)
    digest = _pom_digest()
    if p.install_marker.is_file() and p.install_marker.read_text().strip() == digest:
        return
    mvn = shutil.which("mvn")
    if not mvn:
        raise LocalDeployError("mvn not found on PATH; it installs the Kafka broker jars")
    if p.libs.exists():
        shutil.rmtree(p.libs)
    p.libs.mkdir(parents=True)
    cmd = [
        mvn, "-q", "-B", "-f", str(_resource(POM)), "dependency:copy-dependencies",
        f"-DoutputDirectory={p.libs}", "-DincludeScope=runtime",
    ]  # fmt: skip
    with console.status("Kafka: fetching broker jars with Maven (first run only)…"):
        result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise LocalDeployError(
            f"Maven could not fetch the Kafka jars (exit {result.returncode}):\n"
            f"{(result.stdout + result.stderr)[-4000:]}"
        )
    p.install_marker.write_text(digest + "\n")
    console.print(f"Kafka: {len(list(p.libs.glob('*.jar')))} jars in {p.libs}")


def installed_version(settings: LocalDeploySettings) -> str | None:
    jars = sorted(paths(settings).libs.glob("kafka_2.13-*.jar"))
    if not jars:
        return None
    return jars[0].name.removeprefix("kafka_2.13-").removesuffix(".jar")


def _classpath(p: KafkaPaths) -> str:
    return f"{p.libs}/*"


def _format_storage(settings: LocalDeploySettings, console: Console) -> None:
    p = paths(settings)
    if (p.data / "meta.properties").is_file():
        return
    if not p.cluster_id.is_file():
        p.cluster_id.write_text(new_cluster_id() + "\n")
    cluster_id = p.cluster_id.read_text().strip()
    cmd = [
        _java(), "-cp", _classpath(p), "kafka.tools.StorageTool",
        "format", "-t", cluster_id, "-c", str(p.properties),
    ]  # fmt: skip
    with console.status("Kafka: formatting KRaft storage (first run only)…"):
        result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise LocalDeployError(
            f"kafka StorageTool format failed (exit {result.returncode}):\n"
            f"{(result.stdout + result.stderr)[-4000:]}"
        )


def running_pid(settings: LocalDeploySettings) -> int | None:
    p = paths(settings)
    return process.read_pid(p.pid_file, marker=str(p.properties))


def describe(bootstrap: str, timeout_s: float = 5.0) -> tuple[str, int]:
    """(cluster id, broker count) as the broker reports them."""
    # log_level 0: a probe must not spray librdkafka connection errors; failures raise instead.
    admin = AdminClient({"bootstrap.servers": bootstrap, "socket.timeout.ms": 3000, "log_level": 0})
    try:
        result = admin.describe_cluster(request_timeout=timeout_s).result(timeout=timeout_s + 1)
    except KafkaException as exc:
        raise LocalDeployError(f"Kafka at {bootstrap} did not answer: {exc}") from exc
    return result.cluster_id, len(result.nodes)


def _answers(bootstrap: str) -> bool:
    try:
        describe(bootstrap, timeout_s=3.0)
    except (LocalDeployError, TimeoutError):
        return False
    return True


def _launch(settings: LocalDeploySettings, console: Console) -> int:
    """Install the jars, render the properties, format once, spawn the broker."""
    p = paths(settings)
    install(settings, console)
    p.data.mkdir(parents=True, exist_ok=True)
    p.logs.mkdir(parents=True, exist_ok=True)
    p.properties.write_text(
        render_server_properties(
            kafka_port=settings.eduanima_kafka_port,
            controller_port=settings.eduanima_kafka_controller_port,
            data_dir=p.data,
        )
    )
    _format_storage(settings, console)
    argv = [
        _java(), f"-Xmx{settings.eduanima_kafka_heap}", "-Xms256m", "-XX:+UseG1GC",
        "-Djava.awt.headless=true",
        f"-Dlog4j2.configurationFile={_resource(LOG4J2)}", f"-Dkafka.logs.dir={p.logs}",
        "-cp", _classpath(p), "kafka.Kafka", str(p.properties),
    ]  # fmt: skip
    return process.spawn_detached(
        argv, log_file=p.stdout_log, pid_file=p.pid_file, cwd=p.root, env=dict(os.environ)
    )


def _halt(settings: LocalDeploySettings) -> None:
    pid = running_pid(settings)
    if pid is not None:
        process.terminate(pid, what="Kafka", timeout_s=60.0)
    paths(settings).pid_file.unlink(missing_ok=True)


def component(settings: LocalDeploySettings) -> Component:
    bootstrap = settings.kafka_bootstrap
    return Component(
        name="Kafka",
        address=bootstrap,
        port=settings.eduanima_kafka_port,
        logs=(paths(settings).server_log, paths(settings).stdout_log),
        timeout_s=START_TIMEOUT_S,
        ours=lambda: running_pid(settings) is not None,
        answers=lambda: _answers(bootstrap),
        launch=lambda console: _launch(settings, console),
        halt=lambda: _halt(settings),
        other_ports=((settings.eduanima_kafka_controller_port, "KRaft controller"),),
    )
