"""A session no evaluation ever comes back for (here: no searcher runs) ends FAILED once its
deadline and the grace have passed, once; a loop that answers after all replaces it. Real
broker and database, the professor's own stages and sweep."""

from __future__ import annotations

import threading
import time

import pytest

from services.common import db
from services.common.events import Evaluation, SearchRequest
from services.common.kafka_io import Publisher, now_ms
from services.common.materials import enroll, ensure_subject
from services.professor.app import Professor
from services.professor.settings import ProfessorSettings
from services.professor.sweep import StalledSessionSweep
from services.reasoning.extractive import ExtractiveLLM
from services.sdk import Client
from tools.replay import session_messages
from topics.registry import EVALUATIONS

pytestmark = pytest.mark.integration

TIMEOUT_MS = 1_000
GRACE_S = 1.0


def session_row(settings, session: str):
    with db.connect(settings) as conn:
        return conn.execute(
            "SELECT status, stop_reason, (extract(epoch FROM deadline_at) * 1000)::bigint"
            " FROM sessions WHERE session_id = %s",
            (session,),
        ).fetchone()


def run_while(runner, settings, session: str, condition, timeout: float = 60.0):
    """Run ``runner`` until the session's row meets ``condition``; return the row."""
    stop = threading.Event()
    thread = threading.Thread(target=runner.run, args=(stop,), daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    row = session_row(settings, session)
    while not (row and condition(row)) and time.monotonic() < deadline:
        time.sleep(0.1)
        row = session_row(settings, session)
    stop.set()
    thread.join(30)
    return row


def test_a_session_nothing_comes_back_for_ends_failed_once_and_a_late_answer_replaces_it(
    isolated_kafka, db_settings, storage_settings, subject_id
):
    settings = ProfessorSettings(
        kafka_bootstrap_servers=isolated_kafka.kafka_bootstrap_servers,
        eduanima_topic_prefix=isolated_kafka.eduanima_topic_prefix,
        database_url=db_settings.database_url,
        instance_id="sweep-test",
        professor_stall_grace_s=GRACE_S,
    )
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

    run_while(plan, settings, waiting, lambda row: True)
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
    row = run_while(conduct, settings, stalled, lambda row: row[0] != "FAILED")
    assert row[:2] == ("INSUFFICIENT", "complete")
