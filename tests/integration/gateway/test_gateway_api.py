"""The gateway over HTTP against the real broker, database and GCS emulator.

Each test serves the app with FastAPI's TestClient on a topic prefix of its own
(``isolated_kafka``), so no ingestor or professor of another test consumes what
it publishes; the end-to-end test at the bottom uses the whole ``pipeline``.
"""

from __future__ import annotations

import dataclasses
import json
import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from psycopg.types.json import Jsonb

from services.common.blobstore import BlobStore
from services.common.events import AnswerEvent, Citation, IngestJob, QuestionAsked
from services.common.kafka_io import Publisher, codec_for, make_consumer, now_ms
from services.common.materials import enroll, ensure_subject
from services.gateway.app import create_app
from services.gateway.settings import GatewaySettings
from topics.registry import ANSWERS, INGEST_JOBS, QUESTIONS, TopicSpec, full_name

pytestmark = pytest.mark.integration

TOKENS = "tok-teacher=teacher-1,tok-student=student-1,tok-outsider=outsider-1"
TEACHER, STUDENT, OUTSIDER = (
    {"Authorization": f"Bearer {t}"} for t in ("tok-teacher", "tok-student", "tok-outsider")
)


def gateway_settings(kafka, db_settings, storage_settings, **extra) -> GatewaySettings:
    return GatewaySettings(
        kafka_bootstrap_servers=kafka.kafka_bootstrap_servers,
        eduanima_topic_prefix=kafka.eduanima_topic_prefix,
        database_url=db_settings.database_url,
        storage_emulator_host=storage_settings.storage_emulator_host,
        gcs_bucket=storage_settings.gcs_bucket,
        gateway_tokens=TOKENS,
        **extra,
    )


@pytest.fixture
def course(db_conn, subject_id) -> str:
    ensure_subject(db_conn, subject_id, "Statistics")
    enroll(db_conn, subject_id, "teacher-1", "teacher")
    enroll(db_conn, subject_id, "student-1", "student")
    db_conn.commit()
    return subject_id


@pytest.fixture
def api(isolated_kafka, db_settings, storage_settings) -> Iterator[TestClient]:
    settings = gateway_settings(
        isolated_kafka,
        db_settings,
        storage_settings,
        gateway_session_wait_s=1.0,
        gateway_follow_timeout_s=60.0,
    )
    with TestClient(create_app(settings)) as client:
        yield client


def read_keyed(settings, spec: TopicSpec, key: str, cls):
    """The first event under ``key`` on the topic (from its beginning), decoded."""
    consumer = make_consumer(settings, f"test-{uuid.uuid4()}")
    consumer.subscribe([full_name(spec, settings.eduanima_topic_prefix)])
    try:
        for _ in range(300):
            msg = consumer.poll(0.2)
            if msg is not None and not msg.error() and msg.key() == key.encode():
                return codec_for(settings).decode(
                    cls, msg.value(), msg.topic(), msg.partition(), msg.offset()
                )
        raise AssertionError(f"no message under {key} on {spec.name}")
    finally:
        consumer.close()


def sse_frames(response) -> list[tuple[str, dict]]:
    """(event, data) of each SSE frame in a streamed response, pings left out."""
    frames, event, data = [], None, []
    for line in response.iter_lines():
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:"):
            data.append(line.split(":", 1)[1].removeprefix(" "))
        elif line == "" and data:
            frames.append((event, json.loads("\n".join(data))))
            event, data = None, []
    return frames


# --- questions ------------------------------------------------------------------------------


def test_question_is_published_under_the_token_user(api, isolated_kafka, course):
    response = api.post(
        "/v1/questions",
        json={"subject_id": course, "question": "  What is a p-value?  ", "max_iterations": 3},
        headers=STUDENT,
    )
    assert response.status_code == 202, response.text
    body = response.json()
    session = body["session_id"]
    assert body["events_url"] == f"/v1/sessions/{session}/events"
    asked = read_keyed(isolated_kafka, QUESTIONS, session, QuestionAsked)
    assert (asked.subject_id, asked.user_id) == (course, "student-1")
    assert (asked.question, asked.max_iterations) == ("What is a p-value?", 3)


