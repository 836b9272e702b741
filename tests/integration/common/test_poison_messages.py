"""A message whose handling keeps failing goes to the DLQ and the partition moves on; one
that fails because a dependency is down is waited for and never dead-lettered. Real broker,
the services' own StageRunner, a handler written to fail."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter

import pytest

from services.common.errors import DependencyUnavailable
from services.common.events import QuestionAsked
from services.common.kafka_io import POISON_AFTER, Publisher, StageRunner, now_ms
from tools.replay import dead_letters
from topics.registry import QUESTIONS

pytestmark = pytest.mark.integration


def question(session: str, text: str) -> QuestionAsked:
    return QuestionAsked(session, "subject", "user", text, now_ms())


def run_stage(settings, handle, done, timeout: float = 60.0) -> None:
    """Run a StageRunner over ``questions`` with ``handle`` until ``done()``."""
    runner = StageRunner(
        settings,
        stage="poison-test",
        group_id=f"poison-test-{uuid.uuid4().hex[:6]}",
        source=QUESTIONS,
        event_type=QuestionAsked,
        handle=handle,
    )
    stop = threading.Event()
    thread = threading.Thread(target=runner.run, args=(stop,), daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline and thread.is_alive():
        time.sleep(0.1)
    stop.set()
    thread.join(30)
    assert not thread.is_alive()


def test_a_message_that_always_fails_is_dead_lettered_and_the_ones_behind_it_are_handled(
    isolated_kafka,
):
    session = str(uuid.uuid4())  # one key: the three share a partition, in order
    publisher = Publisher(isolated_kafka)
    for text in ("before", "poison", "after"):
        publisher.publish(QUESTIONS, session, question(session, text))
    publisher.flush()
    handled: Counter[str] = Counter()

    def handle(event: QuestionAsked):
        handled[event.question] += 1
        if event.question == "poison":
            raise RuntimeError("a bug in the stage")
        return []

    run_stage(isolated_kafka, handle, done=lambda: handled["after"] >= 1)

    assert handled["poison"] == POISON_AFTER
    assert handled["after"] == 1 and handled["before"] >= 1  # (again when in the same batch)
    (letter,) = dead_letters("questions", isolated_kafka)
    assert letter["key"] == session
    assert letter["headers"]["error.class"] == "RuntimeError"
    assert letter["headers"]["error.message"] == "a bug in the stage"
    assert letter["headers"]["stage"] == "poison-test"


def test_a_message_that_fails_while_a_dependency_is_down_is_never_dead_lettered(isolated_kafka):
    session = str(uuid.uuid4())
    publisher = Publisher(isolated_kafka)
    publisher.publish(QUESTIONS, session, question(session, "while the database restarts"))
    publisher.flush()
    attempts = Counter[str]()
    succeeded = threading.Event()

    def handle(event: QuestionAsked):
        attempts[event.question] += 1
        if attempts[event.question] <= POISON_AFTER + 1:
            raise DependencyUnavailable("database", "connection refused")
        succeeded.set()
        return []

    run_stage(isolated_kafka, handle, done=succeeded.is_set)

    assert succeeded.is_set() and attempts["while the database restarts"] == POISON_AFTER + 2
    assert dead_letters("questions", isolated_kafka) == []
