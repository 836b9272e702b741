"""A message whose handling keeps failing goes to the DLQ and the partition moves on, after
the outcome its producer waits for (an upload FAILED, a question's FINAL answer FAILED); one
that fails because a dependency is down is waited for and never dead-lettered. Real broker
and database, the services' own StageRunners, with a handler made to fail."""

from __future__ import annotations

import threading
import uuid
from collections import Counter

import pytest

from services.common import db
from services.common.errors import DependencyUnavailable
from services.common.events import AnswerEvent, IngestJob, QuestionAsked
from services.common.kafka_io import Publisher, now_ms
from services.common.materials import enroll, ensure_subject
from services.common.stage_runner import POISON_AFTER, Emit, StageRunner
from services.ingestor.app import Ingestor
from services.ingestor.settings import IngestionSettings
from services.librarian import app as librarian_app
from services.librarian import stages as librarian_stages
from services.librarian.settings import LibrarianSettings
from services.professor.app import Professor
from services.professor.settings import ProfessorSettings
from services.reasoning.extractive import ExtractiveLLM
from services.sdk import Client
from services.searcher.app import Searcher
from services.searcher.settings import SearcherSettings
from tools.replay import dead_letters, session_messages
from topics.registry import ANSWERS, QUESTIONS

pytestmark = pytest.mark.integration


def question(session: str, text: str) -> QuestionAsked:
    return QuestionAsked(session, "subject", "user", text, now_ms())


def question_stage(settings, handle, **options) -> StageRunner:
    """A StageRunner over ``questions`` with ``handle``, in a consumer group of its own."""
    return StageRunner(
        settings,
        stage="poison-test",
        group_id=f"poison-test-{uuid.uuid4().hex[:6]}",
        source=QUESTIONS,
        event_type=QuestionAsked,
        handle=handle,
        **options,
    )