def test_question_needs_enrollment_in_a_known_subject(api, course):
    outsider = api.post(
        "/v1/questions", json={"subject_id": course, "question": "q?"}, headers=OUTSIDER
    )
    assert outsider.status_code == 403
    assert "not enrolled" in outsider.json()["detail"]
    unknown = api.post(
        "/v1/questions", json={"subject_id": f"{course}-x", "question": "q?"}, headers=STUDENT
    )
    assert unknown.status_code == 404
    assert "unknown subject" in unknown.json()["detail"]


# --- uploads --------------------------------------------------------------------------------


def test_upload_by_an_enrolled_user_lands_in_storage_and_publishes_its_job(
    api, isolated_kafka, storage_settings, course
):
    data = f"# 分散\n\n分散は平均からの偏差の二乗の平均です。{uuid.uuid4()}\n".encode()
    response = api.post(
        f"/v1/subjects/{course}/materials",
        files={"file": ("lecture-3.md", data, "text/markdown")},
        data={"title": "第3回", "visibility": "private"},
        headers=STUDENT,
    )
    assert response.status_code == 202, response.text
    accepted = response.json()
    job = read_keyed(isolated_kafka, INGEST_JOBS, accepted["idempotency_key"], IngestJob)
    assert job.job_id == accepted["job_id"]
    assert (job.subject_id, job.user_id, job.filename) == (course, "student-1", "lecture-3.md")
    assert (job.title, job.visibility, job.size_bytes) == ("第3回", "private", len(data))
    assert BlobStore(storage_settings).get(job.blob_uri) == data

    status = api.get(accepted["status_url"], headers=TEACHER)
    assert status.status_code == 200
    assert status.json()["status"] == "PENDING" and status.json()["job_id"] == job.job_id
    assert api.get(accepted["status_url"], headers=OUTSIDER).status_code == 403
    assert api.get("/v1/ingest/no-such-key", headers=TEACHER).status_code == 404


def test_upload_is_refused_for_outsiders_unknown_subjects_and_empty_files(api, course):
    file = {"file": ("a.md", b"# A\n\ntext\n", "text/markdown")}
    assert (
        api.post(f"/v1/subjects/{course}/materials", files=file, headers=OUTSIDER).status_code
        == 403
    )
    assert (
        api.post(f"/v1/subjects/{course}-x/materials", files=file, headers=TEACHER).status_code
        == 404
    )
    empty = api.post(
        f"/v1/subjects/{course}/materials", files={"file": ("a.md", b"")}, headers=TEACHER
    )
    assert empty.status_code == 422
    assert empty.json()["detail"][0]["msg"] == "the file is empty"


def test_upload_over_the_limit_is_413(isolated_kafka, db_settings, storage_settings, course):
    settings = gateway_settings(isolated_kafka, db_settings, storage_settings, max_upload_bytes=10)
    with TestClient(create_app(settings)) as client:
        response = client.post(
            f"/v1/subjects/{course}/materials",
            files={"file": ("a.txt", b"x" * 11)},
            headers=TEACHER,
        )
    assert response.status_code == 413


# --- sessions and their answer streams --------------------------------------------------------


def record_session(db_conn, session: str, subject: str, user: str, **finished) -> None:
    """The row the professor writes when it plans (and, with ``finished``, when it answers)."""
    db_conn.execute(
        "INSERT INTO sessions (session_id, subject_id, user_id, question, status, answer,"
        " citations, iterations) VALUES (%s, %s, %s, 'What is a p-value?', %s, %s, %s, %s)",
        (
            session,
            subject,
            user,
            finished.get("status", "RUNNING"),
            finished.get("answer"),
            Jsonb(finished.get("citations", [])),
            finished.get("iterations", 0),
        ),
    )
    db_conn.commit()


