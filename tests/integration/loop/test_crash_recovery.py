"""30 sessions in flight while the loop's services are SIGKILLed and restarted."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from services.common.kafka_io import codec_for, make_consumer, read_to_end
from services.sdk import Client
from tools.replay import LOOP_TOPICS
from topics.registry import full_name

pytestmark = [pytest.mark.integration, pytest.mark.slow]

QUESTIONS = [
    "中央値とは何ですか？",
    "What is the p-value?",
    "標準誤差とは何ですか？",
    "What is Pearson's correlation coefficient?",
    "中央値と標準誤差の違いは何ですか？",
    "What is the gauge symmetry of quantum chromodynamics?",
]


def committed(kafka, spec, cls):
    consumer = make_consumer(kafka, "audit")
    codec = codec_for(kafka)
    try:
        return [
            codec.decode(cls, m.value())
            for m in read_to_end(
                consumer, full_name(spec, kafka.eduanima_topic_prefix), give_up_after_s=10
            )
        ]
    finally:
        consumer.close()


def test_sigkill_of_every_loop_service_loses_no_session_and_handles_no_iteration_twice(
    service_processes, isolated_kafka, demo_subject
):
    services = ("searcher", "librarian", "professor")
    for name in services:
        service_processes.start(name)
    client = Client(isolated_kafka)
    sessions = [
        client.ask(demo_subject, "student-1", QUESTIONS[i % len(QUESTIONS)]) for i in range(30)
    ]
    rng = random.Random(7)
    for _round in range(6):  # kill one service at a random moment, restart it
        time.sleep(rng.uniform(0.2, 1.2))  # early: the kills land while sessions are in flight
        victim = rng.choice(services)
        service_processes.kill(victim)
        service_processes.start(victim)
    finals = {}
    for session in sessions:
        events = list(client.follow(session, timeout=300))
        finals[session] = events[-1]
    assert all(f.kind == "FINAL" for f in finals.values())
    assert {f.status for f in finals.values()} <= {"ANSWERED", "INSUFFICIENT"}

    by_topic = {spec.name: committed(isolated_kafka, spec, cls) for spec, cls in LOOP_TOPICS}
    results = Counter((r.session_id, r.iteration) for r in by_topic["search.results"])
    assert results and max(results.values()) == 1, "an iteration was searched twice"
    evaluations = Counter((e.session_id, e.iteration) for e in by_topic["evaluations"])
    assert max(evaluations.values()) == 1, "an iteration was evaluated twice"
    final_counts = Counter(a.session_id for a in by_topic["answers"] if a.kind == "FINAL")
    assert all(final_counts[s] == 1 for s in sessions), "a session was answered twice"