def test_a_message_that_always_fails_is_dead_lettered_and_the_ones_behind_it_are_handled(
    isolated_kafka, run_stages
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

    run_stages([question_stage(isolated_kafka, handle)], done=lambda: handled["after"] >= 1)

    assert handled["poison"] == POISON_AFTER
    assert handled["after"] == 1 and handled["before"] >= 1  # (again when in the same batch)
    (letter,) = dead_letters("questions", isolated_kafka)
    assert letter["key"] == session
    assert letter["headers"]["error.class"] == "RuntimeError"
    assert letter["headers"]["error.message"] == "a bug in the stage"
    assert letter["headers"]["stage"] == "poison-test"


def test_a_message_whose_output_its_topic_cannot_take_is_dead_lettered_with_its_outcome(
    isolated_kafka, run_stages
):
    session = str(uuid.uuid4())
    publisher = Publisher(isolated_kafka)
    for text in ("huge", "after"):
        publisher.publish(QUESTIONS, session, question(session, text))
    publisher.flush()
    handled: Counter[str] = Counter()

    def answer(event: QuestionAsked, text: str) -> Emit:
        final = AnswerEvent(event.session_id, 1000, "FINAL", now_ms(), status="FAILED", answer=text)
        return Emit(ANSWERS, event.session_id, final)

    def handle(event: QuestionAsked):
        handled[event.question] += 1
        size = 2_000_000 if event.question == "huge" else 10  # answers take the default 1 MB
        return [answer(event, "x" * size)]

    runner = question_stage(
        isolated_kafka, handle, on_poison=lambda event, exc: [answer(event, f"failed: {exc}")]
    )
    run_stages([runner], done=lambda: handled["after"] >= 1)

    assert handled["huge"] == POISON_AFTER and handled["after"] == 1
    (letter,) = dead_letters("questions", isolated_kafka)
    assert letter["headers"]["error.class"] == "OutputTooLarge"
    assert letter["headers"]["error.message"].startswith("AnswerEvent of 2,000,0")
    answers = [m.event.answer for m in session_messages(session, isolated_kafka)
               if m.topic == "answers"]  # fmt: skip
    assert len(answers) == 2 and answers[0].startswith("failed: AnswerEvent of 2,000,0")
    assert answers[1] == "x" * 10


def test_a_message_that_fails_while_a_dependency_is_down_is_never_dead_lettered(
    isolated_kafka, run_stages
):
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

    run_stages([question_stage(isolated_kafka, handle)], done=succeeded.is_set)

    assert succeeded.is_set() and attempts["while the database restarts"] == POISON_AFTER + 2
    assert dead_letters("questions", isolated_kafka) == []


class IngestorWithABug(Ingestor):
    def ingest(self, conn, job):
        raise RuntimeError("a bug in the ingestor")


def test_an_upload_the_ingestor_always_fails_on_ends_failed_and_waits_in_the_dlq(
    isolated_kafka, service_settings, run_stages, embedder, subject_id
):
    settings = service_settings(IngestionSettings)
    with db.connect(settings) as conn:
        ensure_subject(conn, subject_id)
        enroll(conn, subject_id, "t1", "teacher")
        conn.commit()
    key = f"poison-{uuid.uuid4()}"
    job = IngestJob(
        str(uuid.uuid4()), key, subject_id, "t1", "gs://nowhere/notes.md", "notes.md",
        "text/markdown", "0" * 64, 10, now_ms(),
    )  # fmt: skip
    client = Client(isolated_kafka)
    client.publish_ingest_job(job)
    outcomes = []
    runner = IngestorWithABug(settings, embedder=embedder).runner()
    waiting = threading.Thread(
        target=lambda: outcomes.extend(client.wait_for_ingest({key}, 60)), daemon=True
    )
    waiting.start()
    run_stages([runner], done=lambda: not waiting.is_alive())

    (outcome,) = outcomes
    assert outcome.status == "FAILED" and "a bug in the ingestor" in outcome.error
    with db.connect(settings) as conn:
        row = conn.execute(
            "SELECT status, error FROM ingest_jobs WHERE idempotency_key = %s", (key,)
        ).fetchone()
    assert row[0] == "FAILED" and "replay it once it is fixed" in row[1]
    (letter,) = dead_letters("ingest.jobs", isolated_kafka)
    assert letter["key"] == key and letter["headers"]["error.class"] == "RuntimeError"


class ProfessorWithABug(Professor):
    def on_question(self, q):
        raise RuntimeError("a bug in the planner")


def test_a_question_the_professor_always_fails_on_gets_a_final_failed_answer(
    isolated_kafka, service_settings, run_stages, subject_id
):
    settings = service_settings(ProfessorSettings)
    client = Client(isolated_kafka)
    session = client.ask(subject_id, "student-1", "What is a p-value?")
    finals = []
    plan = ProfessorWithABug(settings, engine=ExtractiveLLM()).runners()[0]
    waiting = threading.Thread(
        target=lambda: finals.extend(e for e in client.follow(session, 60) if e.kind == "FINAL"),
        daemon=True,
    )
    waiting.start()
    run_stages([plan], done=lambda: not waiting.is_alive())

    (final,) = finals
    assert (final.status, final.stop_reason) == ("FAILED", "stage_failed")
    assert "a bug in the planner" in final.answer
    with db.connect(settings) as conn:
        status = conn.execute(
            "SELECT status FROM sessions WHERE session_id = %s", (session,)
        ).fetchone()
    assert status == ("FAILED",)
    (letter,) = dead_letters("questions", isolated_kafka)
    assert letter["key"] == session


class SearcherWithABug(Searcher):
    def on_request(self, req):
        raise RuntimeError("a bug in the searcher")


def librarian_with_a_bug(_result, _engine):
    raise RuntimeError("a bug in the librarian")


@pytest.mark.parametrize(
    "stage, step, dead_letter_topic",
    [("searcher", "search", "search.requests"), ("librarian", "evaluate", "search.results")],
)
def test_a_loop_message_the_searcher_or_librarian_always_fails_on_ends_the_question_failed(
    stage,
    step,
    dead_letter_topic,
    monkeypatch,
    isolated_kafka,
    service_settings,
    run_stages,
    embedder,
    subject_id,
):
    with db.connect(service_settings(ProfessorSettings)) as conn:
        ensure_subject(conn, subject_id)
        enroll(conn, subject_id, "student-1", "student")
        conn.commit()
    searcher_class = SearcherWithABug if stage == "searcher" else Searcher
    if stage == "librarian":
        monkeypatch.setattr(librarian_stages, "handle", librarian_with_a_bug)
    engine = ExtractiveLLM()
    runners = [
        *Professor(service_settings(ProfessorSettings), engine=engine).runners(),
        searcher_class(service_settings(SearcherSettings), embedder=embedder).runner(),
        librarian_app.runner(service_settings(LibrarianSettings), engine=engine),
    ]
    client = Client(isolated_kafka)
    session = client.ask(subject_id, "student-1", "What is a p-value?")
    finals = []
    waiting = threading.Thread(
        target=lambda: finals.extend(e for e in client.follow(session, 90) if e.kind == "FINAL"),
        daemon=True,
    )
    waiting.start()
    run_stages(runners, done=lambda: not waiting.is_alive(), timeout=90)

    (final,) = finals
    assert (final.status, final.stop_reason) == ("FAILED", "stage_failed")
    assert f"while it was doing the {step} step" in final.answer
    assert f"a bug in the {stage}" in final.answer
    with db.connect(service_settings(ProfessorSettings)) as conn:
        row = conn.execute(
            "SELECT status, stop_reason FROM sessions WHERE session_id = %s", (session,)
        ).fetchone()
    assert row == ("FAILED", "stage_failed")
    (letter,) = dead_letters(dead_letter_topic, isolated_kafka)
    assert letter["key"] == session and letter["headers"]["stage"] == stage