def test_sse_streams_the_owners_answer_events_in_order(api, isolated_kafka, db_conn, course):
    session, other = str(uuid.uuid4()), str(uuid.uuid4())
    record_session(db_conn, session, course, "student-1")
    citation = Citation(1, "m-1", "講義1", 2, "c-1", "p値は帰無仮説のもとで…")
    events = [
        AnswerEvent(session, 1, "PROGRESS", now_ms(), stage="plan", message="1 task(s)"),
        AnswerEvent(other, 1, "PROGRESS", now_ms(), stage="plan", message="someone else"),
        AnswerEvent(session, 2, "DELTA", now_ms(), stage="answer", delta="p値とは [1]"),
        AnswerEvent(
            session,
            3,
            "FINAL",
            now_ms(),
            stage="answer",
            status="ANSWERED",
            answer="p値とは [1]",
            citations=[citation],
            iterations=1,
        ),
    ]
    publisher = Publisher(isolated_kafka)
    for event in events:
        publisher.publish(ANSWERS, event.session_id, event)
    publisher.flush()

    with api.stream("GET", f"/v1/sessions/{session}/events", headers=STUDENT) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        frames = sse_frames(response)
    assert [kind for kind, _ in frames] == ["progress", "delta", "final"]
    assert {data["session_id"] for _, data in frames} == {session}
    final = frames[-1][1]
    assert final["answer"] == "p値とは [1]"
    assert final["citations"] == [dataclasses.asdict(citation)]


def test_sse_and_session_state_are_for_the_owner_only(api, db_conn, course):
    session = str(uuid.uuid4())
    record_session(
        db_conn,
        session,
        course,
        "student-1",
        status="ANSWERED",
        answer="p値とは [1]",
        iterations=2,
        citations=[
            {
                "n": 1,
                "material_id": "m-1",
                "title": "講義1",
                "page": None,
                "chunk_id": "c-1",
                "snippet": "p値は",
            }
        ],
    )
    assert api.get(f"/v1/sessions/{session}/events", headers=TEACHER).status_code == 403
    assert api.get(f"/v1/sessions/{uuid.uuid4()}/events", headers=STUDENT).status_code == 404
    assert api.get(f"/v1/sessions/{session}", headers=TEACHER).status_code == 403
    assert api.get(f"/v1/sessions/{uuid.uuid4()}", headers=STUDENT).status_code == 404
    view = api.get(f"/v1/sessions/{session}", headers=STUDENT)
    assert view.status_code == 200
    body = view.json()
    assert (body["status"], body["answer"], body["iterations"]) == ("ANSWERED", "p値とは [1]", 2)
    assert body["citations"][0]["title"] == "講義1"
    assert "user_id" not in body


# --- the whole system behind the gateway --------------------------------------------------------


@pytest.mark.slow
def test_question_through_the_gateway_is_answered_with_citations(
    pipeline, demo_subject, db_settings, storage_settings
):
    settings = gateway_settings(
        pipeline.kafka,
        db_settings,
        storage_settings,
        gateway_session_wait_s=60.0,
        gateway_follow_timeout_s=180.0,
    )
    with TestClient(create_app(settings)) as client:
        asked = client.post(
            "/v1/questions",
            headers=STUDENT,
            json={"subject_id": demo_subject, "question": "中央値とは何ですか？"},
        )
        assert asked.status_code == 202, asked.text
        urls = asked.json()
        with client.stream("GET", urls["events_url"], headers=STUDENT) as response:
            frames = sse_frames(response)
        kinds = [kind for kind, _ in frames]
        assert kinds[0] == "progress" and kinds[-1] == "final" and "delta" in kinds
        final = frames[-1][1]
        assert final["status"] == "ANSWERED" and final["citations"]
        view = client.get(urls["session_url"], headers=STUDENT).json()
    assert view["status"] == "ANSWERED"
    assert view["answer"] == final["answer"]
    assert [c["chunk_id"] for c in view["citations"]] == [c["chunk_id"] for c in final["citations"]]


# --- the service process ------------------------------------------------------------------------


def test_gateway_process_serves_until_sigterm_and_exits_cleanly(service_processes):
    import socket

    import httpx
    from tenacity import Retrying, retry_if_exception_type, stop_after_delay, wait_fixed

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    service_processes.env.update(GATEWAY_PORT=str(port), GATEWAY_TOKENS=TOKENS)
    proc = service_processes.start("gateway")
    for attempt in Retrying(
        stop=stop_after_delay(60),
        wait=wait_fixed(0.3),
        reraise=True,
        retry=retry_if_exception_type(httpx.TransportError),
    ):
        with attempt:
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
    assert health.json() == {"status": "ok"}
    refused = httpx.get(f"http://127.0.0.1:{port}/v1/sessions/x", timeout=5)
    assert refused.status_code == 401
    proc.terminate()
    assert proc.wait(timeout=30) == 0
