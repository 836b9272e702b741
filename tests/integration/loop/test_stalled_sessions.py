"""A session no evaluation ever comes back for (here: no searcher runs) ends FAILED once its
deadline and the grace have passed, once; a loop that answers after all replaces it. Real
broker and database, the professor's own stages and sweep."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from types import SimpleNamespace

import pytest

from services.common import db
from services.common.events import AnswerEvent, Evaluation, SearchRequest
from services.common.kafka_io import Publisher, codec_for, make_consumer, now_ms, read_to_end
from services.common.materials import enroll, ensure_subject
from services.professor import sweep as sweep_module
from services.professor.app import Professor
from services.professor.settings import ProfessorSettings
from services.professor.sweep import StalledSessionSweep
from services.reasoning.extractive import ExtractiveLLM
from services.sdk import Client
from tools.replay import session_messages
from topics.registry import ANSWERS, EVALUATIONS, full_name

pytestmark = pytest.mark.integration

TIMEOUT_MS = 1_000
GRACE_S = 1.0


def session_finals(settings) -> list:
    """Every FINAL answer on the answers topic, with its key."""
    topic = full_name(ANSWERS, settings.eduanima_topic_prefix)
    codec, consumer = codec_for(settings), make_consumer(settings, f"finals-{uuid.uuid4()}")
    try:
        messages = list(read_to_end(consumer, topic, give_up_after_s=10))
    finally:
        consumer.close()
    return [
        SimpleNamespace(key=m.key().decode(), event=event)
        for m in messages
        if (event := codec.decode(AnswerEvent, m.value(), m.topic(), m.partition(), m.offset()))
        and event.kind == "FINAL"
    ]


def session_row(settings, session: str):
    with db.connect(settings) as conn:
        return conn.execute(
            "SELECT status, stop_reason, (extract(epoch FROM deadline_at) * 1000)::bigint"
            " FROM sessions WHERE session_id = %s",
            (session,),
        ).fetchone()


def test_a_session_nothing_comes_back_for_ends_failed_once_and_a_late_answer_replaces_it(
    isolated_kafka, service_settings, run_stages, subject_id
):
    settings = service_settings(ProfessorSettings, professor_stall_grace_s=GRACE_S)
    with db.connect(settings) as conn:
        ensure_subject(conn, subject_id)
        enroll(conn, subject_id, "student-1", "student")
        conn.commit()
    professor = Professor(settings, engine=ExtractiveLLM())
    plan, conduct = professor.runners()
    client = Client(isolated_kafka)
    before = now_ms()
    stalled = client.ask(subject_id, "student-1", "What is a p-value?", timeout_ms=TIMEOUT_MS)
    waiting = client.ask(subject_id, "student-1", "What is a median?", timeout_ms=600_000)
    after = now_ms()

    # the two questions may land on different partitions, read in either order: wait for both
    run_stages(
        [plan],
        done=lambda: all(session_row(settings, s) is not None for s in (stalled, waiting)),
    )
    status, _reason, deadline_ms = session_row(settings, stalled)
    assert status == "RUNNING"
    assert before + TIMEOUT_MS <= deadline_ms <= after + TIMEOUT_MS

    sweep = StalledSessionSweep(settings, professor.pool)
    swept: list[str] = []
    give_up = time.monotonic() + 30
    while stalled not in swept and time.monotonic() < give_up:
        swept = sweep.sweep()
        time.sleep(0.2)
    assert stalled in swept
    assert now_ms() >= deadline_ms + GRACE_S * 1000
    assert stalled not in sweep.sweep()  # ended once
    assert session_row(settings, stalled)[:2] == ("FAILED", "stalled")
    assert session_row(settings, waiting)[0] == "RUNNING"  # its deadline is 10 minutes off
    finals = [e for e in client.follow(stalled, 30) if e.kind == "FINAL"]
    assert [(f.status, f.stop_reason) for f in finals] == [("FAILED", "stalled")]
    assert "time limit" in finals[0].answer

    # the iteration the searcher never took comes back after all: the loop's answer stands
    (request,) = [
        m.event for m in session_messages(stalled, isolated_kafka) if m.topic == "search.requests"
    ]
    assert isinstance(request, SearchRequest)
    late = Evaluation(stalled, 0, 0, "COMPLETE", "came back late", request.state)
    publisher = Publisher(isolated_kafka)
    publisher.publish(EVALUATIONS, stalled, late)
    publisher.flush()
    run_stages([conduct], done=lambda: session_row(settings, stalled)[0] != "FAILED")
    assert session_row(settings, stalled)[:2] == ("INSUFFICIENT", "complete")


def test_two_professors_sweeping_at_once_end_each_stalled_session_once(
    isolated_kafka, service_settings, subject_id, monkeypatch
):
    monkeypatch.setattr(sweep_module, "BATCH", 5)  # many small transactions, interleaved
    settings = service_settings(ProfessorSettings, professor_stall_grace_s=0)
    overdue = [f"overdue-{subject_id}-{i}" for i in range(40)]
    with db.connect(settings) as conn:  # RUNNING rows whose deadline passed a minute ago
        for session in overdue:
            conn.execute(
                "INSERT INTO sessions (session_id, subject_id, user_id, question, status,"
                " deadline_at) VALUES (%s, %s, 'student-1', 'q', 'RUNNING',"
                " now() - interval '1 minute')",
                (session, subject_id),
            )
        conn.commit()
    sweeps = [StalledSessionSweep(settings, db.pool(settings)) for _ in range(2)]
    swept: list[list[str]] = [[], []]
    start = threading.Barrier(2)

    def sweep_until_none_left(i: int) -> None:
        start.wait()
        while batch := sweeps[i].sweep():
            swept[i].extend(batch)

    threads = [threading.Thread(target=sweep_until_none_left, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    mine = [s for s in swept[0] + swept[1] if s in overdue]
    assert sorted(mine) == sorted(overdue)  # every one swept, none twice
    finals = Counter(m.key for m in session_finals(isolated_kafka) if m.key in overdue)
    assert set(finals) == set(overdue) and set(finals.values()) == {1}
