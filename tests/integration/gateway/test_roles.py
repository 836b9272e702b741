"""Roles on every write path, against the real stack (acceptance 1).

The hijack of the issue, replayed: a student uploads a file named like the teacher's
lecture, through the gateway and as a forged IngestJob straight to Kafka; the teacher's
material stays active and is what other students find. Then a student's token goes to
every route the OpenAPI document marks teacher-only, and each answers 403.
"""

from __future__ import annotations

import dataclasses
import uuid

import httpx
import pytest
from psycopg.types.json import Jsonb

from services.common import db
from services.common.materials import enroll, ensure_subject
from services.gateway_client import GatewayRequestError
from services.searcher.engine import SearchQuery, search

pytestmark = pytest.mark.integration


@pytest.fixture
def course(pipeline, subject_id) -> str:
    with db.connect(pipeline.db) as conn:
        ensure_subject(conn, subject_id, "Regression")
        enroll(conn, subject_id, "teacher-1", "teacher")
        enroll(conn, subject_id, "student-1", "student")
        enroll(conn, subject_id, "student-2", "student")
        conn.commit()
    return subject_id


def stored(client, accepted) -> dict:
    outcome = client.wait_for_ingest(accepted["idempotency_key"], timeout=120)
    assert outcome["status"] == "STORED", outcome
    return outcome


def bm25(pipeline, subject: str, user: str, query: str):
    with db.connect(pipeline.db) as conn:
        return search(conn, SearchQuery(subject, user, [query], query, mode="bm25"), None)


def test_a_student_cannot_replace_or_hide_a_teachers_lecture(
    live_gateway, pipeline, course, tmp_path
):
    teacher, student, other = (
        live_gateway.client(u) for u in ("teacher-1", "student-1", "student-2")
    )
    marker = uuid.uuid4().hex[:8]
    lecture = tmp_path / "lecture-1.md"
    lecture.write_text(
        f"# 第1回 回帰\n\n回帰係数とは、説明変数が1増えたときの目的変数の変化量である。{marker}\n",
        encoding="utf-8",
    )
    kept = stored(teacher, teacher.upload(lecture, course))
    (tmp_path / "fake").mkdir()
    fake = tmp_path / "fake" / "lecture-1.md"
    fake.write_text(
        f"# 第1回 回帰\n\n回帰係数とは、偽の定義で置き換えた文章である。{marker}\n",
        encoding="utf-8",
    )

    # through the gateway: a shared upload is refused, a private note is the student's own
    with pytest.raises(GatewayRequestError) as refused:
        student.upload(fake, course)
    assert refused.value.status == 403 and "teacher" in refused.value.detail
    note = stored(student, student.upload(fake, course, visibility="private"))
    assert note["material_id"] != kept["material_id"]

    # any producer: forged jobs naming the lecture's key end FAILED, nothing stored
    for visibility, key in (("subject", ""), ("private", f"{course}/lecture-1.md")):
        job = pipeline.client.upload(
            fake, course, "student-1", visibility=visibility, storage=pipeline.storage
        )
        job = dataclasses.replace(
            job, job_id=str(uuid.uuid4()), idempotency_key=uuid.uuid4().hex, material_key=key
        )
        pipeline.client.publish_ingest_job(job)
        (outcome,) = pipeline.client.wait_for_ingest({job.idempotency_key}, timeout=120)
        assert outcome.status == "FAILED", outcome
        assert "teacher" in outcome.error or "outside" in outcome.error

    # the lecture is still the one active version, and what another student sees and finds
    listing = other.materials(course)["materials"]
    assert [(m["filename"], m["owner_id"], m["is_active"], m["version"]) for m in listing] == [
        ("lecture-1.md", "teacher-1", True, 1)
    ]
    assert listing[0]["material_id"] == kept["material_id"]
    found = bm25(pipeline, course, "student-2", f"回帰係数 {marker}")
    assert {str(c.material_id) for c in found.candidates} == {kept["material_id"]}
    # the student still has their own note, in their own scope
    mine = bm25(pipeline, course, "student-1", "偽の定義")
    assert note["material_id"] in {str(c.material_id) for c in mine.candidates}


def test_a_students_token_gets_403_from_every_teacher_only_route(
    live_gateway, pipeline, course, tmp_path
):
    teacher = live_gateway.client("teacher-1")
    lecture = tmp_path / "lecture-2.md"
    lecture.write_text(f"# 検定\n\n有意水準とは第一種の誤りの確率の上限である。{uuid.uuid4()}\n")
    material = stored(teacher, teacher.upload(lecture, course))["material_id"]
    session = str(uuid.uuid4())
    with db.connect(pipeline.db) as conn:  # an entry of the unanswered log to try to resolve
        conn.execute(
            "INSERT INTO sessions (session_id, subject_id, user_id, question, status)"
            " VALUES (%s, %s, 'student-2', 'q?', 'INSUFFICIENT')",
            (session, course),
        )
        conn.execute(
            "INSERT INTO unanswered (session_id, subject_id, user_id, question, reason,"
            " missing_tasks) VALUES (%s, %s, 'student-2', 'q?', 'max_iterations', %s)",
            (session, course, Jsonb(["q"])),
        )
        conn.commit()

    samples = {
        ("/v1/subjects/{subject_id}/enrollments", "post"): {
            "user_id": "student-1",
            "role": "teacher",
        },
        ("/v1/materials/{material_id}/deactivate", "post"): None,
        ("/v1/materials/{material_id}/reactivate", "post"): None,
        ("/v1/materials/{material_id}/reread", "post"): None,
        ("/v1/materials/{material_id}", "delete"): None,
        ("/v1/subjects/{subject_id}/unanswered", "get"): None,
        ("/v1/unanswered/{session_id}/resolve", "post"): {"note": "done"},
        ("/v1/subjects/{subject_id}/search-test", "post"): {"query": "有意水準"},
        ("/v1/subjects/{subject_id}/insights", "get"): None,
    }
    spec = httpx.get(f"{live_gateway.url}/openapi.json", timeout=10).json()
    marked = {
        (path, method)
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
        if "x-eduanima-role" in op
    }
    assert marked == set(samples), "a teacher-only route without a 403 check here"
    ids = {"subject_id": course, "material_id": material, "session_id": session}
    headers = {"Authorization": f"Bearer {live_gateway.token('student-1')}"}
    answers = {}
    for (path, method), body in samples.items():
        url = live_gateway.url + path.format(**ids)
        response = httpx.request(method, url, json=body, headers=headers, timeout=30)
        answers[(path, method)] = response.status_code
    # and the write every student may attempt: publishing a shared material
    upload = httpx.post(
        f"{live_gateway.url}/v1/subjects/{course}/materials",
        files={"file": ("x.md", b"# x\n\ny\n")},
        data={"visibility": "subject"},
        headers=headers,
        timeout=30,
    )
    answers[("upload shared", "post")] = upload.status_code
    assert answers == dict.fromkeys(answers, 403)

    # nothing changed: the material is active, the entry open, the student still a student
    assert teacher.history(material)[0]["is_active"] is True
    log = teacher.unanswered(course)
    assert [e["session_id"] for g in log["groups"] for e in g["entries"]] == [session]
    roles = {s["subject_id"]: s["role"] for s in live_gateway.client("student-1").subjects()}
    assert roles[course] == "student"
