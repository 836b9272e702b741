"""Kafka SIGKILLed and restarted, PostgreSQL stopped and restarted, each with sessions in
flight. Every session must end, nothing be duplicated, every service report the outage in
its health and none exit: they wait it out and carry on by themselves."""

from __future__ import annotations

import pytest

from tools.chaos.scenarios import broker_restart, postgres_restart

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def assert_everything_ended_once(result, sessions: int) -> None:
    counts = result.counts
    assert counts["started"] == sessions
    assert counts["lost"] == 0
    assert counts["finished"] + counts["failed"] == sessions
    assert counts["duplicated"] == 0
    assert result.evidence["sessions_in_flight_at_fault"] > 0
    assert result.evidence["service_exits"] == {}  # nobody exited; nobody restarted them


def test_broker_sigkill_and_restart(chaos_stack, private_kafka):
    result = broker_restart(chaos_stack.on_kafka(private_kafka), private_kafka)
    print(result.summary())
    assert_everything_ended_once(result, 20)
    assert result.counts["failed"] == 0
    assert result.evidence["kafka_down_reported_by"] == [
        "librarian-a",
        "professor-a",
        "searcher-a",
    ]
    # a follower (the SDK, as under the SSE endpoint) read its session across the restart
    assert result.evidence["follow_across_the_fault"].startswith("FINAL ")
    assert result.recovery_s is not None


def test_postgres_stop_and_restart(chaos_stack, private_postgres, embedder):
    stack = chaos_stack.on_postgres(private_postgres, embedder)
    result = postgres_restart(stack, private_postgres)
    print(result.summary())
    assert_everything_ended_once(result, 20)
    assert result.counts["failed"] == 0
    assert result.evidence["postgres_down_reported_by"]  # said so in its health
    assert result.recovery_s is not None
