"""A stage killed inside a transaction leaves it open; its restart must close it at once.

Until an open transaction ends, read_committed consumers see nothing past its first
record on that partition. Kafka only ends it when the same transactional ID starts
again (or after transaction.timeout.ms, 15 minutes here). So the ID must survive
the restart: it is derived from the stage and ``INSTANCE_ID``, never random.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from confluent_kafka import TopicPartition

from services.common.kafka_io import make_consumer, make_producer
from services.common.settings import KafkaSettings
from services.librarian.app import runner as librarian_runner
from services.librarian.settings import LibrarianSettings
from topics.registry import EVALUATIONS, full_name

pytestmark = pytest.mark.integration

# The librarian's shell, killed after its batch's output reached the broker but before commit.
CRASH_MID_TRANSACTION = """
import sys, time
from services.reasoning.extractive import ExtractiveLLM
from services.librarian.app import runner
from services.librarian.settings import LibrarianSettings
r = runner(LibrarianSettings(), engine=ExtractiveLLM())
r.producer.init_transactions(30)
r.producer.begin_transaction()
r.producer.produce(sys.argv[1], key=b"s", value=b"half of a batch", partition=0)
r.producer.flush(10)
print("open", flush=True)
time.sleep(600)
"""


def visible(settings: KafkaSettings, topic: str, wait_s: float) -> list[bytes]:
    consumer = make_consumer(settings, "zombie-audit")  # read_committed
    consumer.assign([TopicPartition(topic, 0, 0)])
    seen: list[bytes] = []
    deadline = time.monotonic() + wait_s
    try:
        while time.monotonic() < deadline and not seen:
            msg = consumer.poll(0.5)
            if msg is not None and not msg.error():
                seen.append(msg.value())
    finally:
        consumer.close()
    return seen


def commit_behind(settings: KafkaSettings, topic: str) -> None:
    """Another producer's record, committed behind the open transaction on partition 0."""
    other = make_producer(settings, transactional_id=f"{settings.eduanima_topic_prefix}other")
    other.init_transactions(30)
    other.begin_transaction()
    other.produce(topic, key=b"t", value=b"committed later", partition=0)
    other.commit_transaction(30)


def test_a_restarted_stage_ends_the_transaction_its_killed_self_left_open(
    isolated_kafka, monkeypatch
):
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", isolated_kafka.kafka_bootstrap_servers)
    monkeypatch.setenv("EDUANIMA_TOPIC_PREFIX", isolated_kafka.eduanima_topic_prefix)
    monkeypatch.setenv("INSTANCE_ID", "zombie-test")
    topic = full_name(EVALUATIONS, isolated_kafka.eduanima_topic_prefix)
    crashed = subprocess.Popen(
        [sys.executable, "-c", CRASH_MID_TRANSACTION, topic], stdout=subprocess.PIPE
    )
    assert crashed.stdout.readline().strip() == b"open"
    crashed.kill()
    crashed.wait()

    commit_behind(isolated_kafka, topic)
    assert visible(isolated_kafka, topic, wait_s=4) == [], (
        "the open transaction should hold it back"
    )

    restarted = librarian_runner(LibrarianSettings())
    assert restarted.transactional_id.endswith("librarian-zombie-test")
    restarted.producer.init_transactions(30)  # what StageRunner.run does first
    assert visible(isolated_kafka, topic, wait_s=10) == [b"committed later"]
    restarted.consumer.close()


def test_instances_of_a_stage_get_their_own_stable_transactional_ids(monkeypatch):
    monkeypatch.setenv("INSTANCE_ID", "host-1")
    first, again = librarian_runner(LibrarianSettings()), librarian_runner(LibrarianSettings())
    monkeypatch.setenv("INSTANCE_ID", "host-2")
    second = librarian_runner(LibrarianSettings())
    assert first.transactional_id == again.transactional_id != second.transactional_id
    for r in (first, again, second):
        r.consumer.close()


def test_fence_ends_the_transaction_of_an_instance_that_never_comes_back(
    isolated_kafka, monkeypatch
):
    from confluent_kafka import KafkaException
    from typer.testing import CliRunner

    from services.cli import app as cli
    from services.common.stage_runner import transactional_id

    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", isolated_kafka.kafka_bootstrap_servers)
    monkeypatch.setenv("EDUANIMA_TOPIC_PREFIX", isolated_kafka.eduanima_topic_prefix)
    topic = full_name(EVALUATIONS, isolated_kafka.eduanima_topic_prefix)
    gone_id = transactional_id(isolated_kafka.eduanima_topic_prefix, "librarian", "gone-1")
    gone = make_producer(isolated_kafka, transactional_id=gone_id)
    gone.init_transactions(30)
    gone.begin_transaction()
    gone.produce(topic, key=b"s", value=b"half of a batch", partition=0)
    gone.flush(10)
    commit_behind(isolated_kafka, topic)
    assert visible(isolated_kafka, topic, wait_s=4) == [], "the open one should hold it back"

    result = CliRunner().invoke(cli, ["fence", "librarian", "gone-1"])
    assert result.exit_code == 0, result.output
    assert gone_id in result.output
    assert visible(isolated_kafka, topic, wait_s=10) == [b"committed later"]
    with pytest.raises(KafkaException):  # the instance's producer is the one fenced
        gone.commit_transaction(10)


def test_fence_refuses_a_stage_that_does_not_exist(isolated_kafka, monkeypatch):
    from typer.testing import CliRunner

    from services.cli import app as cli

    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", isolated_kafka.kafka_bootstrap_servers)
    result = CliRunner().invoke(cli, ["fence", "planner", "host-1"])
    assert result.exit_code == 2
    assert "unknown stage 'planner'" in result.output and "professor.plan" in result.output
